"""Connect 4's board, shared by the game (``connect4``) and its compiled primitives
(``compiled``): the bit layout of any board size, its masks, and the rules of four
in a row.

Bit layout (Pons' "Solving Connect 4", any width x height): column ``c`` owns bits
``c * stride .. c * stride + height`` with ``stride = height + 1``; the lowest is its bottom
cell and the highest a sentinel that is always empty, so shifting a stone up never carries
it into the next column. A board fits 64 bits when ``stride * width <= 64``. The functions
are plain integer arithmetic, which the compiled module compiles as they are (a shift past
bit 63 only loses bits that the masks drop anyway).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from negamax.core.errors import InvalidOptionError

MAX_BITS = 64
"""A board's bits with their sentinel row: ``(height + 1) * width``."""


@dataclass(frozen=True)
class Geometry:
    """A board size and the masks that follow from it."""

    width: int
    height: int

    @property
    def stride(self) -> int:
        return self.height + 1

    @property
    def cells(self) -> int:
        return self.width * self.height

    @property
    def bits(self) -> int:
        return self.stride * self.width

    @property
    def bottom(self) -> int:
        """The bottom cell of every column."""
        return sum(1 << (column * self.stride) for column in range(self.width))

    @property
    def board(self) -> int:
        """Every cell (no sentinels)."""
        return self.bottom * ((1 << self.height) - 1)

    @property
    def even_rows(self) -> int:
        """The cells of the second, fourth... rows from the bottom, on a board of an even
        height (0 on an odd one: ``claimeven_ceiling`` then says nothing)."""
        if self.height % 2:
            return 0
        return sum(self.bottom << row for row in range(1, self.height, 2))

    @property
    def short_lines(self) -> tuple[int, int, int, int]:
        """The cells that no four up a column, along a row, up right or down right passes
        through (the corners' short diagonals; every cell of a board lower or narrower than
        four): ``dead_stones_on`` does not look along those lines from them."""
        short = []
        for shift in (1, self.stride, self.stride + 1, self.stride - 1):
            board = self.board
            starts = board & (board >> shift) & (board >> 2 * shift) & (board >> 3 * shift)
            covered = starts | (starts << shift) | (starts << 2 * shift) | (starts << 3 * shift)
            short.append(board & ~covered)
        column, row, rising, falling = short
        return column, row, rising, falling

    @property
    def column_masks(self) -> tuple[int, ...]:
        return tuple(((1 << self.height) - 1) << (column * self.stride) for column in range(self.width))

    @property
    def centre_first(self) -> tuple[int, ...]:
        """The columns from the centre out, left before right (7 wide: 3, 2, 4, 1, 5, 0, 6)."""
        return tuple(sorted(range(self.width), key=lambda column: (abs(2 * column - (self.width - 1)), column)))

    @property
    def name(self) -> str:
        return f"{self.width}x{self.height}"


@functools.cache
def geometry(width: int, height: int) -> Geometry:
    """The board ``width`` columns wide and ``height`` rows high.

    :raises InvalidOptionError: if it is empty or does not fit 64 bits with its sentinel row.
    """
    if width < 1 or height < 1:
        raise InvalidOptionError(f"a connect4 board needs at least one column and one row, not {width}x{height}")
    if (height + 1) * width > MAX_BITS:
        raise InvalidOptionError(
            f"connect4 board {width}x{height} does not fit: (height + 1) x width must be at most {MAX_BITS},"
            f" here {(height + 1) * width}"
        )
    return Geometry(width, height)


def _ascii_number(text: str) -> bool:
    """Whether ``text`` is a whole number int() reads ("²".isdigit() is true; int() refuses it)."""
    return text.isascii() and text.isdigit()


def parse_size(text: str) -> Geometry:
    """A size written ``WIDTHxHEIGHT`` (``6x7``: 6 columns, 7 rows)."""
    width_text, separator, height_text = text.strip().lower().partition("x")
    if not separator or not _ascii_number(width_text) or not _ascii_number(height_text):
        raise InvalidOptionError(f"connect4 size {text!r}: write it as WIDTHxHEIGHT, e.g. 6x7 (6 columns, 7 rows)")
    return geometry(int(width_text), int(height_text))


STANDARD = geometry(7, 6)
WIDTH = STANDARD.width
HEIGHT = STANDARD.height
STRIDE = STANDARD.stride
CELLS = STANDARD.cells
BOTTOM = STANDARD.bottom
BOARD = STANDARD.board
COLUMN_MASKS = STANDARD.column_masks
CENTRE_FIRST = STANDARD.centre_first
CENTRE_FIRST_MASKS = tuple(COLUMN_MASKS[column] for column in CENTRE_FIRST)


def winning_cells_on(stones: int, mask: int, stride: int, board: int) -> int:
    """Empty cells (playable or not) that would complete four for ``stones``, on a board
    whose columns are ``stride`` bits apart and whose cells are ``board``."""
    # Unrolled: this is the solver's hottest function. Vertical: three stones below.
    found = (stones << 1) & (stones << 2) & (stones << 3)
    # Horizontal (shift stride), then the two diagonals (stride - 1 and stride + 1). For
    # each direction a cell wins when it has 3 stones to one side, or 2 on one side and 1
    # on the other.
    shift = stride
    left1, left2, left3 = stones << shift, stones << 2 * shift, stones << 3 * shift
    right1, right2, right3 = stones >> shift, stones >> 2 * shift, stones >> 3 * shift
    found |= (left1 & left2 & (left3 | right1)) | (right1 & right2 & (right3 | left1))
    shift = stride - 1
    left1, left2, left3 = stones << shift, stones << 2 * shift, stones << 3 * shift
    right1, right2, right3 = stones >> shift, stones >> 2 * shift, stones >> 3 * shift
    found |= (left1 & left2 & (left3 | right1)) | (right1 & right2 & (right3 | left1))
    shift = stride + 1
    left1, left2, left3 = stones << shift, stones << 2 * shift, stones << 3 * shift
    right1, right2, right3 = stones >> shift, stones >> 2 * shift, stones >> 3 * shift
    found |= (left1 & left2 & (left3 | right1)) | (right1 & right2 & (right3 | left1))
    return found & (board ^ mask)


