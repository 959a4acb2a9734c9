"""Write a game's rules once, as plain functions over an int64 array, and get both the
ordinary position protocol and the compiled search (``negamax.CompiledGame``).

A subclass defines the size of its state, the most moves a position can have, and its
rules as static functions in numba's subset of Python (integers, loops, indexing, and
calls of other plain functions of the same module):

================================  ======================================================
``start(state)``                  set up the first position in a zeroed array
``legal_moves(state, moves)``     write the legal moves (integers >= 0) into ``moves``,
                                  best guess first; return how many
``play(state, move)``             make ``move`` (the opponent is then to move, or
                                  the same player again: see ``player``)
``undo(state, move)``             take back ``move``, the last move played
``outcome(state)``                ``ONGOING``, or the result for the side to move:
                                  ``-WIN`` (it has lost), ``DRAW``, ``WIN`` or a score
``evaluate(state)``               a heuristic score for the side to move
``key(state)``                    an integer identity of the position (below 2**63)
``noisy_moves(state, moves)``     optional: the moves a quiescence search looks at
``canonical_key(state)``          optional: a key shared by symmetric positions
``player(state)``                 optional: 0 or 1, the side to move, where the same
                                  player may move twice (default: the players
                                  alternate, the first to move at the start is 0)
``playout(state, numbers)``       optional: finish the game at random from ``state``
                                  (a copy: change it as you like) with the random
                                  numbers ``numbers`` (``max_moves`` of them, each
                                  from 0 to 2**62 - 1), and return its result for the
                                  side to move, as ``outcome`` would: the playouts of
                                  Monte Carlo tree search then call it instead of
                                  playing random moves (``HasPlayout``)
================================  ======================================================

A game without a meaningful evaluation (Hex) says ``has_evaluation = False`` and may leave
``evaluate`` out: ``search()`` then runs Monte Carlo tree search on it (``algorithm="mcts"``)
unless asked for another algorithm or a depth.

The pure-Python protocol runs the same functions in Python over a NumPy array (for
tracing, teaching and any search option); the compiled search compiles them (numba, on
first use, then from a cache of the game's own). Before compiling, the rules are played
through some random games in Python, so that a broken contract is reported as a
``GameDefinitionError`` naming the rule, instead of a crash inside compiled code.

The text side (``new_position``, ``parse_move``, ``move_text``, ``render``) has defaults
(a position is the moves played from the start, a move is its number) that a subclass may
override like any ``Game`` method.

A game with parameters (a board's size) takes them in its ``__init__``, which sets the
instance's ``state_size`` and ``max_moves``; its ``start`` is then a method,
``start(self, state)``, which writes the parameters into the state, where the compiled
rules read them. The rules' code is the same for every size, so one compiled kernel serves
them all (``negamax.search.compiled.families``). An instance is named with its parameters,
``kalah(pits=3,seeds=3)`` (``negamax.games.parameters``).
"""

from __future__ import annotations

import functools
import inspect
import random
import types
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, ClassVar, Self, cast

import numpy as np

from negamax.core.errors import GameDefinitionError, IllegalMoveError
from negamax.core.game import MOVE_LIST_MAX_MOVES, MOVE_LIST_MOVE_LIMIT, Position
from negamax.core.random_numbers import playout_numbers
from negamax.core.rules import BaseGame, play_move_texts
from negamax.core.score import DRAW, ONGOING, WIN, WIN_THRESHOLD
from negamax.games.parameters import named, parameters_text

RULE_PARAMETERS = {
    "start": ("state",),
    "legal_moves": ("state", "moves"),
    "play": ("state", "move"),
    "undo": ("state", "move"),
    "outcome": ("state",),
    "evaluate": ("state",),
    "key": ("state",),
    "noisy_moves": ("state", "moves"),
    "canonical_key": ("state",),
    "player": ("state",),
    "playout": ("state", "numbers"),
}
REQUIRED = ("start", "legal_moves", "play", "undo", "outcome", "evaluate", "key")
"""The rules every game defines (``evaluate`` only a game with ``has_evaluation``)."""
COMPILED = (
    "legal_moves",
    "play",
    "undo",
    "outcome",
    "evaluate",
    "key",
    "noisy_moves",
    "canonical_key",
    "player",
    "playout",
)
"""The rules the compiled search calls (``start`` runs in Python only)."""
CHECK_GAMES = 12
CHECK_PLIES = 2_000
"""The self-check plays this many random games, of at most this many plies in all..."""
CHECK_EVERY_MOVE_PLIES = 4
"""...and tries every legal move in their first plies."""


