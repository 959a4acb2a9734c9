"""What a worker does with one chunk of a batch: read each position, search or solve it,
and return one flat record per position.

Workers keep one solver per thread between chunks (the compiled solver owns a 128 MiB
table), so a chunk costs only its searches.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from typing import Any

from negamax.core.errors import InvalidOptionError, NegamaxError
from negamax.core.game import Position
from negamax.core.rules import Game, pv_text
from negamax.core.score import describe
from negamax.core.types import SearchLimits, SearchResult
from negamax.games import get_game
from negamax.parallel.cases import Case


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
    """``compiled``, ``python``, or ``None``: compiled where the game has it (solves only)."""

    def __post_init__(self) -> None:
        get_game(self.game)
        if self.solve and self.depth is not None:
            raise InvalidOptionError("a solve goes to the end of the game; --depth needs an analysis, not --solve")
        if not self.solve and self.depth is None and self.time is None and self.nodes is None:
            raise InvalidOptionError("give --solve, or a limit for the analysis: --depth, --time or --nodes")
        if not self.solve and self.engine == "compiled":
            raise InvalidOptionError("the compiled engine only solves; use --solve or --engine python")
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
        self.solver: Any = None

    def uses_compiled(self, position: Position[Any]) -> bool:
        compiled = hasattr(position, "compiled_form")
        if self.job.engine == "compiled" and not compiled:
            raise InvalidOptionError(f"the compiled engine does not play {self.job.game}; use --engine python")
        return self.job.solve and compiled and self.job.engine != "python"

    def load(self, position: Position[Any]) -> None:
        """Make the compiled solver (its table, its kernel) if this job uses it."""
        if self.solver is None and self.uses_compiled(position):
            from negamax.search.compiled import CompiledSolver

            self.solver = CompiledSolver(threads=1)
            self.solver.warm_up(position)

    def run(self, position: Position[Any]) -> SearchResult[Any]:
        if self.uses_compiled(position):
            self.load(position)
            # The first move of the line is proven by null-window tests; the rest of the
            # line would cost more than some solves, and a batch wants values.
            result: SearchResult[Any] = self.solver.solve(position, self.limits, pv_plies=1)
            return result
        from negamax.search import search, solve

        if self.job.solve:
            return solve(position, self.limits)
        return search(position, self.limits)

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


_threads = threading.local()


def _searcher(job: BatchJob) -> _Searcher:
    cached: _Searcher | None = getattr(_threads, "searcher", None)
    if cached is None or cached.job != job:
        cached = _Searcher(job)
        _threads.searcher = cached
    return cached


def prepare(job: BatchJob, sample: str | None = None) -> float:
    """Build this thread's searcher and load its engine (compiling it if needed) with one
    tiny search of ``sample`` (default: the start position); return the seconds it took."""
    start = time.perf_counter()
    searcher = _searcher(job)
    searcher.load(searcher.game.new_position(sample))
    return time.perf_counter() - start


def forget() -> None:
    """Drop this thread's searcher and its table (the loaded engine stays loaded)."""
    _threads.searcher = None


def ping() -> float:
    """Nothing: the round trip of this task is the pool's cost per task."""
    return time.perf_counter()


def run_chunk(job: BatchJob, cases: list[Case]) -> ChunkResult:
    """Search every case; a case that fails becomes an error, never a lost chunk."""
    start = time.perf_counter()
    searcher = _searcher(job)
    records: list[dict[str, Any]] = []
    errors: list[tuple[int, str]] = []
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
