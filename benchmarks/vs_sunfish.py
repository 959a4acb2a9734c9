"""A match against sunfish at equal time per move, both engines over UCI, driven by
python-chess's engine client: colour-swapped pairs from balanced openings.

sunfish pins an old python-chess, so it lives in its own virtual environment:

    python -m venv /tmp/sunfish && /tmp/sunfish/bin/pip install sunfish
    python benchmarks/vs_sunfish.py --sunfish /tmp/sunfish/bin/sunfish-uci --games 40 --time 0.5

Prints each game and the total: wins/draws/losses and the score from negamax's side.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import chess
import chess.engine

from match_tally import Tally

# Balanced openings (a few moves each of common lines); each is played twice, colours swapped.
OPENINGS = [
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6",
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6",
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7",
    "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6",
    "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4",
    "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6",
    "g1f3 d7d5 g2g3 g8f6 f1g2 e7e6",
    "e2e4 e7e5 g1f3 g8f6 f3e5 d7d6 e5f3 f6e4",
    "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6",
    "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5",
    "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6",
    "e2e4 e7e5 f1c4 g8f6 d2d3 f8c5",
    "c2c4 c7c5 b1c3 b8c6 g2g3 g7g6",
    "e2e4 g7g6 d2d4 f8g7 b1c3 d7d6",
    "d2d4 f7f5 g2g3 g8f6 f1g2 e7e6",
    "e2e4 c7c5 b1c3 b8c6 g2g3 g7g6",
    "d2d4 d7d5 g1f3 g8f6 c1f4 e7e6",
    "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4",
    "b1c3 d7d5 e2e4 d5d4 c3e2 e7e5",
]
MAX_PLIES = 300


def negamax_command() -> list[str]:
    installed = Path(sys.executable).with_name("negamax-uci")
    return [str(installed)] if installed.exists() else [shutil.which("negamax-uci") or "negamax-uci"]


def play_game(
    white: chess.engine.SimpleEngine, black: chess.engine.SimpleEngine, opening: str, seconds: float
) -> tuple[str, chess.Board]:
    board = chess.Board()
    for text in opening.split():
        board.push_uci(text)
    engines = {chess.WHITE: white, chess.BLACK: black}
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        result = engines[board.turn].play(board, chess.engine.Limit(time=seconds))
        if result.move is None or result.move not in board.legal_moves:
            return ("0-1" if board.turn == chess.WHITE else "1-0"), board  # an illegal move loses
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    return (outcome.result() if outcome else "1/2-1/2"), board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sunfish", required=True, help="the sunfish UCI command (in its own venv)")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--time", type=float, default=0.5, help="seconds per move, both engines")
    parser.add_argument("--backend", choices=("compiled", "python"), default="compiled", help="negamax's backend")
    arguments = parser.parse_args()
    tally = Tally()
    with (
        chess.engine.SimpleEngine.popen_uci(negamax_command()) as ours,
        chess.engine.SimpleEngine.popen_uci([arguments.sunfish]) as sunfish,
    ):
        ours.configure({"Backend": arguments.backend})
        ours.ping()  # the compiled kernel is loaded before the first clock starts
        for number in range(arguments.games):
            opening = OPENINGS[(number // 2) % len(OPENINGS)]
            ours_white = number % 2 == 0
            white, black = (ours, sunfish) if ours_white else (sunfish, ours)
            result, board = play_game(white, black, opening, arguments.time)
            tally.record(result, ours_white)
            side = "white" if ours_white else "black"
            print(f"game {number + 1}: negamax {side}, {result} in {board.ply()} plies ({opening})", flush=True)
    print(tally.summary("sunfish", f"{arguments.time} s/move"))


if __name__ == "__main__":
    main()
