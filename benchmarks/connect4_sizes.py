"""Connect 4 on other boards: solve the empty boards with width + height = 13 (and, with
``--upto``, every smaller one) on one worker, and print their values, nodes and CPU time.

Values are Pons' scores generalised (the winner's stones left, from the first player's
side: +1 is a first-player win with the board's last stone). The published outcomes (John
Tromp's table, confirmed by Christophe Steininger's solver) are printed beside them where
known. No peer was run here: Steininger's ``c4`` is not packaged, and Pons' solver only
knows 7x6 (its figures are in ``connect4_sets.py``).

Run: ``python benchmarks/connect4_sizes.py`` (several minutes: 6x7 is about as hard as
7x6); ``--only 8x5 5x8`` for some boards; ``--upto 12`` for every board with width + height from 8 to 12.
"""

from __future__ import annotations

import argparse
import time

from negamax.core.game import PlacementPosition
from negamax.games.connect4.rules import Connect4Game
from negamax.search.compiled.placement import CompiledSolver

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
    parser.add_argument("--upto", type=int, help="every board with width + height from 8 to this instead")
    arguments = parser.parse_args()
    totals = range(8, arguments.upto + 1) if arguments.upto else [13]
    sizes = arguments.only or [size for total in totals for size in boards(total)]
    solver = CompiledSolver(threads=1, prefault=True)
    print(f"{'board':<7}{'value':>6}  {'outcome':<32}{'published':<32}{'nodes':>15}{'CPU s':>10}")
    for size in sizes:
        game = Connect4Game(size)
        position = game.new_position()
        if not isinstance(position, PlacementPosition):
            print(f"{size:<7}  (too large for the compiled solver)")
            continue
        solver.warm_up(position)
        start = time.process_time()
        value, nodes = solver.solve_value(position)
        cpu = time.process_time() - start
        cells = game.geometry.cells
        print(
            f"{size:<7}{value:>+6d}  {outcome(value, cells):<32}{PUBLISHED.get(size, ''):<32}{nodes:>15,}{cpu:>10.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
