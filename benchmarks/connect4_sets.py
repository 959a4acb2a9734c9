"""Pascal Pons' Connect 4 benchmark sets on negamax's engines, against his published figures.

For each set: positions, correct, mean nodes, mean CPU time and nodes per CPU-second of
the compiled engine on one worker (the figures comparable with Pons' C++ solver, which
also times the solve alone), then the wall time per position with one worker per core
(helper threads sharing the table) and the speed-up, and the pure-Python engine on the
sets where it finishes in reasonable time. Short sets are timed over several passes (see
``run_compiled``); on long ones, each position is solved by one worker and by all cores
in turn (see ``run_paired``).

Run: ``python benchmarks/connect4_sets.py`` (about 8 minutes on 2 cores; ``--quick`` for
a shorter sample, ``--only SET`` for some sets).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from negamax.cli.report import duration_text
from negamax.games.connect4.rules import Connect4Game
from negamax.search import solve
from negamax.search.compiled.placement import CompiledSolver

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
MEASURED = DATA / "pons_measured"
GAME = Connect4Game()

# (file, name, positions run, Pons' C++ CPU seconds per position, Pons' mean nodes): his
# published means over the whole set, used where pons_measured has no per-position figures
# (End-Easy and Middle-Easy, which run whole, so the positions are the same)
SETS = [
    ("Test_L3_R1", "End-Easy", 1000, 10e-6, 51),
    ("Test_L2_R1", "Middle-Easy", 1000, 65e-6, 449),
    ("Test_L2_R2", "Middle-Medium", 1000, 5.3e-3, 39_800),
    ("Test_L1_R1", "Begin-Easy", 1000, 0.38e-3, 3_300),
    ("Test_L1_R2", "Begin-Medium", 50, 0.188, 1_360_000),
    ("Test_L1_R3", "Begin-Hard", 20, 7.0, 48_300_000),
]
MIN_SECONDS = 1.0
SHORT_PASSES = 5
EVICT = np.ones(8 << 20, dtype=np.int64)  # 64 MiB
PYTHON_POSITIONS = {"Test_L3_R1": 1000, "Test_L2_R1": 1000, "Test_L2_R2": 20}


def pons_on(name: str, count: int) -> tuple[float, float] | None:
    """Pons' mean nodes and CPU seconds on the first ``count`` positions of set ``name``,
    measured position by position on this kind of machine (``tests/data/pons_measured``;
    the CPU time is the mean of its two runs), or ``None`` if it was not measured there."""
    path = MEASURED / name
    if not path.exists():
        return None
    lines = path.read_text().splitlines()[:count]
    if len(lines) < count:
        return None
    nodes = sum(int(line.split()[2]) for line in lines)
    cpu = sum((float(line.split()[3]) + float(line.split()[4])) / 2 for line in lines) / 1e6
    return nodes / count, cpu / count


def load(name: str, count: int) -> list[tuple[Any, int]]:
    lines = (DATA / name).read_text().splitlines()[:count]
    return [(GAME.new_position(moves), int(score)) for moves, score in (line.split() for line in lines)]


def per_position(correct: float, nodes: float, cpu: float, wall: float, count: int) -> dict[str, float]:
    """A set's totals as the figures the table prints."""
    return {"correct": correct, "nodes": nodes / count, "cpu": cpu / count, "wall": wall / count, "nps": nodes / cpu}


