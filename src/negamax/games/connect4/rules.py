"""Connect 4 on a board of any size up to 64 bits (7x6 by default): bitboards with a
sentinel row, Pascal Pons' notation and scores.

Bit layout (Pons' "Solving Connect 4", ``board``): each column owns
``height + 1`` bits, the highest a sentinel that is always empty. A position is two
numbers: ``mask``, every stone, and ``current``, the stones of the side to move;
``current + mask`` is a unique key. A move is the one-bit board of the cell it fills, so
playing is two bit operations.

Positions are written as the columns played, 1-7 (then a-z past the ninth column on wider
boards), from the empty board (``"4453"``). Scores follow Pons: positive when the side to
move wins, ``22 - (stones the winner has played)`` on 7x6 (so a quicker win scores
higher; on another board, ``(cells + 2 - n) // 2`` for a win with its ``n``-th stone),
negative for a loss, 0 for a draw. Other sizes are the game ``connect4:WIDTHxHEIGHT``.

>>> from negamax.search import solve
>>> game = Connect4Game()
>>> position = game.new_position("44455554221")
>>> game.game_score(position, solve(position).score)
-15
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

from negamax.core.errors import IllegalMoveError, InvalidPositionError
from negamax.core.game import Position
from negamax.core.rules import BaseGame
from negamax.core.score import DRAW, WIN, distance_to_pons
from negamax.games.connect4.board import (
    STANDARD,
    Geometry,
    has_four_on,
    mirror,
    mirror_on,
    parse_size,
    winning_cells_on,
)

COLUMN_LETTERS = "123456789abcdefghijklmnopqrstuvwxyz"
"""How columns are written: 1-9, then a-z from the tenth on (a board is at most 32 wide)."""
COMPILED_KEY_BITS = 64
"""The compiled solver's table tells positions apart by keys of at most 64 bits (see
``negamax.search.compiled.placement_kernel``): boards of at most 64 bits with their
sentinel row (7x6 uses 49, 8x7 all 64)."""
COMPILED_MAX_WIDTH = 15
"""...and orders at most 15 columns (a table entry keeps the best column's slot + 1 in 4
bits)."""
COMPILED_SHIFT_LIMIT = 64
"""Compiled shifts of 64 bits or more are undefined (Python's are exact)."""


class Connect4Position:
    """A Connect 4 position on any board size (the class says which: its ``geometry`` and
    the masks that follow from it); every method speaks for the side to move. The
    pure-Python search runs on it; the subclasses add the compiled forms.

    Finding immediate wins and threats needs the cells that would complete four for each
    player. A child position reuses what its parent computed: its own winning cells are
    the parent's opponent's (those stones did not move), and the parent's threat scoring
    already computed the mover's cells after each move. They are kept per ply (index =
    stones played), tagged with the key of the position they belong to.
    """

    __slots__ = ("after", "after_key", "current", "mask", "mine", "moves", "theirs")
    geometry: ClassVar[Geometry] = STANDARD
    stride: ClassVar[int] = STANDARD.stride
    cells: ClassVar[int] = STANDARD.cells
    bottom: ClassVar[int] = STANDARD.bottom
    board: ClassVar[int] = STANDARD.board
    column_masks: ClassVar[tuple[int, ...]] = STANDARD.column_masks
    centre_first_masks: ClassVar[tuple[int, ...]] = tuple(STANDARD.column_masks[c] for c in STANDARD.centre_first)

    def __init__(self, current: int = 0, mask: int = 0, moves: int = 0) -> None:
        self.current = current
        self.mask = mask
        self.moves = moves
        plies = self.cells + 2
        # Winning cells (not yet masked by the stones) of the side to move and of the
        # opponent at each ply, or -1 when not known.
        self.mine = [-1] * plies
        self.theirs = [-1] * plies
        # At each ply: the key of the position scored there, and move -> mover's cells after it.
        self.after_key = [-1] * plies
        self.after: list[dict[int, int]] = [{} for _ in range(plies)]

    @staticmethod
    def reflect(bits: int) -> int:
        """The board reflected left to right (the subclass of each size binds its own)."""
        return mirror(bits)

    def plies_left(self) -> int:
        """The empty cells: the most plies the game can still last (``HasLength``)."""
        return self.cells - self.moves

    def legal_moves(self) -> list[int]:
        possible = (self.mask + self.bottom) & self.board
        return [possible & column for column in self.centre_first_masks if possible & column]

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
        return self.moves == self.cells or has_four_on(self.current ^ self.mask, self.stride)

    def terminal_value(self) -> int:
        return -WIN if has_four_on(self.current ^ self.mask, self.stride) else DRAW

    def evaluate(self) -> int:
        """Open winning cells of the side to move minus the opponent's."""
        free = self.board ^ self.mask
        return (self._mine() & free).bit_count() - (self._theirs() & free).bit_count()

    def _mine(self) -> int:
        cells = self.mine[self.moves]
        if cells < 0:
            cells = self.mine[self.moves] = winning_cells_on(self.current, 0, self.stride, self.board)
        return cells

    def _theirs(self) -> int:
        cells = self.theirs[self.moves]
        if cells < 0:
            cells = self.theirs[self.moves] = winning_cells_on(self.current ^ self.mask, 0, self.stride, self.board)
        return cells

    def winning_move_exists(self) -> bool:
        return bool(self._mine() & (self.mask + self.bottom) & self.board)

    def key(self) -> int:
        return self.current + self.mask

    def player(self) -> int:
        return self.moves & 1

    def copy(self) -> Connect4Position:
        return type(self)(self.current, self.mask, self.moves)

    def canonical_key(self) -> int:
        key = self.current + self.mask
        return min(key, self.reflect(key))

    def column_move(self, column: int) -> int:
        """The cell a stone dropped in ``column`` (0-based) fills, or 0 if it is full."""
        return (self.mask + self.bottom) & self.column_masks[column]

    def safe_moves(self) -> list[int] | None:
        """Pons' non-losing moves, ordered by the number of winning cells they create."""
        current, mask, ply = self.current, self.mask, self.moves
        stride, board = self.stride, self.board
        free = board ^ mask
        possible = (mask + self.bottom) & board
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
        for column in self.centre_first_masks:
            move = possible & column
            if move:
                cells = after[move] = winning_cells_on(current | move, 0, stride, board)
                scored.append(((cells & free).bit_count(), move))
        self.after[ply] = after
        self.after_key[ply] = current + mask
        scored.sort(key=_first, reverse=True)  # stable: ties stay centre first
        return [move for _, move in scored]

    def __repr__(self) -> str:
        return f"{type(self).__name__}(moves={self.moves}, key={self.key()})"


class CompiledConnect4Position(Connect4Position):
    """A position of a board the compiled searches take (at most 64 bits, 15 columns): the
    exact solver and the search to a depth or time."""

    __slots__ = ()

    def placement_form(self) -> tuple[Any, int, int, int]:
        """(spec, current, mask, moves) for the compiled solver (imports numba)."""
        return _compiled_spec(self.geometry), self.current, self.mask, self.moves

    def move_list_form(self) -> tuple[Any, Any]:
        """(rules, state) for the compiled search to a depth or time (imports numba)."""
        from negamax.games.connect4.compiled import RULES, state_for

        return RULES, state_for(self.geometry, self.current, self.mask, self.moves)

    def moves_from_codes(self, codes: Sequence[int]) -> list[int]:
        """The compiled search's codes are the columns plus one."""
        board = self.copy()
        moves = []
        for code in codes:
            column = int(code) - 1
            if not 0 <= column < self.geometry.width:
                break
            move = board.column_move(column)
            if not move or board.is_terminal():
                break
            moves.append(move)
            board.play(move)
        return moves


class Connect4(CompiledConnect4Position):
    """A position on the standard 7x6 board.

    Bit layout (Pons' "Solving Connect 4"): column ``c`` owns bits ``7c .. 7c+6``; bit
    ``7c`` is its bottom cell and bit ``7c+6`` a sentinel that is always empty. A position
    is two numbers: ``mask``, every stone, and ``current``, the stones of the side to move;
    ``current + mask`` is a unique key. A move is the one-bit board of the cell it fills.
    """

    __slots__ = ()


def _first(pair: tuple[int, int]) -> int:
    return pair[0]


def compiled_solver_takes(geometry: Geometry) -> bool:
    """Whether the compiled solver takes boards of this size (whose shifts, up to three
    times a diagonal's, also stay within 64 bits)."""
    return (
        geometry.bits <= COMPILED_KEY_BITS
        and geometry.width <= COMPILED_MAX_WIDTH
        and 3 * (geometry.stride + 1) < COMPILED_SHIFT_LIMIT
    )


@functools.cache
def position_class(geometry: Geometry) -> type[Connect4Position]:
    """The position class of a board size: ``Connect4`` for 7x6; for another size, a
    subclass bound to its masks, with the compiled solver's form when the board fits it."""
    if geometry == STANDARD:
        return Connect4
    base = CompiledConnect4Position if compiled_solver_takes(geometry) else Connect4Position
    width, stride = geometry.width, geometry.stride
    attributes: dict[str, Any] = {
        "__slots__": (),
        "__module__": __name__,
        "geometry": geometry,
        "stride": stride,
        "cells": geometry.cells,
        "bottom": geometry.bottom,
        "board": geometry.board,
        "column_masks": geometry.column_masks,
        "centre_first_masks": tuple(geometry.column_masks[column] for column in geometry.centre_first),
        "reflect": staticmethod(functools.partial(mirror_on, width=width, stride=stride)),
    }
    return type(f"Connect4_{geometry.name}", (base,), attributes)


def column_of(position: Connect4Position, move: int) -> int:
    """The column (0-based) of a move's cell."""
    return (move.bit_length() - 1) // position.stride


def cell_rows(position: Connect4Position) -> list[list[str]]:
    """The board's rows from the top down: "X" for the first player's discs, "O" for the
    second's, "" for an empty cell."""
    geometry = position.geometry
    first = position.current if position.moves % 2 == 0 else position.current ^ position.mask
    rows = []
    for row in range(geometry.height - 1, -1, -1):
        cells = []
        for column in range(geometry.width):
            bit = 1 << (column * geometry.stride + row)
            cells.append("" if not position.mask & bit else "X" if first & bit else "O")
        rows.append(cells)
    return rows


class Connect4Game(BaseGame):
    """Connect 4 on a board of ``size`` (``"WIDTHxHEIGHT"``; 7x6 by default)."""

    def __init__(self, size: str | None = None) -> None:
        self.geometry = STANDARD if size is None else parse_size(size)
        self.position_type = position_class(self.geometry)
        width, height = self.geometry.width, self.geometry.height
        self.columns = COLUMN_LETTERS[:width]
        last = self.columns[-1]
        if self.geometry == STANDARD:
            self.name = "connect4"
            self.description = "Connect 4, 7x6, positions and scores in Pascal Pons' notation"
        else:
            self.name = f"connect4:{self.geometry.name}"
            self.description = f"Connect 4 on a board {width} wide and {height} high, scored as Pons scores 7x6"
        self.position_help = f"the columns played (1-{last}) from the empty board, e.g. {self.columns[width // 2] * 2}"

    def new_position(self, text: str | None = None) -> Connect4Position:
        text = (text or "").strip()
        position = self.position_type()
        if text.lower() == "start":
            return position
        if "/" in text:
            return self._from_board(text)
        for index, char in enumerate(text.lower()):
            column = self.columns.find(char)
            if column < 0:
                raise InvalidPositionError(
                    f"{self.name} position {text!r}: character {index + 1} ({char!r}) is not a column"
                    f" 1-{self.columns[-1]}"
                )
            move = position.column_move(column)
            if not move:
                raise InvalidPositionError(
                    f"{self.name} position {text!r}: move {index + 1} plays in full column {char}"
                )
            if winning_cells_on(position.current, position.mask, position.stride, position.board) & move:
                raise InvalidPositionError(
                    f"{self.name} position {text!r}: move {index + 1} (column {char}) wins; the game would be over"
                )
            position.play(move)
        return position

    def _from_board(self, text: str) -> Connect4Position:
        """Read the board picture ``position_text`` writes: rows top first, ``/`` between."""
        geometry = self.geometry
        rows = [row.replace(" ", "") for row in text.split("/")]
        if rows and rows[-1].lower() == self.columns:
            rows.pop()
        if len(rows) != geometry.height or any(len(row) != geometry.width for row in rows):
            raise InvalidPositionError(
                f"{self.name} board {text!r}: expected {geometry.height} rows of {geometry.width} cells"
            )
        first = second = 0
        for row_index, row in enumerate(rows):
            row_number = geometry.height - 1 - row_index
            for column, char in enumerate(row.upper()):
                bit = 1 << (column * geometry.stride + row_number)
                if char == "X":
                    first |= bit
                elif char == "O":
                    second |= bit
                elif char != ".":
                    raise InvalidPositionError(f"{self.name} board {text!r}: {char!r} is not X, O or .")
        mask = first | second
        for column in geometry.column_masks:
            stones = mask & column
            if stones & (stones + (column & geometry.bottom)):
                raise InvalidPositionError(f"{self.name} board {text!r}: stones float above empty cells")
        moves = mask.bit_count()
        if first.bit_count() - second.bit_count() not in (0, 1):
            raise InvalidPositionError(
                f"{self.name} board {text!r}: X moves first, so X has as many stones as O or one more"
            )
        if has_four_on(first, geometry.stride) or has_four_on(second, geometry.stride):
            raise InvalidPositionError(f"{self.name} board {text!r}: the game is already over")
        current = first if moves % 2 == 0 else second
        return self.position_type(current, mask, moves)

    def parse_move(self, position: Position[Any], text: str) -> int:
        assert isinstance(position, Connect4Position)
        text = text.strip().lower()
        if len(text) != 1 or text not in self.columns:
            raise IllegalMoveError(f"{text!r} is not a column: type one of 1-{self.columns[-1]}")
        if position.is_terminal():
            raise IllegalMoveError("the game is over")
        move = position.column_move(self.columns.index(text))
        if not move:
            raise IllegalMoveError(f"column {text} is full")
        return move

    def move_text(self, position: Position[Any], move: Hashable) -> str:
        assert isinstance(position, Connect4Position) and isinstance(move, int)
        return self.columns[column_of(position, move)]

    def position_text(self, position: Position[Any]) -> str:
        """The board as a string of rows (Pons' moves cannot be recovered from bitboards)."""
        return self.render(position).replace("\n", "/")

    def render(self, position: Position[Any]) -> str:
        assert isinstance(position, Connect4Position)
        rows = [" ".join(cell or "." for cell in cells) for cells in cell_rows(position)]
        rows.append(" ".join(self.columns))
        return "\n".join(rows)

    def book_key(self, position: Position[Any]) -> tuple[str, int]:
        """The smaller of the position's key and its mirror image's; symmetry 1 is the mirror."""
        assert isinstance(position, Connect4Position)
        key = position.key()
        reflected = position.reflect(key)
        return (str(reflected), 1) if reflected < key else (str(key), 0)

    def symmetric_move_text(self, text: str, symmetry: int) -> str:
        if not symmetry:
            return text
        return self.columns[len(self.columns) - 1 - self.columns.index(text.lower())]

    def game_score(self, position: Position[Any], score: int) -> int:
        """Pons' score: ``(cells + 2 - n) // 2`` for a win with the game's ``n``-th stone
        (on 7x6: 22 minus the stones the winner has played), signed for the side to move."""
        assert isinstance(position, Connect4Position)
        return distance_to_pons(score, position.cells, position.moves)


@functools.cache
def _compiled_spec(geometry: Geometry) -> Any:
    from negamax.games.connect4.compiled import spec_for  # imports numba: only when the compiled path runs

    return spec_for(geometry)
