"""The commands for many positions: ``negamax batch`` and ``negamax book``."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from negamax.cli.progress import lock_notice
from negamax.cli.report import duration_text, one_line
from negamax.core.errors import InvalidOptionError
from negamax.core.ranges import BOOK_PLIES
from negamax.games import get_game
from negamax.parallel.batch import BatchProgress, BatchSummary, Sink, run_batch
from negamax.parallel.book import Book, BookSink
from negamax.parallel.book_file import BookDamagedError
from negamax.parallel.cases import position_test, read_cases
from negamax.parallel.files import (
    first_line,
    refuse_replacing,
    refuse_same_files,
    refuse_special_input,
    replaced_whole,
)
from negamax.parallel.outputs import open_output
from negamax.parallel.pools import LOCAL_CLUSTER, WorkerPool, make_pool
from negamax.parallel.worker import BatchJob

EXIT_OK, EXIT_PROBLEMS, EXIT_INTERRUPTED = 0, 1, 130


@contextlib.contextmanager
def _graceful_interrupt(stream: TextIO) -> Iterator[threading.Event]:
    """The first Ctrl-C lets the chunks in flight finish and be saved; a second one quits."""
    stop = threading.Event()

    def handle(signum: int, frame: object) -> None:
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()
        stream.write("\nstopping after the positions in flight (Ctrl-C again to abandon them)\n")
        stream.flush()

    previous = signal.signal(signal.SIGINT, handle)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "--:--"
    minutes, secs = divmod(int(seconds + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _progress_bar(stream: TextIO) -> Callable[[BatchProgress], None]:
    def show(progress: BatchProgress) -> None:
        share = progress.done / progress.total if progress.total else 1.0
        filled = int(share * 24)
        stream.write(
            f"\r[{'#' * filled}{'.' * (24 - filled)}] {progress.done}/{progress.total} {share:4.0%}"
            f"  {progress.rate:,.1f} positions/s  ETA {_clock(progress.eta)}\x1b[K"
        )
        stream.flush()

    return show


PROGRESS_LINE_SECONDS = 5.0


def _progress_lines(stream: TextIO) -> Callable[[BatchProgress], None]:
    """Off a terminal (a log, a pipe): a line every few seconds instead of a bar."""
    next_line = time.perf_counter() + PROGRESS_LINE_SECONDS

    def show(progress: BatchProgress) -> None:
        nonlocal next_line
        if time.perf_counter() < next_line and progress.done < progress.total:
            return
        next_line = time.perf_counter() + PROGRESS_LINE_SECONDS
        stream.write(
            f"negamax: {progress.done}/{progress.total} done, {progress.rate:,.1f} positions/s,"
            f" {_clock(progress.eta)} left\n"
        )
        stream.flush()

    return show


def _progress_display(stream: TextIO) -> Callable[[BatchProgress], None]:
    return _progress_bar(stream) if stream.isatty() else _progress_lines(stream)


def _is_error_log(path: str) -> bool:
    """Whether ``path`` is an errors file a batch wrote: its lines read ``line N: why``."""
    return re.match(r"line \d+: ", first_line(path)) is not None


class _ErrorLog:
    """The errors file: one ``line N: message`` per position that failed, rewritten by each
    run. It is made only when a position fails, and an existing file is replaced only if a
    batch wrote it (or the user said ``--overwrite``)."""

    def __init__(self, path: str, overwrite: bool) -> None:
        refuse_replacing("--errors", path, overwrite, ours=_is_error_log)
        self.path = path
        self.count = 0

    def start(self) -> None:
        """Remove the last run's file: call once every other file has been checked."""
        if os.path.isfile(self.path):
            os.remove(self.path)

    def __call__(self, line: int, message: str) -> None:
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(f"line {line}: {one_line(message)}\n")
        self.count += 1


def _errors_path(arguments: argparse.Namespace, default_base: str) -> str:
    return str(arguments.errors or f"{default_base}.errors")


def _job(arguments: argparse.Namespace) -> BatchJob:
    return BatchJob(
        arguments.game,
        solve=arguments.solve,
        depth=getattr(arguments, "depth", None),
        time=arguments.time,
        nodes=arguments.nodes,
        backend=arguments.backend,
    )


def _pool(arguments: argparse.Namespace, job: BatchJob) -> WorkerPool:
    if sys.stderr.isatty():
        count = f"{arguments.workers or os.cpu_count() or 1} local worker(s)"
        where = f"a Dask cluster of {count}" if arguments.scheduler == LOCAL_CLUSTER else arguments.scheduler or count
        sys.stderr.write(f"starting {where}...\r")
        sys.stderr.flush()
    return make_pool(job, arguments.workers, arguments.scheduler)


