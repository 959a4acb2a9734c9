"""What a game must offer to be searched, and the optional capabilities it may add.

A *position* is a mutable game state with make/unmake (the seeds' ``make_move`` /
``unmake_move``, ``execute`` / ``undo``). Everything is seen from the side to move: the
terminal value and the evaluation score the position for the player whose turn it is,
``player()``. A move usually passes the turn, but need not: where ``player()`` is the same
after a move (Kalah's extra turn), the searches take the child as the same player's turn,
searched with the parent's window and not negated (``score.from_child``).

Optional capabilities are separate protocols. The search looks for them once, when it
starts, and picks its strategy then; it never probes an attribute per node.

A complete game in a few lines (a take-away game: remove 1 or 2 stones; whoever takes
the last stone wins):

>>> from negamax.core.score import WIN
>>> class TakeAway:
...     def __init__(self, stones: int) -> None:
...         self.stones, self.turn = stones, 0
...     def legal_moves(self) -> list[int]:
...         return [take for take in (1, 2) if take <= self.stones]
...     def play(self, move: int) -> None:
...         self.stones -= move; self.turn ^= 1
...     def undo(self, move: int) -> None:
...         self.stones += move; self.turn ^= 1
...     def is_terminal(self) -> bool:
...         return self.stones == 0
...     def terminal_value(self) -> int:
...         return -WIN  # the opponent took the last stone
...     def evaluate(self) -> int:
...         return 0
...     def key(self) -> int:
...         return self.stones
...     def player(self) -> int:
...         return self.turn
...     def copy(self) -> "TakeAway":
...         clone = TakeAway(self.stones); clone.turn = self.turn; return clone
>>> from negamax import solve
>>> result = solve(TakeAway(7))
>>> result.best_move, result.score_text
(1, 'win in 5')
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Final, Protocol, TypeVar, runtime_checkable

from negamax.core.errors import GameDefinitionError
from negamax.core.score import WIN, WIN_THRESHOLD
from negamax.core.user_code import method_place

MOVE_LIST_MAX_MOVES: Final = 256
"""The most legal moves a position of a move-list game may have (the compiled search's
buffer for each ply)."""
MOVE_LIST_MOVE_LIMIT: Final = 1 << 62
"""A move of a game written as rules is an integer from 0 to this, exclusive (the search
codes it as the move plus one)."""

MoveT = TypeVar("MoveT", bound=Hashable)
"""The type of a game's moves (an ``int`` for the built-in small games)."""
MoveT_co = TypeVar("MoveT_co", bound=Hashable, covariant=True)


@runtime_checkable
class Position(Protocol[MoveT]):
    """A game position with make/unmake, scored from the side to move."""

    def legal_moves(self) -> Sequence[MoveT]:
        """The legal moves, best guess first when the game can tell (the search's fallback order)."""
        ...

    def play(self, move: MoveT) -> None:
        """Make ``move``; then ``player()`` is to move: the opponent, or the same player again."""
        ...

    def undo(self, move: MoveT) -> None:
        """Take back ``move``, which must be the last move played."""
        ...

    def is_terminal(self) -> bool:
        """True when the game is over."""
        ...

    def terminal_value(self) -> int:
        """The value of a finished game for the side to move, relative to this node.

        ``-WIN`` when the side to move has lost, ``WIN`` when it has won, ``DRAW`` for a
        draw, or any plain score for games (such as explicit trees) that end in a number.
        The search turns ``±WIN`` into a distance from its root.
        """
        ...

    def evaluate(self) -> int:
        """A heuristic score for the side to move, strictly inside ``±WIN_THRESHOLD``."""
        ...

    def key(self) -> Hashable:
        """A hashable identity of the position (equal positions, equal keys)."""
        ...

    def player(self) -> int:
        """0 when the first player is to move, 1 when the second is. The searches read it
        after every move: the same player twice in a row is that player's second move."""
        ...

    def copy(self) -> Position[MoveT]:
        """An independent copy; the search works on one so the caller's game is untouched."""
        ...


@runtime_checkable
class HasNoisyMoves(Protocol[MoveT_co]):
    """Capability: moves that change the position sharply (captures), for quiescence."""

    def noisy_moves(self) -> Sequence[MoveT_co]:
        """The legal moves a quiescence search should still look at, best guess first."""
        ...


