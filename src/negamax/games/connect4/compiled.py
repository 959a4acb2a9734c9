"""Connect 4's compiled forms (imports numba): the primitives of the solver's kernel, and
the rules of the compiled search to a depth or time.

The rules are ``board``'s, compiled from the same source as the pure-Python
game's.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from negamax.core import compiled
from negamax.core.compiled import implements
from negamax.core.score import DRAW, ONGOING, WIN
from negamax.games.compiled_game import GameRules
from negamax.games.connect4 import board as connect4_board
from negamax.games.connect4.board import (
    BOARD,
    BOTTOM,
    CELLS,
    CENTRE_FIRST,
    COLUMN_MASKS,
    STANDARD,
    STRIDE,
    WIDTH,
    Geometry,
)


class Connect4Spec(NamedTuple):
    """Selects the 7x6 board's primitives in the compiled kernel: its masks are constants
    compiled into the kernel."""

    width: int = 7
    height: int = 6
    key_bits: int = 49
    """The solver's keys (``current + mask``) fit this many bits: the board with its sentinel row."""


class SizedConnect4Spec(NamedTuple):
    """Selects the primitives of any other board the solver takes: the masks are read from
    the spec (one kernel for every size)."""

    width: int
    height: int
    key_bits: int
    stride: int
    bottom: int
    board: int
    even_rows: int
    """``Geometry.even_rows``: 0 on a board of an odd height."""
    short_lines: tuple[int, int, int, int]
    """``Geometry.short_lines``."""
    slots: tuple[int, ...]
    """The columns' masks, centre first, then zeros up to ``MAX_SLOTS`` masks (one tuple
    type: one kernel for every width)."""


SPEC = Connect4Spec()
BOARD64 = np.int64(BOARD)
BOTTOM64 = np.int64(BOTTOM)
SLOTS = tuple(np.int64(COLUMN_MASKS[column]) for column in CENTRE_FIRST)
MAX_SLOTS = 15
"""The most columns the compiled solver orders (its table keeps a slot in 4 bits)."""
board_winning_cells = njit(cache=True, inline="always")(connect4_board.winning_cells_on)
board_has_four = njit(cache=True, inline="always")(connect4_board.has_four_on)
board_dead_stones = njit(cache=True, inline="always")(connect4_board.dead_stones_on)
SHORT_LINES = STANDARD.short_lines
EVEN_ROWS = STANDARD.even_rows
board_mirror = njit(cache=True, inline="always")(connect4_board.mirror)
board_mirror_on = njit(cache=True, inline="always")(connect4_board.mirror_on)


def spec_for(geometry: Geometry) -> Connect4Spec | SizedConnect4Spec:
    """The spec of a board size (``Connect4Spec`` for 7x6)."""
    if geometry == STANDARD:
        return SPEC
    slots = tuple(geometry.column_masks[column] for column in geometry.centre_first)
    slots += (0,) * (MAX_SLOTS - len(slots))
    return SizedConnect4Spec(
        geometry.width,
        geometry.height,
        geometry.bits,
        geometry.stride,
        geometry.bottom,
        geometry.board,
        geometry.even_rows,
        geometry.short_lines,
        slots,
    )


@implements(compiled.playable_cells, Connect4Spec)
def _playable_cells(spec: Any, mask: Any) -> Any:
    return (mask + BOTTOM64) & BOARD64


@implements(compiled.winning_cells, Connect4Spec)
def _winning_cells(spec: Any, stones: Any, mask: Any) -> Any:
    return board_winning_cells(stones, mask, STRIDE, BOARD)


@implements(compiled.unsafe_cells, Connect4Spec)
def _unsafe_cells(spec: Any, opponent_winning: Any) -> Any:
    return opponent_winning >> 1


@implements(compiled.move_slots, Connect4Spec)
def _move_slots(spec: Any) -> Any:
    return SLOTS


@implements(compiled.cell_count, Connect4Spec)
def _cell_count(spec: Any) -> Any:
    return CELLS


NO_CEILING = compiled.NO_RULE_CEILING
"""What ``claimeven_ceiling`` returns when it knows nothing: above every score."""


