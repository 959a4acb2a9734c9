"""How deep the draughts engine sees at a fixed time a move: the completed depth of every
move of self-play games, its median in the middlegame, over all moves and by the pieces left.

Each game starts from a different short opening (``--opening-plies`` random moves, seeded)
and is played to its end or ``--max-plies`` by two engines (``presets.for_engine``, one
thread each, tables kept from move to move as a HUB engine keeps them) at ``--time``
seconds a move; a move with one legal reply is not searched and not counted. The
middlegame: from the tenth ply, while each side still has at least ten pieces. The stages:
the pieces left on the board, both sides (``STAGES``; in the fewest, endgame databases
would be probed). Depth depends on the machine's speed: run it on an otherwise idle
machine, and quote the machine beside the figure.

    python benchmarks/draughts_depth.py --games 20 --time 0.3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from negamax.core.types import SearchLimits
from negamax.games.draughts.rules import DraughtsGame
from negamax.search import presets

MIDDLEGAME_FROM_PLY = 10
MIDDLEGAME_PIECES = 10
STAGES = ((2, 4), (5, 6), (7, 8), (9, 12), (13, 20), (21, 40))
"""Pieces on the board, both sides: the ranges the depth is also given for."""


def pieces(game: DraughtsGame, position: Any) -> tuple[int, int]:
    """Each side's pieces (men and kings), White first, from the position's FEN
    (``W:W31,32,...:B1,2,...``)."""
    fields = game.position_text(position).split(":")
    white, black = (next(field[1:] for field in fields[1:] if field.startswith(colour)) for colour in "WB")
    return len([s for s in white.split(",") if s]), len([s for s in black.split(",") if s])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="draughts")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--time", type=float, default=0.3, help="seconds a move (default 0.3)")
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    game = DraughtsGame(arguments.variant)
    generator = random.Random(arguments.seed)
    middle: list[int] = []
    every: list[int] = []
    by_stage: dict[tuple[int, int], list[int]] = {stage: [] for stage in STAGES}
    started = time.perf_counter()
    for number in range(1, arguments.games + 1):
        engines = [presets.for_engine(game), presets.for_engine(game)]
        position = game.new_position(None)
        for engine in engines:
            engine.prepare(position)
        for _ in range(arguments.opening_plies):
            position.play(generator.choice(list(position.legal_moves())))
        depths: list[int] = []
        ply = arguments.opening_plies
        while not position.is_terminal() and ply < arguments.max_plies:
            moves = list(position.legal_moves())
            if len(moves) == 1:
                position.play(moves[0])
                ply += 1
                continue
            result = engines[ply % 2].search(position, SearchLimits(time=arguments.time))
            depths.append(result.depth)
            every.append(result.depth)
            white, black = pieces(game, position)
            if ply >= MIDDLEGAME_FROM_PLY and min(white, black) >= MIDDLEGAME_PIECES:
                middle.append(result.depth)
            for low, high in STAGES:
                if low <= white + black <= high:
                    by_stage[low, high].append(result.depth)
            position.play(result.best_move)
            ply += 1
        for engine in engines:
            engine.close()
        print(
            f"game {number}: {ply} plies, {len(depths)} searched, median depth {statistics.median(depths):g}"
            f" ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    stages = [(f"{low}-{high} pieces", depths) for (low, high), depths in by_stage.items() if depths]
    for name, depths in [("middlegame", middle), ("every move", every), *stages]:
        print(
            f"{name}: {len(depths)} moves, completed depth median {statistics.median(depths):g},"
            f" mean {statistics.fmean(depths):.2f}"
        )


if __name__ == "__main__":
    main()