class GameRules:
    """One game's rules: the functions, sizes, and the checks of their contract. It is the
    ``spec`` of the game's positions (``negamax.core.game.CompiledRules``)."""

    def __init__(self, name: str, state_size: int, max_moves: int, functions: Mapping[str, Callable[..., Any]]):
        self.name = name
        self.state_size = state_size
        self.max_moves = max_moves
        self.functions = dict(functions)
        self.key_cells = state_size
        """The leading cells of a state that its key stands for (``CompiledGame.key_cells``)."""
        self.has_evaluation = True
        """``CompiledGame.has_evaluation``: false where ``evaluate`` means nothing (Hex)."""
        self._checked = False

    def rule_functions(self) -> Mapping[str, Callable[..., Any]]:
        return {name: function for name, function in self.functions.items() if name in COMPILED}

    def __repr__(self) -> str:
        return f"GameRules({self.name!r})"

    def new_state(self) -> Any:
        state = np.zeros(self.state_size, dtype=np.int64)
        self.call("start", state)
        return state

    def call(self, rule: str, *arguments: Any) -> Any:
        """A rule run in Python, its failures reported as ``GameDefinitionError``."""
        try:
            return self.functions[rule](*arguments)
        except GameDefinitionError:
            raise
        except Exception as error:
            raise self.broken(rule, error) from None

    def broken(self, rule: str, error: Exception) -> GameDefinitionError:
        """The error to raise for an exception a rule raised in Python."""
        if isinstance(error, IndexError) and rule in ("legal_moves", "noisy_moves") and "out of bounds" in str(error):
            return GameDefinitionError(
                f"{self.name}.{rule} wrote past the end of its moves array: a position has more than"
                f" max_moves ({self.max_moves}) moves"
            )
        return GameDefinitionError(f"{self.name}.{rule} raised {type(error).__name__}: {error}")

    def moves(self, state: Any, buffer: Any, rule: str = "legal_moves") -> list[int]:
        count = self.call(rule, state, buffer)
        if not isinstance(count, int | np.integer):
            raise GameDefinitionError(
                f"{self.name}.{rule} must return how many moves it wrote, not {type(count).__name__}"
            )
        count = int(count)
        if not 0 <= count <= self.max_moves:
            raise GameDefinitionError(f"{self.name}.{rule} returned {count} moves; max_moves is {self.max_moves}")
        return [int(move) for move in buffer[:count]]

    def check(self) -> None:
        """Play random games through the rules in Python and check their contract: moves in
        range, ``undo`` restoring ``play``, a move whenever the game goes on, values in range,
        one key for one position (``key_cells`` and the player). Done once per game and
        process, before the first compiled search.

        :raises GameDefinitionError: naming the rule that broke the contract.
        """
        if self._checked:
            return
        generator = random.Random(0)
        buffer = np.zeros(self.max_moves, dtype=np.int64)
        keys = _KeyImages(self)
        plies = 0
        for _ in range(CHECK_GAMES):
            state = self.new_state()
            line: list[int] = []
            while plies < CHECK_PLIES:
                plies += 1
                where = _where(line)
                keys.add(state, where)
                result = int(self.call("outcome", state))
                if result != ONGOING:
                    _check_result(self.name, result, where)
                    break
                moves = self.moves(state, buffer)
                if not moves:
                    raise GameDefinitionError(
                        f"{self.name}.legal_moves returned no move, but outcome says the game goes on{where}"
                    )
                for move in moves:
                    if not 0 <= move < MOVE_LIST_MOVE_LIMIT:
                        raise GameDefinitionError(f"{self.name}.legal_moves wrote the move {move}{where}")
                self._check_values(state, buffer, moves, where)
                if "playout" in self.functions:
                    self.playout(state, generator.randrange(1 << 62), where)
                move = generator.choice(moves)
                # every move near the start of each game, then the ones played
                for tried in moves if len(line) < CHECK_EVERY_MOVE_PLIES else [move]:
                    self._check_undo(state, tried, where, keys, line)
                self.call("play", state, move)
                line.append(move)
        self._checked = True

    def playout(self, state: Any, seed: int, where: str = "") -> int:
        """The ``playout`` rule run in Python on a copy of ``state``, with the numbers the
        compiled search would give it for ``seed``.

        :raises GameDefinitionError: for a result that is not a finished game's.
        """
        numbers = np.array(playout_numbers(seed, self.max_moves), dtype=np.int64)
        result = self.call("playout", state.copy(), numbers)
        if not isinstance(result, int | np.integer):
            raise GameDefinitionError(f"{self.name}.playout must return a result, not {type(result).__name__}")
        result = int(result)
        if result == ONGOING:
            raise GameDefinitionError(f"{self.name}.playout returned ONGOING: it must finish the game{where}")
        _check_result(self.name, result, where, "playout")
        return result

    def key_image(self, state: Any, player: int | None) -> tuple[bytes, int | None]:
        """What a key stands for: the state's leading ``key_cells``, and the player for a
        game with a ``player`` rule (``player``: what it returned, ``None`` without one)."""
        return state[: self.key_cells].tobytes(), player

    def image_text(self, image: tuple[bytes, int | None]) -> str:
        """A ``key_image`` as the checks show it."""
        cells, player = image
        shown = f"the state {np.frombuffer(cells, dtype=np.int64).tolist()}"
        return shown if player is None else f"{shown} with player {player} to move"

    def _check_undo(self, state: Any, move: int, where: str, keys: _KeyImages, line: list[int]) -> None:
        before = state.copy()
        key = int(self.call("key", state))
        self.call("play", state, move)
        keys.add(state, _where([*line, move]))
        self.call("undo", state, move)
        if not np.array_equal(state, before) or int(self.call("key", state)) != key:
            raise GameDefinitionError(f"{self.name}.undo did not restore the state after move {move}{where}")

    def _check_values(self, state: Any, buffer: Any, moves: list[int], where: str) -> None:
        evaluation = int(self.call("evaluate", state))
        if not -WIN_THRESHOLD < evaluation < WIN_THRESHOLD:
            raise GameDefinitionError(
                f"{self.name}.evaluate returned {evaluation}, outside the heuristic range"
                f" (-{WIN_THRESHOLD}, {WIN_THRESHOLD}){where}"
            )
        for rule in ("key", "canonical_key"):
            if rule in self.functions and not 0 <= int(self.call(rule, state)) < 1 << 63:
                raise GameDefinitionError(f"{self.name}.{rule} must return an integer from 0 to 2**63 - 1{where}")
        if "noisy_moves" in self.functions:
            noisy = self.moves(state, buffer, "noisy_moves")
            if not set(noisy) <= set(moves):
                raise GameDefinitionError(f"{self.name}.noisy_moves returned moves that are not legal{where}")


