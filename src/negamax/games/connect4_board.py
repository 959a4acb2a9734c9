"""Connect 4's board, shared by the game (``connect4``) and its compiled primitives
(``connect4_compiled``): the bit layout, the masks, and the rules of four in a row.

Bit layout (Pons' "Solving Connect 4"): column ``c`` owns bits ``7c .. 7c+6``; bit ``7c`` is
its bottom cell and bit ``7c+6`` is a sentinel that is always empty, so shifting a stone
up never carries it into the next column. The functions are plain integer arithmetic,
which the compiled module compiles as they are (a shift past bit 63 only loses bits that
the masks drop anyway).
"""

from __future__ import annotations

WIDTH = 7
HEIGHT = 6
STRIDE = HEIGHT + 1
CELLS = WIDTH * HEIGHT
BOTTOM = sum(1 << (column * STRIDE) for column in range(WIDTH))
BOARD = BOTTOM * ((1 << HEIGHT) - 1)
COLUMN_MASKS = tuple(((1 << HEIGHT) - 1) << (column * STRIDE) for column in range(WIDTH))
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)
CENTRE_FIRST_MASKS = tuple(COLUMN_MASKS[column] for column in CENTRE_FIRST)


def winning_cells(stones: int, mask: int) -> int:
    """Empty cells (playable or not) that would complete four for ``stones``."""
    # Unrolled: this is the solver's hottest function. Vertical: three stones below.
    found = (stones << 1) & (stones << 2) & (stones << 3)
    # Horizontal (shift 7), then the two diagonals (shifts 6 and 8). For each direction a
    # cell wins when it has 3 stones to one side, or 2 on one side and 1 on the other.
    left1, left2, left3 = stones << 7, stones << 14, stones << 21
    right1, right2, right3 = stones >> 7, stones >> 14, stones >> 21
    found |= (left1 & left2 & (left3 | right1)) | (right1 & right2 & (right3 | left1))
    left1, left2, left3 = stones << 6, stones << 12, stones << 18
    right1, right2, right3 = stones >> 6, stones >> 12, stones >> 18
    found |= (left1 & left2 & (left3 | right1)) | (right1 & right2 & (right3 | left1))
    left1, left2, left3 = stones << 8, stones << 16, stones << 24
    right1, right2, right3 = stones >> 8, stones >> 16, stones >> 24
    found |= (left1 & left2 & (left3 | right1)) | (right1 & right2 & (right3 | left1))
    return found & (BOARD ^ mask)


def has_four(stones: int) -> bool:
    for shift in (1, STRIDE, HEIGHT, STRIDE + 1):
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> 2 * shift):
            return True
    return False


_COLUMN_BITS = tuple(0x7F << (column * STRIDE) for column in range(WIDTH))


def mirror(bits: int) -> int:
    """The board reflected left to right (columns 0-6 become 6-0)."""
    c0, c1, c2, c3 = _COLUMN_BITS[:4]
    return (
        ((bits & c0) << 42)
        | ((bits & c1) << 28)
        | ((bits & c2) << 14)
        | (bits & c3)
        | ((bits >> 14) & c2)
        | ((bits >> 28) & c1)
        | ((bits >> 42) & c0)
    )
