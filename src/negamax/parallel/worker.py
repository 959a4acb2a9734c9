"""What a worker does with one chunk of a batch: read each position, search or solve it,
and return one flat record per position.

Each worker process keeps one ``Searcher`` per job between chunks (``presets.for_batch``: a
solve's table of the default size, ``DEFAULT_HASH_MIB``), which lends its compiled searchers
to one thread at a time, so a chunk costs only its searches. A position's record never depends on which positions the
worker searched before, unless its limit is a time: the searcher starts every call from
clean tables (for analyses, small ones: the positions of a batch share little).
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
import time
from collections.abc import Iterator
from typing import Any

from negamax.core.errors import InvalidOptionError, NegamaxError
from negamax.core.game import Position
from negamax.core.rules import Game, game_score_or_none, pv_text
from negamax.core.score import INF
from negamax.core.types import SearchLimits, SearchResult
from negamax.games import get_game
from negamax.parallel.cases import Case
from negamax.search import BACKENDS, default_searcher, presets


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
    backend: str | None = None
    """``auto`` (or ``None``): compiled where the game has it; ``compiled``; ``python``."""
    keep_tables: bool = False
    """Solves keep what the ones before them on the worker proved (a book build: positions of
    one level share much). Values are the same either way; node counts then depend on the
    positions a worker met first."""

    def __post_init__(self) -> None:
        game = get_game(self.game)
        if self.solve:  # refused once for the whole batch, as solve() refuses it (a plan only: nothing runs)
            default_searcher("python").plan(
                game.new_position(None), SearchLimits(nodes=self.nodes, time=self.time), solving=True
            )
        if self.solve and self.depth is not None:
            raise InvalidOptionError("a solve goes to the end of the game; --depth needs an analysis, not --solve")
        if not self.solve and self.depth is None and self.time is None and self.nodes is None:
            raise InvalidOptionError("give --solve, or a limit for the analysis: --depth, --time or --nodes")
        if self.backend not in (None, *BACKENDS):
            raise InvalidOptionError(f"unknown backend {self.backend!r}; choose one of {', '.join(BACKENDS)}")
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


class _Searcher:
    """One thread's way of searching a job's positions."""

    def __init__(self, job: BatchJob) -> None:
        self.job = job
        self.game: Game = get_game(job.game)
        self.limits = SearchLimits(depth=job.depth, nodes=job.nodes, time=job.time)
        self.searcher = presets.for_batch(
            self.game, backend=job.backend, solving=job.solve, keep_tables=job.keep_tables
        )

    def load(self, position: Position[Any]) -> None:
        """Load the kernel this job runs on (compiling it if needed)."""
        self.searcher.prepare(position, command_name=self.job.game)

    def run(self, position: Position[Any], bounds: tuple[int, int] | None = None) -> SearchResult[Any]:
        if self.job.solve:
            return self.searcher.solve(position, self.limits, bounds=bounds)
        return self.searcher.search(position, self.limits)

    def record(self, case: Case, position: Position[Any], result: SearchResult[Any]) -> dict[str, Any]:
        game = self.game
        score = game_score_or_none(game, position, result.score)  # a solve cut short: its floor, if any
        best = game.move_text(position, result.best_move) if result.best_move is not None else None
        values = (
            case.line,
            case.text,
            score,
            result.score if abs(result.score) < INF else None,
            result.score_text,
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
                result = searcher.run(position, case.bounds)
            except NegamaxError as error:
                errors.append((case.line, str(error)))
                continue
            except Exception as error:  # a bug must cost one position, not the chunk
                errors.append((case.line, f"internal error {type(error).__name__}: {error}"))
                continue
            records.append(searcher.record(case, position, result))
    return ChunkResult(records, errors, time.perf_counter() - start)
