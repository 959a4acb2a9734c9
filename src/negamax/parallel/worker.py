"""What a worker does with one chunk of a batch: read each position, search or solve it,
and return one flat record per position.

Workers keep their searchers between chunks (the compiled solver owns a table of up to 256 MiB),
lending each to one thread at a time, so a chunk costs only its searches. A position's
record never depends on which positions the worker searched before, unless its limit is a
time: the exact solver starts each solve from an empty table (a new tag), and the
move-list search's table is cleared for each position (for analyses, a small one: the
positions of a batch share little).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import threading
import time
from collections.abc import Iterator
from typing import Any

from negamax.core.errors import InvalidOptionError, NegamaxError
from negamax.core.game import Position
from negamax.core.rules import Game, pv_text, refuse_hopeless_solve
from negamax.core.score import describe
from negamax.core.types import SearchLimits, SearchResult
from negamax.games import get_game
from negamax.parallel.cases import Case
from negamax.search import ENGINES, choose_engine, search, solve
from negamax.search.backend import MOVE_LIST, PLACEMENT, compiled_kind


@dataclasses.dataclass(frozen=True)
class BatchJob:
    """What to do with every position of a batch."""

    game: str
    solve: bool
    """Solve to the end of the game (exact values) instead of a limited analysis."""
    depth: int | None = None
    time: float | None = None
    """Seconds per position."""
    nodes: int | None = None
    engine: str | None = None
    """``auto`` (or ``None``): compiled where the game has it; ``compiled``; ``python``."""

    def __post_init__(self) -> None:
        game = get_game(self.game)
        if self.solve:
            refuse_hopeless_solve(game, self.time is not None or self.nodes is not None, "give --time or --nodes")
        if self.solve and self.depth is not None:
            raise InvalidOptionError("a solve goes to the end of the game; --depth needs an analysis, not --solve")
        if not self.solve and self.depth is None and self.time is None and self.nodes is None:
            raise InvalidOptionError("give --solve, or a limit for the analysis: --depth, --time or --nodes")
        if self.engine not in (None, *ENGINES):
            raise InvalidOptionError(f"unknown engine {self.engine!r}; choose one of {', '.join(ENGINES)}")
        SearchLimits(depth=self.depth, nodes=self.nodes, time=self.time)  # validates the numbers


@dataclasses.dataclass(frozen=True)
class ChunkResult:
    records: list[dict[str, Any]]
    errors: list[tuple[int, str]]
    """(line, message) for positions that could not be searched."""
    busy_seconds: float
    """Wall time the worker spent on the chunk."""


RECORD_FIELDS = (
    "line",
    "position",
    "score",
    "engine_score",
    "score_text",
    "bound",
    "best_move",
    "pv",
    "depth",
    "nodes",
    "cpu_s",
    "expected",
    "correct",
)
"""Every record has exactly these fields, in this order (the CSV columns)."""


ANALYSIS_HASH_MIB = 4
"""The compiled search's table in a batch analysis: cleared for every position (0.3 ms)."""


