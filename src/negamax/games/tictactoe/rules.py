"""Tic-tac-toe on cells 0-8 (row by row), X first.

A position is written either as the cells played, in order (``"048"``: X 0, O 4, X 8), or
as nine board characters row by row (``"x...o...x"``, with ``x``, ``o`` and ``.``).

The evaluation is the textbook one: lines still open for the side to move minus lines
still open for the opponent.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable
from typing import Any

from negamax.core.errors import IllegalMoveError, InvalidPositionError
from negamax.core.game import Position
from negamax.core.rules import BaseGame
from negamax.core.score import DRAW, WIN
from negamax.games.tictactoe.board import FULL, LINES, PREFERRED_ORDER, SYMMETRY_TABLES, has_line


class TicTacToe:
    """A tic-tac-toe position: two 9-bit sets and the number of stones played."""

    __slots__ = ("crosses", "noughts", "played")

    def __init__(self, crosses: int = 0, noughts: int = 0) -> None:
        self.crosses = crosses
        self.noughts = noughts
        self.played = (crosses | noughts).bit_count()

    # -- the Position protocol --------------------------------------------------------

    def plies_left(self) -> int:
        """The empty cells: the most plies the game can still last (``HasLength``)."""
        return 9 - self.played

    def legal_moves(self) -> list[int]:
        occupied = self.crosses | self.noughts
        return [cell for cell in range(9) if not occupied >> cell & 1]

    def play(self, move: int) -> None:
        if self.played & 1:
            self.noughts |= 1 << move
        else:
            self.crosses |= 1 << move
        self.played += 1

    def undo(self, move: int) -> None:
        self.played -= 1
        if self.played & 1:
            self.noughts &= ~(1 << move)
        else:
            self.crosses &= ~(1 << move)

    def is_terminal(self) -> bool:
        return self.played == 9 or has_line(self.last_mover_stones())

    def terminal_value(self) -> int:
        return -WIN if has_line(self.last_mover_stones()) else DRAW

    def evaluate(self) -> int:
        mine, theirs = self.mover_stones(), self.last_mover_stones()
        open_for_me = sum(1 for line in LINES if not line & theirs)
        open_for_them = sum(1 for line in LINES if not line & mine)
        return open_for_me - open_for_them

    def key(self) -> int:
        return self.crosses | self.noughts << 9

    def player(self) -> int:
        return self.played & 1

    def copy(self) -> TicTacToe:
        return TicTacToe(self.crosses, self.noughts)

    # -- capabilities -------------------------------------------------------------------

    def canonical_key(self) -> int:
        crosses, noughts = self.crosses, self.noughts
        return min(table[crosses] | table[noughts] << 9 for table in SYMMETRY_TABLES)

    def winning_move_exists(self) -> bool:
        mine, theirs = self.mover_stones(), self.last_mover_stones()
        return any(line & theirs == 0 and (line & mine).bit_count() == 2 for line in LINES)

    def safe_moves(self) -> list[int] | None:
        mine, theirs = self.mover_stones(), self.last_mover_stones()
        empty = FULL & ~(mine | theirs)
        if any(line & theirs == 0 and (line & mine).bit_count() == 2 for line in LINES):
            return None
        threats = 0
        for line in LINES:
            if line & mine == 0 and (line & theirs).bit_count() == 2:
                threats |= line & empty
        if threats & (threats - 1):
            return []  # two threats: any move loses at once
        if threats:
            return [threats.bit_length() - 1]
        return [cell for cell in PREFERRED_ORDER if empty >> cell & 1]

    def placement_form(self) -> tuple[Any, int, int, int]:
        """(spec, current, mask, moves) for the compiled solver (imports numba)."""
        return _compiled_spec(), self.mover_stones(), self.crosses | self.noughts, self.played

    # -- helpers ------------------------------------------------------------------------

    def mover_stones(self) -> int:
        return self.noughts if self.played & 1 else self.crosses

    def last_mover_stones(self) -> int:
        return self.crosses if self.played & 1 else self.noughts

    def __repr__(self) -> str:
        return f"TicTacToe({board_text(self)!r})"


def board_text(position: TicTacToe) -> str:
    return "".join(
        "x" if position.crosses >> cell & 1 else "o" if position.noughts >> cell & 1 else "." for cell in range(9)
    )


class TicTacToeGame(BaseGame):
    name = "tictactoe"
    description = "Tic-tac-toe, cells 0-8 row by row, X first"
    position_help = "cells played in order, e.g. 048, or nine board characters, e.g. x...o...."

    def new_position(self, text: str | None = None) -> TicTacToe:
        text = (text or "").strip().lower()
        if not text or text == "start":
            return TicTacToe()
        if len(text) == 9 and set(text) <= set("xo.-_"):
            return self._from_board(text)
        position = TicTacToe()
        for index, char in enumerate(text):
            if char not in "012345678":  # ASCII only: "¹".isdigit() is true, and int() refuses it
                raise InvalidPositionError(
                    f"tictactoe position {text!r}: character {index + 1} ({char!r}) is not a cell 0-8"
                )
            if position.is_terminal():
                raise InvalidPositionError(f"tictactoe position {text!r}: the game is over before move {index + 1}")
            cell = int(char)
            if cell not in position.legal_moves():
                raise InvalidPositionError(f"tictactoe position {text!r}: cell {cell} is played twice")
            position.play(cell)
        return position

    def _from_board(self, text: str) -> TicTacToe:
        crosses = sum(1 << cell for cell, char in enumerate(text) if char == "x")
        noughts = sum(1 << cell for cell, char in enumerate(text) if char == "o")
        count_x, count_o = crosses.bit_count(), noughts.bit_count()
        if count_x - count_o not in (0, 1):
            raise InvalidPositionError(
                f"tictactoe board {text!r}: X has {count_x} stones and O has {count_o}; X moves first"
            )
        if has_line(crosses) and has_line(noughts):
            raise InvalidPositionError(f"tictactoe board {text!r}: both players have a line")
        position = TicTacToe(crosses, noughts)
        if has_line(position.mover_stones()):
            raise InvalidPositionError(f"tictactoe board {text!r}: the side to move has already won")
        return position

    def parse_move(self, position: Position[Any], text: str) -> int:
        text = text.strip()
        if len(text) != 1 or text not in "012345678":
            raise IllegalMoveError(f"{text!r} is not a cell: type a digit 0-8")
        cell = int(text)
        if position.is_terminal():
            raise IllegalMoveError("the game is over")
        if cell not in position.legal_moves():
            raise IllegalMoveError(f"cell {cell} is already taken")
        return cell

    def move_text(self, position: Position[Any], move: Hashable) -> str:
        return str(move)

    def position_text(self, position: Position[Any]) -> str:
        assert isinstance(position, TicTacToe)
        return board_text(position)

    def render(self, position: Position[Any]) -> str:
        assert isinstance(position, TicTacToe)
        cells = [
            "X" if position.crosses >> cell & 1 else "O" if position.noughts >> cell & 1 else str(cell)
            for cell in range(9)
        ]
        rows = [" " + " | ".join(cells[row * 3 : row * 3 + 3]) for row in range(3)]
        board = "\n---+---+---\n".join(rows)
        turn = "X" if position.player() == 0 else "O"
        return f"{board}\n{turn} to move" if not position.is_terminal() else board


@functools.cache
def _compiled_spec() -> Any:
    from negamax.games.tictactoe.compiled import SPEC  # imports numba: only when the compiled path runs

    return SPEC
