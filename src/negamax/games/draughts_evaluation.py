"""Draughts' evaluation, shared by the game (``draughts``) and its compiled primitives
(``draughts_compiled``): a man's worth by the rows it has advanced and its file, a king's,
and the side to move's bonus (weights fitted in ``benchmarks/fit_draughts.py``).
"""

from __future__ import annotations

import functools

MAN = 100
KING = 326
ADVANCE = (7, 3, 4, 9, 9, 2, 3, 23, 40)
"""A man's bonus by the rows it has advanced from its own back row (0: still guarding it)."""
FILE = (0, 1, 1, 2, 4)
"""A man's bonus by its distance from the nearer edge file."""
TEMPO = 4


class ManWeights:
    """Per-square worth of a man on a board of ``squares`` dark squares, for White's men
    (Black's are mirrored); a square's row counts from Black's back row."""

    def __init__(self, squares: int) -> None:
        rows = int((2 * squares) ** 0.5)
        per_row = rows // 2
        self.white_man = [0] * squares
        self.black_man = [0] * squares
        for square in range(squares):
            row = square // per_row  # 0: Black's back row, rows - 1: White's
            column = 2 * (square % per_row) + (1 if row % 2 == 0 else 0)
            file = FILE[min(column, rows - 1 - column, len(FILE) - 1)]
            white = ADVANCE[min(rows - 1 - row, len(ADVANCE) - 1)]
            black = ADVANCE[min(row, len(ADVANCE) - 1)]
            self.white_man[square] = MAN + white + file
            self.black_man[square] = MAN + black + file


@functools.cache
def weights_for(squares: int) -> ManWeights:
    """The weights of a board of ``squares`` dark squares (made once a size)."""
    return ManWeights(squares)
