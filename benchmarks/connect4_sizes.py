"""Connect 4 on other boards: solve the empty boards with width + height = 13 (``--total``
for another sum; with ``--upto``, every smaller one) on one worker, and print their values,
nodes and CPU time; with ``--c4 SOURCE``, Steininger's ``c4`` built for each size (one
thread) solves it too, in the same run.

Values are Pons' scores generalised (the winner's stones left, from the first player's
side: +1 is a first-player win with the board's last stone). The published outcomes (John
Tromp's table, confirmed by Christophe Steininger's solver) are printed beside them where
known. Pons' solver only knows 7x6 (its figures are in ``connect4_sets.py``).

Run: ``python benchmarks/connect4_sizes.py`` (several minutes: 6x7 is about as hard as
7x6); ``--only 8x5 5x8`` for some boards; ``--upto 12`` for every board with width + height
from 8 to 12; ``--only 5x9 4x10 9x5 10x4 --c4 ../shared/peers/c4`` for width + height = 14
beside ``c4`` (``steininger_c4.py`` builds it). Boards of 64 bits get a 128 MiB table.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from negamax.core.game import PlacementPosition
from negamax.games.connect4.rules import Connect4Game
from negamax.search.compiled import placement_table
from negamax.search.compiled.placement import CompiledSolver, _mib
from steininger_c4 import build, solve_empty

PUBLISHED = {
    "4x4": "draw",
    "5x4": "draw",
    "4x5": "draw",
    "5x5": "draw",
    "6x5": "draw",
    "6x4": "second player wins",
    "8x4": "second player wins",
    "7x6": "first player wins (stone 41)",
    "6x7": "first player wins (stone 41)",
    "7x7": "draw",
    "8x6": "second player wins",
    "6x8": "second player wins",
    "9x5": "first player wins",
    "5x9": "draw",
    "10x4": "second player wins",
    "4x10": "draw",
}


def outcome(value: int, cells: int) -> str:
    """A first-player value in words, with the stone that wins."""
    if value == 0:
        return "draw"
    first = value > 0
    stone = cells + 2 - 2 * abs(value)  # or one less: the winner's stones are odd (first) or even
    if (stone % 2 == 1) != first:
        stone -= 1
    return f"{'first' if first else 'second'} player wins (stone {stone})"


def boards(total: int) -> list[str]:
    return [f"{width}x{total - width}" for width in range(total - 1, 0, -1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="WxH", help="these boards only")
    parser.add_argument("--total", type=int, default=13, help="the boards with this width + height (default 13)")
    parser.add_argument("--upto", type=int, help="every board with width + height from 8 to this instead")
    parser.add_argument("--c4", type=Path, metavar="SOURCE", help="Steininger's c4 source: run it beside, one thread")
    arguments = parser.parse_args()
    totals = range(8, arguments.upto + 1) if arguments.upto else [arguments.total]
    sizes = arguments.only or [size for total in totals for size in boards(total)]
    solvers: dict[int, CompiledSolver] = {}
    header = f"{'board':<7}{'value':>6}  {'outcome':<32}{'published':<22}{'nodes':>15}{'CPU s':>10}"
    if arguments.c4:
        header += f"{'c4 value':>10}{'c4 nodes':>15}{'c4 s':>9}{'CPU / c4':>10}"
    print(header)
    for size in sizes:
        game = Connect4Game(size)
        position = game.new_position()
        if not isinstance(position, PlacementPosition):
            print(f"{size:<7}  (too large for the compiled solver)")
            continue
        bits = max(20, placement_table.min_table_bits(game.geometry.bits))  # 64 MiB, 128 for 64-bit keys
        if bits not in solvers:
            solvers[bits] = CompiledSolver(threads=1, prefault=True, hash_mib=max(64, _mib(bits)))
        solver = solvers[bits]
        solver.warm_up(position)
        start = time.process_time()
        value, nodes = solver.solve_value(position)
        cpu = time.process_time() - start
        cells = game.geometry.cells
        line = (
            f"{size:<7}{value:>+6d}  {outcome(value, cells):<32}{PUBLISHED.get(size, ''):<22}{nodes:>15,}{cpu:>10.2f}"
        )
        if arguments.c4:
            width, height = game.geometry.width, game.geometry.height
            peer = solve_empty(build(arguments.c4.resolve(), width, height, 1))
            ratio = cpu / peer.search_seconds if peer.search_seconds else float("nan")
            line += f"{peer.score:>+10d}{peer.nodes:>15,}{peer.search_seconds:>9.2f}{ratio:>10.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
