"""Draughts' evaluation, shared by the game (``draughts``) and its compiled primitives
(``compiled``): a man's worth by the rows it has advanced and its file, a king's,
the side to move's bonus (weights fitted in ``tools/fit_draughts.py``), and in
international draughts, a worth for the men's arrangement in each of sixteen
overlapping regions of 4x4 squares (``PATTERN_FILE``: 209,952 worths of 16 bits, 88 kB
compressed, fitted to dame-rs's scores in ``tools/fit_draughts_patterns.py``, then by
logistic regression on two million positions of the engine's self-play games in
``tools/train_draughts_patterns.py``, then again on 1.8 million more with 100,000 of them
searched at 300,000 nodes); in international draughts too, a king's worth by
its square and a bonus for a side's first king and each further one (52 worths in the same
file, fitted there to positions searched at 300,000 nodes: ``kings_bonus``), and the value
shrunk in the king endgames the FMJD's rule is about to draw and where a king holds the
side behind (``drawish``).
"""

from __future__ import annotations

import functools
from pathlib import Path

MAN = 100
KING = 326
ADVANCE = (7, 3, 4, 9, 9, 2, 3, 23, 40)
"""A man's bonus by the rows it has advanced from its own back row (0: still guarding it)."""
FILE = (0, 1, 1, 2, 4)
"""A man's bonus by its distance from the nearer edge file."""
TEMPO = 4
REGION_SIDE = 4
"""A region is 4 rows by 4 columns: 8 dark squares, each empty (or a king), a White man or
a Black man, so 3**8 arrangements."""
ARRANGEMENTS = 3**8
PATTERN_VARIANTS = frozenset({"draughts"})
"""The variants whose evaluation adds the regions' worths (fitted to international
draughts; the 8x8 boards have no regions, and Frisian's orthogonal captures change what an
arrangement is worth)."""
PATTERN_FILE = Path(__file__).with_name("patterns.npz")
"""The fitted worths of every region's arrangements (``patterns``, from White's side: with
all ``FULL_MEN`` men on the board, then with none), of a king on the 10x10 board
(``king``), what a White king adds to that on each square (``king_squares``; a Black
king on the square the board turned round puts it on), and what a side's first king and
each further one add (``king_counts``)."""
FULL_MEN = 40
"""The men at the start: an arrangement's worth moves from its first fitted worth to its
second as the men come off the board (kings do not count)."""


KING_ENDGAME_VARIANTS = frozenset({"draughts"})
"""The variants whose evaluation knows the FMJD's king endgames (international draughts:
``drawish``)."""
LONG_DIAGONAL = (4, 9, 13, 18, 22, 27, 31, 36, 40, 45)
"""The 10x10 board's long diagonal, squares 5 to 46: a lone king on it holds three kings."""
LONG_DIAGONAL_MASK = sum(1 << square for square in LONG_DIAGONAL)
DRAWISH_SHRINK = 8
"""How much ``drawish`` shrinks a value the rules are about to call a draw, or the lead of
three pieces or fewer against a king."""
KINGS_EVEN_SHRINK = 2
"""How much ``drawish`` shrinks a lead of a man or less with the kings even."""


def _rows(squares: int) -> int:
    return int((2 * squares) ** 0.5)


def square_place(squares: int, square: int) -> tuple[int, int]:
    """The row (0: Black's back row) and column of ``square`` on a board of ``squares``."""
    per_row = _rows(squares) // 2
    row = square // per_row
    return row, 2 * (square % per_row) + (1 if row % 2 == 0 else 0)


def regions(squares: int) -> list[list[int]]:
    """The squares of each region of the 10x10 board, in the order of their digits: regions
    start on every other row and column, so each square is in one to four of them."""
    if squares != 50:
        return []
    starts = range(0, _rows(squares) - REGION_SIDE + 1, 2)
    places = [square_place(squares, square) for square in range(squares)]

    def inside(place: tuple[int, int], top: int, left: int) -> bool:
        return top <= place[0] < top + REGION_SIDE and left <= place[1] < left + REGION_SIDE

    corners = [(top, left) for top in starts for left in starts]
    return [[square for square, place in enumerate(places) if inside(place, *corner)] for corner in corners]


def region_indices(regions: list[list[int]], white_men: int, black_men: int) -> list[int]:
    """Each region's arrangement of these men (bit ``s``: a man on square ``s``) as an index:
    a digit a square, 1 for a White man and 2 for a Black one, the region's first square
    lowest."""
    indices = []
    for region in regions:
        index = 0
        digit = 1
        for square in region:
            if white_men >> square & 1:
                index += digit
            elif black_men >> square & 1:
                index += 2 * digit
            digit *= 3
        indices.append(index)
    return indices


