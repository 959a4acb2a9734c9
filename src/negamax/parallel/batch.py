"""The batch scheduler: cut the positions into chunks, keep every worker busy, store
results as chunks complete, and report progress.

Chunk sizes follow guided self-scheduling: a chunk is a share of what remains (large
early, small at the end so no worker idles while another finishes), never so small that
the pool's round trip per task exceeds ``MAX_OVERHEAD`` of the chunk's work, and never so
large that a kill loses more than ``MAX_CHUNK_SECONDS`` of work per worker.
"""

from __future__ import annotations

import collections
import concurrent.futures
import dataclasses
import math
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from negamax.core.errors import InvalidOptionError, NegamaxError
from negamax.games import get_game
from negamax.parallel.cases import Case
from negamax.parallel.pools import WorkerPool
from negamax.parallel.worker import BatchJob, ChunkResult, run_chunk

MAX_OVERHEAD = 0.05
MAX_CHUNK_SECONDS = 2.0
IN_FLIGHT_PER_WORKER = 2
"""Chunks queued per worker: one running, one waiting, so no worker waits for the parent."""
SHARE_PER_WORKER = 3
"""Guided self-scheduling: each chunk is remaining / (this x workers) positions."""
REFRESH_SECONDS = 0.2


class Sink(Protocol):
    """Where results go (an output file or a book)."""

    def pending(self, cases: list[Case]) -> list[Case]:
        """The cases this sink has no result for yet."""
        ...

    def write(self, records: list[dict[str, Any]]) -> None: ...


@dataclasses.dataclass
class BatchProgress:
    done: int
    """Positions finished in this run (results and errors)."""
    total: int
    """Positions this run has to do."""
    elapsed: float

    @property
    def rate(self) -> float:
        return self.done / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def eta(self) -> float | None:
        return (self.total - self.done) / self.rate if self.rate > 0 else None


@dataclasses.dataclass
class BatchSummary:
    positions: int
    """Positions in the input (parsed or not)."""
    skipped: int
    """Already done by an earlier run."""
    completed: int = 0
    errors: list[tuple[int, str]] = dataclasses.field(default_factory=list)
    correct: int = 0
    checked: int = 0
    elapsed: float = 0.0
    busy_seconds: float = 0.0
    """Work time summed over the workers."""
    chunks: int = 0
    workers: int = 1
    task_overhead: float = 0.0
    stopped: bool = False

    @property
    def positions_per_second(self) -> float:
        return self.completed / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def overhead_share(self) -> float:
        """The pools' round trips as a share of the work they carried."""
        return self.chunks * self.task_overhead / self.busy_seconds if self.busy_seconds > 0 else 0.0


def parse_errors(game_name: str, cases: list[Case]) -> tuple[list[Case], list[tuple[int, str]]]:
    """Split ``cases`` into the ones whose position parses and (line, message) for the rest."""
    game = get_game(game_name)
    good, bad = [], []
    for case in cases:
        if case.problem is not None:
            bad.append((case.line, case.problem))
            continue
        try:
            game.new_position(case.text)
        except NegamaxError as error:
            bad.append((case.line, str(error)))
        except Exception as error:  # a game's own parser failing costs that line, not the run
            bad.append((case.line, f"cannot read the position: {type(error).__name__}: {error}"[:300]))
        else:
            good.append(case)
    return good, bad


class _ChunkSizer:
    def __init__(self, pool: WorkerPool, fixed: int | None) -> None:
        self.pool, self.fixed = pool, fixed
        self.positions = 0
        self.busy = 0.0

    def learn(self, result: ChunkResult, size: int) -> None:
        self.positions += size
        self.busy += result.busy_seconds

    def next_size(self, remaining: int) -> int:
        if self.fixed is not None:
            return self.fixed
        if self.positions == 0:
            return 1  # nothing measured yet: one position per worker tells the cost
        per_position = max(self.busy / self.positions, 1e-7)
        smallest = math.ceil(self.pool.task_overhead / (MAX_OVERHEAD * per_position))
        largest = max(smallest, math.floor(MAX_CHUNK_SECONDS / per_position))
        guided = math.ceil(remaining / (SHARE_PER_WORKER * self.pool.workers))
        return max(1, smallest, min(guided, largest))


def run_batch(
    job: BatchJob,
    cases: list[Case],
    sinks: list[Sink],
    pool: WorkerPool,
    chunk_size: int | None = None,
    on_progress: Callable[[BatchProgress], None] | None = None,
    on_error: Callable[[int, str], None] | None = None,
    stop: threading.Event | None = None,
) -> BatchSummary:
    """Search every case that some sink lacks, on ``pool``; store each chunk's results in
    every sink as soon as it returns. Setting ``stop`` ends the run after the chunks in
    flight (their results are kept)."""
    if chunk_size is not None and chunk_size < 1:
        raise InvalidOptionError(f"--chunk-size must be at least 1, not {chunk_size}")
    readable, unreadable = parse_errors(job.game, cases)
    todo_lines: set[int] = set()
    for sink in sinks:
        todo_lines.update(case.line for case in sink.pending(readable))
    todo = collections.deque(case for case in readable if case.line in todo_lines)
    summary = BatchSummary(
        len(cases), len(readable) - len(todo), workers=pool.workers, task_overhead=pool.task_overhead
    )
    for line, message in unreadable:
        summary.errors.append((line, message))
        if on_error is not None:
            on_error(line, message)
    total = len(todo)
    sizer = _ChunkSizer(pool, chunk_size)
    running: dict[concurrent.futures.Future[ChunkResult], int] = {}
    start = last_report = time.perf_counter()

    def fill() -> None:
        while todo and len(running) < IN_FLIGHT_PER_WORKER * pool.workers and not (stop and stop.is_set()):
            size = min(sizer.next_size(len(todo)), len(todo))
            chunk = [todo.popleft() for _ in range(size)]
            running[pool.executor.submit(run_chunk, job, chunk)] = size

    fill()
    while running:
        finished, _ = concurrent.futures.wait(
            running, timeout=REFRESH_SECONDS, return_when=concurrent.futures.FIRST_COMPLETED
        )
        for future in finished:
            size = running.pop(future)
            result = future.result()
            for sink in sinks:
                sink.write(result.records)
            sizer.learn(result, size)
            summary.chunks += 1
            summary.busy_seconds += result.busy_seconds
            summary.completed += len(result.records)
            for record in result.records:
                if record["correct"] is not None:
                    summary.checked += 1
                    summary.correct += bool(record["correct"])
            for line, message in result.errors:
                summary.errors.append((line, message))
                if on_error is not None:
                    on_error(line, message)
        fill()
        now = time.perf_counter()
        if on_progress is not None and (finished or now - last_report >= 1.0):
            done = summary.completed + len(summary.errors) - len(unreadable)
            on_progress(BatchProgress(done, total, now - start))
            last_report = now
    summary.elapsed = time.perf_counter() - start
    summary.stopped = bool(todo)
    return summary
