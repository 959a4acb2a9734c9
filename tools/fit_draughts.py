"""Fits the draughts evaluation's weights to py-draughts' ``TurboEngine`` evaluation.

TurboEngine's static evaluation adds patterns trained on Scan's search scores to a hand
evaluation; ours is a sum of per-square terms, which keeps it incremental (no cost per
node). This script samples quiet positions (no capture for the side to move) from fast
self-play of the compiled engine, with one move in eight random for variety, and solves
the least-squares problem: TurboEngine's score, from the side to move, as men, kings, a
term per row advanced (``ADVANCE``), a term per distance from the edge file (``FILE``),
and a constant (the side to move). It prints the fitted weights and both evaluations'
error against TurboEngine's.

Run: ``python tools/fit_draughts.py --games 400`` (about 3 minutes on one core).
The weights in ``negamax.games.draughts.evaluation`` come from a run of this script (seed 7).
The 10x10 board's fitted patterns (``fit_draughts_patterns.py``) were fitted on top of
these weights, with a king's worth of their own: refit them after changing these.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator

import numpy as np
from draughts.boards._core import CORE_STANDARD
from draughts.engines import turbo

from negamax.core.types import SearchLimits
from negamax.engines.engine import Engine
from negamax.games.draughts import evaluation as rules
from negamax.games.draughts.rules import DraughtsGame

SQUARES = 50
Position = tuple[int, int, int, int, bool]
NAMES = ["men", "kings", *(f"advance {rows}" for rows in range(9)), *(f"file {edge}" for edge in range(1, 5)), "tempo"]


def self_play(
    games: int,
    seed: int,
    random_plies: int = 4,
    random_share: float = 0.12,
    nodes: tuple[int, ...] = (500, 2000, 8000),
    longest: int = 160,
) -> Iterator[Position]:
    """Quiet positions ``(white men, white kings, black men, black kings, White to move)``
    from games of the compiled engine against itself at a few node limits (``nodes``), each
    new one once; the first ``random_plies`` and a ``random_share`` of the rest are random,
    and a game stops after ``longest`` plies."""
    chooser = random.Random(seed)
    game = DraughtsGame("draughts")
    engine = Engine(game)
    engine.searcher.prepare()  # the kernel loaded (or compiled) before the first timed search
    seen: set[Position] = set()
    for _ in range(games):
        position = game.new_position(None)
        for ply in range(longest):
            moves = position.legal_moves()
            if not moves or position.is_terminal():
                break
            board = position.board
            key = (board.white_men, board.white_kings, board.black_men, board.black_kings, position.player() == 0)
            if "x" not in moves[0] and ply >= 4 and key not in seen:
                seen.add(key)
                yield key
            if ply < random_plies or chooser.random() < random_share:
                move = chooser.choice(moves)
            else:
                move = engine.analyse(position, SearchLimits(nodes=chooser.choice(nodes))).best_move
            position.play(move)


def sample(games: int, seed: int) -> list[Position]:
    return sorted(self_play(games, seed))


def features(white_men: int, white_kings: int, black_men: int, black_kings: int, white: bool) -> list[float]:
    row_of = [square // 5 for square in range(SQUARES)]
    column_of = [2 * (square % 5) + (1 if row_of[square] % 2 == 0 else 0) for square in range(SQUARES)]
    values = [0.0] * len(NAMES)
    values[0] = white_men.bit_count() - black_men.bit_count()
    values[1] = white_kings.bit_count() - black_kings.bit_count()
    for men, sign in ((white_men, 1), (black_men, -1)):
        for square in range(SQUARES):
            if men >> square & 1:
                advanced = 9 - row_of[square] if sign == 1 else row_of[square]
                values[2 + min(advanced, 8)] += sign
                edge = min(column_of[square], 9 - column_of[square])
                if edge:
                    values[10 + edge] += sign
    if not white:
        values = [-value for value in values]
    values[-1] = 1.0
    return values


def turbo_score(white_men: int, white_kings: int, black_men: int, black_kings: int, white: bool) -> int:
    ghost = CORE_STANDARD.to_ghost
    return int(turbo._evaluate(ghost(white_men), ghost(white_kings), ghost(black_men), ghost(black_kings), white))


def ours() -> list[float]:
    """The weights in use, in the order of ``NAMES``."""
    return [
        rules.MAN,
        rules.KING,
        *rules.ADVANCE,
        *(rules.FILE[edge] for edge in range(1, 5)),
        rules.TEMPO,
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    arguments = parser.parse_args()
    start = time.perf_counter()
    positions = sample(arguments.games, arguments.seed)
    matrix = np.array([features(*position) for position in positions])
    target = np.array([turbo_score(*position) for position in positions], dtype=float)
    usable = np.abs(target) < 1500  # far-gone positions say little about fine weights
    matrix, target = matrix[usable], target[usable]
    weights = np.linalg.lstsq(matrix, target, rcond=None)[0]
    print(f"{len(target)} quiet positions from {arguments.games} games in {time.perf_counter() - start:.0f} s")
    for name, weight, current in zip(NAMES, weights, ours(), strict=True):
        print(f"{name:12s} fitted {weight:7.1f}   in use {current:4d}")
    for label, vector in (("fitted", weights), ("in use", np.array(ours(), dtype=float))):
        error = np.sqrt(np.mean((matrix @ vector - target) ** 2))
        print(f"{label}: root-mean-square difference from TurboEngine {error:.1f} hundredths")


if __name__ == "__main__":
    main()
