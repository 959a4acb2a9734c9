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
    from the second player's *claimeven* strategy (Allis), or ``NO_CEILING``.

    On a board of an even height with the first player to move (``moves`` even), the
    second player can answer every move in a column whose empty cells are even in number
    in the same column, and a move in a column with an odd number (whose playable cell is
    in an even row; there is an even number of such columns) in another such column. The
    second player then gets every empty even-row cell that is not playable now (and
    more), the first player at most the other empty cells. If no four fits in the first
    player's share, the first player cannot win: a draw at best (0), and a loss (-1, the
    latest loss) if a four fits in the second player's share, which the full board then
    completes. (Steininger's ``c4`` uses a finer form of this bound.)"""
    if even_rows == 0 or moves & 1:
        return NO_CEILING
    playable = (mask + bottom) & board
    theirs = (current ^ mask) | (even_rows & ~mask & ~playable)
    if board_has_four(board & ~theirs, stride):
        return NO_CEILING
    return -1 if board_has_four(theirs, stride) else 0


@implements(compiled.rule_ceiling, Connect4Spec)
def _rule_ceiling(spec: Any, current: Any, mask: Any, moves: Any) -> Any:
    return claimeven_ceiling(current, mask, moves, BOTTOM64, BOARD64, EVEN_ROWS, STRIDE)


@implements(compiled.position_key, Connect4Spec)
def _position_key(spec: Any, current: Any, mask: Any) -> Any:
    key = current + mask
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
    key = current + mask
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
