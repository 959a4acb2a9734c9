"""The compiled kernel on a user's rules against the same rules in C++, in one run.

``benchmarks/native/othello6.cpp`` is ``examples/othello.py``'s Othello6 written step for step
in C++ (same state array, flips walk, move order, evaluation, outcome) with the search the
kernel runs when every feature is off: fail-soft alpha-beta to a fixed depth, no table.
Both search the same random positions to the same depth; their values and node counts must
be equal, and the ratio of nodes per CPU-second is the kernel's cost over native code.
Then the default compiled search (table, PVS, killers) to ``--default-depth`` on the same
positions: its CPU time, to compare before and after a change to the kernel.

    python benchmarks/native_rules.py [--positions 40] [--depth 8] [--default-depth 10]

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--depth", type=int, default=8, help="depth of the fixed-depth searches compared")
    parser.add_argument("--default-depth", type=int, default=10, help="depth of the default search timed")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each side; the fastest counts")
    arguments = parser.parse_args()

    module = load_module("othello", ROOT / "examples" / "othello.py")
    positions = random_positions(module.Othello6(), arguments.positions, 3)
    with tempfile.TemporaryDirectory() as directory:
        program = build(Path(directory))
        native_runs = [native(program, positions, arguments.depth) for _ in range(arguments.repeat)]
        kernel_runs = [kernel(positions, arguments.depth) for _ in range(arguments.repeat)]
    native_results, native_cpu = min(native_runs, key=lambda run: run[1])
    kernel_results, kernel_cpu = min(kernel_runs, key=lambda run: run[1])
    equal = sum(ours == theirs for ours, theirs in zip(kernel_results, native_results, strict=True))
    nodes = sum(count for _, count in native_results)
    native_rate, kernel_rate = nodes / native_cpu, sum(count for _, count in kernel_results) / kernel_cpu
    print(f"Othello 6x6, {arguments.positions} positions to depth {arguments.depth}, every feature off, no table")
    print(f"  values and node counts equal: {equal}/{arguments.positions}")
    print(f"  C++ (g++ -O2)    {nodes:>12,} nodes {native_cpu:8.3f} CPU-s {native_rate:>12,.0f} nodes/CPU-s")
    print(f"  compiled kernel  {nodes:>12,} nodes {kernel_cpu:8.3f} CPU-s {kernel_rate:>12,.0f} nodes/CPU-s")
    print(f"  kernel / C++ nodes per CPU-second: {kernel_rate / native_rate:.2f}x (fastest of {arguments.repeat} each)")

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
