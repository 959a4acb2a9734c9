"""One Connect 4 solve split over a Dask cluster, and what a larger cluster would give.

The split is ``negamax book build``'s: every distinct position ``--plies`` below the empty
board is a subproblem, solved exactly on a worker; the values are backed up by negamax to
the root. This script runs it on a Dask ``LocalCluster`` of ``--workers`` processes (what
``--scheduler local`` starts), checks the root's value against one process solving the
board alone, and prints:

* the work per level: distinct positions per ply, and the subproblems' CPU time against the
  single solve's (the split costs more work: each subproblem starts with an empty table,
  and without the bounds its siblings would have given it);
* the speed-up against workers: measured with 1 (the single solve) and ``--workers``, and
  simulated for 4 to 64 workers by list-scheduling the measured subproblem CPU times in the
  order the build hands them out (each worker takes the next one when it is free);
* with ``--project-seconds S``, the cluster and hours a solve of S single-process
  CPU-seconds would need with the same split's overhead and efficiency.

    python benchmarks/connect4_split.py --size 5x9 --plies 4 --workers 2
"""

from __future__ import annotations

import argparse
import heapq
import tempfile
import time
from pathlib import Path
from typing import Any

from negamax.games.connect4.rules import Connect4Game
from negamax.parallel.book import Book
from negamax.parallel.book_build import build_book, enumerate_levels
from negamax.parallel.cases import Case
from negamax.parallel.pools import make_pool
from negamax.parallel.worker import BatchJob
from negamax.search.compiled import placement_table
from negamax.search.compiled.placement import CompiledSolver, _mib

SIMULATED_WORKERS = (1, 2, 4, 8, 16, 32, 64)


class Recorder:
    """A sink that wants nothing solved and keeps each subproblem's record."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def pending(self, cases: list[Case]) -> list[Case]:
        return []

    def write(self, records: list[dict[str, Any]]) -> None:
        self.records.extend(records)


def makespan(seconds: list[float], workers: int) -> float:
    """When the last of the jobs ends, each handed in order to the first worker free."""
    free = [0.0] * workers
    for job in seconds:
        heapq.heappush(free, heapq.heappop(free) + job)
    return max(free)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="5x9", help="the board (default 5x9)")
    parser.add_argument("--plies", type=int, default=4, help="split this many plies below the root (default 4)")
    parser.add_argument("--workers", type=int, default=2, help="the LocalCluster's worker processes (default 2)")
    parser.add_argument("--project-seconds", type=float, nargs="*", default=[], metavar="S")
    arguments = parser.parse_args()
    game = Connect4Game(arguments.size)
    root = game.new_position()
    hash_mib = max(64, _mib(placement_table.min_table_bits(game.geometry.bits)))

    solver = CompiledSolver(threads=1, prefault=True, hash_mib=hash_mib)
    solver.warm_up(root)
    start = time.process_time()
    single_value, single_nodes = solver.solve_value(root)
    single_cpu = time.process_time() - start
    solver.close()
    print(f"one process: value {single_value:+d}, {single_nodes:,} nodes, {single_cpu:.1f} CPU-s", flush=True)

    levels = enumerate_levels(game, ["start"], arguments.plies)
    job = BatchJob(f"connect4:{arguments.size}", solve=True)  # its tables grow for 64-bit keys
    recorder = Recorder()
    with tempfile.TemporaryDirectory() as folder:
        pool = make_pool(job, arguments.workers, "local")
        try:
            with Book(str(Path(folder) / "book.sqlite"), game) as book:
                start_wall = time.perf_counter()
                built = build_book(
                    game, book, ["start"], arguments.plies, pool, job, chunk_size=1, levels=levels, sinks=[recorder]
                )
                wall = time.perf_counter() - start_wall
        finally:
            pool.close()
    split_value = built.root_values[0][1] if built.root_values else None
    seconds = [float(record["cpu_s"]) for record in recorder.records]
    nodes = sum(int(record["nodes"]) for record in recorder.records)
    total = sum(seconds)
    print(
        f"split {arguments.plies} plies on a LocalCluster of {arguments.workers}: value {split_value:+d}"
        f" ({'the same' if split_value == single_value else 'DIFFERENT'}), wall {wall:.1f} s"
    )
    print(f"positions per ply: {[len(level.positions) for level in levels]}")
    print(
        f"subproblems: {len(seconds):,}, {nodes:,} nodes, {total:.1f} CPU-s"
        f" ({total / single_cpu:.2f}x the single solve's), the largest {max(seconds):.1f} s"
    )
    print(f"measured speed-up over one process: {single_cpu / wall:.2f}x on {arguments.workers} workers (wall)")
    print("simulated (list scheduling of the measured subproblem times):")
    print(f"{'workers':>8}{'makespan s':>12}{'speed-up':>10}{'efficiency':>12}")
    efficiency_by_workers = {}
    for workers in SIMULATED_WORKERS:
        span = makespan(seconds, workers)
        speed_up = single_cpu / span
        efficiency_by_workers[workers] = speed_up / workers
        print(f"{workers:>8}{span:>12.1f}{speed_up:>10.2f}{speed_up / workers:>12.2f}")
    for project in arguments.project_seconds:
        for workers in (64, 1024):
            efficiency = efficiency_by_workers[64] if workers == 1024 else efficiency_by_workers[workers]
            hours = project / (workers * efficiency) / 3600
            print(
                f"a solve of {project:,.0f} CPU-s on {workers} workers at efficiency {efficiency:.2f}: {hours:,.1f} h"
            )


if __name__ == "__main__":
    main()
