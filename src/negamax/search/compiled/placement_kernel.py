"""The compiled solving kernel (numba): null-window negamax for bitboard placement games.

One idea per module: the arrays' layout (``placement_layout``), the transposition table
(``placement_table``), a node searched alone (``placement_solver``), the split points of
the shared search (``placement_split_points``), and here the entry points, ``solve`` and
``narrow``.

It calls only the stubs of ``negamax.core.compiled``; each game's ``compiled`` module
(``negamax.games.connect4.compiled``) registers their implementations for its spec type,
so this kernel is compiled (and cached on disk) once per game, with the game's primitives
inlined.

Score range (Pascal Pons' convention, for any placement game with ``C`` cells). From the
side to move: a win completed with the ``n``-th stone on the board scores
``(C + 2 - n) // 2`` (for Connect 4, 22 minus the winner's stones), a loss the negative of
the winner's score, a draw 0. Scores depend on the position only (not on the ply it was
met at), so stored values need no adjustment.

Window contract of ``negamax`` (fail-soft): for the true value ``v``, a result
``r <= alpha`` means ``v <= r``; ``r >= beta`` means ``v >= r``; otherwise ``r == v``.

The kernel reads and writes two int64 arrays (few arguments keep recursive calls cheap):

* ``table``, shared by every worker thread: the split points and busy marks (``placement_layout``), then
  from ``TABLE_BASE`` the transposition table, ``2**bits`` entries in buckets of two (the
  caller chooses ``bits``: ``table_length(bits)``). A key of the game's ``key_bits`` bits
  (its spec says how many; at least 49 are laid out) is scrambled by a multiplication
  modulo ``2**key_bits`` (a
  bijection); the top ``bits - 1`` bits of the product choose the bucket and the rest
  (``quotient``) is stored. An entry packs, from bit 0: the lower
  bound + 32 (6 bits), the upper bound + 32 (6 bits), the best move's slot + 1 (4 bits, 0:
  none), the work (5 bits: the bit length of the subtree's node count), the quotient and
  the solve's tag (``bits - 8`` bits, fewer for keys of more than 49 bits:
  ``placement_table.tag_bits``; the sign bit stays clear). A new tag per solve empties the
  table without rewriting it (with 64-bit keys the tag has one bit, and the table is
  rewritten); an all-zero entry is empty. A position is stored where it already is, else
  in the bucket's entry that holds less work (or another solve's); the entry of a
  position is merged with what it held. Each entry is one aligned 64-bit word, so threads
  writing at once never tear an entry (a lost update only costs time).
* ``work``, one per worker: counters and controls at the ``STATE_*`` offsets below, then
  per-ply move-ordering buffers, so the search never allocates. The caller may set
  ``STATE_STOP`` from another thread (the kernel holds no Python lock) to make the kernel
  unwind at once.

Limits: scores within ±31 (boards of at most 62 cells), keys of at most 64 bits (Connect
4's ``current + mask`` on a board of at most 64 bits with its sentinel row; keys of 64 bits
need a table of ``2**24`` entries, ``placement_table.min_table_bits``) and at most 15 move
slots (an entry keeps the best slot + 1 in 4 bits).
"""

from __future__ import annotations

from negamax.core.compiled import (
    cell_count,
    search_function,
)
from negamax.search.compiled import placement_solver, placement_split_points, placement_table
from negamax.search.compiled.placement_layout import (
    MAX_LOGGED_PROBES,
    NEAR_ZERO,
    STATE_BEST_MOVE,
    STATE_LOWER,
    STATE_NODE_LIMIT,
    STATE_NODES,
    STATE_PROBE_NODES,
    STATE_PROBES,
    STATE_PUBLISH,
    STATE_ROOT_MOVE,
    STATE_ROOT_MOVES,
    STATE_SIZE,
    STATE_STOP,
    STATE_TAG,
    STATE_UPPER,
    STATE_WINDOW,
    WIN_DRAW_LOSS_EMPTY,
)
from negamax.search.compiled.placement_solver import negamax
from negamax.search.compiled.placement_split_points import negamax_shared
from negamax.search.compiled.placement_table import set_table_shift

KERNEL_PARTS = (placement_table, placement_solver, placement_split_points)
"""The modules this kernel is made of besides this one (``families.kernel_parts``): the
table, the solver's nodes and the split points."""


@search_function
def solve(spec, current, mask, moves, tag, node_limit, lower, upper, table, work):  # type: ignore[no-untyped-def]
    """Solve from scratch: reset the state slots, then narrow ``[lower, upper]`` (what is
    already proven of the value, within the score range) with null-window probes
    (``narrow``). Leaves the lower and upper bound, the best move and the probes' node
    counts in the state slots."""
    for slot in range(STATE_SIZE):
        work[slot] = 0
    set_table_shift(spec, table, work)
    work[STATE_NODE_LIMIT] = node_limit
    work[STATE_ROOT_MOVES] = moves
    cells = cell_count(spec)
    lower = max(lower, -((cells - moves) // 2))
    upper = min(upper, (cells + 1 - moves) // 2)
    work[STATE_LOWER] = lower
    work[STATE_UPPER] = upper
    work[STATE_TAG] = tag  # last: a progress report reads the bounds once the tag is the solve's
    return narrow(spec, current, mask, moves, lower, upper, table, work)


@search_function
def narrow(spec, current, mask, moves, lower, upper, table, work):  # type: ignore[no-untyped-def]
    """Narrow ``[lower, upper]`` to the value with null-window probes (Pons' bisection
    alone with fewer than ``WIN_DRAW_LOSS_EMPTY`` empty cells): Pons' bisection while its
    probes are far from 0; then win, draw or loss; then, near 0, away from it
    one score at a time in steps that double while the probes keep failing the same way
    (bisecting once the value is bracketed), and far from it, bisection again."""
    probes = 0
    step = 1
    near = NEAR_ZERO if cell_count(spec) - moves >= WIN_DRAW_LOSS_EMPTY else 0
    work[STATE_LOWER] = lower
    work[STATE_UPPER] = upper
    while lower < upper:
        if lower < 0 < upper or near == 0:
            # Pons' probes, far from 0 while they are: those are cheap (only quick wins
            # count) and settle positions won or lost early; then win, draw or loss.
            middle = lower + (upper - lower) // 2
            if middle <= 0 and lower // 2 < middle:
                middle = lower // 2
            elif middle >= 0 and upper // 2 > middle:
                middle = upper // 2
            if -near < middle < near:
                middle = 0
        elif lower >= near or upper <= -near:
            middle = lower + (upper - lower) // 2
        elif lower >= 0:
            middle = min(lower + step - 1, lower + (upper - lower - 1) // 2)
            step *= 2
        else:
            middle = max(upper - step, upper - 1 - (upper - lower - 1) // 2)
            step *= 2
        before = work[STATE_NODES]
        work[STATE_ROOT_MOVE] = 0
        work[STATE_WINDOW] = middle  # live, for progress reports
        if work[STATE_PUBLISH] != 0:
            value = negamax_shared(spec, current, mask, moves, middle, middle + 1, table, work)
        else:
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
