"""One Connect 4 solve split over a Dask cluster, and what a larger cluster would give.

The split is ``negamax solve --scheduler``'s (``negamax.parallel.split_solve``): the first
``--plies`` plies stay in this process, and each distinct position there is asked
null-window questions on the workers. This script solves the board in one process, then
split on a Dask ``LocalCluster`` of ``--workers`` processes, and prints:

* the value both ways (they must be equal), the positions per ply, the questions asked
  and cancelled, and the workers' CPU time against the single solve's (the overhead: the
  workers do not share a table, and some questions a sequential search would have cut are
  asked);
* the speed-up over one process measured on the cluster, and for 4 to 64 workers the most
  this split could give, ``single / max(work / workers, longest question)`` (an upper bound:
  more workers also ask more questions that turn out not to be needed);
* with ``--project CPU-S``, the hours a solve of that many single-process CPU-seconds would
  need on 64 and 1024 workers at the efficiency measured here.

    python benchmarks/connect4_split.py --size 5x9 --plies 4 --workers 2
"""

from __future__ import annotations

import argparse
import time

from negamax.games.connect4.rules import Connect4Game
from negamax.parallel.pools import make_pool
from negamax.parallel.split_solve import split_solve
from negamax.parallel.worker import BatchJob
from negamax.search.compiled.placement import CompiledSolver

SIMULATED_WORKERS = (1, 2, 4, 8, 16, 32, 64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="5x9", help="the board (default 5x9)")
    parser.add_argument("--plies", type=int, default=4, help="split this many plies below the root (default 4)")
    parser.add_argument("--workers", type=int, default=2, help="the LocalCluster's worker processes (default 2)")
    parser.add_argument("--project", type=float, nargs="*", default=[], metavar="CPU-S")
    arguments = parser.parse_args()
    game = Connect4Game(arguments.size)
    root = game.new_position()

    solver = CompiledSolver(threads=1, prefault=True)
    solver.warm_up(root)
    start = time.process_time()
    single_value, single_nodes = solver.solve_value(root)
    single_cpu = time.process_time() - start
    solver.close()
    print(f"one process: value {single_value:+d}, {single_nodes:,} nodes, {single_cpu:.1f} CPU-s", flush=True)

    pool = make_pool(BatchJob(game.name, solve=True), arguments.workers, "local")
    try:
        result = split_solve(game, root, pool, arguments.plies)
    finally:
        pool.close()
    work = sum(result.cpu_seconds)
    same = "the same" if result.value == single_value else "DIFFERENT"
    print(
        f"split {arguments.plies} plies on a LocalCluster of {arguments.workers}: value {result.value:+d} ({same}),"
        f" wall {result.elapsed:.1f} s, speed-up over one process {single_cpu / result.elapsed:.2f}x"
    )
    print(f"positions per ply: {result.levels}")
    print(
        f"questions: {result.questions} answered ({result.cancelled} cancelled), {work:.1f} CPU-s on the workers"
        f" ({work / single_cpu:.2f}x the single solve's), the longest {max(result.cpu_seconds):.1f} s"
    )
    print(f"{'workers':>8}{'at most':>10}{'efficiency':>12}")
    efficiency = {}
    for workers in SIMULATED_WORKERS:
        speed_up = single_cpu / max(work / workers, max(result.cpu_seconds))
        efficiency[workers] = speed_up / workers
        print(f"{workers:>8}{speed_up:>9.2f}x{speed_up / workers:>12.2f}")
    for cpu in arguments.project:
        rate = single_cpu / work  # the single solve's CPU-seconds done per CPU-second on the workers
        for workers in (64, 1024):
            hours = cpu / rate / workers / 3600
            print(f"a solve of {cpu:,.0f} CPU-s on {workers} workers, each at {rate:.2f} of its time: {hours:,.1f} h")


if __name__ == "__main__":
    main()
