"""The compiled kernel on a user's rules against the same rules in C++, in one run.

``benchmarks/native/othello6.cpp`` is ``examples/othello.py``'s Othello6 written step for step
in C++ (same state array, flips walk, move order, evaluation, outcome) with the search the
kernel runs when every feature is off: fail-soft alpha-beta to a fixed depth, no table.
Both search the same random positions to the same depth; their values and node counts must
be equal, and the ratio of nodes per CPU-second is the kernel's cost over native code.
Then the default compiled search (table, PVS, killers) to ``--default-depth`` on the same
positions: its CPU time, to compare before and after a change to the kernel.

    python benchmarks/native_rules.py [--positions 40] [--depth 9] [--default-depth 10]

Needs g++. The kernel is compiled (or loaded) before any clock starts.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from negamax import SearchLimits, search
from negamax.core.score import INF

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from your_game import load_module  # noqa: E402 (a sibling script)


def build(directory: Path) -> Path:
    if shutil.which("g++") is None:
        raise SystemExit("this benchmark needs g++ (Debian: apt-get install g++)")
    program = directory / "othello6"
    source = ROOT / "benchmarks" / "native" / "othello6.cpp"
    subprocess.run(["g++", "-O2", "-o", str(program), str(source)], check=True)
    return program


def random_positions(game: Any, count: int, seed: int) -> list[Any]:
    """``count`` positions 0 to 9 plies from the start, not over."""
    generator = random.Random(seed)
    positions = []
    while len(positions) < count:
        position = game.new_position()
        for _ in range(generator.randrange(10)):
            if position.is_terminal():
                break
            position.play(generator.choice(position.legal_moves()))
        if not position.is_terminal():
            positions.append(position)
    return positions


def native(program: Path, positions: list[Any], depth: int) -> tuple[list[tuple[int, int]], float]:
    lines = [str(depth)] + [" ".join(str(int(value)) for value in position.state[:3]) for position in positions]
    output = subprocess.run([str(program)], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True)
    *rows, cpu = output.stdout.split("\n")[:-1]
    return [(int(value), int(nodes)) for value, nodes in (row.split() for row in rows)], float(cpu.split()[1])


def kernel(positions: list[Any], depth: int) -> tuple[list[tuple[int, int]], float]:
    """Each position searched once to ``depth`` with the full window and every feature off."""
    from negamax.search.compiled.move_list import CompiledSearcher

    searcher = CompiledSearcher(hash_mib=1, features=0)
    warm = positions[0].copy()
    searcher.search(warm, SearchLimits(depth=2))  # compiled or loaded now, not on the clock
    results, cpu = [], 0.0
    for position in positions:
        bound = searcher._bind(position)
        searcher._prepare(SearchLimits(), 0)
        start = time.process_time()
        value = searcher._root(bound, depth, -INF, INF)
        cpu += time.process_time() - start
        results.append((value, searcher._nodes()))
    return results, cpu


def minimal_numba(module: Any) -> Any:
    """What numba makes of the same rules without the kernel: the C++ program's search,
    written for numba over the game's functions (the ceiling of any kernel in numba)."""
    import numba
    import numpy as np

    from negamax.core.score import ONGOING, WIN, WIN_THRESHOLD

    for name in ("flips", "has_move", "bin_count", "disc_score", "final_value"):
        setattr(module, name, numba.njit(getattr(module, name)))
    rules = module.Othello6
    legal_moves, play, undo = numba.njit(rules.legal_moves), numba.njit(rules.play), numba.njit(rules.undo)
    outcome, evaluate = numba.njit(rules.outcome), numba.njit(rules.evaluate)

    @numba.njit
    def alphabeta(state: Any, moves: Any, depth: int, alpha: int, beta: int, ply: int, nodes: Any) -> int:
        nodes[0] += 1
        result = outcome(state)
        if result != ONGOING:
            return result - ply if result >= WIN_THRESHOLD else result + ply if result <= -WIN_THRESHOLD else result
        if ply > 0:
            ceiling, floor = WIN - ply - 1, -WIN + ply
            narrowed_beta = ceiling if beta > ceiling else beta
            narrowed_alpha = floor if alpha < floor else alpha
            if narrowed_alpha >= narrowed_beta:
                return narrowed_beta if narrowed_beta < beta else narrowed_alpha
            alpha, beta = narrowed_alpha, narrowed_beta
        if depth <= 0:
            return evaluate(state)
        count = legal_moves(state, moves[ply])
        best = -INF
        for index in range(count):
            move = moves[ply, index]
            play(state, move)
            score = -alphabeta(state, moves, depth - 1, -beta, -alpha, ply + 1, nodes)
            undo(state, move)
            best, alpha = max(best, score), max(alpha, score)  # fail-soft: the best, not alpha
            if alpha >= beta:
                break
        return best

    def run(positions: list[Any], depth: int) -> tuple[list[tuple[int, int]], float]:
        moves, nodes = np.zeros((100, 64), np.int64), np.zeros(1, np.int64)
        results, cpu = [], 0.0
        for position in positions:
            nodes[0] = 0
            state = position.state.copy()
            start = time.process_time()
            value = alphabeta(state, moves, depth, -INF, INF, 0, nodes)
            cpu += time.process_time() - start
            results.append((int(value), int(nodes[0])))
        return results, cpu

    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--depth", type=int, default=9, help="depth of the fixed-depth searches compared")
    parser.add_argument("--default-depth", type=int, default=10, help="depth of the default search timed")
    parser.add_argument("--repeat", type=int, default=7, help="pairs of runs (C++, then the kernel)")
    arguments = parser.parse_args()

    module = load_module("othello", ROOT / "examples" / "othello.py")
    positions = random_positions(module.Othello6(), arguments.positions, 3)
    with tempfile.TemporaryDirectory() as directory:
        program = build(Path(directory))
        # in pairs, one after the other: a shared machine's load changes between minutes
        minimal = minimal_numba(load_module("othello_minimal", ROOT / "examples" / "othello.py"))
        minimal(positions[:1], 2)  # compiled now, not on the clock
        runs = [
            (
                native(program, positions, arguments.depth),
                kernel(positions, arguments.depth),
                minimal(positions, arguments.depth),
            )
            for _ in range(arguments.repeat)
        ]
    pairs = [(native_run, kernel_run) for native_run, kernel_run, _ in runs]
    native_results, native_cpu = min((pair[0] for pair in pairs), key=lambda run: run[1])
    kernel_results, kernel_cpu = min((pair[1] for pair in pairs), key=lambda run: run[1])
    equal = sum(ours == theirs for ours, theirs in zip(kernel_results, native_results, strict=True))
    nodes = sum(count for _, count in native_results)
    native_rate, kernel_rate = nodes / native_cpu, sum(count for _, count in kernel_results) / kernel_cpu
    ratios = sorted(pair[0][1] / pair[1][1] for pair in pairs)
    print(f"Othello 6x6, {arguments.positions} positions to depth {arguments.depth}, every feature off, no table")
    print(f"  values and node counts equal: {equal}/{arguments.positions}")
    print(f"  C++ (g++ -O2)    {nodes:>12,} nodes {native_cpu:8.3f} CPU-s {native_rate:>12,.0f} nodes/CPU-s")
    print(f"  compiled kernel  {nodes:>12,} nodes {kernel_cpu:8.3f} CPU-s {kernel_rate:>12,.0f} nodes/CPU-s")
    minimal_results, minimal_cpu = min((run[2] for run in runs), key=lambda run: run[1])
    minimal_rate = nodes / minimal_cpu
    print(f"  numba, minimal   {nodes:>12,} nodes {minimal_cpu:8.3f} CPU-s {minimal_rate:>12,.0f} nodes/CPU-s")
    print(f"  (the fastest of {arguments.repeat} runs each; numba, minimal: the same search without the kernel)")
    equal += sum(ours == theirs for ours, theirs in zip(minimal_results, native_results, strict=True)) - len(positions)
    minimal_ratios = sorted(run[0][1] / run[2][1] for run in runs)
    print(f"  minimal / C++: median {minimal_ratios[len(runs) // 2]:.2f}x;", end="")
    kernel_minimal = sorted(run[2][1] / run[1][1] for run in runs)
    print(f" kernel / minimal: median {kernel_minimal[len(runs) // 2]:.2f}x")
    median = ratios[len(ratios) // 2]
    print(f"  kernel / C++ nodes per CPU-second: median of {len(ratios)} pairs {median:.2f}x", end="")
    print(f" (spread {ratios[0]:.2f}-{ratios[-1]:.2f})")

    limits = SearchLimits(depth=arguments.default_depth)
    search(positions[0].copy(), SearchLimits(depth=2))
    default_cpu, default_nodes = 0.0, 0
    for position in positions:
        start = time.process_time()
        result = search(position.copy(), limits)
        default_cpu += time.process_time() - start
        default_nodes += result.nodes
    print(f"default compiled search to depth {arguments.default_depth}: ", end="")
    print(f"{default_nodes:,} nodes {default_cpu:.3f} CPU-s")
    return 0 if equal == arguments.positions else 1


if __name__ == "__main__":
    sys.exit(main())
