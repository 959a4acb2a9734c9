"""Quiet chess positions labelled by Stockfish's static evaluation, for training chess's
network (``train_chess_network.py`` reads the file): many positions a core-second.

Stockfish plays itself at a few hundred nodes a move, seven games in ten from a ladder
opening, each after up to eight random moves and with random moves mixed in (12 % of moves
before ply 30, 3 % after) so the games stray from its own best lines. A position whose side
to move is not in check and whose move by Stockfish is no capture or promotion is kept with
Stockfish's static evaluation (its ``eval`` command: the network it searches with, 0.2 ms a
position here, against 6 ms for a 3,000-node search), asked with the fifty-move counter at
zero so that the value is the position's alone; ``--label search`` keeps the score of the
search that chose the move instead (free, but a few hundred nodes' score is a worse target:
docs/journal/2026-11-benchmarks.md, "Stockfish's static evaluation as the teacher"). Lines
are ``FEN;score`` (White's view, centipawns), the format of ``fit_chess.py``; a stopped run
resumes, skipping the positions already in the file. Stockfish is talked to through its pipes directly: python-chess's
engine client costs a millisecond a call. Stockfish is a system package (Debian:
``apt-get install stockfish``).

    python tools/chess_positions.py positions.txt --games 20000 --seed 1
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import chess

import benchmark_path  # noqa: F401  (the benchmarks' modules below)
from chess_ladder import find_stockfish
from fit_chess import append_to
from uci_pipe import UciPipe
from vs_sunfish import MAX_PLIES, OPENINGS

DECIDED = 1200
"""A game stops once Stockfish's score has been past this many centipawns for six moves."""


def counter_zeroed(board: chess.Board) -> str:
    """The board's FEN with the fifty-move counter at zero (Stockfish scales its value down
    as the counter rises; our evaluation does not)."""
    fields = board.fen().split()
    fields[4] = "0"
    return " ".join(fields)


def finished(board: chess.Board) -> bool:
    """Over by the rules, or drawn by a third repetition or fifty moves (python-chess's
    claimable draws, without its costly test of every move's repetition)."""
    return board.is_game_over() or board.halfmove_clock >= 100 or board.is_repetition(3)


def play_positions(stockfish: str, games: int, nodes: int, seed: int, path: Path, static: bool = True) -> int:
    """Appends the quiet positions of ``games`` self-play games to ``path``, with Stockfish's
    static evaluation (or, not ``static``, the score of its search for the move); returns
    how many."""
    generator = random.Random(seed)
    seen, out = append_to(path)
    engine = UciPipe(stockfish)
    added = 0
    started = time.perf_counter()
    try:
        with out:
            for number in range(games):
                board = chess.Board()
                engine.send("ucinewgame")
                if generator.random() < 0.7:
                    for text in OPENINGS[generator.randrange(len(OPENINGS))].split():
                        board.push_uci(text)
                for _ in range(generator.randint(0, 8)):
                    if board.is_game_over():
                        break
                    board.push(generator.choice(list(board.legal_moves)))
                decided = 0
                while not finished(board) and board.ply() < MAX_PLIES and decided <= 6:
                    text, score = engine.best_move(board.fen(), nodes)
                    move = chess.Move.from_uci(text)
                    if score is None or abs(score) > DECIDED:
                        decided += 1
                    quiet = not board.is_check() and not board.is_capture(move) and move.promotion is None
                    fen = counter_zeroed(board)
                    if quiet and score is not None and fen not in seen:
                        value = engine.static_value(fen) if static else score
                        if value is not None:
                            seen.add(fen)
                            if not static and board.turn == chess.BLACK:
                                value = -value
                            print(f"{fen};{value}", file=out)
                            added += 1
                    if generator.random() < (0.12 if board.ply() < 30 else 0.03):
                        move = generator.choice(list(board.legal_moves))
                    board.push(move)
                if (number + 1) % 100 == 0:
                    out.flush()
                    rate = added / (time.perf_counter() - started)
                    print(f"  {number + 1} games, {added:,} positions ({rate:.0f} a second)", flush=True)
    finally:
        engine.close()
    return added


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", type=Path, help="the positions file (FEN;score lines), added to")
    parser.add_argument("--games", type=int, required=True, help="games of Stockfish against itself")
    parser.add_argument("--nodes", type=int, default=500, help="Stockfish's nodes a move")
    parser.add_argument("--seed", type=int, default=1, help="for the openings and random moves")
    parser.add_argument(
        "--label",
        choices=("static", "search"),
        default="static",
        help="a position's score: Stockfish's static evaluation, or its search's score for the move played",
    )
    parser.add_argument("--stockfish", help="the Stockfish command (default: stockfish on the PATH or /usr/games)")
    arguments = parser.parse_args()
    stockfish = find_stockfish(arguments.stockfish)
    if stockfish is None:
        sys.exit("chess_positions: Stockfish not found (Debian: apt-get install stockfish), or --stockfish")
    added = play_positions(
        stockfish, arguments.games, arguments.nodes, arguments.seed, arguments.positions, arguments.label == "static"
    )
    print(f"{added:,} positions added to {arguments.positions}")


if __name__ == "__main__":
    main()