@njit(cache=True, inline="always")
def claimeven_ceiling(current: Any, mask: Any, moves: Any, bottom: Any, board: Any, even_rows: Any, stride: Any) -> Any:
    """An upper bound on the value of the position for the side to move, in Pons' scores,
    from the second player's *claimeven* strategy (Allis), or ``NO_CEILING``. (Where
    claimeven does not apply, an odd height or the second player to move: 0 if no four
    fits in the mover's stones and the empty cells.)

    On a board of an even height with the first player to move (``moves`` even), the
    second player can answer every move in a column whose empty cells are even in number
    in the same column, and a move in a column with an odd number (whose playable cell is
    in an even row; there is an even number of such columns) in another such column. The
    second player then gets every empty even-row cell that is not playable now (*claimed*:
    each right after the first player fills the odd-row cell below it), and the first
    player at most the other empty cells (the second player never fills an odd-row cell).

    If no four fits in the first player's share, the first player cannot win. Nor can it
    if each four that fits there has below it (``second_wins_first``) a four of the second
    player's stones and claimed cells that the first player's own moves complete first.
    Then the second player wins if a four fits in its share (the full board completes it):
    a loss no later than ``latest_loss`` says; else a draw at best (0). Steininger's ``c4``
    compares the rows where the two sides' fours lie to the same end."""
    if even_rows == 0 or moves & 1:
        # no claimeven here, only the plain rule: no four fits in the mover's stones and the
        # empty cells, no win
        return NO_CEILING if board_has_four(board & ~(current ^ mask), stride) else 0
    playable = (mask + bottom) & board
    claimed = even_rows & ~mask & ~playable
    second = current ^ mask
    first_share = board & ~(second | claimed)
    if not board_has_four(second | claimed, stride):
        return NO_CEILING if board_has_four(first_share, stride) else 0
    if not second_wins_first(first_share, second, claimed, bottom, board, stride):
        return NO_CEILING
    return latest_loss(second, claimed, bottom, stride)


@njit(cache=True, inline="always")
def cells_below(cells: Any, bottom: Any, board: Any, stride: Any) -> Any:
    """The cells below the lowest of ``cells`` in each column, and ``cells`` but that lowest
    (for one cell a column, or consecutive cells of a column: the cells below the highest).
    With a sentinel set in every column, subtracting ``bottom`` borrows only inside each
    column: down to the lowest cell where the column has one, through the whole column
    (clearing its sentinel) where it has none."""
    sentinels = bottom << (stride - 1)
    lowered = (cells | sentinels) - bottom
    kept = lowered & sentinels  # the sentinels of the columns that held a cell
    return lowered & board & (kept - (kept >> (stride - 1)))


@njit(cache=True, inline="always")
def second_wins_first(first_share: Any, second: Any, claimed: Any, bottom: Any, board: Any, stride: Any) -> Any:
    """Whether, against claimeven, the second player completes a four before the first
    player completes any of those that fit in ``first_share``.

    A claimed cell is filled right after the odd-row cell below it, by a move of the first
    player that does not end the game, when a cell above it in its column is to be filled
    later. So before the first player completes a four, every claimed cell below one of
    the four's cells is the second player's. If those and the second player's stones hold a
    four for each of the first player's fours, the first four the first player could
    complete comes after one of the second player's: the game is over before it."""
    for shift in (1, stride, stride + 1, stride - 1):  # up a column first: those seldom have a four below
        pairs = first_share & (first_share >> shift)
        starts = pairs & (pairs >> 2 * shift)
        while starts:
            start = starts & -starts
            starts ^= start
            four = start | (start << shift) | (start << 2 * shift) | (start << 3 * shift)
            if not board_has_four(second | (claimed & cells_below(four, bottom, board, stride)), stride):
                return False
    return True


