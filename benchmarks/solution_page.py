"""How long the page, in a real Chromium, takes to show every column's exact score, ply by
ply along whole games of Connect 4, as a person sees it with "solution" ticked.

Four games, each opening with a line the issue's tester played (``4444``, ``1726``,
``2266``, ``3541``) and going on with seeded random moves to the end. At each ply the page
is opened on the position (the engine's replies off), and the clock runs from the page's
request to the moment every column holds a number. The server is one ``negamax serve``
(the shipped book, the solver's table carried from one position to the next), as a
player's would be. Needs Debian's chromium and Playwright (the test extras).

    python benchmarks/solution_page.py --games 4
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import time

from negamax.games import get_game
from negamax.parallel.book import open_shipped_book
from negamax.viz.web.app import create_app
from negamax.viz.web.server import BackgroundServer

OPENINGS = ("4444", "1726", "2266", "3541")
LABELS = "[...document.querySelectorAll('#board text.solution')]"
SCORES = f"{LABELS}.map(t => t.childNodes[0]?.nodeValue ?? '')"
PAGE_SECONDS = 20.0


def whole_game(opening: str, seed: int) -> str:
    """``opening`` and seeded random moves after it, to the end of the game."""
    game = get_game("connect4")
    position = game.new_position(opening)
    moves = list(opening)
    generator = random.Random(seed)
    while not position.is_terminal():
        move = generator.choice(list(position.legal_moves()))
        moves.append(game.move_text(position, move))
        position.play(move)
    return "".join(moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="whole games (one per opening, then again)")
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("solution_page: Debian's chromium is not installed")
    from playwright.sync_api import sync_playwright

    game = get_game("connect4")
    lines = [whole_game(OPENINGS[index % len(OPENINGS)], arguments.seed + index) for index in range(arguments.games)]
    by_ply: dict[int, list[float]] = {}
    unknown = 0
    app = create_app(book=open_shipped_book)
    with BackgroundServer(app) as server, sync_playwright() as playwright:
        searches = app.app.state.searches
        searches.prepare(game)
        while not searches.ready(game.name):
            time.sleep(0.1)
        browser = playwright.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        )
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        for line in lines:
            for ply in range(len(line)):
                moves = ",".join(line[:ply])
                page.goto("about:blank")
                page.goto(f"{server.url}#game=connect4&moves={moves}")
                page.wait_for_selector("#board svg")
                page.uncheck("#autoplay")
                columns = len(game.new_position(line[:ply]).legal_moves())
                started = time.perf_counter()
                page.check("#solution")
                page.wait_for_function(
                    f"{SCORES}.filter(text => /^-?[0-9]+$/.test(text) || text === '?').length === {columns}",
                    timeout=PAGE_SECONDS * 1000,
                )
                by_ply.setdefault(ply, []).append(time.perf_counter() - started)
                unknown += page.evaluate(f"{SCORES}.filter(text => text === '?').length")
        browser.close()
    print("| plies | positions | every column shown: median | slowest |")
    print("| ---: | ---: | ---: | ---: |")
    for ply, seconds in sorted(by_ply.items()):
        print(f"| {ply} | {len(seconds)} | {statistics.median(seconds):.2f} s | {max(seconds):.2f} s |")
    every = [value for seconds in by_ply.values() for value in seconds]
    print(f"all {len(every)} positions: median {statistics.median(every):.2f} s, slowest {max(every):.2f} s,")
    print(f"columns shown '?': {unknown}")


if __name__ == "__main__":
    main()
