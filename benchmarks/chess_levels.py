"""The Elo of each of negamax-uci's playing levels on Stockfish's ``UCI_Elo`` scale.

Each level (the page's 1 to 8; ``Skill Level`` over UCI) plays Stockfish with
``UCI_LimitStrength`` on, one thread each, from balanced openings with colours swapped, on
a clock. The rung it meets moves with it: after every pair of games the level's estimate
so far (``ladder_elo.estimate``) chooses Stockfish's next ``UCI_Elo``, rounded to 50 and
kept within 1350-2850, so the games are spent near the level's strength. A level that wins
or loses every game at a rung is moved 200 Elo at a time. Every game goes to a PGN file;
the end prints each level's rating and its 95 % interval, a table for ``BENCHMARKS.md``.

    python benchmarks/chess_levels.py --levels 1 2 3 4 5 6 7 --games 20 --clock 10+0.1

``--rate FILE ...`` plays nothing: it rates each level from the games of earlier runs (their
PGN files together), which is how runs made at different times add up.

    python benchmarks/chess_levels.py --rate first.pgn second.pgn
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import chess.engine
import chess.pgn

from chess_ladder import find_stockfish, pgn_game, play_game
from ladder_elo import estimate
from match_tally import parse_clock
from negamax.games.chess.levels import LEVEL_ELO
from negamax.search.strength import LEVEL_SKILLS
from vs_sunfish import OPENINGS, negamax_command

LOWEST, HIGHEST = 1350, 2850
"""Stockfish 15.1's ``UCI_Elo`` range."""


def rung(rated: list[tuple[float, float]], guess: float) -> int:
    """Stockfish's next ``UCI_Elo`` for a level with these (opponent, score) games."""
    if not rated:
        target = guess
    else:
        rating, error = estimate(rated)
        if math.isinf(error):  # every game won or lost so far: step past the last rung
            last = rated[-1][0]
            target = last + 200 if all(score == 1 for _, score in rated) else last - 200
        else:
            target = rating
    return int(min(HIGHEST, max(LOWEST, round(target / 50) * 50)))


def table_row(level: int, rated: list[tuple[float, float]]) -> str:
    """The level's line of the table: its rating with a 95 % interval, from its games."""
    rating, error = estimate(rated)
    points = sum(score for _, score in rated)
    opponents = sorted({int(opponent_elo) for opponent_elo, _ in rated})
    interval = "bound only (every game won or lost)" if math.isinf(error) else f"+- {1.96 * error:.0f}"
    return (
        f"| {level} | {LEVEL_SKILLS[level - 1]} | {rating:.0f} {interval} | {points:g}/{len(rated)} |"
        f" {min(opponents)}-{max(opponents)} |"
    )


TABLE_HEAD = "| level | skill | Elo (95 %) | score | Stockfish UCI_Elo met |\n| ---: | ---: | --- | ---: | --- |"


def rate(paths: list[Path]) -> None:
    """Each level's rating from the games in ``paths``, written by this script."""
    games: dict[int, list[tuple[float, float]]] = {}
    for path in paths:
        with path.open() as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                white, black = game.headers["White"], game.headers["Black"]
                ours_white = white.startswith("negamax level ")
                ours, theirs = (white, black) if ours_white else (black, white)
                if not ours.startswith("negamax level ") or "UCI_Elo" not in theirs:
                    continue
                score = {"1-0": 1.0, "0-1": 0.0}.get(game.headers["Result"], 0.5)  # as main() scores it
                level, elo = int(ours.split()[-1]), float(theirs.split()[-1])
                games.setdefault(level, []).append((elo, score if ours_white else 1 - score))
    print(TABLE_HEAD)
    for level in sorted(games):
        print(table_row(level, games[level]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stockfish", help="the Stockfish command (default: stockfish on the PATH or /usr/games)")
    parser.add_argument("--levels", type=int, nargs="+", default=list(range(1, 9)), help="levels 1-8")
    parser.add_argument("--games", type=int, default=20, help="games per level (pairs, colours swapped)")
    parser.add_argument("--clock", default="10+0.1", help="BASE+INCREMENT seconds (default 10+0.1)")
    parser.add_argument("--pgn", type=Path, default=Path("chess_levels.pgn"), help="where the games go")
    parser.add_argument("--rate", type=Path, nargs="+", metavar="PGN", help="rate the levels from these games only")
    arguments = parser.parse_args()
    if arguments.rate:
        rate(arguments.rate)
        return
    stockfish = find_stockfish(arguments.stockfish)
    if stockfish is None:
        print("chess_levels: Stockfish not found; install it (Debian: apt-get install stockfish) or pass --stockfish")
        return
    if not all(1 <= level <= 8 for level in arguments.levels):
        sys.exit("chess_levels: levels go from 1 to 8")
    clock = parse_clock(arguments.clock)
    rows = []
    started = time.perf_counter()
    with (
        chess.engine.SimpleEngine.popen_uci(negamax_command()) as ours,
        chess.engine.SimpleEngine.popen_uci([stockfish]) as opponent,
        arguments.pgn.open("a") as pgn,
    ):
        ours.ping()
        played = 0
        for level in arguments.levels:
            skill = LEVEL_SKILLS[level - 1]
            ours.configure({"Skill Level": skill})
            rated: list[tuple[float, float]] = []
            for number in range(arguments.games):
                if number % 2 == 0:
                    elo = rung(rated, LEVEL_ELO[level - 1])
                    opponent.configure({"Threads": 1, "Hash": 16, "UCI_LimitStrength": True, "UCI_Elo": elo})
                opening = OPENINGS[(number // 2) % len(OPENINGS)]
                ours_white = number % 2 == 0
                white, black = (ours, opponent) if ours_white else (opponent, ours)
                result, board, ending = play_game(white, black, opening, None, clock, played)
                played += 1
                score = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
                rated.append((elo, score if ours_white else 1 - score))
                names = (f"negamax level {level}", f"Stockfish UCI_Elo {elo}")
                names = names if ours_white else names[::-1]
                print(
                    pgn_game(board, result, *names, f"negamax levels, {arguments.clock}", ending), file=pgn, end="\n\n"
                )
                pgn.flush()
                extra = f", {ending}" if ending else ""
                print(
                    f"level {level} game {number + 1} vs {elo}: negamax {'white' if ours_white else 'black'},"
                    f" {result} in {board.ply()} plies{extra}",
                    flush=True,
                )
            rows.append(table_row(level, rated))
            print(rows[-1], flush=True)
    print()
    print(f"negamax-uci levels against Stockfish UCI_Elo, {arguments.clock}, {time.perf_counter() - started:.0f} s")
    print(TABLE_HEAD)
    print("\n".join(rows))
    print(f"games in {arguments.pgn}")


if __name__ == "__main__":
    main()
