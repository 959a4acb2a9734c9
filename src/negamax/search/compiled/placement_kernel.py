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

* ``table``, shared by every worker thread: the split points and busy marks (below), then
  from ``TABLE_BASE`` the transposition table, ``2**bits`` entries in buckets of two (the
  caller chooses ``bits``: ``table_length(bits)``). A key is scrambled by a multiplication
  modulo ``2**KEY_BITS`` (a bijection); the top ``bits - 1`` bits of the product choose
  the bucket and the rest (``quotient``) is stored. An entry packs, from bit 0: the lower
  bound + 32 (6 bits), the upper bound + 32 (6 bits), the best move's slot + 1 (4 bits, 0:
  none), the work (5 bits: the bit length of the subtree's node count), the quotient and
  the solve's tag (``bits - 8`` bits). A new tag per solve empties the table without
  rewriting it; an all-zero entry is empty. A position is stored where it already is,
  else in the bucket's entry that holds less work (or another solve's); the entry of a
  position is merged with what it held. Each entry is one aligned 64-bit word, so threads
  writing at once never tear an entry (a lost update only costs time).
* ``work``, one per worker: counters and controls at the ``STATE_*`` offsets below, then
  per-ply move-ordering buffers, so the search never allocates. The caller may set
  ``STATE_STOP`` from another thread (the kernel holds no Python lock) to make the kernel
  unwind at once.

Limits: scores within ±31 (boards of at most 62 cells), keys below ``2**KEY_BITS``
(Connect 4's ``current + mask`` on at most 49 cells with their sentinels) and at most 15 move slots (an entry keeps the
best slot + 1 in 4 bits).
"""

from __future__ import annotations

from numba import njit

from negamax.core.compiled import (
    cell_count,
    move_slots,
    playable_cells,
    position_key,
    search_function,
    unsafe_cells,
    winning_cells,
)
from negamax.search.compiled.prefetch import prefetch

KEY_BITS = 49
KEY_MASK = (1 << KEY_BITS) - 1
GOLDEN_RATIO_64 = 0x9E3779B97F4A7C15
"""2**64 divided by the golden ratio: its multiples spread consecutive numbers evenly."""
KEY_FACTOR = GOLDEN_RATIO_64 & KEY_MASK | 1
"""Odd, so multiplying by it modulo ``2**KEY_BITS`` scrambles keys without collisions."""
MIN_TABLE_BITS = 17
MAX_TABLE_BITS = 30
"""Tables of 1 MiB to 8 GiB."""
IDENTITY_SHIFT = 21
WORK_SHIFT = 16
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
STATE_PUT_OFF = 10
"""Children this worker put off because another worker was searching them."""
STATE_BEST_MOVE = 11
STATE_LOWER = 12
STATE_UPPER = 13
STATE_PROBES = 14
STATE_WINDOW = 15
"""The probe being searched: the null window (``work[STATE_WINDOW]``, that + 1)."""
STATE_EXPANDED = 16
"""Nodes with a choice whose children were searched (neither settled on entry nor a
forced move): what Steininger's ``c4`` counts as nodes (it plays forced moves without
counting them)."""
STATE_PROBE_NODES = 17
MAX_LOGGED_PROBES = 32
STATE_SIZE = STATE_PROBE_NODES + MAX_LOGGED_PROBES
"""The slots ``solve`` clears; the three below it leaves alone (the solver sets them)."""
STATE_PUBLISH = STATE_SIZE
"""This worker's split-point area + 1 (0: it publishes none)."""
STATE_WATCH_SLOT = STATE_SIZE + 1
"""The version slot of the split point whose child this worker is searching (0: none)..."""
STATE_WATCH_VERSION = STATE_SIZE + 2
"""...and the version it took the child from; the worker unwinds once the two differ."""
STATE_VERSIONS = STATE_SIZE + 3
"""The versions this worker has handed out."""
STATE_TASK = STATE_SIZE + 4
"""``find_task`` leaves its task here: child, version, current, mask, moves, alpha, beta,
move (it returns the block)."""
STATE_EXCLUSIVE = STATE_TASK + 8
"""Set by a parent just before it searches a child it may put off; the child reads and
clears it on entry, and answers ``BUSY`` if another worker is searching it."""
STATE_TABLE_SHIFT = STATE_TASK + 9
"""``KEY_BITS + 1 - bits`` for a table of ``2**bits`` entries (``solve`` sets it)."""
STATE_GIVEN = STATE_TASK + 10
"""Set by a parent just before it searches a child, with the child's winning cells
(``STATE_GIVEN_OWN``) and its opponent's (``STATE_GIVEN_THEIRS``), which the parent found
while it ordered its moves; the child reads and clears it on entry (else it finds them
itself)."""
STATE_GIVEN_OWN = STATE_TASK + 11
STATE_GIVEN_THEIRS = STATE_TASK + 12
MAX_SLOTS = 16
LOOKS = STATE_TASK + 13
"""``node_start``'s first look at each move, in the game's order (its own, so not per ply):
the moves, their scores, their threats, their entries' bucket and identity, and their
slots (``MAX_SLOTS`` each)."""
SCRATCH = LOOKS + 6 * MAX_SLOTS
PLY_BUFFERS = 4
MAX_PLIES = 64
WORK_SIZE = SCRATCH + MAX_PLIES * PLY_BUFFERS * MAX_SLOTS

