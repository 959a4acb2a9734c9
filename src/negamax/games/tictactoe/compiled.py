"""Tic-tac-toe's compiled primitives for the compiled search kernel (imports numba).

A state is the side to move's stones and all stones as 9-bit sets (cell ``i`` is bit
``i``); the key is the smallest ``current | mask << 9`` over the board's 8 symmetries.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from negamax.core import compiled
from negamax.core.compiled import implements
from negamax.games.tictactoe.board import FULL, LINES, PREFERRED_ORDER, SYMMETRY_TABLES


class TicTacToeSpec(NamedTuple):
    """Selects tic-tac-toe's primitives in the compiled kernel."""

    width: int = 3
    height: int = 3
    key_bits: int = 18
    """The solver's keys (``current | mask << 9``) fit this many bits."""


SPEC = TicTacToeSpec()
LINE_MASKS = np.array(LINES, dtype=np.int64)
SLOTS = tuple(1 << cell for cell in PREFERRED_ORDER)
SYMMETRIES = np.array(SYMMETRY_TABLES, dtype=np.int64)


@implements(compiled.playable_cells, TicTacToeSpec)
def _playable_cells(spec: Any, mask: Any) -> Any:
    return FULL & ~mask


@implements(compiled.winning_cells, TicTacToeSpec)
def _winning_cells(spec: Any, stones: Any, mask: Any) -> Any:
    found = 0
    for line in LINE_MASKS:
        held = line & stones
        # two of the line's three cells: the third completes it
        if held and (held & (held - 1)) and held != line:
            found |= line & ~stones
    return found & FULL & ~mask


@implements(compiled.unsafe_cells, TicTacToeSpec)
def _unsafe_cells(spec: Any, opponent_winning: Any) -> Any:
    return 0  # no gravity: filling a cell opens nothing for the opponent


@implements(compiled.move_slots, TicTacToeSpec)
def _move_slots(spec: Any) -> Any:
    return SLOTS


@implements(compiled.cell_count, TicTacToeSpec)
def _cell_count(spec: Any) -> Any:
    return 9


@implements(compiled.rule_ceiling, TicTacToeSpec)
def _rule_ceiling(spec: Any, current: Any, mask: Any, moves: Any) -> Any:
    return compiled.NO_RULE_CEILING  # no rule bounds a tic-tac-toe position


@implements(compiled.position_key, TicTacToeSpec)
def _position_key(spec: Any, current: Any, mask: Any) -> Any:
    best = SYMMETRIES[0, current] | (SYMMETRIES[0, mask] << 9)
    for symmetry in range(1, 8):
        key = SYMMETRIES[symmetry, current] | (SYMMETRIES[symmetry, mask] << 9)
        if key < best:
            best = key
    return best
