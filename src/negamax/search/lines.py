"""Root-move lines of a multipv search or solve: the root moves checked, one depth's lines
searched one after the other (both backends' deepening loops), each line read from its own
result, and the lines put together into one result (``Searcher``'s ``_solve_lines`` too)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import Any

from negamax.core.errors import InvalidOptionError
from negamax.core.game import Position
from negamax.core.score import INF, WIN, WIN_THRESHOLD, Bound
from negamax.core.types import Line, SearchResult, SearchStats


def checked_root_moves(position: Position[Any], root_moves: Sequence[Any] | None) -> tuple[Any, ...] | None:
    """``root_moves`` without repeats, each a legal move of ``position``.

    :raises InvalidOptionError: for a move that is not legal, or none at all.
    """
    if root_moves is None:
        return None
    legal = list(position.legal_moves())
    chosen = tuple(dict.fromkeys(root_moves))
    for move in chosen:
        if move not in legal:
            raise InvalidOptionError(f"root_moves: {move} is not a legal move here")
    if not chosen:
        raise InvalidOptionError("root_moves names no move (None searches every move)")
    return chosen


def proven_to_the_end(result: SearchResult[Any], depth: int) -> bool:
    """Whether a search to ``depth`` saw the end of every line (a shorter depth reported,
    or a win or loss proven within it)."""
    if result.depth < depth:
        return True
    return abs(result.score) >= WIN_THRESHOLD and depth >= WIN - abs(result.score)


def line_of(result: SearchResult[Any]) -> Line[Any]:
    return Line(result.best_move, result.score, result.bound, result.pv, result.lower, result.upper)


SearchLine = Callable[[list[Any], Any, int], "SearchResult[Any] | None"]
"""One line of a depth: ``(moves, hint, guess)`` searches the root restricted to ``moves``,
``hint`` first (``None``: no hint), its window aimed at ``guess``; ``None`` if a limit cut it
short (or it raises)."""


def search_depth(
    moves: Sequence[Any], count: int, previous: Sequence[Line[Any]], line: SearchLine
) -> list[SearchResult[Any]] | None:
    """One depth of a multipv search: the best of ``moves``, then the best of the others, and
    so on, ``count`` lines; ``None`` if a limit cut one short. Line ``i`` aims its window at
    the score line ``i`` had at the previous depth (``previous``, best first) and searches
    first the best move of that depth still open to it, as Stockfish's ``pvIdx`` loop does."""
    remaining = list(moves)
    found: list[SearchResult[Any]] = []
    for index in range(count):
        hint = next((earlier.move for earlier in previous if earlier.move in remaining), None)
        result = line(remaining, hint, previous[index].score if previous else 0)
        if result is None:
            return None
        found.append(result)
        remaining.remove(result.best_move)
    return found


def with_lines(
    found: Sequence[SearchResult[Any]], nodes: int, elapsed: tuple[float, float], stats: SearchStats
) -> SearchResult[Any]:
    """The best line's result, holding every line best first (a search with pruning may
    score a later line above an earlier one), with the search's totals so far: ``nodes``,
    ``elapsed`` (CPU and wall seconds) and ``stats``."""
    ranked = sorted(found, key=lambda result: result.score, reverse=True)  # stable: ties keep their order
    return dataclasses.replace(
        ranked[0],
        lines=tuple(line_of(result) for result in ranked),
        nodes=nodes,
        cpu_time=elapsed[0],
        wall_time=elapsed[1],
        stats=stats,
    )


def solved_lines(
    moves: Sequence[Any],
    values: dict[int, tuple[int, int, Bound, tuple[Any, ...]]],
    count: int,
    nodes: int,
    start_wall: float,
    start_cpu: float,
    completed: bool,
    algorithm: str,
) -> SearchResult[Any]:
    """The result of a solve of several moves: its lines best first (by the value proven,
    then by the best still possible), the best one's value as the result's. A move whose
    solve was cut short scores its proven floor (``Bound.LOWER``); moves alike keep their
    order in ``moves``, whatever order their solves ended in."""
    ranked = sorted(values, key=lambda index: (values[index][0], values[index][1], -index), reverse=True)
    lines = tuple(
        Line(moves[index], lower, bound if bound == Bound.EXACT else Bound.LOWER, (moves[index], *pv), lower, upper)
        for index in ranked[:count]
        for lower, upper, bound, pv in [values[index]]
    )
    best = lines[0] if lines else None
    return SearchResult(
        best_move=None if best is None else best.move,
        score=0 if best is None else best.score,
        bound=Bound.EXACT if completed else Bound.LOWER,
        pv=() if best is None else best.pv,
        depth=0 if best is None else len(best.pv),
        nodes=nodes,
        cpu_time=time.process_time() - start_cpu,
        wall_time=time.perf_counter() - start_wall,
        algorithm=algorithm,
        lower=-INF if best is None else best.lower,
        upper=INF if best is None else max(line.upper for line in lines),
        completed=completed,
        lines=lines,
    )