def _where(line: list[int]) -> str:
    return f" (after the moves {line})" if line else " (at the start)"


class _KeyImages:
    """The positions a game's keys stood for in its check: one key, one position."""

    def __init__(self, rules: GameRules) -> None:
        self.rules = rules
        self.seen: dict[int, tuple[tuple[bytes, int | None], str]] = {}

    def add(self, state: Any, where: str) -> None:
        rules = self.rules
        key = int(rules.call("key", state))
        player = int(rules.call("player", state)) if "player" in rules.functions else None
        image = rules.key_image(state, player)
        known, known_where = self.seen.setdefault(key, (image, where))
        if known != image:
            raise GameDefinitionError(
                f"{rules.name}.key gave {key} to two different positions, {rules.image_text(known)}{known_where}"
                f" and {rules.image_text(image)}{where}: a search would take one for the other (if the cells"
                " that differ are not part of the position, say how many leading cells are: key_cells)"
            )


def _check_result(name: str, result: int, where: str, rule: str = "outcome") -> None:
    if result in (WIN, -WIN, DRAW) or -WIN_THRESHOLD < result < WIN_THRESHOLD:
        return
    expected = "ONGOING, -WIN" if rule == "outcome" else "-WIN"
    raise GameDefinitionError(
        f"{name}.{rule} returned {result}: expected {expected}, DRAW, WIN or a score inside"
        f" (-{WIN_THRESHOLD}, {WIN_THRESHOLD}){where}"
    )