# Split points (YBWC with helpful masters). At the start of the table array, each worker
# has an area of one SPLIT_STRIDE-word block per ply (in cache lines of its own), where it
# publishes each node whose first SPLIT_AFTER children failed to cut (SPLIT_AFTER_EARLY
# near the start of a game), so likely every child must be searched. Other workers take
# the node's children from the last one back and search them with the node's window;
# what they prove reaches the owner through the table, where
# the owner finds it on reaching those children. An owner that reaches a child another
# worker is searching puts it off; once only such children are left, it helps below them
# (takes children of split points deeper than itself) until they are done. Helpers only
# ever add proven bounds to the table, so the owner's value never depends on them.
SPLIT_HEADER = 0
SPLIT_RUN = SPLIT_HEADER
"""Nonzero while helpers should look for work (the solver writes it)..."""
SPLIT_TAG = SPLIT_HEADER + 1
"""...the solve's tag..."""
SPLIT_WORKERS = SPLIT_HEADER + 2
"""...and the number of areas in use."""
SPLIT_BASE = SPLIT_HEADER + 8
SPLIT_STRIDE = 48
SPLIT_VERSION = 0
SPLIT_CURRENT = 1
SPLIT_MASK = 2
SPLIT_ALPHA = 3
SPLIT_BETA = 4
SPLIT_COUNT = 5
SPLIT_CHECK = 6
SPLIT_MOVES = 8
SPLIT_STATES = SPLIT_MOVES + MAX_SLOTS
"""Per child: FREE, TAKEN (a worker is searching it) or DONE."""
WAIT_LOOKS = 1 << 22
"""How often a worker whose only children left are being searched by others looks for
work below them (a fraction of a second) before it searches one of them too: searching
one at once made it follow the other worker down, node for node; the limit keeps a solve
going if a helper died (``docs/parallel-solver.md`` has the measurements)."""
ABORTED = 2
"""``work[STATE_STOP]`` when a worker unwinds to where it took a child (the solver stops
workers with 1)."""
FREE = 0
TAKEN = 1
DONE = 2
MAX_WORKERS = 64
SPLIT_AFTER = 2
"""A node is published once this many children failed to cut: a node whose first child
fails to cut is still often cut by a later one, and the helpers' work on it is then lost
(the counts tried are in ``docs/parallel-solver.md``)..."""
SPLIT_AFTER_EARLY = 1
SPLIT_EARLY_STONES = 3
"""...but after one child in a game's first plies (at most this many stones), where every
subtree is huge and a helper left idle while the second child is searched costs
the most."""
SPLIT_MIN_EMPTY = 20
"""Nodes with fewer empty cells are not published (their subtrees are too small to share),
and below them the workers run the plain search (the sizes tried are in
``docs/parallel-solver.md``)."""
SPLIT_AREA = MAX_PLIES * SPLIT_STRIDE
"""One worker's split points: worker ``w``'s block for ``moves`` stones is at
``SPLIT_BASE + w * SPLIT_AREA + moves * SPLIT_STRIDE``."""
BUSY_BASE = SPLIT_BASE + MAX_WORKERS * SPLIT_AREA
BUSY_SIZE = 1 << 16
"""Nodes being searched (as in ABDADA): each worker marks the shared nodes it is in at
``BUSY_BASE + index // 2 % BUSY_SIZE`` with ``index * BUSY_FACTOR + area + 1`` (``index``:
the node's bucket), and clears the mark on leaving. A worker reaching a node that another worker
is in puts it off, unless it is the node's first child, and comes back to it once its
other children are done, when the bound it needs is usually in the table. Without this,
two workers meeting at a transposition search it in step, each doing all the work."""
BUSY_FACTOR = 128
"""Above ``MAX_WORKERS``: a mark's area is ``mark % BUSY_FACTOR - 1``."""
BUSY = 64
"""What a search put off returns: outside every score range."""
TABLE_BASE = BUSY_BASE + BUSY_SIZE
"""Where the transposition table starts in the ``table`` array (a multiple of 8 words: a
bucket never straddles two cache lines)."""
CHECK_FACTOR = GOLDEN_RATIO_64 - (1 << 64)
FORCED = 0
"""The table index ``node_start`` gives a forced move (no table index is 0)."""
NEAR_ZERO = 6
"""``narrow`` probes 0 instead of a score closer to 0 than this..."""
WIN_DRAW_LOSS_EMPTY = 28
"""...in positions with at least this many empty cells (in the middle game, Pons' order
alone searched fewer nodes: Middle-Easy 409 against 488 per position)."""
ETC_EMPTY_CELLS = 12
"""Enhanced transposition cut-offs are tried only while more cells than this are empty:
near the end of the game a search is cheaper than the table look-ups."""
ETC_AFTER_NODES = 20_000
"""...and only once the solve has searched this many nodes. A transposition cut-off saves
a subtree; in a small solve those are small, and the up to seven table loads per node cost
more than they save."""


