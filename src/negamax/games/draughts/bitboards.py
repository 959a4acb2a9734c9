"""Draughts' bitboards: each side's men and kings as bit masks, kept by make and unmake
beside the mailbox (``compiled``), so that the move generator asks "which pieces can take,
which men can step" of a whole side at once, in a few shifts and ands, instead of visiting
every square of the board twice per node. Most positions have no capture, so the test that
finds none must cost next to nothing. Most captures take one piece, so those are written
here too (``single_jumps``); the capture search (``compiled._jumps``) stays on the mailbox,
started only from the pieces that may take more, from the flying kings, and in Frisian
(which ranks captures by their worth, and takes along rows and columns too).

The layout: square ``s`` (py-draughts' numbering minus one, ``P`` dark squares a row: 5 on
10x10, 4 on 8x8) is bit ``s + s // (2 * P)``, so every two rows are followed by one unused
"ghost" bit. On 10x10::

    row 0:  bits  0- 4      row 1:  bits  5- 9      ghost: 10
    row 2:  bits 11-15      row 3:  bits 16-20      ghost: 21   ...   ghost: 54

Then every diagonal neighbour is the same shift on every square: ``P`` and ``P + 1`` bits
on (towards row 9, Black's way) and back (towards row 0, White's way). A shift that would
leave the board by a side lands on a ghost, which is never set; one that leaves it by the
top or the bottom falls off the mask or out of ``BOARD_BITS``. On the 10x10 board Frisian
also takes along columns, two rows (``2 P + 1`` bits) over and four beyond, and along rows,
one bit over and two beyond, which stays in the row only from the squares
``ROOM_TOWARD_HIGHER`` and ``ROOM_TOWARD_LOWER`` name.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from negamax.core import compiled as _compiled  # noqa: F401 (numba's cache locators, before the first @njit)

BOARD_SIZES = (10, 8, 10)
"""The board's side for each ``geometry``: 0 the 10x10 board with the fitted regions'
worths (international), 1 the 8x8 board, 2 the 10x10 board without them (Frisian, whose
rules the regions were not fitted to)."""
PER_ROW = np.array([size // 2 for size in BOARD_SIZES], dtype=np.int64)
"""Dark squares a row, which is also the shorter diagonal shift."""
MOST_SQUARES = 50


def bit_of_square(square: int, per_row: int) -> int:
    """The bit of ``square`` on a board of ``per_row`` dark squares a row: one ghost bit
    after every two rows."""
    return square + square // (2 * per_row)


def _tables() -> tuple[Any, ...]:
    bit_of = np.zeros((len(BOARD_SIZES), MOST_SQUARES), dtype=np.int64)
    square_of_bit = np.full((len(BOARD_SIZES), 64), -1, dtype=np.int64)
    board_bits = np.zeros(len(BOARD_SIZES), dtype=np.int64)
    room_toward_higher = np.zeros(len(BOARD_SIZES), dtype=np.int64)
    room_toward_lower = np.zeros(len(BOARD_SIZES), dtype=np.int64)
    crown_rows = np.zeros((len(BOARD_SIZES), 2), dtype=np.int64)
    for geometry, size in enumerate(BOARD_SIZES):
        per_row = size // 2
        for square in range(size * size // 2):
            bit = bit_of_square(square, per_row)
            bit_of[geometry, square] = bit
            square_of_bit[geometry, bit] = square
            board_bits[geometry] |= 1 << bit
            if square % per_row <= per_row - 3:
                room_toward_higher[geometry] |= 1 << bit
            if square % per_row >= 2:
                room_toward_lower[geometry] |= 1 << bit
            if square // per_row in (0, size - 1):
                crown_rows[geometry, 0 if square < per_row else 1] |= 1 << bit
    return bit_of, square_of_bit, board_bits, room_toward_higher, room_toward_lower, crown_rows


BIT_OF, SQUARE_OF_BIT, BOARD_BITS, ROOM_TOWARD_HIGHER, ROOM_TOWARD_LOWER, CROWN_ROWS = _tables()
"""For each geometry: each square's bit, each bit's square (-1 for ghosts and bits past the
board), the mask of the board's squares, those of the squares with two more squares after
them in their row (a Frisian piece takes along the row towards higher bits from there) or
before them (towards lower bits), and each side's far row (White's is row 0)."""

DE_BRUIJN = 0x022FDD63CC95386D
"""A de Bruijn sequence of order 6: the top six bits of it times a power of two differ for
every power, so ``BIT_INDEX`` names the power from them in one multiplication."""
BIT_INDEX = np.full(64, -1, dtype=np.int64)
for _index in range(64):
    BIT_INDEX[(((1 << _index) * DE_BRUIJN) >> 58) & 63] = _index
assert (BIT_INDEX >= 0).all()  # every power named once


@njit(cache=True, inline="always")
def lowest_bit(bits: int) -> int:
    """The index of the lowest set bit of ``bits`` (not 0)."""
    return BIT_INDEX[(((bits & -bits) * DE_BRUIJN) >> 58) & 63]


@njit(cache=True, inline="always")
def bits_of(geometry: int, squares: int) -> int:
    """The bits of a mask of squares (bit ``s`` for square ``s``, as a move's pieces taken):
    the ghost bit inserted after every two rows."""
    pair_width = 2 * PER_ROW[geometry]
    pair_mask = (1 << pair_width) - 1
    bits, shift = 0, 0
    while squares:
        bits |= (squares & pair_mask) << shift
        squares >>= pair_width
        shift += pair_width + 1
    return bits


@njit(cache=True, inline="always")
def takers(geometry: int, side: int, pieces: int, theirs: int, empty: int, backward: bool, orthogonal: bool) -> int:
    """Which of ``pieces`` (of ``side``, jumping one square: men, or kings that do not fly)
    can take one of ``theirs``: a neighbour of theirs with an empty square beyond. Forward
    only unless ``backward``; along rows and columns too if ``orthogonal`` (Frisian)."""
    found = 0
    narrow = PER_ROW[geometry]
    for shift in (narrow, narrow + 1):
        # towards row 0 (White's forward): their piece ``shift`` bits lower, empty beyond
        toward_lower = pieces & (theirs << shift) & (empty << (2 * shift))
        toward_higher = pieces & (theirs >> shift) & (empty >> (2 * shift))
        if backward or side == 0:
            found |= toward_lower
        if backward or side == 1:
            found |= toward_higher
    if orthogonal:
        column = 2 * narrow + 1  # the square two rows on, in the same column
        found |= pieces & (theirs << column) & (empty << (2 * column))
        found |= pieces & (theirs >> column) & (empty >> (2 * column))
        found |= pieces & ROOM_TOWARD_HIGHER[geometry] & (theirs >> 1) & (empty >> 2)
        found |= pieces & ROOM_TOWARD_LOWER[geometry] & (theirs << 1) & (empty << 2)
    return found


@njit(cache=True, inline="always")
def steppers(geometry: int, side: int, men: int, kings: int, empty: int) -> int:
    """The men of ``side`` that can step forward, and the kings that can step any way, onto
    an empty square."""
    narrow = PER_ROW[geometry]
    toward_lower = (empty << narrow) | (empty << (narrow + 1))  # the squares with an empty one that way
    toward_higher = (empty >> narrow) | (empty >> (narrow + 1))
    return (men & (toward_lower if side == 0 else toward_higher)) | (kings & (toward_lower | toward_higher))


@njit(cache=True)
def quiet_moves(geometry: int, side: int, men: int, kings: int, empty: int, flying: bool, out: Any, end: int) -> int:
    """Writes the moves without a capture of ``side``'s ``men`` and ``kings`` from
    ``out[end]`` on; returns the new end. Men step forward, kings any way, sliding over empty
    squares if ``flying``. The order is the mailbox generator's, square by square and then
    by ``STEPS``: the search's move ordering breaks its ties by it, so its node counts, a
    signature of the engine, stay as they were."""
    narrow = PER_ROW[geometry]
    movers = steppers(geometry, side, men, kings, empty)
    while movers:
        bit = lowest_bit(movers)
        movers &= movers - 1
        origin = SQUARE_OF_BIT[geometry, bit]
        if not (kings >> bit) & 1:  # a man: its two forward steps, in the order of ``STEPS``
            target = bit - narrow - 1 if side == 0 else bit + narrow
            if target >= 0 and (empty >> target) & 1:
                out[end] = origin | (SQUARE_OF_BIT[geometry, target] << 6)
                end += 1
            target += 1  # (not below bit 0: a man of White's never stands on row 0)
            if (empty >> target) & 1:
                out[end] = origin | (SQUARE_OF_BIT[geometry, target] << 6)
                end += 1
            continue
        for step in (-narrow - 1, -narrow, narrow, narrow + 1):  # the mailbox's -13, -11, +11, +13
            target = bit + step
            # (empty has no bit past the board's last, so a walk stops before bit 64)
            while target >= 0 and (empty >> target) & 1:
                out[end] = origin | (SQUARE_OF_BIT[geometry, target] << 6)
                end += 1
                if not flying:
                    break
                target += step
    return end


@njit(cache=True)
def single_jumps(
    geometry: int, side: int, bit: int, theirs: int, empty: int, backward: bool, crowning: bool, out: Any, end: int
) -> int:
    """Writes the captures of the piece on ``bit`` (of ``side``, jumping one square
    diagonally: a man, or a king that does not fly) from ``out[end]`` on, in the order of
    ``STEPS``, if none of them can go on taking (nor is crowned on the way, if
    ``crowning``): returns the new end, or -1 if one can (the full capture search takes the
    piece then). Most captures are these."""
    narrow = PER_ROW[geometry]
    for step in (-narrow - 1, -narrow, narrow, narrow + 1):
        if not backward and (step < 0) != (side == 0):
            continue  # towards row 0 is White's forward
        victim, landing = bit + step, bit + 2 * step
        if not 0 <= landing < 64 or not (theirs >> victim) & 1 or not (empty >> landing) & 1:
            continue
        # from the landing, with its start square empty and the victim still there
        if (crowning and (CROWN_ROWS[geometry, side] >> landing) & 1) or takers(
            geometry, side, 1 << landing, theirs & ~(1 << victim), empty | (1 << bit), backward, False
        ):
            return -1
        taken = 1 << SQUARE_OF_BIT[geometry, victim]
        out[end] = SQUARE_OF_BIT[geometry, bit] | (SQUARE_OF_BIT[geometry, landing] << 6) | (taken << 12)
        end += 1
    return end
