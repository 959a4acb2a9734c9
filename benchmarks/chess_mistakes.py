"""Where negamax's lost games against Stockfish went wrong, and whether more time mends it.

For each game of a ladder PGN that negamax lost, Stockfish at full strength (depth 12)
scores the position before and after each of negamax's moves; the first move that drops
the score by 100 centipawns or more, from a position not already lost (above -300), is the
game's first mistake. Then negamax searches each mistake's position at the ladder's 0.2 s
and at ten times that: a mistake mended by the longer search is one of depth, the others of
judgement (the evaluation, or pruning that hides the move at any depth).

Run: ``python benchmarks/chess_mistakes.py chess_ladder.pgn`` (Stockfish: ``apt-get
install stockfish``; about 5 minutes for 30 lost games).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import chess
import chess.engine
import chess.pgn

from chess_ladder import find_stockfish

DEPTH = 12
MISTAKE = 100
LOST = -300
MATE = 3000


def first_mistakes(pgn: Path, stockfish: chess.engine.SimpleEngine) -> list[tuple[chess.Board, chess.Move, chess.Move]]:
    """Each lost game's first mistake: the position, negamax's move and Stockfish's."""
    mistakes = []
    with pgn.open() as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            ours = chess.WHITE if "negamax" in game.headers["White"] else chess.BLACK
            if game.headers["Result"] != ("0-1" if ours == chess.WHITE else "1-0"):
                continue
            board = game.board()
            for move in game.mainline_moves():
                if board.turn == ours:
                    before = stockfish.analyse(board, chess.engine.Limit(depth=DEPTH))
                    after_board = board.copy()
                    after_board.push(move)
                    after = stockfish.analyse(after_board, chess.engine.Limit(depth=DEPTH))
                    value = before["score"].pov(ours).score(mate_score=MATE)
                    drop = value - after["score"].pov(ours).score(mate_score=MATE)
                    if drop >= MISTAKE and value > LOST and move != before["pv"][0]:
                        mistakes.append((board.copy(), move, before["pv"][0]))
                        break
                board.push(move)
    return mistakes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", type=Path, help="a ladder's games (chess_ladder.py --pgn)")
    parser.add_argument("--time", type=float, default=0.2, help="negamax's time per move in those games")
    parser.add_argument("--threads", type=int, default=2, help="negamax-uci's Threads")
    parser.add_argument("--stockfish", help="the Stockfish command (default: stockfish on the PATH or /usr/games)")
    arguments = parser.parse_args()
    command = find_stockfish(arguments.stockfish)
    if command is None:
        sys.exit("chess_mistakes: Stockfish not found (Debian: apt-get install stockfish), or --stockfish")
    if not arguments.pgn.is_file():
        sys.exit(f"chess_mistakes: no such file: {arguments.pgn}")
    with chess.engine.SimpleEngine.popen_uci([command]) as stockfish:
        stockfish.configure({"Threads": 1, "Hash": 64})
        mistakes = first_mistakes(arguments.pgn, stockfish)
    times = (arguments.time, 10 * arguments.time)
    mended = dict.fromkeys(times, 0)
    with chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "negamax.engines.uci"]) as ours:
        ours.configure({"Threads": arguments.threads})
        for board, played, best in mistakes:
            found = []
            for seconds in times:
                info = ours.analyse(board, chess.engine.Limit(time=seconds))
                move = info["pv"][0]
                mended[seconds] += move == best
                found.append(f"{board.san(move)} at {seconds:g} s (depth {info.get('depth')})")
            print(f"{board.fen()}: played {board.san(played)}, Stockfish {board.san(best)}; " + ", ".join(found))
    print(
        f"{len(mistakes)} first mistakes; negamax finds Stockfish's move in "
        + " and ".join(f"{mended[seconds]} at {seconds:g} s" for seconds in times)
    )


if __name__ == "__main__":
    main()
