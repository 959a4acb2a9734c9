"""negamax-uci against Stockfish at several ``UCI_Elo`` settings: a calibrated ladder.

Stockfish is a system package (Debian: ``apt-get install stockfish``, 15.1 here); without
it this prints how to get it and exits. Both engines run over UCI through python-chess's
client, one thread each, from balanced openings with colours swapped, at a fixed time per
move or on a clock with increment. Every game goes to a PGN file; the end prints the score
per level and one Elo estimate on Stockfish's ``UCI_Elo`` scale (which Stockfish
calibrates against CCRL ratings at longer time controls) with its 95 % interval, from
every game together.

    python benchmarks/chess_ladder.py --levels 2000 2400 --games 20 --time 0.2
    python benchmarks/chess_ladder.py --levels 2000 --games 20 --clock 10+0.1

``--opponent COMMAND`` plays any UCI engine instead (an older build of negamax, to measure a
change: the Elo estimate is then the difference from it).

    python benchmarks/chess_ladder.py --opponent "/path/to/old/negamax-uci" --games 100 --time 0.1
"""

from __future__ import annotations

import argparse
import datetime
import math
import shlex
import shutil
import sys
import time
from pathlib import Path

import chess
import chess.engine
import chess.pgn

from ladder_elo import estimate
from match_tally import Tally, parse_clock
from vs_sunfish import OPENINGS, negamax_command

STOCKFISH_PLACES = ("stockfish", "/usr/games/stockfish")
MAX_PLIES = 1000
"""A safety net only: the fifty-move rule and repetitions (claimed) end a game that makes no
progress."""


def find_stockfish(given: str | None) -> str | None:
    for candidate in [given] if given else STOCKFISH_PLACES:
        found = shutil.which(candidate)
        if found:
            return found
    return None


def play_game(
    white: chess.engine.SimpleEngine,
    black: chess.engine.SimpleEngine,
    opening: str,
    seconds: float | None,
    clock: tuple[float, float] | None,
    number: int = 0,
) -> tuple[str, chess.Board, str]:
    """One game; returns its result, the board and how it ended when not by the rules (an
    illegal move or a flag fall loses)."""
    board = chess.Board()
    for text in opening.split():
        board.push_uci(text)
    engines = {chess.WHITE: white, chess.BLACK: black}
    remaining = {chess.WHITE: clock[0], chess.BLACK: clock[0]} if clock else {}
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        side = board.turn
        if clock is None:
            limit = chess.engine.Limit(time=seconds)
        else:
            limit = chess.engine.Limit(
                white_clock=remaining[chess.WHITE],
                black_clock=remaining[chess.BLACK],
                white_inc=clock[1],
                black_inc=clock[1],
            )
        started = time.perf_counter()
        try:
            result = engines[side].play(board, limit, game=number)  # a new game number: ucinewgame
        except chess.engine.EngineError as error:  # python-chess rejects an illegal best move
            return ("0-1" if side == chess.WHITE else "1-0"), board, f"illegal move ({error})"
        if clock is not None:
            remaining[side] -= time.perf_counter() - started
            if remaining[side] < 0:
                return ("0-1" if side == chess.WHITE else "1-0"), board, "time forfeit"
            remaining[side] += clock[1]
        if result.move is None or result.move not in board.legal_moves:
            return ("0-1" if side == chess.WHITE else "1-0"), board, f"illegal move {result.move}"
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    return (outcome.result() if outcome else "1/2-1/2"), board, "" if outcome else "move limit"