class RulesPosition:
    """A position of a game written as rules: its state array and the moves that led to it."""

    __slots__ = ("_buffer", "history", "rules", "state")

    def __init__(self, rules: GameRules, state: Any, history: Sequence[int] = ()) -> None:
        self.rules = rules
        self.state = state
        self.history = list(history)
        self._buffer = np.zeros(rules.max_moves, dtype=np.int64)

    def legal_moves(self) -> list[int]:
        return self.rules.moves(self.state, self._buffer)

    def play(self, move: int) -> None:
        try:
            self.rules.functions["play"](self.state, move)
        except Exception as error:
            raise self.rules.broken("play", error) from None
        self.history.append(move)

    def undo(self, move: int) -> None:
        try:
            self.rules.functions["undo"](self.state, move)
        except Exception as error:
            raise self.rules.broken("undo", error) from None
        self.history.pop()

    def is_terminal(self) -> bool:
        return self.terminal_value() != ONGOING

    def terminal_value(self) -> int:
        try:
            return int(self.rules.functions["outcome"](self.state))
        except Exception as error:
            raise self.rules.broken("outcome", error) from None

    def evaluate(self) -> int:
        try:
            return int(self.rules.functions["evaluate"](self.state))
        except Exception as error:
            raise self.rules.broken("evaluate", error) from None

    def key(self) -> Hashable:
        try:
            return int(self.rules.functions["key"](self.state))
        except Exception as error:
            raise self.rules.broken("key", error) from None

    def player(self) -> int:
        player = self.rules.functions.get("player")
        return int(self.rules.call("player", self.state)) if player is not None else len(self.history) & 1

    @property
    def has_evaluation(self) -> bool:
        return self.rules.has_evaluation

    def copy(self) -> RulesPosition:
        return type(self)(self.rules, self.state.copy(), self.history)

    def move_list_form(self) -> tuple[Any, Any]:
        """``(rules, state)`` for the compiled search, once the rules have passed their check."""
        self.rules.check()
        return self.rules, self.state.copy()

    def moves_from_codes(self, codes: Sequence[int]) -> list[int]:
        """The compiled search's codes are the moves plus one; it only reports moves it
        played, so they need no check against ``legal_moves`` (which in Python would cost
        more than the search itself on small searches)."""
        return [int(code) - 1 for code in codes]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.state.tolist()})"


class _NoisyMoves:
    __slots__ = ()

    def noisy_moves(self: Any) -> list[int]:
        return self.rules.moves(self.state, self._buffer, "noisy_moves")  # type: ignore[no-any-return]


class _Playout:
    __slots__ = ()

    def playout(self: Any, seed: int) -> int:
        return self.rules.playout(self.state, seed)  # type: ignore[no-any-return]


class _CanonicalKey:
    __slots__ = ()

    def canonical_key(self: Any) -> Hashable:
        try:
            return int(self.rules.functions["canonical_key"](self.state))
        except Exception as error:
            raise self.rules.broken("canonical_key", error) from None


