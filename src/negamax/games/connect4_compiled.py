"""Connect 4's compiled primitives for the compiled search kernel (imports numba).

The rules are ``connect4_board``'s, compiled from the same source as the pure-Python
game's.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from negamax.core import compiled
from negamax.core.compiled import implements
from negamax.games import connect4_board
from negamax.games.connect4_board import BOARD, BOTTOM, CELLS, CENTRE_FIRST, COLUMN_MASKS


class Connect4Spec(NamedTuple):
    """Selects Connect 4's primitives in the compiled kernel (7x6 is the only size)."""

    width: int = 7
    height: int = 6


SPEC = Connect4Spec()
BOARD64 = np.int64(BOARD)
BOTTOM64 = np.int64(BOTTOM)
SLOTS = np.array([COLUMN_MASKS[column] for column in CENTRE_FIRST], dtype=np.int64)
board_winning_cells = njit(cache=True, inline="always")(connect4_board.winning_cells)
board_mirror = njit(cache=True, inline="always")(connect4_board.mirror)


@implements(compiled.playable_cells, Connect4Spec)
def _playable_cells(spec: Any, mask: Any) -> Any:
    return (mask + BOTTOM64) & BOARD64


@implements(compiled.winning_cells, Connect4Spec)
def _winning_cells(spec: Any, stones: Any, mask: Any) -> Any:
    return board_winning_cells(stones, mask)


@implements(compiled.unsafe_cells, Connect4Spec)
def _unsafe_cells(spec: Any, opponent_winning: Any) -> Any:
    return opponent_winning >> 1


@implements(compiled.move_slots, Connect4Spec)
def _move_slots(spec: Any) -> Any:
    return SLOTS


@implements(compiled.cell_count, Connect4Spec)
def _cell_count(spec: Any) -> Any:
    return CELLS


@implements(compiled.position_key, Connect4Spec)
def _position_key(spec: Any, current: Any, mask: Any) -> Any:
    key = current + mask
    return min(key, board_mirror(key))
