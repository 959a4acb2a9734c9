"""Connect 4 on a 7x6 board: bitboards with a sentinel row, Pascal Pons' notation and scores.

Bit layout (Pons' "Solving Connect 4"): column ``c`` owns bits ``7c .. 7c+6``; bit ``7c`` is
its bottom cell and bit ``7c+6`` is a sentinel that is always empty, so shifting a stone
up never carries it into the next column. A position is two numbers: ``mask``, every
stone, and ``current``, the stones of the side to move. ``current + mask`` is a unique key.

A move is the one-bit board of the cell it fills, so playing is two bit operations.

Positions are written as the columns played, 1-7, from the empty board (``"4453"``). Scores
follow Pons: positive when the side to move wins, ``22 - (stones the winner has played)``
(so a quicker win scores higher), negative for a loss, 0 for a draw.

>>> from negamax.search import solve
>>> game = Connect4Game()
>>> position = game.new_position("44455554221")
>>> game.game_score(position, solve(position).score)
-15
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence
from typing import Any

from negamax.core.errors import IllegalMoveError, InvalidPositionError
from negamax.core.game import Position
from negamax.core.rules import BaseGame
from negamax.core.score import DRAW, WIN, distance_to_pons
from negamax.games.connect4_board import (
    BOARD,
    BOTTOM,
    CELLS,
    CENTRE_FIRST_MASKS,
    COLUMN_MASKS,
    HEIGHT,
    STRIDE,
    WIDTH,
    has_four,
    mirror,
    winning_cells,
)


class Connect4:
    """A Connect 4 position; every method speaks for the side to move.

    Finding immediate wins and threats needs the cells that would complete four for each
    player. A child position reuses what its parent computed: its own winning cells are
    the parent's opponent's (those stones did not move), and the parent's threat scoring
    already computed the mover's cells after each move. They are kept per ply (index =
    stones played), tagged with the key of the position they belong to.
    """

    __slots__ = ("after", "after_key", "current", "mask", "mine", "moves", "theirs")

    def __init__(self, current: int = 0, mask: int = 0, moves: int = 0) -> None:
        self.current = current
        self.mask = mask
        self.moves = moves
        # Winning cells (not yet masked by the stones) of the side to move and of the
        # opponent at each ply, or -1 when not known.
        self.mine = [-1] * (CELLS + 2)
        self.theirs = [-1] * (CELLS + 2)
        # At each ply: the key of the position scored there, and move -> mover's cells after it.
        self.after_key = [-1] * (CELLS + 2)
        self.after: list[dict[int, int]] = [{} for _ in range(CELLS + 2)]

    def legal_moves(self) -> list[int]:
        possible = (self.mask + BOTTOM) & BOARD
        return [possible & column for column in CENTRE_FIRST_MASKS if possible & column]

    def play(self, move: int) -> None:
        ply = self.moves
        current, mask = self.current, self.mask
        self.mine[ply + 1] = self.theirs[ply]
        if self.after_key[ply] == current + mask:
            self.theirs[ply + 1] = self.after[ply].get(move, -1)
        else:
            self.theirs[ply + 1] = -1
        self.current = current ^ mask
        self.mask = mask | move
        self.moves = ply + 1

    def undo(self, move: int) -> None:
        self.mask ^= move
        self.current ^= self.mask
        self.moves -= 1

    def is_terminal(self) -> bool:
        return self.moves == CELLS or has_four(self.current ^ self.mask)

    def terminal_value(self) -> int:
        return -WIN if has_four(self.current ^ self.mask) else DRAW

    def evaluate(self) -> int:
        """Open winning cells of the side to move minus the opponent's."""
        free = BOARD ^ self.mask
        return (self._mine() & free).bit_count() - (self._theirs() & free).bit_count()

    def _mine(self) -> int:
        cells = self.mine[self.moves]
        if cells < 0:
            cells = self.mine[self.moves] = winning_cells(self.current, 0)
        return cells

    def _theirs(self) -> int:
        cells = self.theirs[self.moves]
        if cells < 0:
            cells = self.theirs[self.moves] = winning_cells(self.current ^ self.mask, 0)
        return cells

    def winning_move_exists(self) -> bool:
        return bool(self._mine() & (self.mask + BOTTOM) & BOARD)

    def key(self) -> int:
        return self.current + self.mask

    def player(self) -> int:
        return self.moves & 1

    def copy(self) -> Connect4:
        return Connect4(self.current, self.mask, self.moves)

    def canonical_key(self) -> int:
        key = self.current + self.mask
        return min(key, mirror(key))

    def placement_form(self) -> tuple[Any, int, int, int]:
        """(spec, current, mask, moves) for the compiled solver (imports numba)."""
        return _compiled_spec(), self.current, self.mask, self.moves

    def move_list_form(self) -> tuple[Any, Any]:
        """(rules, state) for the compiled search to a depth or time (imports numba)."""
        import numpy as np

        from negamax.games.connect4_compiled import RULES

        return RULES, np.array([self.current, self.mask, self.moves], dtype=np.int64)

    def moves_from_codes(self, codes: Sequence[int]) -> list[int]:
        """The compiled search's codes are the columns plus one."""
        board = self.copy()
        moves = []
        for code in codes:
            column = int(code) - 1
            if not 0 <= column < WIDTH:
                break
            move = (board.mask + BOTTOM) & BOARD & COLUMN_MASKS[column]
            if not move or board.is_terminal():
                break
            moves.append(move)
            board.play(move)
        return moves

    def safe_moves(self) -> list[int] | None:
        """Pons' non-losing moves, ordered by the number of winning cells they create."""
        current, mask, ply = self.current, self.mask, self.moves
        free = BOARD ^ mask
        possible = (mask + BOTTOM) & BOARD
        if self._mine() & possible:
            return None
        opponent_wins = self._theirs() & free
        forced = possible & opponent_wins
        if forced:
            if forced & (forced - 1):
                return []  # two immediate threats: nothing saves the game
            possible = forced
        # never play just below a cell that wins for the opponent
        possible &= ~(opponent_wins >> 1)
        if not possible & (possible - 1):
            return [possible] if possible else []
        after: dict[int, int] = {}
        scored = []
        for column in CENTRE_FIRST_MASKS:
            move = possible & column
            if move:
                cells = after[move] = winning_cells(current | move, 0)
                scored.append(((cells & free).bit_count(), move))
        self.after[ply] = after
        self.after_key[ply] = current + mask
        scored.sort(key=_first, reverse=True)  # stable: ties stay centre first
        return [move for _, move in scored]

    def __repr__(self) -> str:
        return f"Connect4(moves={self.moves}, key={self.key()})"


