"""A game's rules seen from outside the search: names, parsing and display.

The search only needs a ``Position``. Command lines, engines and pictures also need to
read positions and moves from text and to show them; a ``Game`` does that, one per game.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol

from negamax.core.errors import IllegalMoveError, InvalidPositionError
from negamax.core.game import HasGameEnd, Position
from negamax.core.score import INF


class Game(Protocol):
    """Text in and out for one game."""

    name: str
    """The registry name, as typed on the command line."""

    description: str
    """One line for ``negamax games``."""

    position_help: str
    """How positions are written, with an example."""

    solvable: bool
    """False for games whose exact value is out of reach from most positions (chess,
    draughts): the command line then solves them only within a time or node limit."""

    evaluation_unit: int
    """What a small advantage is worth in ``evaluate``'s scores: a pawn in chess (100), a
    man in draughts. The playing levels measure how far from the best a move may be in it."""

    def new_position(self, text: str | None = None) -> Position[Any]:
        """The start position, or the position ``text`` describes.

        :raises InvalidPositionError: if ``text`` is malformed or unreachable.
        """
        ...

    def parse_move(self, position: Position[Any], text: str) -> Hashable:
        """The legal move ``text`` names in ``position``.

        :raises IllegalMoveError: if ``text`` is malformed or not legal there.
        """
        ...

    def move_text(self, position: Position[Any], move: Hashable) -> str:
        """How ``move`` (legal in ``position``) is written."""
        ...

    def position_text(self, position: Position[Any]) -> str:
        """A text that ``new_position`` reads back into the same position."""
        ...

    def render(self, position: Position[Any]) -> str:
        """A multi-line picture of the position for a terminal."""
        ...

    def game_score(self, position: Position[Any], score: int) -> int:
        """The game's own convention for a search score from ``position`` (for most games
        the search score itself; Connect 4 uses Pascal Pons' convention)."""
        ...

    def book_key(self, position: Position[Any]) -> tuple[str, int]:
        """The key of ``position`` in a book of solved positions, equal for positions that
        are the same up to a board symmetry, and the symmetry (0: none) that turns
        ``position`` into the orientation the book stores."""
        ...

    def symmetric_move_text(self, text: str, symmetry: int) -> str:
        """The move ``text`` seen through ``symmetry``. Every symmetry ``book_key`` returns
        is its own inverse, so this maps moves both into and out of the book."""
        ...


class BaseGame:
    """Defaults shared by the built-in games."""

    name = ""
    description = ""
    kernel_name = ""
    """The name the game's compiled kernels are cached under, when other games share them
    (empty: the game's own name)."""
    position_help = ""
    solvable = True
    evaluation_unit = 1

    def game_score(self, position: Position[Any], score: int) -> int:
        return score

    def book_key(self, position: Position[Any]) -> tuple[str, int]:
        return repr(position.key()), 0

    def symmetric_move_text(self, text: str, symmetry: int) -> str:
        return text


def game_end(position: Position[Any]) -> tuple[int, str] | None:
    """How a played game stands for its players: ``None`` while it goes on; once it is
    over, its value for the side to move (``-WIN``: lost) and why it ended (empty where the
    game does not say). A position's ``HasGameEnd.game_end`` where it has one (chess ends
    at the third occurrence of a position, where its search scores the second as a draw),
    else ``is_terminal`` and ``terminal_value``."""
    if isinstance(position, HasGameEnd):
        return position.game_end()
    return (position.terminal_value(), "") if position.is_terminal() else None


def play_move_texts(game: Game, position: Position[Any], text: str | None, commas: bool = True) -> Position[Any]:
    """``position`` after the moves ``text`` lists (as ``game.move_text`` writes them,
    separated by spaces, or commas unless the moves' own names hold them; nothing or
    ``start``: none).

    :raises InvalidPositionError: naming the move that is not legal, or comes after the end.
    """
    words = ((text or "").replace(",", " ") if commas else (text or "")).split()
    if words in ([], ["start"]):
        return position
    for number, word in enumerate(words, start=1):
        if position.is_terminal():
            raise InvalidPositionError(f"{game.name} position {text!r}: the game is over before move {number}")
        try:
            move = game.parse_move(position, word)
        except IllegalMoveError as error:
            raise InvalidPositionError(f"{game.name} position {text!r}: move {number}: {error}") from None
        position.play(move)
    return position


def game_score_or_none(game: Game, position: Position[Any], score: int) -> int | None:
    """``game.game_score`` of a score or bound, ``None`` for no bound (``±INF``: a solve
    cut short proves none on a side, and no game converts that)."""
    return None if abs(score) >= INF else game.game_score(position, score)


def pv_text(
    game: Game,
    position: Position[Any],
    pv: Sequence[Any],
    write: Callable[[Position[Any], Any], str] | None = None,
) -> list[str]:
    """The moves of ``pv`` written in the game's notation, or by ``write(board, move)``
    (played on a copy; the line ends at the game's end or at a move that is not legal)."""
    board = position.copy()
    written = []
    for move in pv:
        if board.is_terminal() or move not in board.legal_moves():
            break  # a PV that outlived a transposition-table collision ends here
        written.append(game.move_text(board, move) if write is None else write(board, move))
        board.play(move)
    return written


def repeated_in_search(keys: Sequence[Hashable], root_length: int, reversible_plies: int) -> bool:
    """Whether the last of ``keys`` (one per position, oldest first) occurred before, within
    the last ``reversible_plies``, when the search has made at least one move (``keys``
    is longer than ``root_length``). A second occurrence is enough inside a search: the
    side that can repeat can keep repeating."""
    if len(keys) <= root_length:
        return False
    key = keys[-1]
    oldest = max(0, len(keys) - 1 - reversible_plies)
    return any(keys[index] == key for index in range(len(keys) - 3, oldest - 1, -2))
