"""Games from outside the package: ``module.path:GameClass``, ``path/to/file.py:GameClass``,
and games that installed packages register under the ``negamax.games`` entry-point group.
A game class that takes parameters is named with its arguments, ``file.py:Kalah(3, 3)``,
``module.path:Hex(board_size=5)``, ``registered(pits=4)`` (``negamax.games.parameters``).

A game is an object with the ``Game`` protocol's ``new_position``, ``parse_move`` and
``move_text`` (a ``negamax.CompiledGame`` subclass has them all), or a class whose
instances are one. What it leaves out gets the built-in games' defaults: no symmetries,
the search's own scores, a picture that is the position's ``repr``.

A package registers its games in its ``pyproject.toml``::

    [project.entry-points."negamax.games"]
    othello6 = "mypackage.othello:Othello6"
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Hashable
from pathlib import Path
from typing import Any, cast

from negamax.core.errors import (
    GameDefinitionError,
    IllegalMoveError,
    InvalidPositionError,
    NegamaxError,
    UnknownGameError,
)
from negamax.core.game import Position
from negamax.core.rules import Game
from negamax.core.user_code import register, source_file
from negamax.games.parameters import Call, named, parameters_text, split_call

ENTRY_POINT_GROUP = "negamax.games"
REQUIRED = ("new_position", "parse_move", "move_text")


def is_reference(name: str) -> bool:
    """Whether ``name`` points at an object (``module:Attribute`` or ``file.py:Attribute``,
    with or without arguments; a colon inside the arguments does not count)."""
    if name.lower().startswith("openspiel:"):
        return False
    try:
        base, _ = split_call(name)
    except UnknownGameError:
        base = name  # malformed: load_reference says how, if it is a reference
    return ":" in base


def load_reference(reference: str) -> Game:
    """The game ``module.path:Attribute`` or ``path/to/file.py:Attribute`` names, with the
    arguments it gives the class, if any (``file.py:Kalah(3, seeds=3)``).

    :raises UnknownGameError: if the module, the file or the attribute cannot be found, the
        object is not a game, or the arguments are malformed, do not fit the class, or make
        its constructor raise.
    """
    base, call = split_call(reference)
    location, _, attribute = base.rpartition(":")
    if not location or not attribute:
        raise UnknownGameError(f"{reference!r}: write a game as module.path:GameClass or path/to/file.py:GameClass")
    module = _module_from_file(location, reference) if location.endswith(".py") else _module(location, reference)
    target: Any = module
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise UnknownGameError(f"{reference!r}: {location} has no {attribute!r}") from None
    return as_game(target, base, call, reference)


def entry_point_games() -> dict[str, Any]:
    """The games installed packages register, by name (not loaded yet)."""
    from importlib.metadata import entry_points

    return {entry.name: entry for entry in entry_points(group=ENTRY_POINT_GROUP)}


def load_entry_point(name: str) -> Game | None:
    """The registered game ``name`` (with the arguments it gives the class, if any:
    ``kalah(pits=4)``), or ``None`` if no package registers it."""
    entry = entry_point_games().get(name.partition("(")[0].strip())
    if entry is None:
        return None
    base, call = split_call(name)
    try:
        target = entry.load()
    except Exception as error:
        raise UnknownGameError(
            f"game {base!r} (registered by {entry.value}) cannot be loaded: {type(error).__name__}: {error}"
        ) from None
    file = source_file(inspect.getmodule(target))
    if file is not None:
        register(file)
    return as_game(target, base, call, name)


def as_game(target: Any, name: str, call: Call | None = None, shown: str | None = None) -> Game:
    """``target`` as a game: an instance of a game class (made with ``call``'s arguments),
    the game itself, or a plain position class (``PositionClassGame``: a position is the
    moves from its start). ``name`` names it if it has no name of its own; ``shown`` is how
    the user wrote it, for messages (default: ``name``)."""
    shown = shown or name
    if not inspect.isclass(target):
        if call is not None:
            raise UnknownGameError(
                f"{shown!r}: {name.rpartition(':')[2]} is a game, not a class: it takes no arguments"
            )
        return _as_game_object(target, name)
    arguments, keywords = (call.arguments, call.keywords) if call is not None else ((), {})
    try:
        text = parameters_text(target, arguments, keywords)
    except TypeError as error:
        raise UnknownGameError(f"{shown!r}: {error}") from None
    # named with its parameters, so that two sizes never share a book or a searcher: by its
    # class's name, or, without one, by the reference (which then names it again); a
    # position class by its class, as without parameters
    if _is_position_class(target):
        full_name = named(getattr(target, "name", None) or target.__name__, text)
        return PluginGame(PositionClassGame(target, arguments, keywords, full_name), full_name)
    full_name = named(getattr(target, "name", None) or name, text)
    try:
        game: Any = target(*arguments, **keywords)
    except GameDefinitionError:
        raise
    except Exception as error:
        written = ", ".join([*map(repr, arguments), *(f"{key}={value!r}" for key, value in keywords.items())])
        raise UnknownGameError(
            f"{shown!r}: {target.__name__}({written}) failed ({type(error).__name__}: {error})"
        ) from None
    from negamax.games.compiled_game import CompiledGame

    if isinstance(game, CompiledGame):
        _ = game.rules  # sizes its __init__ set out of range: said now, not at the first position
    # a name the instance made for itself is its own (a CompiledGame names itself so)
    renamed = text and getattr(game, "name", None) in (None, "", getattr(target, "name", None))
    if renamed:
        with contextlib.suppress(AttributeError, TypeError):
            game.name = full_name
    found = _as_game_object(game, full_name)
    if renamed and found.name != full_name:
        found = PluginGame(game, full_name)
        found.name = full_name
    return found


def _as_game_object(target: Any, name: str) -> Game:
    missing = [method for method in REQUIRED if not callable(getattr(target, method, None))]
    if missing:
        hint = ""
        if callable(getattr(target, "legal_moves", None)):
            hint = (
                " (it looks like a position: a position class with legal_moves, play, undo, is_terminal and"
                " evaluate is taken as a game whose positions are the moves from its start)"
            )
        raise UnknownGameError(f"{name!r} is not a game: it has no {', '.join(missing)}{hint}")
    return target if _complete(target) else PluginGame(target, name)


def _is_position_class(target: type) -> bool:
    position_methods = ("legal_moves", "play", "undo", "is_terminal", "evaluate")
    return all(callable(getattr(target, method, None)) for method in position_methods) and not callable(
        getattr(target, "new_position", None)
    )


class PositionClassGame:
    """A plain position class as a game, with a text notation of its own: a position is the
    moves played from the class's start (``PositionClass()``, or with the arguments the
    game's name gives it), each written as it prints (``str(move)``), separated by spaces;
    ``start`` or nothing is the start."""

    def __init__(
        self,
        position_class: type,
        arguments: tuple[Any, ...] = (),
        keywords: dict[str, Any] | None = None,
        name: str = "",
    ) -> None:
        self.position_class = position_class
        self.arguments = arguments
        self.keywords = dict(keywords or {})
        self.name = name or position_class.__name__
        self.evaluation_unit = 1
        self.position_help = (
            f"the moves from {position_class.__name__}()'s start, each as it prints (str(move)), separated by"
            " spaces, or 'start'"
        )

    def new_position(self, text: str | None = None) -> Position[Any]:
        try:
            position: Position[Any] = self.position_class(*self.arguments, **self.keywords)
        except Exception as error:
            raise InvalidPositionError(
                f"{self.name} failed ({type(error).__name__}: {error}); a position class given as a game must"
                " start a game when called with the arguments of its name"
            ) from None
        for word in (text or "").split():
            if word != "start":
                position.play(self.parse_move(position, word))
        return position

    def parse_move(self, position: Position[Any], text: str) -> Hashable:
        moves = list(position.legal_moves())
        for move in moves:
            if str(move) == text:
                return cast(Hashable, move)
        shown = " ".join(_short(str(move)) for move in moves[:20]) or "none: the game is over"
        raise IllegalMoveError(f"{text!r} is not a legal move here; the legal moves: {shown}")

    def move_text(self, position: Position[Any], move: Hashable) -> str:
        return str(move)


def _short(text: str, limit: int = 24) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _complete(game: Any) -> bool:
    names = (
        *("name", "description", "position_help", "solvable", "evaluation_unit"),
        *("position_text", "render", "game_score", "book_key"),
    )
    return all(hasattr(game, attribute) for attribute in (*names, "symmetric_move_text"))


class PluginGame:
    """A game from outside with the defaults it leaves out."""

    def __init__(self, game: Any, name: str) -> None:
        self._game = game
        self.name: str = getattr(game, "name", None) or name
        doc = inspect.getdoc(type(game)) or ""
        self.description: str = getattr(game, "description", None) or (doc.splitlines()[0] if doc else name)
        self.position_help: str = getattr(game, "position_help", None) or "see the game's documentation"
        self.solvable: bool = bool(getattr(game, "solvable", True))
        unit = getattr(game, "evaluation_unit", 1)
        self.evaluation_unit: int = unit if isinstance(unit, int) and not isinstance(unit, bool) and unit > 0 else 1

    def new_position(self, text: str | None = None) -> Position[Any]:
        position: Position[Any] = self._game.new_position(text)
        return position

    def parse_move(self, position: Position[Any], text: str) -> Hashable:
        move: Hashable = self._game.parse_move(position, text)
        return move

    def move_text(self, position: Position[Any], move: Hashable) -> str:
        return str(self._game.move_text(position, move))

    def position_text(self, position: Position[Any]) -> str:
        method = getattr(self._game, "position_text", None)
        return str(method(position)) if method is not None else repr(position)

    def render(self, position: Position[Any]) -> str:
        method = getattr(self._game, "render", None)
        return str(method(position)) if method is not None else repr(position)

    def game_score(self, position: Position[Any], score: int) -> int:
        method = getattr(self._game, "game_score", None)
        return int(method(position, score)) if method is not None else score

    def book_key(self, position: Position[Any]) -> tuple[str, int]:
        method = getattr(self._game, "book_key", None)
        if method is not None:
            key, symmetry = method(position)
            return str(key), int(symmetry)
        return repr(position.key()), 0

    def symmetric_move_text(self, text: str, symmetry: int) -> str:
        method = getattr(self._game, "symmetric_move_text", None)
        return str(method(text, symmetry)) if method is not None else text


def _module(name: str, reference: str) -> Any:
    # the current directory, as ``python -m`` would have it (a console script does not)
    if "" not in sys.path and str(Path.cwd()) not in sys.path:
        sys.path.append(str(Path.cwd()))
    try:
        module = importlib.import_module(name)
        file = getattr(module, "__file__", None)
        if file is not None:
            register(file)  # an error its code raises is named as the user's
        return module
    except NegamaxError:
        raise
    except ModuleNotFoundError as error:
        if error.name is not None and name.startswith(error.name):
            raise UnknownGameError(f"{reference!r}: no module named {error.name!r}") from None
        raise UnknownGameError(f"{reference!r}: importing {name} failed: {error}") from None
    except Exception as error:
        raise UnknownGameError(f"{reference!r}: importing {name} failed: {type(error).__name__}: {error}") from None


def _module_from_file(location: str, reference: str) -> Any:
    path = Path(location).expanduser().resolve()
    if not path.is_file():
        raise UnknownGameError(f"{reference!r}: no file {location}")
    # a name of its own, made from the file's content: the same in every process and every
    # copy of the file (numba's cache of its kernels names the module, so a fresh checkout
    # or a copy elsewhere finds them), and never a module of another name (a chess.py for
    # python-chess) nor another file's
    try:
        content = path.read_bytes()
    except OSError as error:
        raise UnknownGameError(f"{reference!r}: cannot read {location}: {error.strerror or error}") from None
    module_name = f"negamax_game_{path.stem}_{hashlib.sha1(content).hexdigest()[:10]}"
    loaded = sys.modules.get(module_name)
    loaded_file = getattr(loaded, "__file__", None)
    if loaded_file is not None and Path(loaded_file).resolve() == path:
        return loaded
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise UnknownGameError(f"{reference!r}: {location} is not a Python module")
    module = importlib.util.module_from_spec(spec)
    # registered under its name, so that numba's cache and pickling can find its functions,
    # with its directory on the path, so that it can import the modules beside it
    sys.modules[module_name] = module
    register(path)
    register(path.parent)  # the modules beside it are the user's too
    if str(path.parent) not in sys.path:
        sys.path.append(str(path.parent))
    try:
        spec.loader.exec_module(module)
    except NegamaxError:
        del sys.modules[module_name]
        raise
    except Exception as error:
        del sys.modules[module_name]
        raise UnknownGameError(f"{reference!r}: running {location} failed: {type(error).__name__}: {error}") from None
    return module
