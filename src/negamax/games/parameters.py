"""Games named with their constructor's arguments: ``path/to/file.py:Kalah(3, 3)``,
``mypkg.games:Hex(board_size=5)``, or a registered game's name with them, ``kalah(pits=4)``.
The same shape as OpenSpiel's names with parameters (``openspiel:hex(board_size=5)``),
with Python's call syntax: positional and keyword arguments, each a literal (a number, a
string in quotes, ``True``, ``False``, ``None``, or a tuple of these), read with ``ast``
and never run.

A game made with arguments is named with them: its own name followed by every parameter
its class takes, defaults included, as keywords (``kalah(pits=3,seeds=3)``), so that two
sizes of one game never share a book, a searcher or a cache entry, and one size always
has one name however it was written.
"""

from __future__ import annotations

import ast
import inspect
from dataclasses import dataclass, field
from typing import Any

from negamax.core.errors import UnknownGameError

LITERAL_TYPES = (bool, int, float, str, type(None))
LITERAL_HELP = "a number, a string in quotes, True, False, None, or a tuple of these"


@dataclass(frozen=True)
class Call:
    """The arguments a game's name gives its class."""

    arguments: tuple[Any, ...] = ()
    keywords: dict[str, Any] = field(default_factory=dict)


def split_call(name: str) -> tuple[str, Call | None]:
    """``name`` without its arguments, and the arguments (``None`` when it has no
    parentheses): ``"kalah.py:Kalah(3, seeds=4)"`` is ``("kalah.py:Kalah", Call((3,), {"seeds": 4}))``.

    :raises UnknownGameError: for arguments that are not a call of literals.
    """
    text = name.strip()
    position = text.find("(")
    if position < 0:
        return text, None
    # the first parenthesis that opens a well-formed call after a name: a directory's name
    # may hold one too (my(games)/kalah.py:Kalah(3))
    problem = ""
    while position >= 0:
        head = text[:position]
        if head and (head[-1].isalnum() or head[-1] == "_"):
            try:
                call = ast.parse("_" + text[position:], mode="eval").body
            except SyntaxError as error:
                problem = problem or error.msg
            else:
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Name):
                    return head.strip(), _read_call(call, name)
                problem = problem or "more than one call"
        position = text.find("(", position + 1)
    problem = problem or "no game's name before them"
    raise UnknownGameError(
        f"{name!r}: malformed arguments ({problem}); write them as in Game(3, size=4), each {LITERAL_HELP}"
    )


def _read_call(call: ast.Call, name: str) -> Call:
    arguments = []
    for number, node in enumerate(call.args, start=1):
        if isinstance(node, ast.Starred):
            raise UnknownGameError(f"{name!r}: write each argument out (no *arguments)")
        arguments.append(_literal(node, f"argument {number}", name))
    keywords: dict[str, Any] = {}
    for keyword in call.keywords:
        if keyword.arg is None:
            raise UnknownGameError(f"{name!r}: write each argument out (no **arguments)")
        keywords[keyword.arg] = _literal(keyword.value, keyword.arg, name)
    return Call(tuple(arguments), keywords)


def _literal(node: ast.expr, which: str, name: str) -> Any:
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        value = _NOT_LITERAL
    if value is _NOT_LITERAL or not _allowed(value):
        raise UnknownGameError(f"{name!r}: {which} ({ast.unparse(node)}) must be {LITERAL_HELP}")
    return value


_NOT_LITERAL = object()


def _allowed(value: Any) -> bool:
    if isinstance(value, tuple):
        return all(_allowed(item) for item in value)
    return isinstance(value, LITERAL_TYPES)


def constructor_signature(cls: type) -> inspect.Signature:
    """The parameters ``cls(...)`` takes: those of the nearest ``__init__`` or ``__new__`` up
    its classes that names them (one taking only ``*args, **kwargs`` passes them on, as
    ``CompiledGame.__new__`` does)."""
    for klass in cls.__mro__:
        if klass is object:
            break
        for method_name in ("__init__", "__new__"):
            method = klass.__dict__.get(method_name)
            if method is None:
                continue
            method = getattr(method, "__func__", method)
            try:
                parameters = list(inspect.signature(method).parameters.values())[1:]
            except (TypeError, ValueError):  # a class of an extension module: it says nothing
                return inspect.Signature(
                    [
                        inspect.Parameter("arguments", inspect.Parameter.VAR_POSITIONAL),
                        inspect.Parameter("keywords", inspect.Parameter.VAR_KEYWORD),
                    ]
                )
            if {parameter.kind for parameter in parameters} <= {
                inspect.Parameter.VAR_POSITIONAL,
                inspect.Parameter.VAR_KEYWORD,
            } and parameters:
                continue
            return inspect.Signature(parameters)
    return inspect.Signature()


def takes_text(cls: type) -> str:
    """What ``cls`` takes, for a message: ``Kalah takes (pits=6, seeds=4)``."""
    parameters = constructor_signature(cls).parameters.values()
    if not parameters:
        return f"{cls.__name__} takes no arguments"
    plain = inspect.Signature([parameter.replace(annotation=inspect.Parameter.empty) for parameter in parameters])
    return f"{cls.__name__} takes {plain}"


def parameters_text(cls: type, arguments: tuple[Any, ...], keywords: dict[str, Any]) -> str:
    """Every parameter ``cls(*arguments, **keywords)`` gets, defaults included, as a name
    writes them (``pits=3,seeds=3``); empty for a class that takes none.

    :raises TypeError: when the arguments do not fit the class (what it takes, and why).
    """
    signature = constructor_signature(cls)
    try:
        bound = signature.bind(*arguments, **keywords)
    except TypeError as error:
        raise TypeError(f"{takes_text(cls)}: {error}") from None
    bound.apply_defaults()
    written: list[str] = []
    for parameter in signature.parameters.values():
        value = bound.arguments[parameter.name]
        if parameter.kind is inspect.Parameter.POSITIONAL_ONLY:
            written.append(literal_text(value))
        elif parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            written.extend(literal_text(item) for item in value)
        elif parameter.kind is inspect.Parameter.VAR_KEYWORD:
            written.extend(f"{key}={literal_text(item)}" for key, item in sorted(value.items()))
        else:
            written.append(f"{parameter.name}={literal_text(value)}")
    return ",".join(written)


def literal_text(value: Any) -> str:
    """``value`` as a name writes it: Python's spelling, without spaces in tuples."""
    if isinstance(value, tuple):
        inner = ",".join(literal_text(item) for item in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value)


def named(base: str, text: str) -> str:
    """A game's name with its parameters (``text`` from ``parameters_text``), if it has any."""
    return f"{base}({text})" if text else base