@njit(cache=True, inline="always")
def popcount(bits: int) -> int:
    bits = bits - ((bits >> 1) & 0x5555555555555555)
    bits = (bits & 0x3333333333333333) + ((bits >> 2) & 0x3333333333333333)
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (bits * 0x0101010101010101) >> 56 & 0xFF


def table_length(bits: int) -> int:
    """The length of the ``table`` array for a transposition table of ``2**bits`` entries."""
    return TABLE_BASE + (1 << bits)


def table_shift_for(bits: int) -> int:
    """``work[STATE_TABLE_SHIFT]`` for a table of ``2**bits`` entries."""
    return KEY_BITS + 1 - bits


def bucket_index(key: int, bits: int) -> int:
    """Where ``bucket_of`` puts ``key`` in a table of ``2**bits`` entries."""
    return int(bucket_at(scramble(key), table_shift_for(bits)))


def max_tag(bits: int) -> int:
    """The last tag a table of ``2**bits`` entries can tell apart."""
    return (1 << (bits - 8)) - 1


@njit(cache=True, inline="always")
def scramble(key):  # type: ignore[no-untyped-def]
    return (key * KEY_FACTOR) & KEY_MASK


@njit(cache=True, inline="always")
def bucket_at(scrambled, shift):  # type: ignore[no-untyped-def]
    """The table index of the bucket of a scrambled key: its top bits (below ``shift``)."""
    return TABLE_BASE + ((scrambled >> shift) << 1)


@njit(cache=True, inline="always")
def bucket_of(key, work):  # type: ignore[no-untyped-def]
    """``(index, identity)``: the table index of the key's bucket, and what its entry holds
    from bit ``IDENTITY_SHIFT`` on."""
    scrambled = scramble(key)
    shift = work[STATE_TABLE_SHIFT]
    return bucket_at(scrambled, shift), (work[STATE_TAG] << shift) | (scrambled & ((1 << shift) - 1))


@njit(cache=True, inline="always")
def ply_buffers(moves):  # type: ignore[no-untyped-def]
    """Where the per-ply buffers of a node with ``moves`` stones start in ``work``: its
    ordered moves, then their scores, their slots, and the winning cells each leaves the
    mover (``MAX_SLOTS`` each)."""
    return SCRATCH + moves * PLY_BUFFERS * MAX_SLOTS


@njit(cache=True, inline="always")
def find_entry(index, identity, table):  # type: ignore[no-untyped-def]
    """The entry of the bucket at ``index`` that holds ``identity`` (0: neither)."""
    entry = table[index]
    if entry >> IDENTITY_SHIFT == identity:
        return entry
    entry = table[index + 1]
    if entry >> IDENTITY_SHIFT == identity:
        return entry
    return 0


