"""Tunes the draughts evaluation by measurement: each candidate set of weights plays a short
match against py-draughts' TurboEngine (colour-swapped pairs from the match openings) on
the compiled engine, in its own process with its own numba cache (numba freezes the
weights into the compiled kernel), two candidates at a time.

Run: ``python tools/tune_draughts.py --games 12 --time 0.2``

Prints each candidate's wins/draws/losses and score, best first. A candidate is a change
of the weights in ``negamax.games.draughts.evaluation`` (MAN, KING, ADVANCE, FILE, TEMPO;
the tables as JSON lists; on the 10x10 board a king's worth comes with the fitted patterns,
so KING there changes nothing). Twelve games cannot tell close candidates apart: the weights
in use were fitted by ``fit_draughts.py`` and ``fit_draughts_patterns.py`` and confirmed by
30-game matches.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import benchmark_path  # noqa: F401  (the benchmarks' modules imported below)

CANDIDATES: list[dict[str, object]] = [
    {},
    {"KING": 280},
    {"KING": 380},
    {"TEMPO": 0},
    {"FILE": [0, 2, 4, 6, 8]},
    {"ADVANCE": [7, 3, 4, 9, 9, 6, 10, 23, 40]},
]


def play(weights: dict[str, object], games: int, seconds: float) -> str:
    """One candidate's match, in a child process with a private numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        environment = dict(os.environ, NUMBA_CACHE_DIR=cache)
        command = [sys.executable, __file__, "--candidate", json.dumps(weights)]
        done = subprocess.run(
            [*command, "--games", str(games), "--time", str(seconds)],
            capture_output=True,
            text=True,
            env=environment,
            check=True,
        )
    return done.stdout.strip().splitlines()[-1]


def candidate_match(weights: dict[str, object], games: int, seconds: float) -> None:
    from loguru import logger

    from negamax.games.draughts import evaluation as rules

    for name, value in weights.items():
        setattr(
            rules, name, tuple(value) if isinstance(value, list) else value
        )  # before the compiled module reads them
    from draughts import StandardBoard, TurboEngine

    from match_tally import Tally
    from negamax.core.ranges import DEFAULT_HASH_MIB
    from negamax.core.types import SearchLimits
    from negamax.games.draughts.rules import DraughtsGame
    from negamax.search.compiled.move_list import CompiledSearcher
    from vs_pydraughts import OPENINGS

    logger.remove()
    game = DraughtsGame("draughts")
    ours = CompiledSearcher(hash_mib=DEFAULT_HASH_MIB)
    ours.warm_up(game.new_position(None))
    turbo = TurboEngine(depth_limit=None, time_limit=seconds)
    tally = Tally()
    for number in range(games):
        board = StandardBoard()
        opening = OPENINGS[(number // 2) % len(OPENINGS)]
        for text in opening.split():
            board.push_uci(text)
        ours_white = number % 2 == 0
        ours.clear()
        plies = 0
        while not board.game_over and plies < 200:
            if (board.turn == StandardBoard().turn) == ours_white:
                fen = board.fen.removeprefix('[FEN "').removesuffix('"]')
                text = ours.search(game.new_position(fen), SearchLimits(time=seconds)).best_move
                move = next(legal for legal in board.legal_moves if str(legal) == text)
            else:
                move = turbo.get_best_move(board)
            board.push(move)
            plies += 1
        tally.record(board.result if board.game_over else "1/2-1/2", ours_white)
    print(f"{json.dumps(weights)}: {tally.summary('TurboEngine', f'{seconds} s/move')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--time", type=float, default=0.2, help="seconds per move, both engines")
    parser.add_argument("--candidate", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.candidate is not None:
        candidate_match(json.loads(arguments.candidate), arguments.games, arguments.time)
        return
    with ThreadPoolExecutor(max_workers=2) as pool:
        lines = list(pool.map(lambda weights: play(weights, arguments.games, arguments.time), CANDIDATES))
    for line in sorted(lines, key=lambda text: -float(text.rsplit("score ", 1)[1].rstrip("%"))):
        print(line)


if __name__ == "__main__":
    main()
