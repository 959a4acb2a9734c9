"""The compiled draughts search's speed: nodes and CPU time of fixed-depth searches, this
checkout beside a base revision in the same run.

The positions: the start and seven middlegames (24 random plies from the start, seeded),
each searched to ``--depth`` from an empty table on one thread (``presets.for_bench``).
Each build runs in its own process, the builds in turn, ``--rounds`` times; a position's
time is the least of its rounds (the machine may be shared). A change meant only to be
faster leaves the node counts alone: they are printed for both.

Run: ``python benchmarks/draughts_speed.py --base 73c3904`` (a few minutes, and a first
compile of the base's kernels in a temporary worktree).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from draughts_sprt import ROOT, base_source
from vs_pydraughts import warm

SEARCHES = r"""
import json, random, sys, time
from negamax.core.types import SearchLimits
from negamax.games.draughts.rules import DraughtsGame
from negamax.search import presets
variant, depth, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game = DraughtsGame(variant)
generator = random.Random(77)
positions = [game.new_position(None)]
while len(positions) < count:
    position = game.new_position(None)
    for _ in range(24):
        if position.is_terminal():
            break
        position.play(generator.choice(position.legal_moves()))
    if not position.is_terminal():
        positions.append(position)
rows = []
for position in positions:
    searcher = presets.for_bench(game)
    searcher.prepare(position)
    start = time.process_time()
    result = searcher.search(position, SearchLimits(depth=depth))
    rows.append([result.nodes, time.process_time() - start])
    searcher.close()
print(json.dumps(rows))
"""


def run(source: Path, variant: str, depth: int, count: int) -> list[tuple[int, float]]:
    """Each position's nodes and CPU seconds, searched by the package in ``source``."""
    environment = {**os.environ, "PYTHONPATH": str(source)}
    done = subprocess.run(
        [sys.executable, "-c", SEARCHES, variant, str(depth), str(count)],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    return [(int(nodes), float(seconds)) for nodes, seconds in json.loads(done.stdout.strip().splitlines()[-1])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", metavar="REV", help="the base build: a git revision (default: none)")
    parser.add_argument("--variant", default="draughts")
    parser.add_argument("--depth", type=int, default=16)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2)
    arguments = parser.parse_args()
    with base_source(arguments.base) as base:
        builds = {"this checkout": ROOT / "src"}
        if arguments.base:
            builds = {f"base {arguments.base}": base, **builds}
        for source in builds.values():
            warm(source)
        best: dict[str, list[tuple[int, float]]] = {}
        for _ in range(arguments.rounds):
            for name, source in builds.items():
                rows = run(source, arguments.variant, arguments.depth, arguments.positions)
                kept = best.setdefault(name, rows)
                best[name] = [min(old, new, key=lambda row: row[1]) for old, new in zip(kept, rows, strict=True)]
    print(f"{arguments.variant}, depth {arguments.depth}, least CPU of {arguments.rounds} rounds")
    print("| build | position | nodes | CPU s | M nodes/s |")
    print("| --- | ---: | ---: | ---: | ---: |")
    totals = {}
    for name, rows in best.items():
        for number, (nodes, seconds) in enumerate(rows):
            label = "start" if number == 0 else f"middlegame {number}"
            print(f"| {name} | {label} | {nodes:,} | {seconds:.2f} | {nodes / seconds / 1e6:.2f} |")
        nodes, seconds = sum(row[0] for row in rows), sum(row[1] for row in rows)
        totals[name] = (nodes, seconds)
    for name, (nodes, seconds) in totals.items():
        print(f"{name}: {nodes:,} nodes in {seconds:.2f} CPU-s, {nodes / seconds / 1e6:.2f} M nodes/s")
    if len(totals) == 2:
        (_, (_, before)), (_, (_, after)) = totals.items()
        print(f"speed-up: {before / after:.2f}x")


if __name__ == "__main__":
    main()
