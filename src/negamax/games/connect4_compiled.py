"""Connect 4's compiled forms (imports numba): the primitives of the solver's kernel, and
the rules of the compiled search to a depth or time.

The rules are ``connect4_board``'s, compiled from the same source as the pure-Python
game's.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from negamax.core import compiled
from negamax.core.compiled import implements
from negamax.core.score import DRAW, ONGOING, WIN
from negamax.games import connect4_board
from negamax.games.compiled_game import GameRules
from negamax.games.connect4_board import BOARD, BOTTOM, CELLS, CENTRE_FIRST, COLUMN_MASKS, STRIDE, WIDTH


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


# -- the rules for the compiled search to a depth or time (the move-list kernel) ----------
# The solver above only proves values; an engine that must answer in a second searches to
# a horizon and evaluates there, with the evaluation of the pure-Python game. A move is a
# column (0-6); the state is (current, mask, plies) as in ``Connect4``.

CURRENT, MASK, PLIES = 0, 1, 2
STATE_SIZE = 3
COLUMNS64 = np.array(COLUMN_MASKS, dtype=np.int64)
BOTTOM_BITS = np.array([1 << (column * STRIDE) for column in range(WIDTH)], dtype=np.int64)
ORDER = np.array(CENTRE_FIRST, dtype=np.int64)
board_has_four = njit(cache=True, inline="always")(connect4_board.has_four)


def rules_start(state: Any) -> None:
    return None  # the empty board is all zeros


def rules_legal_moves(state: Any, moves: Any) -> int:
    playable = (state[MASK] + BOTTOM64) & BOARD64
    count = 0
    for column in ORDER:
        if playable & COLUMNS64[column]:
            moves[count] = column
            count += 1
    return count


def rules_play(state: Any, move: int) -> None:
    mask = state[MASK]
    state[CURRENT] ^= mask
    state[MASK] = mask | ((mask + BOTTOM64) & COLUMNS64[move])
    state[PLIES] += 1


def rules_undo(state: Any, move: int) -> None:
    top = ((state[MASK] & COLUMNS64[move]) + BOTTOM_BITS[move]) >> 1  # the column's highest stone
    state[MASK] ^= top
    state[CURRENT] ^= state[MASK]
    state[PLIES] -= 1


def rules_outcome(state: Any) -> int:
    if board_has_four(state[CURRENT] ^ state[MASK]):
        return -WIN
    return DRAW if state[PLIES] == CELLS else ONGOING


def rules_evaluate(state: Any) -> int:
    free = BOARD64 ^ state[MASK]
    mine = board_winning_cells(state[CURRENT], 0) & free
    theirs = board_winning_cells(state[CURRENT] ^ state[MASK], 0) & free
    return int(bit_count(mine) - bit_count(theirs))


def rules_key(state: Any) -> int:
    return int(state[CURRENT] + state[MASK])


def rules_canonical_key(state: Any) -> int:
    key = state[CURRENT] + state[MASK]
    return int(min(key, board_mirror(key)))


def bit_count(bits: int) -> int:
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


RULES = GameRules(
    "connect4",
    STATE_SIZE,
    WIDTH,
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
