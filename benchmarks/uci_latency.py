"""How soon a UCI engine starts searching after ``go``, and how soon it answers: the
engine plays a game against itself at a fixed time a move, and for each move the script
notes when the first ``info depth 1`` line and the ``bestmove`` arrive after ``go``
(wall-clock, through the engine's pipes, without python-chess's client and its
millisecond a call). What a move spends before its first iteration is lost to the search.

Stockfish, if installed (Debian: ``apt-get install stockfish``), is measured the same way
in the same run, as the yardstick.

    python benchmarks/uci_latency.py --time 0.2 --threads 2 --moves 40
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time

import chess

from chess_ladder import find_stockfish
from uci_pipe import UciPipe


def measure(command: str, threads: int, move_time: float, moves: int) -> tuple[list[float], list[float]]:
    """Milliseconds from ``go`` to the first iteration and to the move, for each move."""
    engine = UciPipe(command, threads, hash_mib=None)
    engine.send("ucinewgame")
    board = chess.Board()
    first_iteration, answered = [], []
    try:
        for _ in range(moves):
            if board.is_game_over(claim_draw=True):
                break
            engine.send("position startpos moves " + " ".join(move.uci() for move in board.move_stack))
            started = time.perf_counter()
            engine.send(f"go movetime {round(move_time * 1000)}")
            lines = engine.lines_until("bestmove")
            depth_one = [when for when, line in lines if line.startswith("info depth 1 ")]
            if depth_one:
                first_iteration.append((depth_one[0] - started) * 1000)
            answered.append((lines[-1][0] - started) * 1000)
            board.push_uci(lines[-1][1].split()[1])
    finally:
        engine.close()
    return first_iteration, answered


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="negamax-uci", help="the engine's command (default: negamax-uci)")
    parser.add_argument("--time", type=float, default=0.2, help="seconds a move (default 0.2)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--moves", type=int, default=40, help="plies of the game measured (default 40)")
    arguments = parser.parse_args()
    if shutil.which(arguments.engine) is None:
        print(f"uci_latency: {arguments.engine!r} is not a command", file=sys.stderr)
        return 2
    engines = [("negamax" if arguments.engine == "negamax-uci" else arguments.engine, arguments.engine)]
    stockfish = find_stockfish(None)
    if stockfish is not None:
        engines.append(("Stockfish", stockfish))
    else:
        print("Stockfish not found (apt-get install stockfish): measuring the engine alone")
    print(
        f"go movetime {round(arguments.time * 1000)}, {arguments.threads} threads, {arguments.moves} plies of self-play"
    )
    print(f"{'engine':<12} {'to depth 1 (ms): median':>24} {'max':>6} {'to bestmove (ms): median':>26} {'max':>6}")
    for name, command in engines:
        first, answered = measure(command, arguments.threads, arguments.time, arguments.moves)
        first_median = f"{statistics.median(first):.1f}" if first else "-"
        first_most = f"{max(first):.1f}" if first else "-"
        print(
            f"{name:<12} {first_median:>24} {first_most:>6} {statistics.median(answered):>26.1f} {max(answered):>6.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