class _Searcher:
    """One thread's way of searching a job's positions."""

    def __init__(self, job: BatchJob) -> None:
        self.job = job
        self.game: Game = get_game(job.game)
        self.limits = SearchLimits(depth=job.depth, nodes=job.nodes, time=job.time)
        self.searcher: Any = None

    def compiled(self, position: Position[Any]) -> Any:
        """The compiled searcher for ``position`` (made on first use, with its table), or
        ``None`` when the backend chooses the python engine."""
        engine = choose_engine(position, self.job.engine or "auto", solving=self.job.solve)
        if engine == "python":
            return None
        if self.searcher is None:
            kind = compiled_kind(position, self.job.solve)
            if kind == PLACEMENT:
                from negamax.search.compiled.placement import CompiledSolver, default_table_mib

                # The first move of the line is proven by null-window tests; the rest of
                # the line would cost more than some solves, and a batch wants values.
                # One worker per core: each takes its share of the memory.
                table_mib = default_table_mib(share=os.cpu_count() or 1)
                self.searcher = CompiledSolver(threads=1, pv_plies=1, hash_mib=table_mib)
            else:
                from negamax.search.compiled.move_list import CompiledSearcher

                # analyses get a small table (cleared for each position); solves the usual one
                self.searcher = CompiledSearcher() if self.job.solve else CompiledSearcher(hash_mib=ANALYSIS_HASH_MIB)
            self.searcher.warm_up(position)
        return self.searcher

    def load(self, position: Position[Any]) -> None:
        """Make the compiled searcher (its table, its kernel) if this job uses it."""
        self.compiled(position)

    def run(self, position: Position[Any]) -> SearchResult[Any]:
        searcher = self.compiled(position)
        if searcher is not None and searcher.kind == MOVE_LIST and self.limits.time is None:
            searcher.clear()
        if self.job.solve:
            return solve(position, self.limits, engine=self.job.engine or "auto", searcher=searcher)
        return search(position, self.limits, engine=self.job.engine or "auto", searcher=searcher)

    def record(self, case: Case, position: Position[Any], result: SearchResult[Any]) -> dict[str, Any]:
        game = self.game
        score = game.game_score(position, result.score)
        best = game.move_text(position, result.best_move) if result.best_move is not None else None
        values = (
            case.line,
            case.text,
            score,
            result.score,
            describe(result.score),
            result.bound.name.lower(),
            best,
            " ".join(pv_text(game, position, result.pv)),
            result.depth,
            result.nodes,
            round(result.cpu_time, 6),
            case.expected,
            # an analysis's heuristic value is no claim about the game's value
            None if case.expected is None or not self.job.solve else score == case.expected and result.completed,
        )
        return dict(zip(RECORD_FIELDS, values, strict=True))


_idle: list[_Searcher] = []
_idle_lock = threading.Lock()


@contextlib.contextmanager
def _searcher(job: BatchJob) -> Iterator[_Searcher]:
    """A searcher for ``job`` used by no other thread: an idle one of this process if
    there is one (with its table and loaded engine), else a new one."""
    with _idle_lock:
        found = next((index for index, idle in enumerate(_idle) if idle.job == job), None)
        searcher = _idle.pop(found) if found is not None else None
    if searcher is None:
        searcher = _Searcher(job)
    try:
        yield searcher
    finally:
        with _idle_lock:
            _idle.append(searcher)


def prepare(job: BatchJob, sample: str | None = None) -> float:
    """Make a searcher for ``job`` and load its engine (compiling it if needed) with one
    tiny search of ``sample`` (default: the start position); return the seconds it took.
    The searcher stays in this process for the job's chunks."""
    start = time.perf_counter()
    with _searcher(job) as searcher:
        searcher.load(searcher.game.new_position(sample))
    return time.perf_counter() - start


def forget() -> None:
    """Drop this process's searchers and their tables (the loaded engine stays loaded)."""
    with _idle_lock:
        _idle.clear()


def ping() -> float:
    """Nothing: the round trip of this task is the pool's cost per task."""
    return time.perf_counter()


def run_chunk(job: BatchJob, cases: list[Case]) -> ChunkResult:
    """Search every case; a case that fails becomes an error, never a lost chunk."""
    start = time.perf_counter()
    records: list[dict[str, Any]] = []
    errors: list[tuple[int, str]] = []
    with _searcher(job) as searcher:
        for case in cases:
            try:
                position = searcher.game.new_position(case.text)
                result = searcher.run(position)
            except NegamaxError as error:
                errors.append((case.line, str(error)))
                continue
            except Exception as error:  # a bug must cost one position, not the chunk
                errors.append((case.line, f"internal error {type(error).__name__}: {error}"))
                continue
            records.append(searcher.record(case, position, result))
    return ChunkResult(records, errors, time.perf_counter() - start)