class CompiledGame(BaseGame):
    """Subclass me with a game's rules (see this module); an instance is the game (the
    ``Game`` protocol), and its positions run on the compiled search by default."""

    name = ""
    """The game's name (default: the class name in lower case; an instance made with
    parameters adds them: ``kalah(pits=3,seeds=3)``)."""
    description = ""
    position_help = "the moves played from the start, separated by spaces, or 'start'"
    state_size: int = 0
    """How many int64 values the state array holds (a class attribute, or set by
    ``__init__`` for a game with parameters)."""
    max_moves: int = 0
    """The most legal moves any position can have (at most 256; as ``state_size``)."""
    key_cells: int | None = None
    """How many leading cells of the state make the position the key stands for (default:
    all of them). The cells after them (a count of moves, a stack of what ``undo`` needs)
    are left out when ``check()`` compares keys with states."""
    has_evaluation: bool = True
    """False for a game without a meaningful evaluation (Hex): it may leave ``evaluate``
    out, and ``search()`` runs Monte Carlo tree search on it unless asked otherwise."""
    position_class: ClassVar[type[RulesPosition]]
    _functions: ClassVar[dict[str, Callable[..., Any]]]
    _class_rules: ClassVar[GameRules | None]
    """The rules every instance shares, for a class without an ``__init__`` (its sizes are
    its own) and whose ``start`` is static (``None`` otherwise: each instance makes its own)."""

    def __new__(cls, *arguments: Any, **keywords: Any) -> Self:
        game = super().__new__(cls)
        try:
            text = parameters_text(cls, arguments, keywords)
        except TypeError:
            if not arguments and not keywords:
                return game  # unpickled (its __init__ is not run), or __init__ says what it misses
            raise
        if text:
            game.name = named(cls.name, text)
            if not cls.kernel_name:
                game.kernel_name = cls.name  # every size runs on the same kernels
        return game

    def __init_subclass__(cls, **keywords: Any) -> None:
        super().__init_subclass__(**keywords)
        cls.name = cls.__dict__.get("name") or cls.__name__.lower()
        cls.description = cls.description or (inspect.getdoc(cls) or cls.name).splitlines()[0]
        cls._functions = _rule_functions(cls)
        cls._class_rules = None
        if not _has_init(cls):  # sizes are the class's: checked as it is defined
            _check_sizes(cls.__name__, cls.state_size, cls.max_moves, cls.key_cells)
            if not _start_is_method(cls):
                cls._class_rules = _game_rules(
                    cls.__name__, cls.state_size, cls.max_moves, cls.key_cells, cls._functions, cls.has_evaluation
                )
        bases: tuple[type, ...] = (RulesPosition,)
        if "noisy_moves" in cls._functions:
            bases += (_NoisyMoves,)
        if "canonical_key" in cls._functions:
            bases += (_CanonicalKey,)
        if "playout" in cls._functions:
            bases += (_Playout,)
        cls.position_class = type(f"{cls.__name__}Position", bases, {"__slots__": (), "__module__": cls.__module__})

    @functools.cached_property
    def rules(self) -> GameRules:
        """The game's rules with this instance's sizes, and its ``start`` if that is a method.

        :raises GameDefinitionError: for sizes out of range.
        """
        cls = type(self)
        shared = cls._class_rules
        if shared is not None and (self.state_size, self.max_moves, self.key_cells) == (
            cls.state_size,
            cls.max_moves,
            cls.key_cells,
        ):
            return shared
        _check_sizes(cls.__name__, self.state_size, self.max_moves, self.key_cells, f" (in {self.name})")
        functions = dict(cls._functions)
        if _start_is_method(cls):
            functions["start"] = types.MethodType(functions["start"], self)
        return _game_rules(cls.__name__, self.state_size, self.max_moves, self.key_cells, functions, cls.has_evaluation)

    # -- the Game protocol ----------------------------------------------------------------

    def check(self, games: int = 1000, seed: int = 0) -> Any:
        """Play ``games`` random games through the rules in Python and report what a search
        would silently get wrong (``negamax.games.checker``: undo, keys, counts, values);
        ``negamax check`` also compares the compiled rules with these. Run it first.

        :returns: a ``CheckReport``; ``report.ok`` when nothing was found.
        """
        from negamax.games.checker import check_rules

        return check_rules(self.rules, games, seed)

    def new_position(self, text: str | None = None) -> Position[Any]:
        """The start, or the position after the moves ``text`` lists (as ``move_text``
        writes them, separated by spaces or commas). The first position a game makes runs
        the rules' check (``GameRules.check``), so a broken rule is named at once, whichever
        engine then searches."""
        self.rules.check()
        return play_move_texts(self, self.position_class(self.rules, self.rules.new_state()), text)

    def parse_move(self, position: Position[Any], text: str) -> Hashable:
        text = text.strip()
        moves = position.legal_moves()
        for move in moves:
            if self.move_text(position, move) == text:
                return cast(Hashable, move)
        shown = ", ".join(self.move_text(position, move) for move in list(moves)[:20])
        raise IllegalMoveError(f"{text!r} is not a legal move here; legal: {shown}{', ...' if len(moves) > 20 else ''}")

    def move_text(self, position: Position[Any], move: Hashable) -> str:
        return str(move)

    def position_text(self, position: Position[Any]) -> str:
        assert isinstance(position, RulesPosition)
        board = self.position_class(self.rules, self.rules.new_state())
        written = []
        for move in position.history:
            written.append(self.move_text(board, move))
            board.play(move)
        return " ".join(written) or "start"

    def render(self, position: Position[Any]) -> str:
        assert isinstance(position, RulesPosition)
        return f"state {position.state.tolist()}, player {position.player() + 1} to move"


