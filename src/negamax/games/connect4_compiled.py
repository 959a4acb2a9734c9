"""Connect 4's compiled primitives for the compiled search kernel (imports numba).

Same bit layout as ``connect4.py``: column ``c`` owns bits ``7c .. 7c+6``, the top one a
sentinel that is always empty.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from negamax.core import compiled
from negamax.core.compiled import implements
from negamax.games.connect4 import BOARD, BOTTOM, CELLS, CENTRE_FIRST, COLUMN_MASKS, STRIDE


class Connect4Spec(NamedTuple):
    """Selects Connect 4's primitives in the compiled kernel (7x6 is the only size)."""

    width: int = 7
    height: int = 6


SPEC = Connect4Spec()
BOARD64 = np.int64(BOARD)
BOTTOM64 = np.int64(BOTTOM)
SLOTS = np.array([COLUMN_MASKS[column] for column in CENTRE_FIRST], dtype=np.int64)
COLUMN_BITS = np.array([0x7F << (column * STRIDE) for column in range(7)], dtype=np.int64)


@implements(compiled.playable_cells, Connect4Spec)
def _playable_cells(spec: Any, mask: Any) -> Any:
    return (mask + BOTTOM64) & BOARD64


@implements(compiled.winning_cells, Connect4Spec)
def _winning_cells(spec: Any, stones: Any, mask: Any) -> Any:
    found = (stones << 1) & (stones << 2) & (stones << 3)
    # horizontal (7) and the two diagonals (6, 8): three on one side, or two and one
    for shift in (7, 6, 8):
        left1 = stones << shift
        left2 = stones << (2 * shift)
        right1 = stones >> shift
        right2 = stones >> (2 * shift)
        found |= (left1 & left2 & ((stones << (3 * shift)) | right1)) | (
            right1 & right2 & ((stones >> (3 * shift)) | left1)
        )
    return found & (BOARD64 ^ mask)


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
    mirrored = (
        ((key & COLUMN_BITS[0]) << 42)
        | ((key & COLUMN_BITS[1]) << 28)
        | ((key & COLUMN_BITS[2]) << 14)
        | (key & COLUMN_BITS[3])
        | ((key >> 14) & COLUMN_BITS[2])
        | ((key >> 28) & COLUMN_BITS[1])
        | ((key >> 42) & COLUMN_BITS[0])
    )
    return min(key, mirrored)