@njit(cache=True, inline="always")
def node_start(spec, current, mask, moves, alpha, beta, table, work):  # type: ignore[no-untyped-def]
    """Steps 1-7 of a node, shared by both searches: ``(settled, value, alpha, beta, count,
    index, identity, opponent_winning)``; a settled node's value is final, else ``value``
    is the floor of the node's value (the best bound of the moves step 7 ruled out), its
    ``count`` children are ordered in its per-ply buffers, ``index``/``identity`` locate
    its table entry (``index`` is ``FORCED`` for a forced move: no entry) and
    ``opponent_winning`` holds the opponent's winning cells."""
    # Step 1. Count the node; unwind at once if asked to stop.
    given = work[STATE_GIVEN]
    work[STATE_GIVEN] = 0
    work[STATE_NODES] += 1
    if work[STATE_STOP] != 0:
        return True, 0, alpha, beta, 0, 0, 0, 0
    if work[STATE_NODES] >= work[STATE_NODE_LIMIT]:
        work[STATE_STOP] = 1
        return True, 0, alpha, beta, 0, 0, 0, 0

    # Step 2. An immediate win ends the search here.
    cells = cell_count(spec)
    possible = playable_cells(spec, mask)
    own_winning = work[STATE_GIVEN_OWN] if given else winning_cells(spec, current, mask)
    if own_winning & possible:
        return True, (cells + 1 - moves) // 2, alpha, beta, 0, 0, 0, 0

    # Step 3. Keep the moves that do not hand the opponent an immediate win.
    opponent_winning = work[STATE_GIVEN_THEIRS] if given else winning_cells(spec, current ^ mask, mask)
    forced = possible & opponent_winning
    if forced:
        if forced & (forced - 1):
            return True, -((cells - moves) // 2), alpha, beta, 0, 0, 0, 0  # two threats: the opponent wins next move
        possible = forced
    candidates = possible & ~unsafe_cells(spec, opponent_winning)
    if candidates == 0:
        return True, -((cells - moves) // 2), alpha, beta, 0, 0, 0, 0
    if moves >= cells - 2:
        return True, 0, alpha, beta, 0, 0, 0, 0  # our safe stone is the last but one: nobody can win any more

    # Step 4. The scores still possible: no win before our next-but-one stone, no loss
    # before the opponent's next-but-one.
    highest = (cells - 1 - moves) // 2
    if beta > highest:
        beta = highest
        if alpha >= beta:
            return True, beta, alpha, beta, 0, 0, 0, 0
    lowest = -((cells - 2 - moves) // 2)
    if alpha < lowest:
        alpha = lowest
        if alpha >= beta:
            return True, alpha, alpha, beta, 0, 0, 0, 0

    # Step 5. A forced move (the only one that does not lose at once) is played without
    # a table entry of its own: its value is the next position's, stored there.
    order_moves = ply_buffers(moves)  # no allocation
    if candidates & (candidates - 1) == 0:
        work[order_moves] = candidates
        work[order_moves + 3 * MAX_SLOTS] = winning_cells(spec, current | candidates, mask | candidates)
        return False, -cells, alpha, beta, 1, FORCED, 0, opponent_winning

    # Step 6. Transposition table: both bounds, keyed by the symmetry-canonical key.
    key = position_key(spec, current, mask)
    index, identity = bucket_of(key, work)
    entry = find_entry(index, identity, table)
    table_slot = -1
    if entry != 0:
        work[STATE_TT_HITS] += 1
        table_slot = ((entry >> 12) & 15) - 1
        lower = (entry & 63) - SCORE_OFFSET
        upper = ((entry >> 6) & 63) - SCORE_OFFSET
        if lower >= beta or lower == upper:
            work[STATE_TT_CUTOFFS] += 1
            return True, lower, alpha, beta, 0, 0, 0, 0
        if upper <= alpha:
            work[STATE_TT_CUTOFFS] += 1
            return True, upper, alpha, beta, 0, 0, 0, 0
        if lower > alpha:
            alpha = lower
        if upper < beta:
            beta = upper

    # Step 7. A static look at each move, then the moves in order. A move that leaves the
    # opponent two threats to block (or one right below another) wins at once. With enough
    # cells empty, the table says more (enhanced transposition cut-offs): a move whose
    # position (or, when the opponent's reply is forced, the position after it: forced
    # moves have no entry) is known to be at least beta cuts this node at once; one known
    # to be at most alpha is not searched, and its bound is the floor of this node's value.
    # The rest are ordered: the table's move first, then by the useful threats they make
    # (ties: the game's order). The first pass asks memory for every entry it will read,
    # the second reads them: the loads then wait for memory together, not one by one.
    etc = moves < cells - ETC_EMPTY_CELLS and work[STATE_NODES] > ETC_AFTER_NODES
    opponent_stones = current ^ mask
    slots = move_slots(spec)
    looked = 0
    for slot in range(len(slots)):
        move = candidates & slots[slot]
        if move:
            score, threats = move_score(spec, current, mask, move, opponent_winning)
            after = mask | move
            reply = playable_cells(spec, after) & threats
            if reply & (reply - 1) or reply & unsafe_cells(spec, threats):
                if moves == work[STATE_ROOT_MOVES]:
                    work[STATE_ROOT_MOVE] = move
                return True, highest, alpha, beta, 0, 0, 0, 0
            if reply:
                child_index, child_identity = bucket_of(position_key(spec, current | move, after | reply), work)
                child_identity = -child_identity - 1  # (negative: the position is ours to move)
            else:
                child_index, child_identity = bucket_of(position_key(spec, opponent_stones, after), work)
            prefetch(table, child_index)
            work[LOOKS + looked] = move
            work[LOOKS + MAX_SLOTS + looked] = 1000 if slot == table_slot else score
            work[LOOKS + 2 * MAX_SLOTS + looked] = threats
            work[LOOKS + 3 * MAX_SLOTS + looked] = child_index
            work[LOOKS + 4 * MAX_SLOTS + looked] = child_identity
            work[LOOKS + 5 * MAX_SLOTS + looked] = slot
            looked += 1
    floor = -cells
    order_scores = order_moves + MAX_SLOTS
    order_slots = order_scores + MAX_SLOTS
    order_threats = order_slots + MAX_SLOTS
    count = 0
    for look in range(looked):
        move = work[LOOKS + look]
        if etc:
            child_identity = work[LOOKS + 4 * MAX_SLOTS + look]
            ours = child_identity < 0
            if ours:
                child_identity = -child_identity - 1
            child_entry = find_entry(work[LOOKS + 3 * MAX_SLOTS + look], child_identity, table)
            if child_entry != 0:
                child_lower = (child_entry & 63) - SCORE_OFFSET
                child_upper = ((child_entry >> 6) & 63) - SCORE_OFFSET
                if ours:
                    lower, upper = child_lower, child_upper
                else:
                    lower, upper = -child_upper, -child_lower
                if lower >= beta:
                    work[STATE_TT_CUTOFFS] += 1
                    if moves == work[STATE_ROOT_MOVES]:
                        work[STATE_ROOT_MOVE] = move
                    return True, lower, alpha, beta, 0, 0, 0, 0
                if upper <= alpha:
                    floor = max(floor, upper)
                    continue
        score = work[LOOKS + MAX_SLOTS + look]
        position = count
        while position > 0 and work[order_scores + position - 1] < score:
            work[order_moves + position] = work[order_moves + position - 1]
            work[order_scores + position] = work[order_scores + position - 1]
            work[order_slots + position] = work[order_slots + position - 1]
            work[order_threats + position] = work[order_threats + position - 1]
            position -= 1
        work[order_moves + position] = move
        work[order_scores + position] = score
        work[order_slots + position] = work[LOOKS + 5 * MAX_SLOTS + look]
        work[order_threats + position] = work[LOOKS + 2 * MAX_SLOTS + look]
        count += 1
    if count == 0:
        return True, floor, alpha, beta, 0, 0, 0, 0
    work[STATE_EXPANDED] += 1
    return False, floor, alpha, beta, count, index, identity, opponent_winning


@njit(cache=True, inline="always")
def move_score(spec, current, mask, move, opponent_winning):  # type: ignore[no-untyped-def]
    """``(score, threats)``: how promising ``move`` looks, and the winning cells it leaves
    the mover. The score is twice the useful threats (winning cells not right above one
    of the opponent's, which the opponent would complete first), plus those right above a
    playable cell (whoever fills that cell hands the other the threat). For games without
    gravity: twice the winning cells."""
    after = mask | move
    threats = winning_cells(spec, current | move, after)
    theirs = opponent_winning & ~move
    below = unsafe_cells(spec, threats)  # the cells right below our threats
    useless = popcount(below & theirs)
    pressing = popcount(below & playable_cells(spec, after) & ~theirs)
    return 2 * (popcount(threats) - useless) + pressing, threats


@njit(cache=True, inline="always")
def node_store(index, identity, best, best_slot, alpha_original, beta, nodes, table, work):  # type: ignore[no-untyped-def]
    """Step 9. Store what was proven (by a search of ``nodes`` nodes), merged with what is
    known of the same position."""
    first = table[index]
    second = table[index + 1]
    if second >> IDENTITY_SHIFT == identity:
        index += 1
        entry = second
    elif first >> IDENTITY_SHIFT == identity:
        entry = first
    else:
        # Keep the entry that cost more to find, unless it is another solve's.
        tag = work[STATE_TAG]
        shift = IDENTITY_SHIFT + work[STATE_TABLE_SHIFT]
        first_work = (first >> WORK_SHIFT) & 31 if first >> shift == tag else -1
        second_work = (second >> WORK_SHIFT) & 31 if second >> shift == tag else -1
        if second_work < first_work:
            index += 1
        entry = 0
    if entry != 0:
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
    cost = 0
    while nodes > 1 and cost < 31:
        nodes >>= 1
        cost += 1
    table[index] = (
        (identity << IDENTITY_SHIFT)
        | (cost << WORK_SHIFT)
        | ((best_slot + 1) << 12)
        | ((upper + SCORE_OFFSET) << 6)
        | (lower + SCORE_OFFSET)
    )


@njit(cache=True, inline="always")
def take_value(value, child, move, moves, best, best_slot, alpha, beta, work):  # type: ignore[no-untyped-def]
    """Step 8's bookkeeping after a child: ``(best, best_slot, alpha, cut)``."""
    if value > best:
        best = value
        best_slot = work[ply_buffers(moves) + 2 * MAX_SLOTS + child]
        if moves == work[STATE_ROOT_MOVES]:
            work[STATE_ROOT_MOVE] = move
        if value > alpha:
            alpha = value
            if alpha >= beta:
                work[STATE_BETA_CUTOFFS] += 1
                if child == 0:
                    work[STATE_FIRST_MOVE_CUTOFFS] += 1
                return best, best_slot, alpha, True
    return best, best_slot, alpha, False


@njit(cache=True, inline="always")
def give(own_winning, opponent_winning, work):  # type: ignore[no-untyped-def]
    """Hand the next child its winning cells and its opponent's (``STATE_GIVEN``)."""
    work[STATE_GIVEN_OWN] = own_winning
    work[STATE_GIVEN_THEIRS] = opponent_winning
    work[STATE_GIVEN] = 1


@search_function
def negamax(spec, current, mask, moves, alpha, beta, table, work):  # type: ignore[no-untyped-def]
    """The search of one worker alone (and of subtrees too small to share)."""
    before = work[STATE_NODES]
    settled, value, alpha, beta, count, index, identity, opponent_winning = node_start(
        spec, current, mask, moves, alpha, beta, table, work
    )
    if settled:
        return value

    # Step 8. Search: the first move with the full window, the others with a null window
    # that a re-search widens when one turns out better (fail-soft PVS).
    order_moves = ply_buffers(moves)
    alpha_original = alpha
    best = value  # the floor: the bound of the moves the table ruled out
    best_slot = -1
    opponent = current ^ mask
    for number in range(count):
        move = work[order_moves + number]
        give(opponent_winning & ~move, work[order_moves + 3 * MAX_SLOTS + number], work)
        if number == 0:
            value = -negamax(spec, opponent, mask | move, moves + 1, -beta, -alpha, table, work)
        else:
            value = -negamax(spec, opponent, mask | move, moves + 1, -alpha - 1, -alpha, table, work)
            if alpha < value < beta:
                give(opponent_winning & ~move, work[order_moves + 3 * MAX_SLOTS + number], work)
                value = -negamax(spec, opponent, mask | move, moves + 1, -beta, -alpha, table, work)
        if work[STATE_STOP] != 0:
            return 0
        best, best_slot, alpha, cut = take_value(value, number, move, moves, best, best_slot, alpha, beta, work)
        if cut:
            break
    if index != FORCED:
        node_store(index, identity, best, best_slot, alpha_original, beta, work[STATE_NODES] - before, table, work)
    return best


@search_function
def negamax_shared(spec, current, mask, moves, alpha, beta, table, work):  # type: ignore[no-untyped-def]
    """The search of a worker that shares its nodes (see the split points above): the
    same search as ``negamax``, but it publishes nodes, puts off children others took or
    are in, helps below them, and unwinds once the split point it took its subtree from
    is gone. Returns ``BUSY`` (only if the parent set ``work[STATE_EXCLUSIVE]``) when
    another worker is searching this node."""
    exclusive = work[STATE_EXCLUSIVE]
    work[STATE_EXCLUSIVE] = 0
    watch = work[STATE_WATCH_SLOT]
    if watch != 0 and table[watch] != work[STATE_WATCH_VERSION]:
        work[STATE_STOP] = ABORTED
        return 0
    if cell_count(spec) - moves < SPLIT_MIN_EMPTY:
        return negamax(spec, current, mask, moves, alpha, beta, table, work)
    before = work[STATE_NODES]
    settled, value, alpha, beta, count, index, identity, _ = node_start(
        spec, current, mask, moves, alpha, beta, table, work
    )
    if settled:
        return value
    if index == FORCED:
        move = work[ply_buffers(moves)]
        if moves == work[STATE_ROOT_MOVES]:
            work[STATE_ROOT_MOVE] = move
        work[STATE_EXCLUSIVE] = exclusive  # the forced move's position is put off if busy
        value = negamax_shared(spec, current ^ mask, mask | move, moves + 1, -beta, -alpha, table, work)
        return BUSY if value == BUSY else -value
    busy_slot = BUSY_BASE + (index >> 1) % BUSY_SIZE
    mark = index * BUSY_FACTOR + work[STATE_PUBLISH]
    other = table[busy_slot]
    if exclusive != 0 and other != 0 and other != mark and other // BUSY_FACTOR == index:
        return BUSY
    table[busy_slot] = mark
    alpha_original = alpha
    best, best_slot = search_shared(spec, current, mask, moves, alpha, beta, value, count, table, work)
    if table[busy_slot] == mark:
        table[busy_slot] = 0
    if work[STATE_STOP] != 0:
        return 0
    node_store(index, identity, best, best_slot, alpha_original, beta, work[STATE_NODES] - before, table, work)
    return best


@njit(cache=True, inline="always")
def search_shared(spec, current, mask, moves, alpha, beta, floor, count, table, work):  # type: ignore[no-untyped-def]
    """Step 8 at a node others may help with: the children in order, publishing the node
    once its first children fail to cut (``SPLIT_AFTER``). Children another worker is in are put off:
    those it took from the split point until only they are left, when this worker helps
    below them until they are done; those it reached by another path until the others
    are done, when they are searched anyway. Returns the best value and its slot (when
    ``work[STATE_STOP]`` is set: unwind, they mean nothing)."""
    order_moves = ply_buffers(moves)
    best = floor
    best_slot = -1
    opponent = current ^ mask
    watch = work[STATE_WATCH_SLOT]
    watch_version = work[STATE_WATCH_VERSION]
    block = 0
    pending = 0  # children other workers took from the split point, as bits
    busy = 0  # children other workers reached by another path, as bits
    looks = 0
    number = 0
    while number < count or pending != 0 or busy != 0:
        exclusive = 0
        if number < count:
            child = number
            number += 1
            exclusive = 1
            if block != 0:
                state = table[block + SPLIT_STATES + child]
                if state == TAKEN:
                    pending |= 1 << child  # another worker has it: later
                    continue
                if state == FREE:
                    table[block + SPLIT_STATES + child] = TAKEN
                # DONE: the search below finds its bound in the table at once
        elif busy != 0:
            child = 0
            while (busy >> child) & 1 == 0:
                child += 1
            busy &= ~(1 << child)
        else:
            child = 0
            while (pending >> child) & 1 == 0:
                child += 1
            if table[block + SPLIT_STATES + child] == TAKEN:
                # only children others are searching are left: help below them
                if work[STATE_STOP] == 0 and watch != 0 and table[watch] != watch_version:
                    work[STATE_STOP] = ABORTED
                if work[STATE_STOP] != 0:
                    break
                task = find_task(spec, table, work, moves + 1)
                if task != 0:
                    run_task(spec, task, table, work)
                    work[STATE_WATCH_SLOT] = watch
                    work[STATE_WATCH_VERSION] = watch_version
                    continue
                looks += 1
                if looks < WAIT_LOOKS:
                    continue
                # nothing to help with below for a long while: search the child too
            pending &= ~(1 << child)
        move = work[order_moves + child]
        if child == 0:
            value = -negamax_shared(spec, opponent, mask | move, moves + 1, -beta, -alpha, table, work)
        else:
            work[STATE_EXCLUSIVE] = exclusive
            value = -negamax_shared(spec, opponent, mask | move, moves + 1, -alpha - 1, -alpha, table, work)
            if value == -BUSY:
                busy |= 1 << child
                work[STATE_PUT_OFF] += 1
                continue
            if alpha < value < beta:
                value = -negamax_shared(spec, opponent, mask | move, moves + 1, -beta, -alpha, table, work)
        if work[STATE_STOP] != 0:
            break
        if block != 0:
            table[block + SPLIT_STATES + child] = DONE
        best, best_slot, alpha, cut = take_value(value, child, move, moves, best, best_slot, alpha, beta, work)
        if cut:
            break
        after = SPLIT_AFTER_EARLY if moves <= SPLIT_EARLY_STONES else SPLIT_AFTER
        if child == after - 1 and number == after and count > after:
            block = publish(current, mask, moves, alpha, beta, count, after, order_moves, table, work)
    if block != 0:
        table[block + SPLIT_VERSION] = 0
    return best, best_slot


@njit(cache=True, inline="always")
def run_task(spec, task, table, work):  # type: ignore[no-untyped-def]
    """Search the child ``find_task`` took from split point ``task``, watching that split
    point; mark the child done if the search finished, and forget an abort (it only
    meant unwinding to here). The caller restores its own watch."""
    index = work[STATE_TASK]
    version = work[STATE_TASK + 1]
    work[STATE_WATCH_SLOT] = task + SPLIT_VERSION
    work[STATE_WATCH_VERSION] = version
    negamax_shared(
        spec,
        work[STATE_TASK + 2] ^ work[STATE_TASK + 3],
        work[STATE_TASK + 3] | work[STATE_TASK + 7],
        work[STATE_TASK + 4] + 1,
        -work[STATE_TASK + 6],
        -work[STATE_TASK + 5],
        table,
        work,
    )
    if work[STATE_STOP] == 0 and table[task + SPLIT_VERSION] == version:
        table[task + SPLIT_STATES + index] = DONE
    elif work[STATE_STOP] == ABORTED:
        work[STATE_STOP] = 0


@search_function
def publish(current, mask, moves, alpha, beta, count, after, order_moves, table, work):  # type: ignore[no-untyped-def]
    """Publish this node, its first ``after`` children searched, as a split point; return
    its block."""
    block = SPLIT_BASE + ((work[STATE_PUBLISH] - 1) * MAX_PLIES + moves) * SPLIT_STRIDE
    table[block + SPLIT_CURRENT] = current
    table[block + SPLIT_MASK] = mask
    table[block + SPLIT_ALPHA] = alpha
    table[block + SPLIT_BETA] = beta
    table[block + SPLIT_COUNT] = count
    for number in range(count):
        table[block + SPLIT_MOVES + number] = work[order_moves + number]
        table[block + SPLIT_STATES + number] = FREE
    for number in range(after):
        table[block + SPLIT_STATES + number] = DONE
    table[block + SPLIT_CHECK] = split_check(current, mask, alpha, beta, count)
    work[STATE_VERSIONS] += 1
    table[block + SPLIT_VERSION] = work[STATE_VERSIONS]
    return block


@njit(cache=True, inline="always")
def split_check(current: int, mask: int, alpha: int, beta: int, count: int) -> int:
    return (current * CHECK_FACTOR) ^ mask ^ (alpha << 50) ^ (beta << 56) ^ (count << 44)


@search_function
def find_task(spec, table, work, min_moves):  # type: ignore[no-untyped-def]
    """Take a child of the shallowest split point of another worker at ``min_moves`` stones
    or more, the last one free; leave it at ``work[STATE_TASK:]`` and return its block (0:
    none)."""
    own = work[STATE_PUBLISH] - 1
    workers = table[SPLIT_WORKERS]
    for moves in range(min_moves, cell_count(spec) - SPLIT_MIN_EMPTY + 1):
        for area in range(workers):
            if area == own:
                continue
            block = SPLIT_BASE + (area * MAX_PLIES + moves) * SPLIT_STRIDE
            version = table[block + SPLIT_VERSION]
            if version == 0:
                continue
            count = table[block + SPLIT_COUNT]
            if count > MAX_SLOTS:
                continue
            child = count - 1
            while child >= 1 and table[block + SPLIT_STATES + child] != FREE:
                child -= 1
            if child < 1:
                continue
            current = table[block + SPLIT_CURRENT]
            mask = table[block + SPLIT_MASK]
            alpha = table[block + SPLIT_ALPHA]
            beta = table[block + SPLIT_BETA]
            check = table[block + SPLIT_CHECK]
            move = table[block + SPLIT_MOVES + child]
            # The owner may have rewritten the block meanwhile: take only a child of a
            # position read whole (a torn one could be no real position at all).
            if table[block + SPLIT_VERSION] != version or check != split_check(current, mask, alpha, beta, count):
                continue
            if move == 0 or move & (move - 1) != 0 or move & playable_cells(spec, mask) == 0:
                continue
            if current & ~mask != 0 or popcount(mask) != moves or not -SCORE_OFFSET < alpha < beta < SCORE_OFFSET:
                continue
            table[block + SPLIT_STATES + child] = TAKEN
            work[STATE_TASK] = child
            work[STATE_TASK + 1] = version
            work[STATE_TASK + 2] = current
            work[STATE_TASK + 3] = mask
            work[STATE_TASK + 4] = moves
            work[STATE_TASK + 5] = alpha
            work[STATE_TASK + 6] = beta
            work[STATE_TASK + 7] = move
            return block
    return 0


@search_function
def help_workers(spec, table, work):  # type: ignore[no-untyped-def]
    """A helper's life while ``table[SPLIT_RUN]`` is set: take a child of the shallowest
    split point of another worker, search it with the split point's window, repeat.
    Returns the nodes searched (also in ``work[STATE_NODES]``)."""
    for slot in range(STATE_SIZE):
        work[slot] = 0
    work[STATE_TABLE_SHIFT] = table_shift(table)
    work[STATE_ROOT_MOVES] = -1
    work[STATE_NODE_LIMIT] = 1 << 62
    while table[SPLIT_RUN] != 0 and work[STATE_STOP] == 0:
        work[STATE_TAG] = table[SPLIT_TAG]
        task = find_task(spec, table, work, 0)
        if task == 0:
            continue
        run_task(spec, task, table, work)
        work[STATE_WATCH_SLOT] = 0
    return work[STATE_NODES]


@njit(cache=True, inline="always")
def table_shift(table):  # type: ignore[no-untyped-def]
    """``work[STATE_TABLE_SHIFT]`` for this ``table`` array."""
    bits = 0
    while TABLE_BASE + (2 << bits) <= table.shape[0]:
        bits += 1
    return KEY_BITS + 1 - bits  # table_shift_for(bits)


@search_function
def solve(spec, current, mask, moves, tag, node_limit, table, work):  # type: ignore[no-untyped-def]
    """Solve from scratch: reset the state slots, then narrow the score range with
    null-window probes (``narrow``). Leaves the lower and upper bound, the
    best move and the probes' node counts in the state slots."""
    for slot in range(STATE_SIZE):
        work[slot] = 0
    work[STATE_TABLE_SHIFT] = table_shift(table)
    work[STATE_NODE_LIMIT] = node_limit
    work[STATE_ROOT_MOVES] = moves
    cells = cell_count(spec)
    lower, upper = -((cells - moves) // 2), (cells + 1 - moves) // 2
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