def _has_init(cls: type) -> bool:
    """Whether the game class (or a game class it derives from) has an ``__init__``, which
    may set the instance's sizes (from its parameters, or its base's)."""
    return any("__init__" in vars(klass) for klass in cls.__mro__ if klass is not CompiledGame and klass is not object)


def _check_sizes(owner: str, state_size: Any, max_moves: Any, key_cells: Any, where: str = "") -> None:
    if not isinstance(state_size, int) or state_size < 1:
        raise GameDefinitionError(f"{owner}.state_size must be a positive integer, not {state_size!r}{where}")
    if not isinstance(max_moves, int) or not 1 <= max_moves <= MOVE_LIST_MAX_MOVES:
        raise GameDefinitionError(
            f"{owner}.max_moves must be an integer from 1 to {MOVE_LIST_MAX_MOVES}, not {max_moves!r}{where}"
        )
    if key_cells is not None and not (isinstance(key_cells, int) and 1 <= key_cells <= state_size):
        raise GameDefinitionError(
            f"{owner}.key_cells must be an integer from 1 to state_size, not {key_cells!r}{where}"
        )


def _game_rules(
    owner: str,
    state_size: int,
    max_moves: int,
    key_cells: int | None,
    functions: Mapping[str, Callable[..., Any]],
    has_evaluation: bool = True,
) -> GameRules:
    rules = GameRules(owner, state_size, max_moves, functions)
    rules.key_cells = key_cells or state_size
    rules.has_evaluation = bool(has_evaluation)
    return rules


def no_evaluation(state: Any) -> int:
    """The evaluation of a game without one (``has_evaluation = False``): nothing to tell."""
    return 0


def _start_is_method(cls: type) -> bool:
    """Whether ``start`` is written ``start(self, state)``, as a game with parameters writes
    it to put them into the state (it runs in Python only, never compiled)."""
    return isinstance(inspect.getattr_static(cls, "start", None), types.FunctionType)


def _rule_functions(cls: type) -> dict[str, Callable[..., Any]]:
    """The rules a game class defines, unwrapped from ``staticmethod`` and checked for
    their parameters (``start`` may be a method: ``_start_is_method``)."""
    functions: dict[str, Callable[..., Any]] = {}
    for rule, parameters in RULE_PARAMETERS.items():
        found = inspect.getattr_static(cls, rule, None)
        static = isinstance(found, staticmethod)
        if isinstance(found, staticmethod):
            found = found.__func__
        if found is None and rule == "evaluate" and not getattr(cls, "has_evaluation", True):
            functions[rule] = no_evaluation
            continue
        if found is None:
            if rule in REQUIRED:
                raise GameDefinitionError(f"{cls.__name__} must define {rule}({', '.join(parameters)})")
            continue
        target = getattr(found, "py_func", found)
        if not callable(target):
            raise GameDefinitionError(f"{cls.__name__}.{rule} must be a function")
        try:
            count = len(inspect.signature(target).parameters)
        except (TypeError, ValueError):
            count = len(parameters)
        if rule == "start" and not static and count == 2 and isinstance(target, types.FunctionType):
            functions[rule] = target  # start(self, state): see _start_is_method
            continue
        if count != len(parameters):
            hint = " (write the rules as @staticmethod functions, without self)" if count == len(parameters) + 1 else ""
            raise GameDefinitionError(
                f"{cls.__name__}.{rule} must take ({', '.join(parameters)}); it takes {count} parameter(s){hint}"
            )
        functions[rule] = found
    return functions
