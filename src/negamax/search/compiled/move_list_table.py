"""The deepening kernel's transposition table: a move's key, an entry probed, read
(depth, bound, value from the node's ply) and stored under the replacement policy that
``move_list_kernel`` describes, and how full the table is (``hash_permille``)."""

from __future__ import annotations

from typing import Any

from negamax.core.compiled import (
    search_function,
)
from negamax.search.compiled.move_list_layout import (
    EXACT,
    LOWER,
    MOVE_BITS,
    SCORE_OFFSET,
    SCORE_SHIFT,
    UPPER,
    W_GENERATION,
    from_node,
    to_node,
)
from negamax.search.compiled.prefetch import prefetch


@search_function
def _move_key(move: int) -> int:
    """The 20 bits the table keeps of a move: the code itself when it fits (chess), else
    its bits folded together (a rare false match only costs move ordering)."""
    key = (move ^ (move >> 20) ^ (move >> 40)) & MOVE_BITS
    return key if key != 0 or move == 0 else 1


@search_function
def _prefetch_entry(table: Any, key: int) -> None:
    """Starts loading the table's entry for ``key`` (a child about to be searched probes it
    after some work of its own: the load runs meanwhile). Only under ``TABLE_PREFETCH``."""
    prefetch(table, (key & ((table.size >> 1) - 1)) << 1)


@search_function
def _probe(table: Any, key: int) -> int:
    index = (key & ((table.size >> 1) - 1)) << 1
    data = table[index + 1]
    if table[index] ^ data == key:
        return data
    return -1


@search_function
def _entry_depth(entry: int) -> int:
    return ((entry >> 20) & 255) - 1


@search_function
def _entry_bound(entry: int) -> int:
    return (entry >> 28) & 3


@search_function
def _entry_value(entry: int, ply: int) -> int:
    """The entry's score as seen from a node ``ply`` plies from the root."""
    return from_node((entry >> SCORE_SHIFT) - SCORE_OFFSET, ply)


@search_function
def _entry_decides(entry: int, ply: int, alpha: int, beta: int) -> bool:
    """Whether the entry's value settles a node searched with the window (alpha, beta)."""
    value = _entry_value(entry, ply)
    bound = _entry_bound(entry)
    return bound == EXACT or (value >= beta if bound == LOWER else value <= alpha)


@search_function
def _store(table: Any, work: Any, key: int, depth: int, score: int, bound: int, move: int) -> None:
    index = (key & ((table.size >> 1) - 1)) << 1
    generation = work[W_GENERATION]
    old = table[index + 1]
    same = table[index] ^ old == key
    if not same and old != 0 and (old >> 30) & 255 == generation and _entry_depth(old) > depth:
        return  # a deeper entry of this search keeps its slot
    if move == 0 and same:
        move = old & MOVE_BITS
    data = move | ((depth + 1) << 20) | (bound << 28) | (generation << 30) | ((score + SCORE_OFFSET) << SCORE_SHIFT)
    table[index] = key ^ data
    table[index + 1] = data


@search_function
def hash_permille(table: Any, generation: int) -> int:
    """Per mille of the first thousand slots filled in this generation (UCI's hashfull)."""
    filled = 0
    entries = min(1000, table.size >> 1)
    for slot in range(entries):
        if table[2 * slot + 1] != 0 and (table[2 * slot + 1] >> 30) & 255 == generation:
            filled += 1
    return filled * 1000 // entries


@search_function
def store_result(
    table: Any, work: Any, key: int, depth: int, best: int, ply: int, alpha: int, beta: int, best_move: int
) -> None:
    """The search's last step: what a node searched with the window (``alpha``, ``beta``)
    proved about its value ``best``, stored as an upper bound, a lower bound or exact."""
    if best <= alpha:
        bound = UPPER
    elif best >= beta:
        bound = LOWER
    else:
        bound = EXACT
    _store(table, work, key, depth, to_node(best, ply), bound, best_move)