@runtime_checkable
class HasSafeMoves(Protocol[MoveT_co]):
    """Capability: immediate-win and immediate-loss knowledge (Connect 4, tic-tac-toe).

    A game offering it promises that its only terminal states are a win by the player who
    just moved and a position without legal moves, and that every move passes the turn.
    The search never plays a winning move (it scores the win instead), so below the root
    it needs no win test at all.
    """

    def winning_move_exists(self) -> bool:
        """True when the side to move can win with one move (cheaper than ``safe_moves``)."""
        ...

    def safe_moves(self) -> Sequence[MoveT_co] | None:
        """``None`` when the side to move can win with one move; otherwise the legal moves
        after which the opponent cannot win at once, best guess first. An empty list means
        every move loses at once, or there are no moves (then ``is_terminal`` is true)."""
        ...


@runtime_checkable
class PlacementPosition(Position[MoveT], Protocol[MoveT]):
    """A position the compiled exact solver runs on: a game of placing stones on at most 62
    cells, where a finished line wins and every move passes the turn (Connect 4, tic-tac-toe).

    The solver works on bitboards: one bit per cell, ``current`` the stones of the side to
    move, ``mask`` every stone, ``moves`` the number of stones played. The game provides
    the primitives the solver calls, compiled by numba for its *spec* type (see
    ``negamax.core.compiled``, the placement primitives). Scores follow Pascal Pons'
    convention, documented in ``negamax.search.compiled.placement_kernel``.
    """

    def placement_form(self) -> tuple[Any, int, int, int]:
        """``(spec, current, mask, moves)``: the game's spec and the bitboards (imports numba)."""
        ...


@runtime_checkable
class MoveListPosition(Position[MoveT], Protocol[MoveT]):
    """A position the compiled search runs on, both to a limit and to the end: any game whose
    state fits an int64 array and whose moves are int64 codes.

    The game provides the primitives the search calls (generate the moves into a buffer,
    play, undo, evaluate, key, ...; ``negamax.core.compiled``, the move-list primitives),
    or writes its rules as a ``negamax.CompiledGame``, which provides them.
    """

    def move_list_form(self) -> tuple[Any, Any]:
        """``(spec, state)``: the game's spec and a fresh int64 state array (imports numba
        for the built-in games)."""
        ...

    def moves_from_codes(self, codes: Sequence[int]) -> Sequence[MoveT]:
        """The moves that compiled ``codes`` stand for, played one after the other from this
        position (it stops early at a code that is not legal there)."""
        ...


@runtime_checkable
class CompiledRules(Protocol):
    """A game's rules as plain functions over an int64 state array, which the compiled search
    compiles into a kernel of the game's own (``negamax.CompiledGame`` provides them).

    The ``spec`` of a ``MoveListPosition`` may be such an object instead of a spec type with
    registered primitives.
    """

    name: str
    """A name for messages and for the directory the game's kernels are cached in."""
    state_size: int
    max_moves: int

    def rule_functions(self) -> Mapping[str, Callable[..., Any]]:
        """The rules by name: ``legal_moves``, ``play``, ``undo``, ``outcome``, ``evaluate``,
        ``key``, and optionally ``noisy_moves`` and ``canonical_key``."""
        ...


@runtime_checkable
class HasCanonicalKey(Protocol):
    """Capability: a key equal for positions that are the same up to a board symmetry."""

    def canonical_key(self) -> Hashable:
        """The smallest key over the game's symmetries of this position."""
        ...


@runtime_checkable
class HasPlayout(Protocol):
    """Capability: the game's own way to finish a game at random, for the playouts of Monte
    Carlo tree search (``algorithm="mcts"``), which otherwise play uniformly random moves
    to the end. Hex fills the board at once and looks for the winner once."""

    def playout(self, seed: int) -> int:
        """The result of a random game from here to its end, for the side to move here, as
        ``terminal_value`` gives one (``WIN``, ``-WIN``, ``DRAW`` or a score). ``seed`` (from 0
        to 2**62 - 1, a new one each playout) seeds its random choices, so that a search
        with the same seed plays the same playouts. The position is left as it was."""
        ...


