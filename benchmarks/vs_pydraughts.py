"""A 10x10 match against py-draughts' strongest engine (``TurboEngine``) at equal time per
move: negamax plays through ``negamax-hub`` driven by py-draughts' own HUB client, so every
game also exercises the protocol. Colour-swapped pairs from short openings.

Run: ``python benchmarks/vs_pydraughts.py --games 30 --time 0.5``

Prints each game and the total: wins/draws/losses and the score from negamax's side.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from draughts import StandardBoard, TurboEngine
from draughts.engines.hub import HubEngine
from loguru import logger

from match_tally import Tally

# Two- to four-ply openings from the start (main lines of the international game).
OPENINGS = [
    "32-28 18-23",
    "33-28 19-23",
    "31-27 17-22",
    "34-30 20-25",
    "32-27 19-24",
    "33-29 17-21",
    "35-30 19-24",
    "31-26 18-22",
    "34-29 20-24",
    "32-28 17-21",
    "33-28 18-22",
    "31-27 19-23",
    "34-30 17-22",
    "32-27 20-24",
    "33-29 18-23 29x18 12x23",
]
MAX_PLIES = 200
"""Longer games are scored as draws (both sides shuffling kings)."""


def hub_command() -> str:
    installed = Path(sys.executable).with_name("negamax-hub")
    return str(installed) if installed.exists() else (shutil.which("negamax-hub") or "negamax-hub")


def warm(source: Path | None = None) -> None:
    """Compiles the draughts kernels of the package in ``source`` (default: the one
    installed) into its disk cache, so that negamax-hub does not play its first moves on the
    pure-Python search while its kernel compiles."""
    environment = {**os.environ, "PYTHONPATH": str(source)} if source else None  # the engines' caches follow
    subprocess.run([sys.executable, "-m", "negamax", "warmup", "--quiet", "draughts"], env=environment, check=True)


def play_game(
    white: object,
    black: object,
    opening: str,
    moves: list[str] | None = None,
    clock: tuple[float, float] | None = None,
) -> tuple[str, int, str]:
    """One game; ``moves``, if given, receives the moves played after the opening. With a
    ``clock`` (base and increment in seconds) each engine is told its time left before a
    move (``set_clock``), and a side whose time runs out loses."""
    board = StandardBoard()
    for text in opening.split():
        board.push_uci(text)
    engines = {True: white, False: black}
    remaining = {True: clock[0], False: clock[0]} if clock else {}
    plies = len(opening.split())
    while not board.game_over and plies < MAX_PLIES:
        white_to_move = board.turn.value == StandardBoard().turn.value
        loser = "white" if white_to_move else "black"
        result = "0-1" if white_to_move else "1-0"
        engine = engines[white_to_move]
        if clock is not None:
            engine.set_clock(remaining[white_to_move], clock[1])  # type: ignore[attr-defined]
        started = time.perf_counter()
        move = engine.get_best_move(board)  # type: ignore[attr-defined]
        if clock is not None:
            remaining[white_to_move] -= time.perf_counter() - started
            if remaining[white_to_move] < 0:
                return result, plies, f", {loser} lost on time"
            remaining[white_to_move] += clock[1]
        if move not in board.legal_moves:
            return result, plies, f", {loser} played an illegal move: {move}"
        board.push(move)
        if moves is not None:
            moves.append(str(move))
        plies += 1
    result = board.result if board.game_over else "1/2-1/2"
    return result, plies, ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--time", type=float, default=0.5, help="seconds per move, both engines")
    arguments = parser.parse_args()
    logger.remove()  # py-draughts logs every board it makes
    logging.disable(logging.INFO)
    tally = Tally()
    turbo = TurboEngine(depth_limit=None, time_limit=arguments.time)
    with HubEngine(hub_command(), time_limit=arguments.time, init_timeout=60) as ours:
        for number in range(arguments.games):
            opening = OPENINGS[(number // 2) % len(OPENINGS)]
            ours_white = number % 2 == 0
            ours.new_game()
            white, black = (ours, turbo) if ours_white else (turbo, ours)
            result, plies, illegal = play_game(white, black, opening)
            tally.record(result, ours_white)
            side = "white" if ours_white else "black"
            print(f"game {number + 1}: negamax {side}, {result} in {plies} plies ({opening}){illegal}", flush=True)
    print(tally.summary("py-draughts TurboEngine", f"{arguments.time} s/move"))


if __name__ == "__main__":
    main()
