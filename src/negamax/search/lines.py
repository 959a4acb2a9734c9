"""Root-move lines of a multipv search or solve: the root moves checked, each line read
from its own result, and the lines put together into one result (``Searcher``'s
``_search_lines`` and ``_solve_lines``)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import Any

from negamax.core.errors import InvalidOptionError
from negamax.core.game import Position
from negamax.core.score import INF, WIN, WIN_THRESHOLD, Bound
from negamax.core.types import Line, SearchResult


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


def with_lines(found: list[SearchResult[Any]], nodes: int, start_wall: float, start_cpu: float) -> SearchResult[Any]:
    """The first line's result, holding every line, with the totals of them all."""
    lines = tuple(line_of(result) for result in found)
    return dataclasses.replace(
        found[0],
        lines=lines,
        nodes=nodes,
        cpu_time=time.process_time() - start_cpu,
        wall_time=time.perf_counter() - start_wall,
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
    solve was cut short scores its proven floor (``Bound.LOWER``)."""
    ranked = sorted(values, key=lambda index: (values[index][0], values[index][1]), reverse=True)
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
