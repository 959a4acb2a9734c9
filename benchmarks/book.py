"""The solved-position book on Pascal Pons' Begin-Medium set.

1. Solve the set through the batch machinery into a book (``batch --solve --book``), then
   answer ``negamax solve connect4 POSITION --book FILE`` for every position and for its
   mirror image: the command's own code in this process (so the time is the answer's, not
   the interpreter's start-up), plus a sample as real subprocesses for the whole-command time.
2. For 20 positions, build a book 2 plies below each (``book build --plies 2``) with 1 and
   with 2 workers, and check that the backed-up root values equal direct solves.

Run: ``python benchmarks/book.py`` (about 3 minutes on 2 cores; ``--positions 200`` for less).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from negamax.cli.main import main as negamax_main
from negamax.games import get_game
from negamax.parallel.batch import run_batch
from negamax.parallel.book import Book, BookSink
from negamax.parallel.book_build import build_book
from negamax.parallel.cases import read_cases
from negamax.parallel.pools import make_pool
from negamax.parallel.worker import BatchJob
from negamax.search.compiled.placement import CompiledSolver

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
GAME = get_game("connect4")
JOB = BatchJob("connect4", solve=True)


def mirror_text(moves: str) -> str:
    return "".join(str(8 - int(column)) for column in moves)


def answer(position: str, book: str) -> tuple[dict[str, object], float]:
    """Run ``negamax solve connect4 POSITION --book BOOK --json`` in this process."""
    captured = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(captured):
        status = negamax_main(["solve", "connect4", position, "--book", book, "--json"])
    elapsed = time.perf_counter() - start
    assert status == 0
    record: dict[str, object] = json.loads(captured.getvalue())
    return record, elapsed


def book_answers(folder: Path, count: int, workers: int) -> None:
    cases = list(read_cases(str(DATA / "Test_L1_R2")))[:count]
    path = str(folder / "begin-medium.sqlite")
    with Book(path, GAME) as book:
        pool = make_pool(JOB, workers, None)
        try:
            summary = run_batch(JOB, cases, [BookSink(book)], pool)
        finally:
            pool.close()
    print(
        f"Begin-Medium, first {count}: solved into the book in {summary.elapsed:.1f} s on {workers} workers"
        f" ({summary.correct}/{summary.checked} correct, {summary.positions_per_second:.2f} positions/s)"
    )
    answer(cases[0].text, path)  # the first command imports the modules a command needs
    times, lookups = [], []
    for case in cases:
        for text in (case.text, mirror_text(case.text)):
            record, elapsed = answer(text, path)
            assert record["algorithm"] == "book (solve)" and record["score"] == case.expected, (text, record)
            times.append(elapsed)
            lookups.append(float(record["wall_s"]))  # type: ignore[arg-type]
    print(
        f"answered {len(times)} positions and mirror images from the book, every score right:"
        f" the whole command in this process mean {statistics.mean(times) * 1e3:.2f} ms,"
        f" max {max(times) * 1e3:.2f} ms; the book lookup mean {statistics.mean(lookups) * 1e3:.3f} ms,"
        f" max {max(lookups) * 1e3:.3f} ms"
    )
    walls = []
    for case in cases[:10]:
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "negamax", "solve", "connect4", mirror_text(case.text), "--book", path, "--json"],
            capture_output=True,
            text=True,
            check=True,
        )
        walls.append(time.perf_counter() - start)
        reported = json.loads(done.stdout)["wall_s"]
        assert reported < 0.05
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    bare = time.perf_counter() - started
    print(
        f"as a new process each (10 mirror images): mean {statistics.mean(walls) * 1e3:.0f} ms wall in all,"
        f" of which Python's own start-up ({sys.executable} -c pass) is {bare * 1e3:.0f} ms"
    )


def backed_up_roots(folder: Path, roots: int) -> None:
    cases = list(read_cases(str(DATA / "Test_L1_R2")))[:roots]
    solver = CompiledSolver(prefault=True)
    start = time.process_time()
    direct = [solver.solve_value(GAME.new_position(case.text))[0] for case in cases]
    direct_cpu = time.process_time() - start
    assert direct == [case.expected for case in cases]
    for workers in (1, 2):
        path = str(folder / f"roots-{workers}.sqlite")
        with Book(path, GAME) as book:
            pool = make_pool(JOB, workers, None)
            try:
                start = time.perf_counter()
                built = build_book(GAME, book, [case.text for case in cases], 2, pool, JOB)
                elapsed = time.perf_counter() - start
            finally:
                pool.close()
        values = [value for _, value in built.root_values]
        assert values == direct, "a backed-up root differs from its direct solve"
        print(
            f"{roots} Begin-Medium roots, 2 plies: {built.levels[-1]} positions solved + {built.backed_up} backed up"
            f" in {elapsed:.1f} s on {workers} worker{'s' if workers > 1 else ''};"
            f" every root value equals the direct solve ({direct_cpu:.1f} CPU-s for the 20 direct solves)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000, help="Begin-Medium positions put in the book")
    parser.add_argument("--roots", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        backed_up_roots(Path(folder), arguments.roots)
        book_answers(Path(folder), arguments.positions, arguments.workers)


if __name__ == "__main__":
    main()