@njit(cache=True, inline="always")
def latest_loss(second: Any, claimed: Any, bottom: Any, stride: Any) -> Any:
    """The highest score of a loss to the second player's four of its stones and claimed
    cells: the game ends by the time the first of them is complete. A four whose highest
    claimed cell is in row ``r`` (from 1) is complete with the stone that fills that cell,
    while the ``height - r`` cells above it are still empty: by stone ``cells - height +
    r``, a score of ``-((height - r + 2) // 2)``. The lowest such ``r`` bounds the loss."""
    height = stride - 1
    for rows in range(2, height + 1, 2):
        if board_has_four(second | (claimed & (bottom * ((1 << rows) - 1))), stride):
            return -((height - rows + 2) // 2)
    return -1


@implements(compiled.rule_ceiling, Connect4Spec)
def _rule_ceiling(spec: Any, current: Any, mask: Any, moves: Any) -> Any:
    return claimeven_ceiling(current, mask, moves, BOTTOM64, BOARD64, EVEN_ROWS, STRIDE)


@implements(compiled.position_key, Connect4Spec)
def _position_key(spec: Any, current: Any, mask: Any) -> Any:
    # Dead stones (``dead_stones_on``) count as the side to move's: positions that differ
    # only in their colours share an entry (they have the same value).
    key = (current | board_dead_stones(current, mask, STRIDE, BOARD, SHORT_LINES)) + mask
    return min(key, board_mirror(key))


@implements(compiled.playable_cells, SizedConnect4Spec)
def _sized_playable_cells(spec: Any, mask: Any) -> Any:
    return (mask + spec.bottom) & spec.board


@implements(compiled.winning_cells, SizedConnect4Spec)
def _sized_winning_cells(spec: Any, stones: Any, mask: Any) -> Any:
    return board_winning_cells(stones, mask, spec.stride, spec.board)


@implements(compiled.unsafe_cells, SizedConnect4Spec)
def _sized_unsafe_cells(spec: Any, opponent_winning: Any) -> Any:
    return opponent_winning >> 1


@implements(compiled.move_slots, SizedConnect4Spec)
def _sized_move_slots(spec: Any) -> Any:
    return spec.slots


@implements(compiled.cell_count, SizedConnect4Spec)
def _sized_cell_count(spec: Any) -> Any:
    return spec.width * spec.height


@implements(compiled.rule_ceiling, SizedConnect4Spec)
def _sized_rule_ceiling(spec: Any, current: Any, mask: Any, moves: Any) -> Any:
    return claimeven_ceiling(current, mask, moves, spec.bottom, spec.board, spec.even_rows, spec.stride)


@implements(compiled.position_key, SizedConnect4Spec)
def _sized_position_key(spec: Any, current: Any, mask: Any) -> Any:
    key = (current | board_dead_stones(current, mask, spec.stride, spec.board, spec.short_lines)) + mask
    return min(key, board_mirror_on(key, spec.width, spec.stride))


# -- the rules for the compiled search to a depth or time (the move-list kernel) ----------
# The solver above only proves values; an engine that must answer in a second searches to
# a horizon and evaluates there, with the evaluation of the pure-Python game. A move is a
# column (0-based); the state holds the position (current, mask, plies) and, after it, the
# board's geometry, so one set of compiled rules plays every board size.

CURRENT, MASK, PLIES = 0, 1, 2
STRIDE_AT, BOARD_AT, BOTTOM_AT, CELLS_AT, COLUMN_AT, WIDTH_AT = 3, 4, 5, 6, 7, 8
"""The geometry: the columns' stride, every cell, the bottom cells, the cell count, one
column's cells (at column 0), the width..."""
ORDER_AT = 9
"""...then the columns, centre first."""
MAX_WIDTH = 16
STATE_SIZE = ORDER_AT + MAX_WIDTH


def state_for(geometry: Geometry, current: int, mask: int, plies: int) -> Any:
    """The compiled search's state of a position on a board of ``geometry``."""
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[:ORDER_AT] = (
        current,
        mask,
        plies,
        geometry.stride,
        geometry.board,
        geometry.bottom,
        geometry.cells,
        geometry.column_masks[0],
        geometry.width,
    )
    state[ORDER_AT : ORDER_AT + geometry.width] = geometry.centre_first
    return state


START_GEOMETRY = np.array(
    [0, 0, 0, STRIDE, BOARD, BOTTOM, CELLS, COLUMN_MASKS[0], WIDTH, *CENTRE_FIRST], dtype=np.int64
)


def rules_start(state: Any) -> None:
    state[: len(START_GEOMETRY)] = START_GEOMETRY  # the empty 7x6 board


def rules_legal_moves(state: Any, moves: Any) -> int:
    playable = (state[MASK] + state[BOTTOM_AT]) & state[BOARD_AT]
    stride = state[STRIDE_AT]
    count = 0
    for index in range(state[WIDTH_AT]):
        column = state[ORDER_AT + index]
        if playable & (state[COLUMN_AT] << (column * stride)):
            moves[count] = column
            count += 1
    return count


def rules_play(state: Any, move: int) -> None:
    mask = state[MASK]
    state[CURRENT] ^= mask
    state[MASK] = mask | ((mask + state[BOTTOM_AT]) & (state[COLUMN_AT] << (move * state[STRIDE_AT])))
    state[PLIES] += 1


def rules_undo(state: Any, move: int) -> None:
    stones = state[MASK] & (state[COLUMN_AT] << (move * state[STRIDE_AT]))
    top = stones & ~(stones >> 1)  # the column's highest stone (no sum: bit 63 may be a cell's sentinel)
    state[MASK] ^= top
    state[CURRENT] ^= state[MASK]
    state[PLIES] -= 1


def rules_outcome(state: Any) -> int:
    if board_has_four(state[CURRENT] ^ state[MASK], state[STRIDE_AT]):
        return -WIN
    return DRAW if state[PLIES] == state[CELLS_AT] else ONGOING


def rules_evaluate(state: Any) -> int:
    stride, board = state[STRIDE_AT], state[BOARD_AT]
    free = board ^ state[MASK]
    mine = board_winning_cells(state[CURRENT], 0, stride, board) & free
    theirs = board_winning_cells(state[CURRENT] ^ state[MASK], 0, stride, board) & free
    return int(bit_count(mine) - bit_count(theirs))


def rules_key(state: Any) -> int:
    return int(state[CURRENT] + state[MASK])


def rules_canonical_key(state: Any) -> int:
    key = state[CURRENT] + state[MASK]
    return int(min(key, board_mirror_on(key, state[WIDTH_AT], state[STRIDE_AT])))


def bit_count(bits: int) -> int:
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


RULES = GameRules(
    "connect4",
    STATE_SIZE,
    MAX_WIDTH,
    {
        "start": rules_start,
        "legal_moves": rules_legal_moves,
        "play": rules_play,
        "undo": rules_undo,
        "outcome": rules_outcome,
        "evaluate": rules_evaluate,
        "key": rules_key,
        "canonical_key": rules_canonical_key,
    },
)
