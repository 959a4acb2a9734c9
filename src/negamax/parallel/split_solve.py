"""One exact solve split over a pool of workers (local processes or a Dask cluster).

The tree's first ``plies`` plies stay here; each distinct position at that depth is a
subproblem. The root's value is narrowed as the compiled solver narrows it (the same
``probe_point`` policy): each step asks "is the root's value at least t?". That holds when
some move's position has a value of at most -t, that is, not at least 1 - t; and so on
down to the subproblems, each asked one null-window question ("at least u?") on a worker.
The answers are combined as they come (true, false or not yet known, per node). The
questions go out in move order, a few per worker at a time, and only while the nodes they
are for are still undecided: as in alpha-beta, a move that settles its node spares the
questions of the moves after it. The step ends as soon as the root's answer is known; the
questions still out are cancelled. Workers keep their tables from one question to the
next.

Null-window questions cost far less than exact values (a refuted move is refuted, not
measured), so the split's overhead over one process is the speculation (questions a
sequential search would have cut) and the tables the workers do not share.

A worker that dies loses only the questions it held: the pool gives them to another
worker (Dask's own retries; a local process pool fails, and the solve says so).
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import threading
import time
from collections.abc import Callable
from typing import Any

from negamax.core.errors import InvalidOptionError
from negamax.core.game import PlacementPosition, Position
from negamax.core.ranges import DEFAULT_SPLIT_PLIES, SPLIT_PLIES
from negamax.core.rules import Game
from negamax.core.score import pons_to_distance
from negamax.games import get_game
from negamax.parallel.pools import WorkerPool
from negamax.search.searcher import Searcher
from negamax.search.windows import probe_point

QUESTIONS_PER_WORKER = 2
"""Questions out per worker: one running, one waiting, so no worker waits for this process."""


@dataclasses.dataclass
class _Node:
    text: str
    depth: int
    known: list[int]
    """The values (for this node's side to move) of its moves that end the game."""
    children: list[str]
    """The keys of its other moves' positions (empty at the split depth)."""


@dataclasses.dataclass(frozen=True)
class SplitProgress:
    lower: int
    upper: int
    """The root's value is known to lie in [lower, upper] (the game's scores)."""
    threshold: int
    """The question being asked: is the root's value at least this?"""
    answered: int
    asked: int
    """Questions answered and asked in this step."""
    elapsed: float


@dataclasses.dataclass(frozen=True)
class SplitResult:
    value: int
    """The root's exact value for the side to move, in the compiled solver's scores (Pons'
    for Connect 4: ``game.game_score``)."""
    score: int
    """The same as a distance score (``win in 7``), as ``solve()`` gives it."""
    levels: list[int]
    """Distinct unfinished positions per ply below the root (0: the root)."""
    questions: int
    """Null-window questions answered by the workers, in every step."""
    cancelled: int
    """Questions cancelled (or whose answers came after their step ended)."""
    cpu_seconds: list[float]
    """Each answered question's CPU time on its worker (its thread's)."""
    elapsed: float


def split_solve(
    game: Game,
    position: Position[Any],
    pool: WorkerPool,
    plies: int = DEFAULT_SPLIT_PLIES,
    on_progress: Callable[[SplitProgress], None] | None = None,
    stop: threading.Event | None = None,
) -> SplitResult:
    """The exact value of ``position`` (``game``'s scores, for the side to move), its
    tree split ``plies`` plies down over ``pool``'s workers.

    :raises InvalidOptionError: for a game the compiled placement solver does not take, a
        finished position, or a split depth out of range.
    """
    SPLIT_PLIES.check(plies)
    if not isinstance(position, PlacementPosition):
        raise InvalidOptionError(f"{game.name}: a split solve needs a game the compiled solver takes (Connect 4)")
    if position.is_terminal():
        raise InvalidOptionError("the game is over in this position: nothing to solve")
    start = time.perf_counter()
    nodes, root = _tree(game, position, plies)
    levels = [0] * (plies + 1)
    for node in nodes.values():
        levels[node.depth] += 1
    spec_cells, moves = _cells(position)
    lower, upper = -((spec_cells - moves) // 2), (spec_cells + 1 - moves) // 2
    answers: dict[tuple[str, int], bool] = {}
    seconds: list[float] = []
    counts = {"cancelled": 0}
    while lower < upper:
        if stop is not None and stop.is_set():
            raise KeyboardInterrupt
        threshold = probe_point(lower, upper) + 1
        if _step(
            game, nodes, root, threshold, pool, answers, seconds, counts, stop, on_progress, (lower, upper, start)
        ):
            lower = threshold
        else:
            upper = threshold - 1
    distance = pons_to_distance(lower, spec_cells, moves)
    return SplitResult(lower, distance, levels, len(seconds), counts["cancelled"], seconds, time.perf_counter() - start)


def _cells(position: PlacementPosition[Any]) -> tuple[int, int]:
    spec, _, _, moves = position.placement_form()
    return int(spec.width * spec.height), int(moves)


def _finished_value(position: Position[Any]) -> int:
    """A finished game's value for the side to move (who has lost, or drawn), in the
    solver's scores: a loss to the ``n``-th stone is ``-((cells + 2 - n) // 2)``."""
    if position.terminal_value() == 0:
        return 0
    assert isinstance(position, PlacementPosition)
    cells, moves = _cells(position)
    return -((cells + 2 - moves) // 2)


def _tree(game: Game, position: Position[Any], plies: int) -> tuple[dict[str, _Node], str]:
    """Every distinct (up to symmetry) unfinished position down to ``plies`` plies."""
    root = game.book_key(position)[0]
    nodes = {root: _Node(game.position_text(position), 0, [], [])}
    frontier = [(root, position)]
    for depth in range(1, plies + 1):
        following = []
        for key, parent in frontier:
            node = nodes[key]
            for move in parent.legal_moves():
                child = parent.copy()
                child.play(move)
                if child.is_terminal():
                    node.known.append(-_finished_value(child))
                    continue
                child_key = game.book_key(child)[0]
                node.children.append(child_key)
                if child_key not in nodes:
                    nodes[child_key] = _Node(game.position_text(child), depth, [], [])
                    following.append((child_key, child))
        frontier = following
    return nodes, root


def _step(
    game: Game,
    nodes: dict[str, _Node],
    root: str,
    threshold: int,
    pool: WorkerPool,
    answers: dict[tuple[str, int], bool],
    seconds: list[float],
    counts: dict[str, int],
    stop: threading.Event | None,
    on_progress: Callable[[SplitProgress], None] | None,
    bounds: tuple[int, int, float],
) -> bool:
    """Whether the root's value is at least ``threshold``: the questions this needs, asked
    a few per worker at a time in move order, combined as the answers come."""
    out: dict[concurrent.futures.Future[Any], tuple[str, int]] = {}
    asked = answered = 0
    capacity = QUESTIONS_PER_WORKER * pool.workers
    try:
        while True:
            verdict = _holds(nodes, root, threshold, answers, {})
            if verdict is not None:
                return verdict
            if stop is not None and stop.is_set():
                raise KeyboardInterrupt
            if len(out) < capacity:
                wanted: dict[tuple[str, int], None] = {}  # (ordered, and quick to look in)
                _questions(nodes, root, threshold, answers, set(out.values()), wanted, {})
                for key, value in list(wanted)[: capacity - len(out)]:
                    out[pool.executor.submit(_answer, game.name, nodes[key].text, value)] = (key, value)
                    asked += 1
            if not out:
                raise RuntimeError("the root is unknown and nothing is left to ask")  # a bug
            done, _ = concurrent.futures.wait(list(out), timeout=0.25, return_when="FIRST_COMPLETED")
            for future in done:
                holds, used = future.result()
                answers[out.pop(future)] = holds
                seconds.append(used)
                answered += 1
            if on_progress is not None:
                lower, upper, start = bounds
                on_progress(SplitProgress(lower, upper, threshold, answered, asked, time.perf_counter() - start))
    finally:
        for future in out:
            future.cancel()
            counts["cancelled"] += 1


def _questions(
    nodes: dict[str, _Node],
    key: str,
    threshold: int,
    answers: dict[tuple[str, int], bool],
    out: set[tuple[str, int]],
    wanted: dict[tuple[str, int], None],
    memo: dict[tuple[str, int], bool | None],
) -> None:
    """The questions still worth asking to know whether ``key``'s value is at least
    ``threshold``, in move order: none under a node already decided (those out and those
    listed once left out)."""
    node = nodes[key]
    if not node.children and not node.known:
        question = (key, threshold)
        if question not in answers and question not in out and question not in wanted:
            wanted[question] = None
        return
    if _holds(nodes, key, threshold, answers, memo) is not None:
        return
    for child in node.children:
        if _holds(nodes, child, 1 - threshold, answers, memo) is None:
            _questions(nodes, child, 1 - threshold, answers, out, wanted, memo)


def _holds(
    nodes: dict[str, _Node],
    key: str,
    threshold: int,
    answers: dict[tuple[str, int], bool],
    memo: dict[tuple[str, int], bool | None],
) -> bool | None:
    """Whether ``key``'s value is at least ``threshold`` from the answers so far (``None``:
    not known yet). A node's value is at least t when one of its moves' values is: a move
    that ends the game, or a position whose value is not at least 1 - t."""
    if (key, threshold) in memo:
        return memo[(key, threshold)]
    node = nodes[key]
    verdict: bool | None
    if not node.children and not node.known:
        verdict = answers.get((key, threshold))
    elif any(value >= threshold for value in node.known):
        verdict = True
    else:
        verdict = False
        for child in node.children:
            below = _holds(nodes, child, 1 - threshold, answers, memo)
            if below is False:
                verdict = True
                break
            if below is None:
                verdict = None
    memo[(key, threshold)] = verdict
    return verdict


_searchers: dict[str, Searcher] = {}
_searchers_lock = threading.Lock()


def _answer(game_name: str, text: str, threshold: int) -> tuple[bool, float]:
    """On a worker: whether the position's value is at least ``threshold``, and the CPU
    time the question took (this thread's). The worker's searcher keeps its table for the
    next question."""
    with _searchers_lock:
        searcher = _searchers.get(game_name)
        if searcher is None:
            searcher = _searchers[game_name] = Searcher("compiled", keep_tables=True, game=get_game(game_name))
    game = get_game(game_name)
    start = time.thread_time()
    holds = searcher.value_at_least(game.new_position(text), threshold)
    return holds, time.thread_time() - start
