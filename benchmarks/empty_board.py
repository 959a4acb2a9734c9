"""The moonshot: solve Connect 4's empty board (value +1) on one worker and on all cores,
beside Steininger's ``c4`` built for one thread and for all cores in the same run.

Prints the value, nodes (every position searched, as Pons counts them, and the positions
with a choice whose children were searched, as ``c4`` counts them: it plays forced moves
without counting them), the solve's CPU seconds (one worker) and wall seconds (all cores);
for ``c4``, the search time it reports (its table's set-up left out, as ours is) and the
whole process's CPU time. The runs alternate, ``--rounds`` times.

Run: ``python benchmarks/empty_board.py --c4 ../shared/peers/c4`` (several minutes;
``steininger_c4.py`` builds ``c4`` in a scratch folder). Pons' C++ solver, without an
opening book, needs 425 CPU-seconds on this kind of machine (not run here).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from negamax.games.connect4.rules import Connect4Game
from negamax.search.compiled import placement_layout
from negamax.search.compiled.placement import CompiledSolver
from steininger_c4 import build, solve_empty


def ours(threads: int, hash_mib: float | None) -> tuple[int, int, int, float, float]:
    """(value, nodes, positions with a choice searched, CPU s, wall s) of one solve."""
    position = Connect4Game().new_position("")
    solver = CompiledSolver(threads=threads, prefault=True, hash_mib=hash_mib)
    solver.warm_up(position, wait_for_helpers=True)
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    value, nodes = solver.solve_value(position)
    cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start_wall
    expanded = int(solver.state[placement_layout.STATE_EXPANDED])
    solver.close()
    return value, nodes, expanded, cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--skip-single", action="store_true")
    parser.add_argument("--hash", type=float, metavar="MIB", help="the solver's table (default: the solver's default)")
    parser.add_argument("--c4", type=Path, metavar="SOURCE", help="Steininger's c4 source: run it beside")
    parser.add_argument("--rounds", type=int, default=1, help="alternate the runs this many times (default 1)")
    arguments = parser.parse_args()
    ratios: dict[str, list[float]] = {"one worker, CPU": [], "all cores, wall": []}
    for _ in range(arguments.rounds):
        if not arguments.skip_single:
            value, nodes, expanded, cpu, _ = ours(1, arguments.hash)
            print(
                f"negamax, 1 worker: value {value:+d}, nodes {nodes:,}, with a choice {expanded:,}, CPU {cpu:.1f} s",
                flush=True,
            )
            if arguments.c4:
                peer = solve_empty(build(arguments.c4.resolve(), 7, 6, 1))
                print(
                    f"c4, 1 thread: value {peer.score:+d}, nodes {peer.nodes:,}, search {peer.search_seconds:.1f} s,"
                    f" process CPU {peer.cpu_seconds:.1f} s; negamax/c4 CPU {cpu / peer.search_seconds:.3f}",
                    flush=True,
                )
                ratios["one worker, CPU"].append(cpu / peer.search_seconds)
        if arguments.threads > 1:
            value, nodes, _, cpu, wall = ours(arguments.threads, arguments.hash)
            print(f"negamax, {arguments.threads} workers: value {value:+d}, nodes {nodes:,}, wall {wall:.1f} s")
            if arguments.c4:
                peer = solve_empty(build(arguments.c4.resolve(), 7, 6, arguments.threads))
                print(
                    f"c4, {arguments.threads} threads: value {peer.score:+d}, nodes {peer.nodes:,},"
                    f" search {peer.search_seconds:.1f} s, process wall {peer.wall_seconds:.1f} s;"
                    f" negamax/c4 wall {wall / peer.search_seconds:.3f}",
                    flush=True,
                )
                ratios["all cores, wall"].append(wall / peer.search_seconds)
    for name, values in ratios.items():
        if values:
            print(f"negamax/c4, {name}: median {statistics.median(values):.3f} of {values}")


if __name__ == "__main__":
    main()