def pgn_game(board: chess.Board, result: str, white: str, black: str, event: str, ending: str) -> chess.pgn.Game:
    game = chess.pgn.Game.from_board(board)
    game.headers.update(
        {"Event": event, "Date": datetime.date.today().strftime("%Y.%m.%d"), "White": white, "Black": black}
    )
    game.headers["Result"] = result
    if ending:
        game.headers["Termination"] = ending
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stockfish", help="the Stockfish command (default: stockfish on the PATH or /usr/games)")
    parser.add_argument("--opponent", help="a UCI engine's command line to play instead of Stockfish (rated 0)")
    parser.add_argument("--levels", type=int, nargs="+", default=[1850, 2000, 2150, 2300, 2400])
    parser.add_argument("--games", type=int, default=20, help="games per level (pairs, colours swapped)")
    timing = parser.add_mutually_exclusive_group()
    timing.add_argument("--time", type=float, default=0.2, help="seconds per move, both engines")
    timing.add_argument("--clock", help="a clock instead: BASE+INCREMENT seconds, e.g. 10+0.1")
    parser.add_argument("--pgn", type=Path, default=Path("chess_ladder.pgn"), help="where the games go")
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="negamax-uci's Threads (an --opponent with the option too; Stockfish keeps one)",
    )
    arguments = parser.parse_args()
    if arguments.opponent:
        opponent_command = shlex.split(arguments.opponent)
        levels = [0]
    else:
        stockfish = find_stockfish(arguments.stockfish)
        if stockfish is None:
            print(
                "chess_ladder: Stockfish not found; install it (Debian: apt-get install stockfish) or pass --stockfish"
            )
            return
        if not all(1350 <= level <= 2850 for level in arguments.levels):
            sys.exit("chess_ladder: Stockfish's UCI_Elo goes from 1350 to 2850")
        opponent_command = [stockfish]
        levels = arguments.levels
    clock = parse_clock(arguments.clock) if arguments.clock else None
    control = f"{arguments.clock} clock" if clock else f"{arguments.time} s/move"
    rated: list[tuple[float, float]] = []
    summaries = []
    with (
        chess.engine.SimpleEngine.popen_uci(negamax_command()) as ours,
        chess.engine.SimpleEngine.popen_uci(opponent_command) as opponent,
        arguments.pgn.open("a") as pgn,
    ):
        if arguments.threads != 1:
            ours.configure({"Threads": arguments.threads})
            if arguments.opponent and "Threads" in opponent.options:
                opponent.configure({"Threads": arguments.threads})  # another build: the same threads
        ours.ping()  # the compiled kernel is loaded before the first clock starts
        opponent.ping()
        for level in levels:
            if arguments.opponent:
                name = f"{opponent.id.get('name', 'opponent')} ({arguments.opponent})"
            else:
                opponent.configure({"Threads": 1, "Hash": 64, "UCI_LimitStrength": True, "UCI_Elo": level})
                name = f"{opponent.id.get('name', 'Stockfish')} UCI_Elo {level}"
            tally = Tally()
            for number in range(arguments.games):
                opening = OPENINGS[(number // 2) % len(OPENINGS)]
                ours_white = number % 2 == 0
                white, black = (ours, opponent) if ours_white else (opponent, ours)
                result, board, ending = play_game(white, black, opening, arguments.time, clock, len(rated))
                outcome = tally.record(result, ours_white)
                rated.append((level, {"won": 1.0, "drew": 0.5, "lost": 0.0}[outcome]))
                names = ("negamax", name) if ours_white else (name, "negamax")
                print(pgn_game(board, result, *names, f"negamax ladder, {control}", ending), file=pgn, end="\n\n")
                pgn.flush()
                side = "white" if ours_white else "black"
                extra = f", {ending}" if ending else ""
                print(f"{level} game {number + 1}: negamax {side}, {result} in {board.ply()} plies{extra}", flush=True)
            record = f"+{tally.wins} ={tally.draws} -{tally.losses}"
            summaries.append(f"negamax vs {name}, {control}: {record}, score {tally.score:.1%}")
            print(summaries[-1], flush=True)
    rating, error = estimate(rated)
    print()
    print("\n".join(summaries))
    if math.isinf(error):  # every game won, or every one lost: only a bound
        bound = f">= {rating:.0f}" if all(score == 1 for _, score in rated) else f"<= {rating:.0f}"
        print(f"Elo on Stockfish's UCI_Elo scale: {bound} (every game {'won' if '>' in bound else 'lost'})")
    else:
        scale = "against the opponent" if arguments.opponent else "on Stockfish's UCI_Elo scale"
        value = f"{rating:+.0f}" if arguments.opponent else f"{rating:.0f}"
        print(f"Elo {scale}: {value} +- {1.96 * error:.0f} (95 %), {len(rated)} games")
    print(f"games in {arguments.pgn}")


if __name__ == "__main__":
    main()