def has_evaluation(position: object) -> bool:
    """Whether a position's ``evaluate`` means anything: false where its game says so
    (``has_evaluation = False``: Hex), and then ``search()`` without an algorithm or a depth
    runs Monte Carlo tree search, which needs no evaluation."""
    return bool(getattr(position, "has_evaluation", True))


@runtime_checkable
class HasLength(Protocol):
    """Capability: a bound on how long the game can still last (a board that fills up)."""

    def plies_left(self) -> int:
        """The most plies the game can still go on from here (Connect 4: the empty cells)."""
        ...


@runtime_checkable
class HasGameEnd(Protocol):
    """Capability: the end of a played game as its rules give it to the players, where that
    differs from the end the search scores (``is_terminal``).

    A search may end a line earlier than the rules end a game. Chess scores a position's
    second occurrence inside a search as a draw (the side that can repeat can keep
    repeating, and any other value would only be the search's horizon), while the players
    play on until the third occurrence. Whatever shows a played game (the web page,
    ``negamax play``) asks ``negamax.core.rules.game_end``, which asks this where a
    position has it, and ``is_terminal`` elsewhere.
    """

    def game_end(self) -> tuple[int, str] | None:
        """``None`` while the game goes on for the players; once it is over, its value for
        the side to move (as ``terminal_value`` gives it) and why it ended, in a few words
        (``checkmate``, ``threefold repetition``)."""
        ...


# -- what the search trusts a position to return, checked as it is returned -------------
# A search never asks twice, so a NaN evaluation or a ``None`` move list would silently
# become a wrong answer. The checks cost one type test per call on the path every correct
# game takes; the searches bind these wrappers once, when they start.


def _refused(what: str, value: object, rule: str) -> GameDefinitionError:
    shown = repr(value)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    return GameDefinitionError(f"{what} returned {shown} ({type(value).__name__}): {rule}")


def checked_evaluation(evaluate: Callable[[], int]) -> Callable[[], int]:
    """``evaluate`` whose every result is an ``int`` strictly inside ``±WIN_THRESHOLD``
    (NumPy integers are taken as ints).

    :raises GameDefinitionError: from the call, for anything else (a float, NaN, a win)."""

    def checked() -> int:
        value = evaluate()
        if type(value) is int and -WIN_THRESHOLD < value < WIN_THRESHOLD:
            return value
        try:
            whole = operator.index(value)
        except TypeError:
            whole = None
        if whole is None or not -WIN_THRESHOLD < whole < WIN_THRESHOLD:
            raise _refused(method_place(evaluate), value, f"an evaluation is an int strictly between ±{WIN_THRESHOLD}")
        return whole

    return checked


def checked_terminal_value(terminal_value: Callable[[], int]) -> Callable[[], int]:
    """``terminal_value`` whose every result is ``WIN``, ``-WIN``, ``DRAW`` or an ``int``
    strictly inside ``±WIN_THRESHOLD``.

    :raises GameDefinitionError: from the call, for anything else."""

    def checked() -> int:
        value = terminal_value()
        if type(value) is int and (-WIN_THRESHOLD < value < WIN_THRESHOLD or value in (WIN, -WIN)):
            return value
        try:
            whole = operator.index(value)
        except TypeError:
            whole = None
        if whole is None or not (-WIN_THRESHOLD < whole < WIN_THRESHOLD or whole in (WIN, -WIN)):
            raise _refused(
                method_place(terminal_value),
                value,
                f"a finished game is worth WIN, -WIN, DRAW or an int within ±{WIN_THRESHOLD}",
            )
        return whole

    return checked


def checked_moves(legal_moves: Callable[[], Sequence[MoveT]]) -> Callable[[], Sequence[MoveT]]:
    """``legal_moves`` whose every result is a list or tuple (another iterable, a generator
    say, is turned into a list; the search walks the moves more than once).

    :raises GameDefinitionError: from the call, for ``None`` or anything not iterable."""

    def checked() -> Sequence[MoveT]:
        moves = legal_moves()
        if type(moves) is list or type(moves) is tuple:
            return moves
        if moves is None or isinstance(moves, str | bytes):
            raise _refused(
                method_place(legal_moves), moves, "return a list of moves (empty only when the game is over)"
            )
        try:
            return list(moves)
        except TypeError:
            raise _refused(method_place(legal_moves), moves, "return a list of moves") from None

    return checked
