"""The moonshot: solve Connect 4's empty board (value +1) on one thread and on all cores.

Pons' C++ solver, without an opening book, needs 425 CPU-seconds on this kind of machine.
Prints the value, nodes, CPU seconds (one thread) and wall seconds (all cores).

Run: ``python benchmarks/empty_board.py`` (several minutes).
"""

from __future__ import annotations

import argparse
import os
import time

from negamax.games.connect4 import Connect4Game
from negamax.search.compiled.placement import CompiledSolver

PONS_CPU_SECONDS = 425.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--skip-single", action="store_true")
    arguments = parser.parse_args()
    position = Connect4Game().new_position("")
    runs = ([] if arguments.skip_single else [1]) + ([arguments.threads] if arguments.threads > 1 else [])
    for threads in runs:
        solver = CompiledSolver(threads=threads, prefault=True)
        solver.warm_up(position, wait_for_helpers=True)
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        value, nodes = solver.solve_value(position)
        cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start_wall
        print(
            f"threads {threads}: value {value:+d}, nodes {nodes:,}, CPU {cpu:.1f} s "
            f"({cpu / PONS_CPU_SECONDS:.2f} of Pons' {PONS_CPU_SECONDS:.0f} s), wall {wall:.1f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
