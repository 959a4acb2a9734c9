"""The compiled solving kernel (numba): null-window negamax for bitboard placement games.

It calls only the stubs of ``negamax.core.compiled``; each game's ``*_compiled`` module
registers their implementations for its spec type, so this kernel is compiled (and cached
on disk) once per game.

Score range (Pascal Pons' convention, for any placement game with ``C`` cells). From the
side to move: a win completed with the ``n``-th stone on the board scores
``(C + 2 - n) // 2`` (for Connect 4, 22 minus the winner's stones), a loss the negative of
the winner's score, a draw 0. Scores depend on the position only (not on the ply it was
met at), so stored values need no adjustment; they fit in an int16.

Window contract of ``negamax`` (fail-soft): for the true value ``v``, a result
``r <= alpha`` means ``v <= r``; ``r >= beta`` means ``v >= r``; otherwise ``r == v``.

Counters (int64 array): 0 nodes, 1 transposition-table hits, 2 table cut-offs,
3 beta cut-offs, 4 first-move cut-offs. Control (int64 array, shared with the caller's
thread): 0 node limit, 1 stop request (non-zero: unwind at once), 2 the tag or-ed into
every table key (a new tag per solve empties the table without touching it), 3 the
number of stones at the root, 4 the root's best move (written by the kernel).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from negamax.core.compiled import (
    cell_count,
    move_slots,
    playable_cells,
    position_key,
    unsafe_cells,
    winning_cells,
)

NO_LOWER = -32_000
NO_UPPER = 32_000
MAX_SLOTS = 16


@njit(cache=True, inline="always")
def popcount(bits: int) -> int:
    bits = bits - ((bits >> 1) & 0x5555555555555555)
    bits = (bits & 0x3333333333333333) + ((bits >> 2) & 0x3333333333333333)
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (bits * 0x0101010101010101) >> 56 & 0xFF


@njit(cache=True, nogil=True)
def negamax(spec, current, mask, moves, alpha, beta, keys, lowers, uppers, scratch, counters, control):  # type: ignore[no-untyped-def]
    # Step 1. Count the node; unwind at once if the caller asked us to stop.
    counters[0] += 1
    if control[1] != 0:
        return 0
    if counters[0] >= control[0]:
        control[1] = 1
        return 0

    # Step 2. An immediate win ends the search here.
    cells = cell_count(spec)
    possible = playable_cells(spec, mask)
    if winning_cells(spec, current, mask) & possible:
        return (cells + 1 - moves) // 2

    # Step 3. Moves that do not hand the opponent an immediate win.
    opponent_winning = winning_cells(spec, current ^ mask, mask)
    forced = possible & opponent_winning
    if forced:
        if forced & (forced - 1):
            return -((cells - moves) // 2)  # two threats: the opponent wins next move
        possible = forced
    candidates = possible & ~unsafe_cells(spec, opponent_winning)
    if candidates == 0:
        return -((cells - moves) // 2)
    if moves >= cells - 2:
        return 0  # our safe stone is the last but one: nobody can win any more

    # Step 4. The score range still possible: no win before our next-but-one stone, no loss
    # before the opponent's next-but-one.
    highest = (cells - 1 - moves) // 2
    if beta > highest:
        beta = highest
        if alpha >= beta:
            return beta
    lowest = -((cells - 2 - moves) // 2)
    if alpha < lowest:
        alpha = lowest
        if alpha >= beta:
            return alpha

    # Step 5. Transposition table: both bounds, keyed by the symmetry-canonical key.
    key = position_key(spec, current, mask) | control[2]
    index = key % keys.shape[0]
    if keys[index] == key:
        counters[1] += 1
        lower = np.int64(lowers[index])
        upper = np.int64(uppers[index])
        if lower >= beta:
            counters[2] += 1
            return lower
        if upper <= alpha:
            counters[2] += 1
            return upper
        if lower > alpha:
            alpha = lower
        if upper < beta:
            beta = upper
        if lower == upper:
            counters[2] += 1
            return lower

    # Step 6. Order the moves by the winning cells they create (ties: the game's order).
    slots = move_slots(spec)
    order_moves = scratch[moves, 0]  # per-ply buffers: no allocation in the search
    order_scores = scratch[moves, 1]
    count = 0
    for slot in range(slots.shape[0]):
        move = candidates & slots[slot]
        if move:
            score = popcount(winning_cells(spec, current | move, mask))
            position = count
            while position > 0 and order_scores[position - 1] < score:
                order_moves[position] = order_moves[position - 1]
                order_scores[position] = order_scores[position - 1]
                position -= 1
            order_moves[position] = move
            order_scores[position] = score
            count += 1

    # Step 7. Search: fail-soft, the first move with the full window, then null windows.
    alpha_original = alpha
    best = -cells
    opponent = current ^ mask
    for index_move in range(count):
        move = order_moves[index_move]
        if index_move == 0:
            value = -negamax(spec, opponent, mask | move, moves + 1, -beta, -alpha, keys, lowers, uppers, scratch, counters, control)
        else:
            value = -negamax(spec, opponent, mask | move, moves + 1, -alpha - 1, -alpha, keys, lowers, uppers, scratch, counters, control)
            if alpha < value < beta:
                value = -negamax(spec, opponent, mask | move, moves + 1, -beta, -alpha, keys, lowers, uppers, scratch, counters, control)
        if control[1] != 0:
            return 0
        if value > best:
            best = value
            if moves == control[3]:
                control[4] = move  # the root's best move so far
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    counters[3] += 1
                    if index_move == 0:
                        counters[4] += 1
                    break

    # Step 8. Store what was proven, merging with an entry for the same position.
    if keys[index] != key:
        keys[index] = key
        lowers[index] = NO_LOWER
        uppers[index] = NO_UPPER
    if best <= alpha_original:
        if best < uppers[index]:
            uppers[index] = best
    elif best >= beta:
        if best > lowers[index]:
            lowers[index] = best
    else:
        lowers[index] = best
        uppers[index] = best
    return best
