"""Nim, normal play: take any number of objects from one heap; who takes the last one wins.

Positions are heap sizes separated by commas or spaces (``"3,4,5"``); a move is written
``heap:count`` with heaps numbered from 1 (``"2:3"`` takes 3 from the second heap). The
side to move wins exactly when the XOR of the heap sizes is not zero (Bouton, 1901).
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import Any

from negamax.core.errors import IllegalMoveError, InvalidPositionError
from negamax.core.game import Position
from negamax.core.rules import BaseGame
from negamax.core.score import WIN

NimMove = tuple[int, int]
"""(heap index from 0, number of objects taken)."""

MAX_HEAP = 1000
MAX_HEAPS = 100
"""The most heaps a position has: each position's moves are listed whole, and a line of a
search holds one list a ply (30,000 heaps grew by 70 MB a second)."""
SOLVABLE_STATES = 10**7
"""A position with more states below it than this (the product of its heaps plus one) is
not solved without a limit: minutes of pure Python at best (``refuse_unbounded_solve``)."""


class Nim:
    """Heap sizes and the player to move."""

    __slots__ = ("heaps", "turn")

    def __init__(self, heaps: list[int], turn: int = 0) -> None:
        self.heaps = list(heaps)
        self.turn = turn

    def legal_moves(self) -> list[NimMove]:
        # Big takes first: they end the game sooner, which orders wins well.
        return [(index, take) for index, size in enumerate(self.heaps) for take in range(size, 0, -1)]

    def play(self, move: NimMove) -> None:
        self.heaps[move[0]] -= move[1]
        self.turn ^= 1

    def undo(self, move: NimMove) -> None:
        self.heaps[move[0]] += move[1]
        self.turn ^= 1

    def is_terminal(self) -> bool:
        return not any(self.heaps)

    def terminal_value(self) -> int:
        return -WIN  # the opponent took the last object

    def evaluate(self) -> int:
        return 0

    def key(self) -> tuple[int, ...]:
        return tuple(self.heaps)

    def canonical_key(self) -> tuple[int, ...]:
        return tuple(sorted(self.heaps))

    def player(self) -> int:
        return self.turn

    def copy(self) -> Nim:
        return Nim(self.heaps, self.turn)

    @property
    def solvable(self) -> bool:
        """Whether a solve without a limit ends in reasonable time (``SOLVABLE_STATES``)."""
        states = 1
        for size in self.heaps:
            states *= size + 1
            if states > SOLVABLE_STATES:
                return False
        return True

    def __repr__(self) -> str:
        return f"Nim({self.heaps})"


class NimGame(BaseGame):
    name = "nim"
    description = "Nim, normal play: whoever takes the last object wins"
    position_help = "heap sizes, e.g. 3,4,5 (moves are heap:count, e.g. 2:3)"

    def new_position(self, text: str | None = None) -> Nim:
        text = (text or "").strip()
        if not text or text == "start":
            return Nim([3, 4, 5])
        parts = [part for part in re.split(r"[,\s]+", text) if part]
        shown = text if len(text) <= 40 else text[:37] + "..."
        # ASCII digits only ("²".isdigit() is true), and no more than a heap can hold: a
        # heap of 5,000 digits is refused before it is converted
        if not all(re.fullmatch(r"[0-9]+", part) for part in parts):
            raise InvalidPositionError(f"nim position {shown!r}: heaps must be whole numbers, e.g. 3,4,5")
        if len(parts) > MAX_HEAPS:
            raise InvalidPositionError(f"nim position {shown!r}: {len(parts):,} heaps; at most {MAX_HEAPS}")
        if any(len(part) > 9 or int(part) > MAX_HEAP for part in parts):
            raise InvalidPositionError(f"nim position {shown!r}: heaps hold at most {MAX_HEAP} objects")
        heaps = [int(part) for part in parts]
        return Nim(heaps)

    def parse_move(self, position: Position[Any], text: str) -> NimMove:
        assert isinstance(position, Nim)
        match = re.fullmatch(r"\s*([0-9]{1,9})\s*[:\s]\s*([0-9]{1,9})\s*", text)
        if not match:
            raise IllegalMoveError(f"{text!r} is not a move: type heap:count, e.g. 2:3")
        heap, take = int(match[1]), int(match[2])
        if not 1 <= heap <= len(position.heaps):
            raise IllegalMoveError(f"there is no heap {heap}; heaps are 1-{len(position.heaps)}")
        if not 1 <= take <= position.heaps[heap - 1]:
            raise IllegalMoveError(f"heap {heap} holds {position.heaps[heap - 1]}; take 1 to that many")
        return (heap - 1, take)

    def move_text(self, position: Position[Any], move: Hashable) -> str:
        assert isinstance(move, tuple)
        return f"{move[0] + 1}:{move[1]}"

    def position_text(self, position: Position[Any]) -> str:
        assert isinstance(position, Nim)
        return ",".join(str(size) for size in position.heaps)

    def render(self, position: Position[Any]) -> str:
        assert isinstance(position, Nim)
        lines = [f"heap {index + 1}: {'|' * size} ({size})" for index, size in enumerate(position.heaps)]
        return "\n".join(lines)
