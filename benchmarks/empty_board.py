"""The moonshot: solve Connect 4's empty board (value +1) on one thread and on all cores.

Pons' C++ solver, without an opening book, needs 425 CPU-seconds on this kind of machine.
Prints the value, nodes (every position searched, as Pons counts them, and the positions
with a choice whose children were searched, as Steininger's ``c4`` counts them: it plays
forced moves without counting them), CPU seconds (one thread) and wall seconds (all cores).

Run: ``python benchmarks/empty_board.py`` (several minutes).
"""

from __future__ import annotations

import argparse
import os
import time

from negamax.games.connect4.rules import Connect4Game
from negamax.search.compiled import placement_layout
from negamax.search.compiled.placement import CompiledSolver

PONS_CPU_SECONDS = 425.0
C4_NODES = 124_000_000
C4_CPU_SECONDS = 50.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--skip-single", action="store_true")
    parser.add_argument("--hash", type=float, metavar="MIB", help="the solver's table (default: the solver's default)")
    arguments = parser.parse_args()
    position = Connect4Game().new_position("")
    runs = ([] if arguments.skip_single else [1]) + ([arguments.threads] if arguments.threads > 1 else [])
    for threads in runs:
        solver = CompiledSolver(threads=threads, prefault=True, hash_mib=arguments.hash)
        solver.warm_up(position, wait_for_helpers=True)
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        value, nodes = solver.solve_value(position)
        cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start_wall
        expanded = int(solver.state[placement_layout.STATE_EXPANDED])
        print(
            f"threads {threads}, {solver.table_mib} MiB table: value {value:+d}, nodes {nodes:,}, CPU {cpu:.1f} s "
            f"({cpu / PONS_CPU_SECONDS:.2f} of Pons' {PONS_CPU_SECONDS:.0f} s, {cpu / C4_CPU_SECONDS:.2f} of c4's), "
            f"wall {wall:.1f} s",
            flush=True,
        )
        if threads == 1:
            share = expanded / C4_NODES
            print(f"  positions with a choice searched {expanded:,} ({share:.2f} of c4's 124 M)", flush=True)


if __name__ == "__main__":
    main()
