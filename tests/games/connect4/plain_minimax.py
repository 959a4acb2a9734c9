"""Connect 4 solved by plain memoised minimax, written apart from the library (it shares no
code with the game or the solver): the independent check of the solver's rules (dead
stones in its keys, the claimeven ceiling) on boards small enough to solve this way."""

from __future__ import annotations

import functools

Columns = tuple[str, ...]
"""A position: each column's stones from the bottom, ``"x"`` the side to move's and ``"o"``
the other side's."""


class PlainConnect4:
    """Exact values of the positions of one board size, in Pons' scores: a win with the
    ``n``-th stone of a board of ``C`` cells scores ``(C + 2 - n) // 2`` for the winner."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height, self.cells = width, height, width * height
        steps = ((0, 1), (1, 0), (1, 1), (1, -1))
        lines = [
            [(column + k * right, row + k * up) for k in range(4)]
            for column in range(width)
            for row in range(height)
            for right, up in steps
        ]
        self.lines_through: dict[tuple[int, int], list[list[tuple[int, int]]]] = {}
        for line in lines:
            if all(0 <= column < width and 0 <= row < height for column, row in line):
                for cell in line:
                    self.lines_through.setdefault(cell, []).append(line)
        self.value = functools.cache(self._value)

    def columns(self, current: int, mask: int) -> Columns:
        """A position given as the library's bitboards (column ``c`` from bit
        ``c * (height + 1)``, the side to move's stones in ``current``)."""
        stride = self.height + 1
        return tuple(
            "".join(
                "x" if current >> (column * stride + row) & 1 else "o"
                for row in range(self.height)
                if mask >> (column * stride + row) & 1
            )
            for column in range(self.width)
        )

    def _value(self, columns: Columns) -> int:
        moves = sum(len(stones) for stones in columns)
        if moves == self.cells:
            return 0
        best = -self.cells
        for column, stones in enumerate(columns):
            if len(stones) == self.height:
                continue
            row = len(stones)

            def mine(cell: tuple[int, int], column: int = column, row: int = row) -> bool:
                if cell == (column, row):
                    return True
                other, other_row = cell
                return other_row < len(columns[other]) and columns[other][other_row] == "x"

            if any(all(mine(cell) for cell in line) for line in self.lines_through.get((column, row), [])):
                return (self.cells + 1 - moves) // 2
            after = tuple(
                stones.translate(SWAP) + ("o" if other == column else "") for other, stones in enumerate(columns)
            )
            best = max(best, -self.value(after))
        return best


SWAP = str.maketrans("xo", "ox")
"""The colours seen from the other side."""