def _summary_lines(summary: BatchSummary, pool: WorkerPool) -> list[str]:
    lines = [
        f"{summary.positions} positions: {summary.completed} done in this run, {summary.skipped} done before,"
        f" {len(summary.errors)} errors" + (f"; {summary.correct}/{summary.checked} correct" if summary.checked else "")
    ]
    speed = (
        f"{duration_text(summary.elapsed)}, {summary.positions_per_second:,.1f} positions/s on {pool.workers}"
        f" worker{'s' if pool.workers > 1 else ''} ({pool.kind}, ready in {duration_text(pool.startup_seconds)})"
    )
    if pool.kind != "serial" and summary.chunks:
        speed += (
            f"; {summary.chunks} tasks, {duration_text(pool.task_overhead)} overhead each"
            f" ({summary.overhead_share:.1%} of the work)"
        )
    lines.append(speed)
    if summary.stopped:
        lines.append("stopped early: run the same command again to do the rest")
    return lines


def _summary_json(summary: BatchSummary, pool: WorkerPool) -> dict[str, Any]:
    return {
        "positions": summary.positions,
        "completed": summary.completed,
        "skipped": summary.skipped,
        "errors": len(summary.errors),
        "correct": summary.correct,
        "checked": summary.checked,
        "elapsed_s": round(summary.elapsed, 6),
        "positions_per_second": round(summary.positions_per_second, 3),
        "workers": pool.workers,
        "pool": pool.kind,
        "pool_startup_s": round(pool.startup_seconds, 6),
        "tasks": summary.chunks,
        "task_overhead_s": round(pool.task_overhead, 6),
        "overhead_share": round(summary.overhead_share, 6),
        "busy_s": round(summary.busy_seconds, 6),
        "stopped": summary.stopped,
    }


def run_batch_command(arguments: argparse.Namespace) -> int:
    if arguments.out is None and arguments.book is None:
        raise InvalidOptionError("say where the results go: --out FILE (.jsonl, .csv, .sqlite) and/or --book FILE")
    if arguments.book is not None and not arguments.solve:
        raise InvalidOptionError("a book holds exact values: --book needs --solve")
    errors_path = _errors_path(arguments, arguments.out or arguments.book)
    refuse_special_input("the input", arguments.input)
    refuse_same_files(
        {"the input": arguments.input, "--out": arguments.out, "--book": arguments.book, "--errors": errors_path}
    )
    errors = _ErrorLog(errors_path, arguments.overwrite)
    job = _job(arguments)
    cases = list(read_cases(arguments.input, position_test(get_game(job.game))))
    sinks: list[Sink] = []
    closers: list[Callable[[], None]] = []
    try:
        if arguments.out is not None:
            output = open_output(arguments.out)
            sinks.append(output)
            closers.append(output.close)
        if arguments.book is not None:
            book = Book(arguments.book, get_game(arguments.game), on_wait=lock_notice(arguments.book))
            sinks.append(BookSink(book))
            closers.append(book.close)
        errors.start()
        pool = _pool(arguments, job)
        closers.append(pool.close)
        progress = _progress_display(sys.stderr)
        with _graceful_interrupt(sys.stderr) as stop:
            summary = run_batch(job, cases, sinks, pool, arguments.chunk_size, progress, errors, stop)
        if sys.stderr.isatty():
            sys.stderr.write("\r\x1b[K")
    finally:
        for close in reversed(closers):
            close()
    if arguments.json:
        print(json.dumps(_summary_json(summary, pool)))
    else:
        print("\n".join(_summary_lines(summary, pool)))
        if errors.count:
            print(f"{errors.count} positions failed: see {errors.path}")
    if summary.stopped:
        return EXIT_INTERRUPTED
    return EXIT_PROBLEMS if summary.errors or summary.correct != summary.checked else EXIT_OK


