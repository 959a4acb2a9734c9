"""Alpha-beta as lectures and exercises teach it: the children in the game's own order,
nothing reordered and no table. Two rules for the cut-off are taught: AIMA's pseudocode
(and most lectures) prune once alpha >= beta, a value *at* the bound included
(``prune_equal=True``); Berkeley's CS188 exercises prune only when a value goes *past* the
bound (the default here). A student's answer to "which leaves are evaluated?" matches this
search's under the rule their course uses, which the optimised search (it also reorders
the moves) need not.

The search is negamax with a fail-soft window, like the library's others, so a value is
always from the side to move (``player()``: a child with its parent's player to move keeps
its value and the window); a tree's leaves are written from the root player's view, as
textbooks draw them (``negamax.games.tree``).

>>> from negamax.games.tree import ExplicitTree
>>> from negamax.search.trace import SearchTrace
>>> trace = SearchTrace()
>>> textbook_search(ExplicitTree([[3, 12, 8], [2, 4, 6], [14, 5, 2]]), trace=trace).score
3
>>> [len(trace.nodes[child].cut_moves) for child in trace.root.children]  # AIMA's figure 5.5
[0, 2, 0]
"""

from __future__ import annotations

import time
from typing import Any

from negamax.core.game import Position
from negamax.core.score import INF, Bound, from_node
from negamax.core.types import SearchLimits, SearchResult
from negamax.search.trace import SearchTrace

TEXTBOOK = "textbook"
"""The name the command line and the page give this search (``--algorithm textbook``)."""
TO_THE_END = 10**6
"""The depth left recorded for a search to the end of the game (shown as "to the end")."""
MAX_NODES = 1_000_000
"""The most nodes a search without a node limit may visit: textbook trees are small, and
a game's whole tree beyond this is no exercise."""


class StopSearch(Exception):
    """Raised inside the recursion when a limit is reached."""


def textbook_search(
    position: Position[Any],
    limits: SearchLimits | None = None,
    trace: SearchTrace | None = None,
    prune_equal: bool = False,
) -> SearchResult[Any]:
    """The value of ``position`` by textbook alpha-beta: to the end of the game, or to
    ``limits.depth`` plies (the game's ``evaluate`` at the horizon), recorded in ``trace``;
    with ``prune_equal``, a cut-off at alpha >= beta (AIMA), else only past beta (CS188).
    A time, node (``MAX_NODES`` unless ``limits.nodes`` says) or stop limit that ends it
    first gives a result with ``completed=False`` and no value proven (bounds -inf, +inf).
    """
    limits = limits or SearchLimits()
    depth = TO_THE_END if limits.depth is None else limits.depth
    most_nodes = limits.nodes or MAX_NODES
    started_wall, started_cpu = time.perf_counter(), time.process_time()
    deadline = None if limits.time is None else started_wall + limits.time
    board = position.copy()
    nodes = 0
    best_line: dict[int, tuple[Any, ...]] = {}

    def node(left: int, alpha: int, beta: int, ply: int) -> int:
        nonlocal nodes
        nodes += 1
        if nodes > most_nodes or (limits.stop is not None and limits.stop.is_set()):
            raise StopSearch
        if deadline is not None and time.perf_counter() > deadline:
            raise StopSearch
        moves = list(board.legal_moves())
        mover = board.player()
        record = None if trace is None else trace.enter(left, alpha, beta, moves, mover)
        best_line[ply] = ()
        if board.is_terminal() or not moves:
            value = from_node(board.terminal_value(), ply)
        elif left <= 0:
            value = board.evaluate()
        else:
            value = -INF
            for move in moves:
                board.play(move)
                if trace is not None:
                    trace.moved(move)
                if board.player() == mover:  # the same player moves again: its value, its window
                    score = node(left - 1, alpha, beta, ply + 1)
                else:
                    score = -node(left - 1, -beta, -alpha, ply + 1)
                if trace is not None:
                    trace.unmoved()
                board.undo(move)
                if score > value:
                    value = score
                    best_line[ply] = (move, *best_line.get(ply + 1, ()))
                if value > beta or (prune_equal and value == beta):
                    break  # CS188 searches on at equality, AIMA prunes
                alpha = max(alpha, value)
        if record is not None and trace is not None:
            trace.leave(record, value, False)
        return value

    if trace is not None:
        trace.strict_cutoffs = not prune_equal
    completed = True
    try:
        score = node(depth, -INF, INF, 0)
    except StopSearch:
        if trace is not None:
            trace.abandon()
        completed, score = False, 0
    line = best_line.get(0, ()) if completed else ()
    return SearchResult(
        best_move=line[0] if line else None,
        score=score,
        bound=Bound.EXACT if completed else Bound.LOWER,
        pv=line,
        depth=depth if limits.depth is not None else 0,
        nodes=nodes,
        cpu_time=time.process_time() - started_cpu,
        wall_time=time.perf_counter() - started_wall,
        algorithm=TEXTBOOK,
        lower=score if completed else -INF,
        upper=score if completed else INF,
        completed=completed,
    )