def has_four_on(stones: int, stride: int) -> bool:
    """Whether ``stones`` hold four in a row on a board whose columns are ``stride`` bits apart.
    Rows first: the solver's claimeven ceiling asks it of the cells one side may get, which
    most often hold a row (every other row is theirs) and seldom a column."""
    for shift in (stride, stride - 1, stride + 1, 1):
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> 2 * shift):
            return True
    return False


def dead_stones_on(current: int, mask: int, stride: int, board: int, short_lines: tuple[int, int, int, int]) -> int:
    """Stones whose colour no longer matters: the position with any of them recoloured has
    the same value (``short_lines``: ``Geometry.short_lines``).

    Only a four with an empty cell can still be completed; one whose four cells are filled
    is not a four (the position would be over), so it never will be. Two positions with the
    same stones whose every four with an empty cell is either blocked (holds both colours)
    in both, or holds the same colours in both, have the same game ahead and the same value.
    So a set ``D`` of stones may be recoloured at will if every four with an empty cell
    through a stone of ``D`` holds a stone of each colour outside ``D``: it stays blocked.

    ``D`` is the stones with no empty cell one or two steps away along any line that holds
    a four (*far*), whose every four with an empty cell three steps away has two middle
    stones of different colours. The middle stones lie one and two steps from that empty
    cell, so they are not far and not in ``D``; and a four through a stone of ``D`` with an
    empty cell has it exactly three steps away. A column fills from the bottom, so where a
    cell is filled, so are those below it: the cells one and two steps away that may be
    empty are up the column, along the row and up the two diagonals (where the row's cell
    is filled, the down diagonal's below it is too).

    No loop over cells: each look at the cells ``k`` steps away is one shift of the whole
    board, of only the empty cells that a look from a cell of the board can reach (one
    that left the board past its top or bottom would find another column's cells)."""
    row, rising, falling = stride, stride + 1, stride - 1  # a step right, up right, down right
    short_column, short_row, short_rising, short_falling = short_lines
    # The empty cells that a look k rows up from a stone can find (up_k: at least k rows
    # above the bottom), or k rows down (down_k: at least k below the top); only those are
    # shifted, so that no look wraps into another column.
    empty = board & ~mask
    up1 = empty & (board << 1)
    up2 = up1 & (board << 2)
    up3 = up2 & (board << 3)
    down3 = empty & (board >> 1) & (board >> 2) & (board >> 3)
    near = (
        (((up1 >> 1) | (up2 >> 2)) & ~short_column)
        | (((empty >> row) | (empty >> 2 * row) | (empty << row) | (empty << 2 * row)) & ~short_row)
        | (((up1 >> rising) | (up2 >> 2 * rising)) & ~short_rising)
        | (((up1 << falling) | (up2 << 2 * falling)) & ~short_falling)  # up left
    )
    far = mask & ~near
    if far == 0:  # most positions: a few shifts decide
        return 0
    # Where a cell's colour differs from the next one's along each line (read at stones).
    column_changes = current ^ (current >> 1)
    row_changes = current ^ (current >> row)
    rising_changes = current ^ (current >> rising)
    falling_changes = current ^ (current >> falling)
    # An empty cell three steps away, ahead (>>) or behind (<<), and the middle stones of
    # that four alike: it is open, or recolouring the stone would open it.
    open_fours = (
        ((up3 >> 3) & ~(column_changes >> 1) & ~short_column)
        | (((empty >> 3 * row) & ~(row_changes >> row)) | ((empty << 3 * row) & ~(row_changes << 2 * row))) & ~short_row
        | (
            ((up3 >> 3 * rising) & ~(rising_changes >> rising))
            | ((down3 << 3 * rising) & ~(rising_changes << 2 * rising))
        )
        & ~short_rising
        | (
            ((down3 >> 3 * falling) & ~(falling_changes >> falling))
            | ((up3 << 3 * falling) & ~(falling_changes << 2 * falling))
        )
        & ~short_falling
    )
    return far & ~open_fours


def mirror_on(bits: int, width: int, stride: int) -> int:
    """The board reflected left to right (column ``c`` becomes ``width - 1 - c``): the
    columns swapped in pairs from the edges in, one shift each way a pair."""
    column_bits = (1 << stride) - 1
    low, high = 0, (width - 1) * stride
    reflected = bits & (column_bits << high // 2) if width % 2 else 0  # the middle column stays
    while low < high:
        distance = high - low
        left = column_bits << low
        reflected |= ((bits & left) << distance) | ((bits >> distance) & left)
        low += stride
        high -= stride
    return reflected


def winning_cells(stones: int, mask: int) -> int:
    """``winning_cells_on`` for the 7x6 board."""
    return winning_cells_on(stones, mask, STRIDE, BOARD)


def has_four(stones: int) -> bool:
    """``has_four_on`` for the 7x6 board."""
    return has_four_on(stones, STRIDE)


_COLUMN_BITS = tuple(0x7F << (column * STRIDE) for column in range(WIDTH))


def mirror(bits: int) -> int:
    """The 7x6 board reflected left to right (columns 0-6 become 6-0), unrolled: the
    solver's table keys and the pure-Python search's take it at every node."""
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