def _first(pair: tuple[int, int]) -> int:
    return pair[0]


def column_of(move: int) -> int:
    """The column (0-6) of a move's cell."""
    return (move.bit_length() - 1) // STRIDE


def cell_rows(position: Connect4) -> list[list[str]]:
    """The board's rows from the top down: "X" for the first player's discs, "O" for the
    second's, "" for an empty cell."""
    first = position.current if position.moves % 2 == 0 else position.current ^ position.mask
    rows = []
    for row in range(HEIGHT - 1, -1, -1):
        cells = []
        for column in range(WIDTH):
            bit = 1 << (column * STRIDE + row)
            cells.append("" if not position.mask & bit else "X" if first & bit else "O")
        rows.append(cells)
    return rows


class Connect4Game(BaseGame):
    name = "connect4"
    description = "Connect 4, 7x6, positions and scores in Pascal Pons' notation"
    position_help = "the columns played (1-7) from the empty board, e.g. 4453"

    def new_position(self, text: str | None = None) -> Connect4:
        text = (text or "").strip()
        position = Connect4()
        if text.lower() == "start":
            return position
        if "/" in text:
            return self._from_board(text)
        for index, char in enumerate(text):
            if char not in "1234567":
                raise InvalidPositionError(
                    f"connect4 position {text!r}: character {index + 1} ({char!r}) is not a column 1-7"
                )
            column = int(char) - 1
            move = (position.mask + BOTTOM) & COLUMN_MASKS[column]
            if not move:
                raise InvalidPositionError(f"connect4 position {text!r}: move {index + 1} plays in full column {char}")
            if winning_cells(position.current, position.mask) & move:
                raise InvalidPositionError(
                    f"connect4 position {text!r}: move {index + 1} (column {char}) wins; the game would be over"
                )
            position.play(move)
        return position

    def _from_board(self, text: str) -> Connect4:
        """Read the board picture ``position_text`` writes: rows top first, ``/`` between."""
        rows = [row.replace(" ", "") for row in text.split("/")]
        if rows and rows[-1] == "1234567":
            rows.pop()
        if len(rows) != HEIGHT or any(len(row) != WIDTH for row in rows):
            raise InvalidPositionError(f"connect4 board {text!r}: expected {HEIGHT} rows of {WIDTH} cells")
        first = second = 0
        for row_index, row in enumerate(rows):
            row_number = HEIGHT - 1 - row_index
            for column, char in enumerate(row.upper()):
                bit = 1 << (column * STRIDE + row_number)
                if char == "X":
                    first |= bit
                elif char == "O":
                    second |= bit
                elif char != ".":
                    raise InvalidPositionError(f"connect4 board {text!r}: {char!r} is not X, O or .")
        mask = first | second
        for column in COLUMN_MASKS:
            stones = mask & column
            if stones & (stones + (column & BOTTOM)):
                raise InvalidPositionError(f"connect4 board {text!r}: stones float above empty cells")
        moves = mask.bit_count()
        if first.bit_count() - second.bit_count() not in (0, 1):
            raise InvalidPositionError(
                f"connect4 board {text!r}: X moves first, so X has as many stones as O or one more"
            )
        if has_four(first) or has_four(second):
            raise InvalidPositionError(f"connect4 board {text!r}: the game is already over")
        current = first if moves % 2 == 0 else second
        return Connect4(current, mask, moves)

    def parse_move(self, position: Position[Any], text: str) -> int:
        assert isinstance(position, Connect4)
        text = text.strip()
        if len(text) != 1 or text not in "1234567":
            raise IllegalMoveError(f"{text!r} is not a column: type a digit 1-7")
        if position.is_terminal():
            raise IllegalMoveError("the game is over")
        move = (position.mask + BOTTOM) & COLUMN_MASKS[int(text) - 1]
        if not move:
            raise IllegalMoveError(f"column {text} is full")
        return move

    def move_text(self, position: Position[Any], move: Hashable) -> str:
        assert isinstance(move, int)
        return str(column_of(move) + 1)

    def position_text(self, position: Position[Any]) -> str:
        """The board as a string of rows (Pons' moves cannot be recovered from bitboards)."""
        return self.render(position).replace("\n", "/")

    def render(self, position: Position[Any]) -> str:
        assert isinstance(position, Connect4)
        rows = [" ".join(cell or "." for cell in cells) for cells in cell_rows(position)]
        rows.append(" ".join(str(column + 1) for column in range(WIDTH)))
        return "\n".join(rows)

    def book_key(self, position: Position[Any]) -> tuple[str, int]:
        """The smaller of the position's key and its mirror image's; symmetry 1 is the mirror."""
        assert isinstance(position, Connect4)
        key = position.key()
        reflected = mirror(key)
        return (str(reflected), 1) if reflected < key else (str(key), 0)

    def symmetric_move_text(self, text: str, symmetry: int) -> str:
        return str(WIDTH + 1 - int(text)) if symmetry else text

    def game_score(self, position: Position[Any], score: int) -> int:
        """Pons' score: ``22 - stones the winner has played``, signed for the side to move."""
        assert isinstance(position, Connect4)
        return distance_to_pons(score, CELLS, position.moves)


@functools.cache
def _compiled_spec() -> Any:
    from negamax.games.connect4_compiled import SPEC  # imports numba: only when the compiled path runs

    return SPEC
