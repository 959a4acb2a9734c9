"""How long the page's Connect 4 solution takes to show every column's exact score, by ply.

Random games of the first plies (a seeded generator), each position's solution asked of
the web app's searches as ``/api/solution/stream`` asks it, with the shipped book: the
seconds until the first scores (the book's), until the last, and how many columns were
still unknown at the deadline (15 s). One ``Searches`` answers them all, as one server
does (its solver's table carries over from one position to the next); its kernel is loaded
before the first.

    python benchmarks/solution_latency.py --plies 0 2 4 5 6 8 --positions 10
"""

from __future__ import annotations

import argparse
import random
import statistics
import threading
import time

from negamax.games import get_game
from negamax.parallel.book import open_shipped_book
from negamax.viz.web.searches import SOLUTION_STREAM_SECONDS, Searches


def random_position(rng: random.Random, plies: int) -> str | None:
    """The moves of a random game of ``plies`` plies, or ``None`` if it ended before."""
    game = get_game("connect4")
    position = game.new_position(None)
    moves = []
    for _ in range(plies):
        move = rng.choice(list(position.legal_moves()))
        moves.append(game.move_text(position, move))
        position.play(move)
        if position.is_terminal():
            return None
    return "".join(moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, nargs="+", default=list(range(21)))
    parser.add_argument("--positions", type=int, default=50, help="random positions per ply")
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    game = get_game("connect4")
    searches = Searches(book=open_shipped_book)
    searches.prepare(game)
    deadline = time.perf_counter() + 300
    while not searches.ready(game.name):
        if time.perf_counter() > deadline:
            raise SystemExit("solution_latency: the Connect 4 kernel was not ready within 300 s")
        time.sleep(0.1)
    rng = random.Random(arguments.seed)
    print("| plies | positions | first scores (median) | all scores (median, max) | unknown at 15 s | slowest |")
    print("| ---: | ---: | ---: | ---: | ---: | --- |")
    for plies in arguments.plies:
        firsts, lasts, unknown = [], [], 0
        slowest = (0.0, "")
        count = 0
        while count < arguments.positions:
            moves = random_position(rng, plies)
            if moves is None:
                continue
            count += 1
            position = game.new_position(moves)
            seen: list[float] = []
            started = time.perf_counter()

            def arrived(scores: list[dict[str, object]], seen: list[float] = seen, started: float = started) -> None:
                seen.append(time.perf_counter() - started)

            scores = searches.solution(game, position, SOLUTION_STREAM_SECONDS, threading.Event(), arrived)
            lasts.append(time.perf_counter() - started)
            slowest = max(slowest, (lasts[-1], moves))
            firsts.append(seen[0] if seen else lasts[-1])
            unknown += sum(item["score"] is None for item in scores)
        print(
            f"| {plies} | {count} | {statistics.median(firsts):.3f} s | {statistics.median(lasts):.2f} s,"
            f" {max(lasts):.2f} s | {unknown} | {slowest[1] or '(empty)'} |",
            flush=True,
        )
    searches.close()


if __name__ == "__main__":
    main()
