"""The game's own code, named in what goes wrong there: an exception a game's method raised
becomes ``Kalah.legal_moves raised KeyError('boom') (kalah.py:42)`` (a
``GameDefinitionError``), and a method that does not return is named where it runs.

A frame is the user's when its file is one a game was loaded from (``register``: a
plug-in's file and the directory beside it), or when it is neither the library's own nor
Python's nor an installed package's (a game class written in a script or a test). The
method named is where the library called into the user's code (the first frame of the
innermost run of the user's frames); the line is the last of the user's frames, where the
exception was raised or passed through.
"""

from __future__ import annotations

import functools
import inspect
import os
import sys
import sysconfig
import types
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from negamax.core.errors import GameDefinitionError, NegamaxError

_LIBRARY = str(Path(__file__).resolve().parents[1]) + os.sep
_USER_PLACES: set[str] = set()
"""Files and directories registered as a user's (a plug-in's module)."""
MAX_SHOWN = 120
"""The longest an exception's text is shown."""


def _system_places() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    places = {paths[name] for name in ("stdlib", "platstdlib", "purelib", "platlib") if name in paths}
    places.update(path for path in sys.path if path.endswith(("site-packages", "dist-packages")))
    return tuple(str(Path(place).resolve()) + os.sep for place in places)


_SYSTEM = _system_places()


def register(path: str | os.PathLike[str]) -> None:
    """Count ``path`` (a plug-in's file, or a directory of its modules) as the user's code
    (the library's own files stay the library's)."""
    resolved = str(Path(path).resolve())
    if not (resolved + os.sep).startswith(_LIBRARY):
        _USER_PLACES.add(resolved)


def is_user_file(filename: str) -> bool:
    """Whether code in ``filename`` is the user's (see the module)."""
    if not filename or filename.startswith("<"):  # <string>, <frozen ...>: no file of the user's
        return False
    resolved = os.path.abspath(filename)
    if resolved in _USER_PLACES or os.path.dirname(resolved) in _USER_PLACES:
        return True
    if resolved.startswith(_LIBRARY):
        return False
    return not resolved.startswith(_SYSTEM)


def place(filename: str, line: int) -> str:
    """``kalah.py:42``."""
    return f"{os.path.basename(filename)}:{line}"


def frames_of(traceback: types.TracebackType | None) -> list[tuple[types.CodeType, int]]:
    """The code and line of each frame of ``traceback``, outermost first."""
    found = []
    while traceback is not None:
        found.append((traceback.tb_frame.f_code, traceback.tb_lineno))
        traceback = traceback.tb_next
    return found


def stack_of(frame: types.FrameType | None) -> list[tuple[types.CodeType, int]]:
    """The code and line of each frame of a running stack, outermost first."""
    found = []
    while frame is not None:
        found.append((frame.f_code, frame.f_lineno))
        frame = frame.f_back
    return found[::-1]


def user_place(frames: Iterable[tuple[types.CodeType, int]]) -> tuple[str, str] | None:
    """Where in the user's code ``frames`` (outermost first) are: the method the library
    called (``Kalah.legal_moves``) and the last user line (``kalah.py:42``), or ``None``
    when no frame is the user's."""
    listed = list(frames)
    user = [is_user_file(code.co_filename) for code, _ in listed]
    if not any(user):
        return None
    last = max(index for index, mine in enumerate(user) if mine)
    first = last
    while first > 0 and user[first - 1]:
        first -= 1
    code, line = listed[last]
    return _qualified(listed[first][0]), place(code.co_filename, line)


def _qualified(code: types.CodeType) -> str:
    return getattr(code, "co_qualname", code.co_name)


def raised_text(error: BaseException) -> str:
    """``KeyError('boom')``, cut short."""
    shown = repr(error)
    return shown if len(shown) <= MAX_SHOWN else shown[: MAX_SHOWN - 4] + "...)"


class UserCodeError(GameDefinitionError):
    """An exception the user's code raised, named (``user_code_error``)."""


def user_code_error(error: BaseException) -> UserCodeError | None:
    """``error`` as the user's mistake, when the user's code raised it (see the module):
    ``Kalah.legal_moves raised KeyError('boom') (kalah.py:42)``; ``None`` for an error of
    the library's own, or one of the library's errors raised by the user's code (passed on
    as it is)."""
    if isinstance(error, NegamaxError) or not isinstance(error, Exception):
        return None
    found = user_place(frames_of(error.__traceback__))
    if found is None:
        return None
    method, where = found
    named = UserCodeError(f"{method} raised {raised_text(error)} ({where})")
    named.__cause__ = error
    return named


def method_place(method: Any) -> str:
    """A position's method as its author would find it: ``Kalah.key (kalah.py:40)``, or
    ``key()`` for one without Python source."""
    function = getattr(method, "__func__", method)
    code = getattr(function, "__code__", None)
    if code is None or not is_user_file(code.co_filename):
        return f"{getattr(function, '__name__', 'method')}()"
    return f"{_qualified(code)} ({place(code.co_filename, code.co_firstlineno)})"


def source_file(target: Any) -> str | None:
    """The file ``target`` (a module, class or function) was defined in, if any."""
    try:
        return inspect.getsourcefile(target)
    except TypeError:
        return None


P = ParamSpec("P")
T = TypeVar("T")


def names_user_errors(function: Callable[P, T]) -> Callable[P, T]:
    """``function`` with an exception the user's code raises turned into the
    ``GameDefinitionError`` that names it (``user_code_error``)."""

    @functools.wraps(function)
    def named(*arguments: P.args, **keywords: P.kwargs) -> T:
        try:
            return function(*arguments, **keywords)
        except Exception as error:
            found = user_code_error(error)
            if found is None:
                raise
            raise found from error

    return named


def check_hashable_key(position: Any) -> None:
    """Refuse a position whose ``key()`` cannot key a table (a list, a dict), naming the
    method, before a search fails on it deep inside.

    :raises GameDefinitionError:
    """
    key = position.key()
    try:
        hash(key)
    except TypeError:
        raise GameDefinitionError(
            f"{method_place(position.key)} returned a {type(key).__name__}, which is not hashable: a key must be"
            " an int, a string, or a tuple of these"
        ) from None
