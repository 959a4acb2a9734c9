"""The network's accumulators on the compiled state: each ply's pair brought up to date
only when the evaluation asks for it, from the features the moves since changed, or
computed afresh (from the king bucket's last board) after a king's move changed a view."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from negamax.games.chess.kernel.layout import (
    ACCUMULATORS,
    ADDED,
    ALSO_ADDED,
    ALSO_REMOVED,
    BLOCKS_PER_ARRAY,
    BOARD_SQUARES,
    BUCKET_BOARDS,
    BUCKET_LANES,
    EMPTY,
    FEATURE_ROWS,
    HIDDEN,
    KING_VIEWS,
    KINGS,
    NO_ROW,
    PAIR,
    PENDING,
    PENDING_WIDTH,
    PLY,
    READY,
    REFRESHED,
    REMOVED,
    ROW_ARRAYS,
    TURNS,
    VIEWS,
    WHITE_VIEW,
)


@njit(cache=True, inline="always")
def _lanes(state: Any) -> Any:
    """The accumulators' int16 lanes (a view, so their indices need no wraparound checks)."""
    return state[ACCUMULATORS:].view(np.int16)


if len(ROW_ARRAYS) == 1:
    ONLY_ROW_ARRAY = ROW_ARRAYS[0]

    @njit(cache=True, inline="always")
    def _row_array(view: int) -> Any:
        """The array of rows that side's ``view`` reads."""
        return ONLY_ROW_ARRAY  # not through the tuple, whose look-up is a switch on the index

else:

    @njit(cache=True, inline="always")
    def _row_array(view: int) -> Any:
        """The array of rows that side's ``view`` reads."""
        return ROW_ARRAYS[view // TURNS // BLOCKS_PER_ARRAY]


@njit(cache=True)
def _fresh_half(state: Any, half: Any, side: int) -> None:
    """Computes ``side``'s accumulator from the board, in the view of its king's square:
    the view's accumulator of the last time, brought up to date square by square."""
    view = KING_VIEWS[side, state[KINGS + side]]
    rows = _row_array(view)
    slot = side * VIEWS + view
    board = BUCKET_BOARDS + slot * 64
    kept = _lanes(state)[BUCKET_LANES + slot * HIDDEN : BUCKET_LANES + (slot + 1) * HIDDEN]
    for index in range(64):
        square = BOARD_SQUARES[index]
        piece, before = state[square], state[board + index]
        if piece != before:
            if before != EMPTY:
                row = rows[FEATURE_ROWS[side, view, before, square]]
                for unit in range(HIDDEN):
                    kept[unit] -= row[unit]
            if piece != EMPTY:
                row = rows[FEATURE_ROWS[side, view, piece, square]]
                for unit in range(HIDDEN):
                    kept[unit] += row[unit]
            state[board + index] = piece
    for unit in range(HIDDEN):
        half[unit] = kept[unit]


@njit(cache=True, inline="always")
def _half_update(
    rows: Any, before: Any, after: Any, added: int, also_added: int, removed: int, also_removed: int, both: bool
) -> None:
    """One side's accumulator after a move: the one before with the ``rows`` of the
    features the move adds and takes away (the second of each only when ``both``)."""
    plus, minus = rows[added], rows[removed]
    if both:
        plus_too, minus_too = rows[also_added], rows[also_removed]
        for unit in range(HIDDEN):
            after[unit] = before[unit] + plus[unit] + plus_too[unit] - minus[unit] - minus_too[unit]
    else:
        for unit in range(HIDDEN):
            after[unit] = before[unit] + plus[unit] - minus[unit]


@njit(cache=True, inline="always")
def _pending_half(state: Any, ply: int, side: int, before: Any, after: Any) -> None:
    """``side``'s accumulator at ply ``ply``, reached by a move (not a null move): the one
    ``before`` with the changes ``PENDING`` keeps for that ply."""
    pending = PENDING + ply * PENDING_WIDTH
    added, removed = state[pending + ADDED], state[pending + REMOVED]
    also_added, also_removed = state[pending + ALSO_ADDED], state[pending + ALSO_REMOVED]
    view = state[pending + WHITE_VIEW + side]
    _half_update(
        _row_array(view),
        before,
        after,
        FEATURE_ROWS[side, view, added >> 7, added & 127],
        FEATURE_ROWS[side, view, also_added >> 7, also_added & 127] if also_added != 0 else NO_ROW,
        FEATURE_ROWS[side, view, removed >> 7, removed & 127],
        FEATURE_ROWS[side, view, also_removed >> 7, also_removed & 127] if also_removed != 0 else NO_ROW,
        also_removed != 0,
    )


@njit(cache=True)
def _pending_update(state: Any, ply: int) -> None:
    """Writes ply ``ply``'s accumulators from the ply before's and the changes ``PENDING``
    keeps for it."""
    lanes = _lanes(state)
    before = lanes[(ply - 1) * PAIR : ply * PAIR]
    after = lanes[ply * PAIR : (ply + 1) * PAIR]
    if state[PENDING + ply * PENDING_WIDTH + ADDED] == 0:  # a null move
        for unit in range(PAIR):  # not after[:] = before, which needs numba's runtime
            after[unit] = before[unit]
        return
    for side in range(2):
        _pending_half(
            state, ply, side, before[side * HIDDEN : (side + 1) * HIDDEN], after[side * HIDDEN : (side + 1) * HIDDEN]
        )


@njit(cache=True)
def _refresh_up_to(state: Any, first: int, ply: int, refreshed: int) -> None:
    """Writes ply ``ply``'s accumulators (the board's ply) from ply ``first``'s, where a
    king changed its side's view in between (``refreshed``: the sides): that side's afresh
    from the board, the other's through every change on the way. The plies between are
    left pending: their boards are gone, and a later call from one of them redoes this."""
    lanes = _lanes(state)
    start = lanes[first * PAIR : (first + 1) * PAIR]
    target = lanes[ply * PAIR : (ply + 1) * PAIR]
    for side in range(2):
        half = target[side * HIDDEN : (side + 1) * HIDDEN]
        if refreshed & (1 << side):
            _fresh_half(state, half, side)
            continue
        origin = start[side * HIDDEN : (side + 1) * HIDDEN]
        for unit in range(HIDDEN):
            half[unit] = origin[unit]
        for later in range(first + 1, ply + 1):
            if state[PENDING + later * PENDING_WIDTH + ADDED] != 0:  # not a null move
                _pending_half(state, later, side, half, half)


@njit(cache=True)
def _bring_up_to_date(state: Any, ply: int) -> None:
    """Makes ply ``ply`` (the board's) accumulators up to date, from the last ply before it
    that is."""
    first = ply
    refreshed = 0
    while state[PENDING + first * PENDING_WIDTH + READY] == 0:
        refreshed |= state[PENDING + first * PENDING_WIDTH + REFRESHED]
        first -= 1
    if refreshed != 0:
        _refresh_up_to(state, first, ply, refreshed)
        state[PENDING + ply * PENDING_WIDTH + READY] = 1
        return
    for later in range(first + 1, ply + 1):
        _pending_update(state, later)
        state[PENDING + later * PENDING_WIDTH + READY] = 1


@njit(cache=True)
def accumulators(state: Any) -> Any:
    """The accumulator pair of the state's ply, brought up to date (a view of its lanes;
    for python callers: a kernel compiled without numba's runtime cannot return a view)."""
    ply = state[PLY]
    _bring_up_to_date(state, ply)
    return _lanes(state)[ply * PAIR : (ply + 1) * PAIR]