def run_compiled(solver: CompiledSolver, cases: list[tuple[Any, int]]) -> dict[str, float]:
    """Solve every case once per pass; a set whose pass takes under ``MIN_SECONDS`` gets
    ``SHORT_PASSES`` passes (one pass of End-Easy takes 10 ms: a single hiccup of the
    machine would show), and the figures are the pass with the median CPU time. Before
    each pass, reading ``EVICT`` (other memory) empties the CPU caches, so no pass
    finds the table's lines warm from the one before."""
    solver.warm_up(cases[0][0], wait_for_helpers=True)
    passes: list[dict[str, float]] = []
    while not passes or (len(passes) < SHORT_PASSES and passes[0]["wall"] * len(cases) < MIN_SECONDS):
        EVICT.sum()
        correct = nodes = 0
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        for position, expected in cases:
            value, searched = solver.solve_value(position)
            correct += value == expected
            nodes += searched
        cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start_wall
        passes.append(per_position(correct, nodes, cpu, wall, len(cases)))
    return sorted(passes, key=lambda figures: figures["cpu"])[len(passes) // 2]


def run_paired(single: CompiledSolver, multi: CompiledSolver, cases: list[tuple[Any, int]]) -> list[dict[str, float]]:
    """Solve every case with both solvers, one right after the other (which one first
    alternates), so that a change in the machine's load between them weighs on both; the
    figures of each, as ``run_compiled``'s."""
    single.warm_up(cases[0][0])
    multi.warm_up(cases[0][0], wait_for_helpers=True)
    totals = [{"correct": 0.0, "nodes": 0.0, "cpu": 0.0, "wall": 0.0} for _ in range(2)]
    for number, (position, expected) in enumerate(cases):
        for which in (0, 1) if number % 2 == 0 else (1, 0):
            solver = (single, multi)[which]
            start_cpu, start_wall = time.process_time(), time.perf_counter()
            value, searched = solver.solve_value(position)
            totals[which]["cpu"] += time.process_time() - start_cpu
            totals[which]["wall"] += time.perf_counter() - start_wall
            totals[which]["correct"] += value == expected
            totals[which]["nodes"] += searched
    return [
        per_position(figures["correct"], figures["nodes"], figures["cpu"], figures["wall"], len(cases))
        for figures in totals
    ]


def run_python(cases: list[tuple[Any, int]]) -> dict[str, float]:
    correct = nodes = 0
    start = time.process_time()
    for position, expected in cases:
        result = solve(position)
        correct += GAME.game_score(position, result.score) == expected
        nodes += result.nodes
    cpu = time.process_time() - start
    return {"correct": correct, "nodes": nodes / len(cases), "cpu": cpu / len(cases), "nps": nodes / cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of each set (at least 5 positions)")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="workers for the 'all cores' run")
    parser.add_argument("--no-python", action="store_true", help="skip the pure-Python engine")
    parser.add_argument("--hash", type=float, metavar="MIB", help="the solver's table (default: the solver's default)")
    parser.add_argument(
        "--only", action="append", metavar="SET", help="run this set only (e.g. Begin-Hard); repeatable"
    )
    arguments = parser.parse_args()
    single = CompiledSolver(threads=1, prefault=True, hash_mib=arguments.hash)
    multi = (
        CompiledSolver(threads=arguments.threads, prefault=True, hash_mib=arguments.hash)
        if arguments.threads > 1
        else None
    )
    header = (
        f"{'set':<14}{'positions':>10}{'correct':>9}{'mean nodes':>13}{'Pons nodes':>12}{'ratio':>7}"
        f"{'CPU/pos':>11}{'Pons CPU':>11}{'ratio':>7}{'Mnodes/s':>10}"
    )
    if multi:
        header += f"{'wall/pos ' + str(arguments.threads) + 't':>14}{'speed-up':>9}"
    print(f"compiled engine, 1 worker, {single.table_mib} MiB table (all cores: wall time)")
    print("Pons: measured on the same positions where tests/data/pons_measured has them, else his set means")
    print(header)
    for name, label, count, pons_cpu, pons_nodes in SETS:
        if arguments.only and label not in arguments.only:
            continue
        cases = load(name, max(count // 10, 5) if arguments.quick else count)
        measured = pons_on(name, len(cases))
        if measured is not None:
            pons_nodes, pons_cpu = measured
        paired = False
        if multi is not None and pons_cpu * len(cases) >= MIN_SECONDS:
            one, many = run_paired(single, multi, cases)
            paired = True
        else:
            one = run_compiled(single, cases)
        line = (
            f"{label:<14}{len(cases):>10}{int(one['correct']):>9}{one['nodes']:>13,.1f}{pons_nodes:>12,.0f}"
            f"{one['nodes'] / pons_nodes:>7.2f}{duration_text(one['cpu']):>11}{duration_text(pons_cpu):>11}"
            f"{one['cpu'] / pons_cpu:>7.2f}{one['nps'] / 1e6:>10.2f}"
        )
        if multi:
            if not paired:
                many = run_compiled(multi, cases)
            assert many["correct"] == one["correct"], "workers changed a value"
            line += f"{duration_text(many['wall']):>14}{one['wall'] / many['wall']:>8.2f}x"
        print(line, flush=True)
    if arguments.no_python:
        return
    print("\npure-Python engine (default algorithm)")
    print(f"{'set':<14}{'positions':>10}{'correct':>9}{'mean nodes':>13}{'CPU/pos':>11}{'nodes/s':>10}")
    for name, label, *_ in SETS:
        if name not in PYTHON_POSITIONS:
            continue
        cases = load(name, max(PYTHON_POSITIONS[name] // 10, 5) if arguments.quick else PYTHON_POSITIONS[name])
        result = run_python(cases)
        print(
            f"{label:<14}{len(cases):>10}{int(result['correct']):>9}{result['nodes']:>13,.1f}"
            f"{duration_text(result['cpu']):>11}{result['nps']:>10,.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