def run_book_build(arguments: argparse.Namespace) -> int:
    from negamax.parallel.book_build import build_book, enumerate_levels, seed_book
    from negamax.parallel.packed_book import open_book_file

    game = get_game(arguments.game)
    arguments.solve = True
    # the positions of a level are met in order, siblings together: a worker's table carries
    # what one solve proved to the next (1.6x fewer CPU-s on Connect 4's ply 8)
    job = dataclasses.replace(_job(arguments), keep_tables=True)
    roots = arguments.root or ["start"]
    errors_path = _errors_path(arguments, arguments.book)
    refuse_same_files({"--book": arguments.book, "--errors": errors_path, "--seed": arguments.seed})
    errors = _ErrorLog(errors_path, arguments.overwrite)
    BOOK_PLIES.check(arguments.plies)  # refused before saying what it would do
    print(f"counting the positions {arguments.plies} plies below the root{'s' if len(roots) > 1 else ''}", flush=True)
    levels = enumerate_levels(game, roots, arguments.plies)  # too many positions: refused before any work
    with contextlib.ExitStack() as stack:
        # the seed first: a seed that cannot be read leaves no new book behind
        seed = stack.enter_context(open_book_file(arguments.seed, game)) if arguments.seed is not None else None
        book = stack.enter_context(Book(arguments.book, game, on_wait=lock_notice(arguments.book)))
        if seed is not None:
            print(f"copied {seed_book(game, book, levels, seed):,} positions from {arguments.seed}", flush=True)
        errors.start()
        pool = _pool(arguments, job)
        try:
            progress = _progress_display(sys.stderr)
            with _graceful_interrupt(sys.stderr) as stop:
                built = build_book(
                    game,
                    book,
                    roots,
                    arguments.plies,
                    pool,
                    job,
                    arguments.chunk_size,
                    progress,
                    errors,
                    lambda text: print(text, flush=True),
                    stop,
                    levels,
                )
            if sys.stderr.isatty():
                sys.stderr.write("\r\x1b[K")
        finally:
            pool.close()
    print("\n".join(_summary_lines(built.solve, pool)))
    if errors.count:
        print(f"{errors.count} positions failed: see {errors.path}")
    if built.solve.stopped:
        print("stopped: nothing was backed up; run the same command again to finish (what was solved is kept)")
        return EXIT_INTERRUPTED
    print(f"backed up {built.backed_up} positions in {duration_text(built.backup_seconds)}")
    for text, value in built.root_values:
        print(f"root {text}: {value}")
    if built.complete:
        return EXIT_OK
    if built.unsolved:
        limit = "--time" if arguments.time is not None else "--nodes" if arguments.nodes is not None else "its limit"
        print(
            f"{built.unsolved:,} of {built.levels[-1]:,} positions were not solved within {limit}:"
            f" run again with a larger {limit} to finish (everything solved so far is kept)"
        )
    if built.unknown:
        print(f"the book is incomplete: {built.unknown:,} positions above them are not known yet")
    return EXIT_PROBLEMS


def run_book_stats(arguments: argparse.Namespace) -> int:
    with Book(arguments.book, get_game(arguments.game), create=False) as book:
        stats = book.stats()
    if arguments.json:
        print(json.dumps(stats))
        return EXIT_OK
    methods = ", ".join(f"{count:,} by {method}" for method, count in sorted(stats["by_method"].items()))
    print(f"{stats['positions']:,} {stats['game']} positions ({methods or 'none'})")
    print(f"values: {stats['wins']:,} wins, {stats['draws']:,} draws, {stats['losses']:,} losses for the side to move")
    print(f"file: {stats['file_bytes']:,} bytes")
    return EXIT_OK


def run_book_pack(arguments: argparse.Namespace) -> int:
    from negamax.parallel.packed_book import PACKED_SUFFIX, pack_book

    if not arguments.output.endswith(PACKED_SUFFIX):
        raise InvalidOptionError(f"--output: a packed book is written as a {PACKED_SUFFIX} file")
    refuse_same_files({"--book": arguments.book, "--output": arguments.output})
    refuse_replacing("--output", arguments.output, arguments.overwrite)
    with Book(arguments.book, get_game(arguments.game), create=False) as book:
        count = pack_book(book, arguments.output)
    print(f"packed {count:,} positions into {arguments.output} ({os.path.getsize(arguments.output):,} bytes)")
    return EXIT_OK


def run_book_export(arguments: argparse.Namespace) -> int:
    if arguments.output is not None:
        refuse_same_files({"--book": arguments.book, "--output": arguments.output})
        refuse_replacing("--output", arguments.output, arguments.overwrite)
    game = get_game(arguments.game)
    damaged = False
    try:
        Book(arguments.book, game, create=False).close()
    except BookDamagedError:
        damaged = True  # exported all the same: what is readable is saved
    with Book(arguments.book, game, create=False, check=False) as book, contextlib.ExitStack() as stack:
        stream = sys.stdout if arguments.output is None else stack.enter_context(replaced_whole(arguments.output))
        count = 0
        for row in book.rows():
            stream.write(json.dumps(row) + "\n")
            count += 1
        skipped = book.skipped
    if arguments.output is not None:
        print(f"wrote {count:,} positions to {arguments.output}")
    if damaged or skipped:
        left = f" ({skipped:,} unreadable rows or parts left out)" if skipped else ""
        print(
            f"negamax: {arguments.book} is damaged: exported the {count:,} positions still readable{left};"
            " build the book again",
            file=sys.stderr,
        )
        return EXIT_PROBLEMS
    return EXIT_OK
