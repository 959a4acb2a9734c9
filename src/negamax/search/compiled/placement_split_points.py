"""The placement kernel's split points (young brothers wait, with helpful masters): the
shared search publishes a node whose first children failed to cut, other workers take
its remaining children from the last one back, and an owner left waiting helps below
(``placement_layout`` describes the areas)."""

from __future__ import annotations

from numba import njit

from negamax.core.compiled import (
    cell_count,
    playable_cells,
    search_function,
)
from negamax.search.compiled.placement_layout import (
    ABORTED,
    BUSY,
    BUSY_BASE,
    BUSY_FACTOR,
    BUSY_SIZE,
    CHECK_FACTOR,
    DONE,
    FORCED,
    FREE,
    MAX_PLIES,
    MAX_SLOTS,
    SCORE_OFFSET,
    SPLIT_AFTER,
    SPLIT_AFTER_EARLY,
    SPLIT_ALPHA,
    SPLIT_BASE,
    SPLIT_BETA,
    SPLIT_CHECK,
    SPLIT_COUNT,
    SPLIT_CURRENT,
    SPLIT_EARLY_STONES,
    SPLIT_MASK,
    SPLIT_MIN_EMPTY,
    SPLIT_MOVES,
    SPLIT_RUN,
    SPLIT_STATES,
    SPLIT_STRIDE,
    SPLIT_TAG,
    SPLIT_VERSION,
    SPLIT_WORKERS,
    STATE_EXCLUSIVE,
    STATE_NODE_LIMIT,
    STATE_NODES,
    STATE_PUBLISH,
    STATE_PUT_OFF,
    STATE_ROOT_MOVE,
    STATE_ROOT_MOVES,
    STATE_SIZE,
    STATE_STOP,
    STATE_TAG,
    STATE_TASK,
    STATE_VERSIONS,
    STATE_WATCH_SLOT,
    STATE_WATCH_VERSION,
    TAKEN,
    WAIT_LOOKS,
)
from negamax.search.compiled.placement_solver import negamax, node_start, take_value
from negamax.search.compiled.placement_table import node_store, ply_buffers, popcount, set_table_shift


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
    """Step 9 at a node others may help with: the children in order, publishing the node
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
    set_table_shift(spec, table, work)
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