class ManWeights:
    """Per-square worth of a man on a board of ``squares`` dark squares, for White's men
    (Black's are mirrored); a square's row counts from Black's back row. With
    ``patterns``, the regions' fitted arrangements too (the 10x10 board only)."""

    def __init__(self, squares: int, patterns: bool = False) -> None:
        rows = _rows(squares)
        self.white_man = [0] * squares
        self.black_man = [0] * squares
        for square in range(squares):
            row, column = square_place(squares, square)
            file = FILE[min(column, rows - 1 - column, len(FILE) - 1)]
            white = ADVANCE[min(rows - 1 - row, len(ADVANCE) - 1)]
            black = ADVANCE[min(row, len(ADVANCE) - 1)]
            self.white_man[square] = MAN + white + file
            self.black_man[square] = MAN + black + file
        self.king = KING
        self.white_king = [KING] * squares
        """A White king's worth on each square (Black's: ``black_king``, mirrored)."""
        self.black_king = [KING] * squares
        self.first_king = self.further_king = 0
        """What a side's first king adds to its worth, and each further one (``kings_bonus``)."""
        self.regions = regions(squares) if patterns else []
        self.patterns: list[list[list[int]]] = []
        if self.regions:
            import numpy as np

            with np.load(PATTERN_FILE) as fitted:
                worths = fitted["patterns"]
                expected = (2, len(self.regions), ARRANGEMENTS)
                if worths.shape != expected:
                    raise ValueError(f"{PATTERN_FILE.name}: worths of shape {worths.shape}, not {expected}")
                self.patterns = worths.astype(int).tolist()
                self.king = int(fitted["king"])
                on_square = fitted["king_squares"].astype(int).tolist() if "king_squares" in fitted else [0] * squares
                self.white_king = [self.king + on_square[square] for square in range(squares)]
                self.black_king = [self.king + on_square[squares - 1 - square] for square in range(squares)]
                if "king_counts" in fitted:
                    self.first_king, self.further_king = (int(bonus) for bonus in fitted["king_counts"])

    def arrangement(self, white_men: int, black_men: int) -> int:
        """The regions' worth for these men (bit ``s``: a man on square ``s``), White's side:
        the two fitted worths blended by the men left."""
        indices = region_indices(self.regions, white_men, black_men)
        full_board, bare_board = self.patterns
        full = sum(worths[index] for worths, index in zip(full_board, indices, strict=True))
        bare = sum(worths[index] for worths, index in zip(bare_board, indices, strict=True))
        return blend(full, bare, white_men.bit_count() + black_men.bit_count())


def kings_bonus(first: int, further: int, white_kings: int, black_kings: int) -> int:
    """What the kings counted add, from White's side: ``first`` for a side's first king,
    ``further`` for each of its others (the first king decides more than the next ones)."""
    white = (first if white_kings else 0) + further * max(white_kings - 1, 0)
    black = (first if black_kings else 0) + further * max(black_kings - 1, 0)
    return white - black


def blend(full: int, bare: int, men: int) -> int:
    """The regions' worth with ``men`` men on the board, from their worths with all and with
    none; rounded towards zero, so that the colours swapped give the same worth negated."""
    men = min(men, FULL_MEN)
    total = full * men + bare * (FULL_MEN - men)
    return total // FULL_MEN if total >= 0 else -(-total // FULL_MEN)


def drawish(
    value: int,
    white_men: int,
    white_kings: int,
    black_men: int,
    black_kings: int,
    white_held: bool,
    black_held: bool,
) -> int:
    """``value`` shrunk towards zero where a king makes the side ahead's lead hard to turn
    into a win (rounded towards zero, so the colours swapped give the same worth negated).

    By ``DRAWISH_SHRINK``: the king endgames the FMJD's rule draws within 5 moves (a lone
    king against one or two pieces with a king) or 16 (against three of them, when the lone
    king holds the long diagonal, where it cannot be caught; ``white_held``,
    ``black_held``: a king of that colour is on it); and any other side ahead with three
    pieces or fewer against a king. Against three off the long diagonal the lone king is
    usually caught in time, and the value stands. By half (``KINGS_EVEN_SHRINK``): kings
    even on both sides, and the men within one of each other."""
    # (one function, no calls: the compiled evaluation inlines it as it is)
    shrink = 1
    if white_men == 0 and white_kings == 1 and black_kings >= 1 and 1 <= black_men + black_kings <= 3:
        if black_men + black_kings < 3 or white_held:
            shrink = DRAWISH_SHRINK
    elif black_men == 0 and black_kings == 1 and white_kings >= 1 and 1 <= white_men + white_kings <= 3:
        if white_men + white_kings < 3 or black_held:
            shrink = DRAWISH_SHRINK
    elif (value > 0 and black_kings) or (value < 0 and white_kings):
        ahead_men, ahead_kings, behind_men, behind_kings = white_men, white_kings, black_men, black_kings
        if value < 0:
            ahead_men, ahead_kings, behind_men, behind_kings = black_men, black_kings, white_men, white_kings
        if ahead_men + ahead_kings <= 3:
            shrink = DRAWISH_SHRINK
        elif ahead_kings == behind_kings and abs(ahead_men - behind_men) <= 1:
            shrink = KINGS_EVEN_SHRINK
    return value // shrink if value >= 0 else -(-value // shrink)


@functools.cache
def weights_for(squares: int, patterns: bool = False) -> ManWeights:
    """The weights of a board of ``squares`` dark squares (made once a size)."""
    return ManWeights(squares, patterns)
