"""Node rates of every draughts variant: the compiled kernel against the pure-Python search
(py-draughts' move generation) on the same positions, measured in the same run.

Each variant's positions come from its start by a fixed sequence of random moves (the same
every run). The compiled search deepens to ``--depth``; the pure-Python search to
``--python-depth`` (it is far slower).

Run: ``python benchmarks/draughts_variants.py`` (about a minute).
"""

from __future__ import annotations

import argparse
import random
import time

from negamax import search
from negamax.core.types import SearchLimits
from negamax.games.draughts.rules import VARIANTS, DraughtsGame, DraughtsPosition


def positions(variant: str, count: int) -> list[DraughtsPosition]:
    """``count`` positions of ``variant``, each a few random moves further from the start."""
    game = DraughtsGame(variant)
    generator = random.Random(2026)
    found = []
    for number in range(count):
        position = game.new_position(None)
        for _ in range(6 + 4 * number):
            if position.is_terminal():
                break
            position.play(generator.choice(position.legal_moves()))
        found.append(position)
    return found


def rate(variant: str, engine: str, depth: int, count: int) -> tuple[int, float]:
    """Nodes and CPU seconds of searches of ``count`` positions to ``depth``."""
    sample = positions(variant, count)
    search(sample[0], SearchLimits(depth=1), backend=engine)  # load the kernel first
    nodes, start = 0, time.process_time()
    for position in sample:
        nodes += search(position, SearchLimits(depth=depth), backend=engine).nodes
    return nodes, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=16, help="the compiled search's depth (default 16)")
    parser.add_argument("--python-depth", type=int, default=6, help="the pure-Python search's (default 6)")
    parser.add_argument("--positions", type=int, default=4)
    arguments = parser.parse_args()
    print("variant      compiled: depth, nodes, M nodes/s   pure Python: depth, nodes, k nodes/s   ratio")
    for variant in VARIANTS:
        python_nodes, python_seconds = rate(variant, "python", arguments.python_depth, arguments.positions)
        python_rate = python_nodes / python_seconds
        nodes, seconds = rate(variant, "compiled", arguments.depth, arguments.positions)
        compiled_text = f"{arguments.depth}, {nodes:,}, {nodes / seconds / 1e6:.2f}"
        ratio = f"{nodes / seconds / python_rate:.0f}x"
        python_text = f"{arguments.python_depth}, {python_nodes:,}, {python_rate / 1e3:.1f}"
        print(f"{variant:<12} {compiled_text:<36} {python_text:<37} {ratio}", flush=True)


if __name__ == "__main__":
    main()
