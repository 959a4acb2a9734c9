"""The compiled solving kernel (numba): null-window negamax for bitboard placement games.

It calls only the stubs of ``negamax.core.compiled``; each game's ``*_compiled`` module
registers their implementations for its spec type, so this kernel is compiled (and cached
on disk) once per game, with the game's primitives inlined.

Score range (Pascal Pons' convention, for any placement game with ``C`` cells). From the
side to move: a win completed with the ``n``-th stone on the board scores
``(C + 2 - n) // 2`` (for Connect 4, 22 minus the winner's stones), a loss the negative of
the winner's score, a draw 0. Scores depend on the position only (not on the ply it was
met at), so stored values need no adjustment.

Window contract of ``negamax`` (fail-soft): for the true value ``v``, a result
``r <= alpha`` means ``v <= r``; ``r >= beta`` means ``v >= r``; otherwise ``r == v``.

The kernel reads and writes two int64 arrays (few arguments keep recursive calls cheap):

* ``table``, ``TABLE_SIZE`` entries, shared by every worker thread: the transposition
  table. ``TABLE_SIZE`` is a prime fixed at compile time (so ``key % TABLE_SIZE`` compiles
  to a multiplication). The slot is ``key % TABLE_SIZE``; the entry packs, from bit 0: the
  lower bound + 32 (6 bits), the upper bound + 32 (6 bits), the best move's slot + 1 (4
  bits, 0: none), ``key // TABLE_SIZE`` (25 bits) and the solve's tag (22 bits). A new tag
  per solve empties the table without rewriting it; an all-zero entry is empty. Entries
  are always replaced, and merged when the position is the same. Each entry is one aligned
  64-bit word, so threads writing at once never tear an entry (a lost update only costs
  time).
* ``work``, one per worker: counters and controls at the ``STATE_*`` offsets below, then
  per-ply move-ordering buffers, so the search never allocates. The caller may set
  ``STATE_STOP`` from another thread (the kernel holds no Python lock) to make the kernel
  unwind at once.

Limits: scores within ±31 (boards of at most 62 cells) and keys below ``TABLE_SIZE * 2**25``
(2**49 for Connect 4's ``current + mask``).
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

TABLE_SIZE = 16_777_259
"""The smallest prime above 2**24 (the size Pons' solver uses): 16.8 M entries, 128 MiB."""
QUOTIENT_BITS = 25
SCORE_OFFSET = 32
STATE_NODES = 0
STATE_TT_HITS = 1
STATE_TT_CUTOFFS = 2
STATE_BETA_CUTOFFS = 3
STATE_FIRST_MOVE_CUTOFFS = 4
STATE_NODE_LIMIT = 5
STATE_STOP = 6
STATE_TAG = 7
STATE_ROOT_MOVES = 8
STATE_ROOT_MOVE = 9
STATE_BEST_MOVE = 11
STATE_LOWER = 12
STATE_UPPER = 13
STATE_PROBES = 14
STATE_PROBE_NODES = 16
MAX_LOGGED_PROBES = 32
STATE_SIZE = STATE_PROBE_NODES + MAX_LOGGED_PROBES
SCRATCH = STATE_SIZE
MAX_SLOTS = 16
MAX_PLIES = 64
WORK_SIZE = SCRATCH + MAX_PLIES * 3 * MAX_SLOTS
MAX_TAG = (1 << 22) - 1
IDENTITY_SHIFT = 16
ETC_EMPTY_CELLS = 12
"""Enhanced transposition cut-offs are tried only while more cells than this are empty:
near the end of the game a search is cheaper than the table look-ups."""
ETC_AFTER_NODES = 20_000
"""...and only once the solve has searched this many nodes. A transposition cut-off saves
a subtree; in a small solve those are small, and the up to seven table loads per node cost
more than they save (measured, one worker, ETC from the first node against from 20k:
Begin-Easy 391 against 314 us per position, Middle-Medium 4.78 against 4.86 ms, Begin-Medium
162 against 161 ms; Middle-Easy 389 against 409 nodes but 57 against 53 us)."""


@njit(cache=True, inline="always")
def popcount(bits: int) -> int:
    bits = bits - ((bits >> 1) & 0x5555555555555555)
    bits = (bits & 0x3333333333333333) + ((bits >> 2) & 0x3333333333333333)
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (bits * 0x0101010101010101) >> 56 & 0xFF


@njit(cache=True, nogil=True)
def negamax(spec, current, mask, moves, alpha, beta, table, work):  # type: ignore[no-untyped-def]
    # Step 1. Count the node; unwind at once if asked to stop.
    work[STATE_NODES] += 1
    if work[STATE_STOP] != 0:
        return 0
    if work[STATE_NODES] >= work[STATE_NODE_LIMIT]:
        work[STATE_STOP] = 1
        return 0

    # Step 2. An immediate win ends the search here.
    cells = cell_count(spec)
    possible = playable_cells(spec, mask)
    if winning_cells(spec, current, mask) & possible:
        return (cells + 1 - moves) // 2

    # Step 3. Keep the moves that do not hand the opponent an immediate win.
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

    # Step 4. The scores still possible: no win before our next-but-one stone, no loss
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
    key = position_key(spec, current, mask)
    index = key % TABLE_SIZE
    identity = (work[STATE_TAG] << QUOTIENT_BITS) | (key // TABLE_SIZE)
    entry = table[index]
    table_slot = -1
    if entry >> IDENTITY_SHIFT == identity:
        work[STATE_TT_HITS] += 1
        table_slot = ((entry >> 12) & 15) - 1
        lower = (entry & 63) - SCORE_OFFSET
        upper = ((entry >> 6) & 63) - SCORE_OFFSET
        if lower >= beta or lower == upper:
            work[STATE_TT_CUTOFFS] += 1
            return lower
        if upper <= alpha:
            work[STATE_TT_CUTOFFS] += 1
            return upper
        if lower > alpha:
            alpha = lower
        if upper < beta:
            beta = upper

    # Step 5b. Enhanced transposition cut-off: a child whose stored upper bound is low
    # enough proves this node's value is at least beta without searching anything.
    if moves < cells - ETC_EMPTY_CELLS and work[STATE_NODES] > ETC_AFTER_NODES:
        opponent_stones = current ^ mask
        slots = move_slots(spec)
        child_tag = work[STATE_TAG] << QUOTIENT_BITS
        for slot in range(slots.shape[0]):
            move = candidates & slots[slot]
            if move:
                child_key = position_key(spec, opponent_stones, mask | move)
                child_entry = table[child_key % TABLE_SIZE]
                if child_entry >> IDENTITY_SHIFT == child_tag | (child_key // TABLE_SIZE):
                    child_upper = ((child_entry >> 6) & 63) - SCORE_OFFSET
                    if -child_upper >= beta:
                        work[STATE_TT_CUTOFFS] += 1
                        return -child_upper

    # Step 6. Order the moves by the winning cells they create (ties: the game's order).
    slots = move_slots(spec)
    order_moves = SCRATCH + moves * 3 * MAX_SLOTS  # per-ply buffers: no allocation
    order_scores = order_moves + MAX_SLOTS
    order_slots = order_scores + MAX_SLOTS
    count = 0
    for slot in range(slots.shape[0]):
        move = candidates & slots[slot]
        if move:
            # the move that was best here before goes first, then by winning cells made
            score = 1000 if slot == table_slot else popcount(winning_cells(spec, current | move, mask))
            position = count
            while position > 0 and work[order_scores + position - 1] < score:
                work[order_moves + position] = work[order_moves + position - 1]
                work[order_scores + position] = work[order_scores + position - 1]
                work[order_slots + position] = work[order_slots + position - 1]
                position -= 1
            work[order_moves + position] = move
            work[order_scores + position] = score
            work[order_slots + position] = slot
            count += 1

    # Step 7. Search: the first move with the full window, the others with a null window
    # that a re-search widens when one turns out better (fail-soft PVS).
    alpha_original = alpha
    best = -cells
    best_slot = -1
    opponent = current ^ mask
    for number in range(count):
        move = work[order_moves + number]
        if number == 0:
            value = -negamax(spec, opponent, mask | move, moves + 1, -beta, -alpha, table, work)
        else:
            value = -negamax(spec, opponent, mask | move, moves + 1, -alpha - 1, -alpha, table, work)
            if alpha < value < beta:
                value = -negamax(spec, opponent, mask | move, moves + 1, -beta, -alpha, table, work)
        if work[STATE_STOP] != 0:
            return 0
        if value > best:
            best = value
            best_slot = work[order_slots + number]
            if moves == work[STATE_ROOT_MOVES]:
                work[STATE_ROOT_MOVE] = move
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    work[STATE_BETA_CUTOFFS] += 1
                    if number == 0:
                        work[STATE_FIRST_MOVE_CUTOFFS] += 1
                    break

    # Step 8. Store what was proven, merged with what is known of the same position.
    entry = table[index]
    if entry >> IDENTITY_SHIFT == identity:
        lower = (entry & 63) - SCORE_OFFSET
        upper = ((entry >> 6) & 63) - SCORE_OFFSET
    else:
        lower = -SCORE_OFFSET
        upper = SCORE_OFFSET - 1
    if best <= alpha_original:
        upper = min(upper, best)
    elif best >= beta:
        lower = max(lower, best)
    else:
        lower = best
        upper = best
    if best <= alpha_original:
        best_slot = -1  # every move failed low: none of them is known to be best
    table[index] = (
        (identity << IDENTITY_SHIFT) | ((best_slot + 1) << 12) | ((upper + SCORE_OFFSET) << 6) | (lower + SCORE_OFFSET)
    )
    return best


@njit(cache=True, nogil=True)
def solve(spec, current, mask, moves, tag, node_limit, table, work):  # type: ignore[no-untyped-def]
    """Solve from scratch: reset the state slots, then narrow the score range with
    null-window probes, nearer to 0 first (Pons). Leaves the lower and upper bound, the
    best move and the probes' node counts in the state slots."""
    for slot in range(STATE_SIZE):
        work[slot] = 0
    work[STATE_TAG] = tag
    work[STATE_NODE_LIMIT] = node_limit
    work[STATE_ROOT_MOVES] = moves
    cells = cell_count(spec)
    return narrow(spec, current, mask, moves, -((cells - moves) // 2), (cells + 1 - moves) // 2, table, work)


@njit(cache=True, nogil=True)
def narrow(spec, current, mask, moves, lower, upper, table, work):  # type: ignore[no-untyped-def]
    """Narrow ``[lower, upper]`` to the value with null-window probes, nearer to 0 first."""
    probes = 0
    work[STATE_LOWER] = lower
    work[STATE_UPPER] = upper
    while lower < upper:
        middle = lower + (upper - lower) // 2
        if middle <= 0 and lower // 2 < middle:
            middle = lower // 2
        elif middle >= 0 and upper // 2 > middle:
            middle = upper // 2
        before = work[STATE_NODES]
        work[STATE_ROOT_MOVE] = 0
        value = negamax(spec, current, mask, moves, middle, middle + 1, table, work)
        if work[STATE_STOP] != 0:
            break
        if probes < MAX_LOGGED_PROBES:
            work[STATE_PROBE_NODES + probes] = work[STATE_NODES] - before
        probes += 1
        if value <= middle:
            upper = value
        else:
            lower = value
            if work[STATE_ROOT_MOVE] != 0:
                work[STATE_BEST_MOVE] = work[STATE_ROOT_MOVE]
        work[STATE_LOWER] = lower  # live, for progress reports
        work[STATE_UPPER] = upper
        work[STATE_PROBES] = probes
    return lower


@njit(cache=True)
def child_order(spec, current, mask, moves):  # type: ignore[no-untyped-def]
    """The moves the kernel would search at this node, in its order (0 where unused)."""
    order = np.zeros(MAX_SLOTS, dtype=np.int64)
    possible = playable_cells(spec, mask)
    if winning_cells(spec, current, mask) & possible:
        return order
    opponent_winning = winning_cells(spec, current ^ mask, mask)
    forced = possible & opponent_winning
    if forced:
        possible = forced
    candidates = possible & ~unsafe_cells(spec, opponent_winning)
    slots = move_slots(spec)
    scores = np.full(MAX_SLOTS, -1, dtype=np.int64)
    count = 0
    for slot in range(slots.shape[0]):
        move = candidates & slots[slot]
        if move:
            score = popcount(winning_cells(spec, current | move, mask))
            position = count
            while position > 0 and scores[position - 1] < score:
                order[position] = order[position - 1]
                scores[position] = scores[position - 1]
                position -= 1
            order[position] = move
            scores[position] = score
            count += 1
    return order
