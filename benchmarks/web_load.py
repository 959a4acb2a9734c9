"""The web server under abuse and under load, as ``negamax serve`` runs (a process of its
own): how fast each bad request of issue 16's list is refused and with what, the
server's peak memory through them, then 50 engine moves of 1 s asked at once: how long
each waited in all, per game, how much search time each was granted, and the peak memory
after. (No peer serves these games over HTTP; the reference is the time each request
asked for.)

    python benchmarks/web_load.py
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import threading
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.viz.web.test_server_fuzz import SEARCH_GAMES, WHY_LIST, Server

SECONDS = 1.0


def start() -> Server:
    server = Server.start()
    for game in SEARCH_GAMES:  # the first search of each game waits for its kernel to load
        server.think(game, 0.1)
    return server


def think(server: Server, game: dict[str, object], seconds: float) -> tuple[str, float, float]:
    """The game, the seconds the answer took, and the search time the server granted."""
    _, elapsed, received = server.think(game, seconds)
    granted = 0.0
    for line in received.decode(errors="replace").splitlines():
        if line.startswith("data: ") and '"granted"' in line:  # the done event
            granted = json.loads(line[6:])["granted"]
    return str(game["game"]), elapsed, granted


def main() -> None:
    server = start()
    print(f"{'bad request':<36}{'status':>7}{'seconds':>9}")
    for name, raw in WHY_LIST.items():
        status, seconds = server.exchange(raw)
        print(f"{name:<36}{status:>7}{seconds:>9.3f}")
    print(f"peak memory through them: {server.peak_memory_kb() / 1024:.0f} MB")

    results: list[tuple[str, float, float]] = []

    def ask(index: int) -> None:
        results.append(think(server, SEARCH_GAMES[index % len(SEARCH_GAMES)], SECONDS))

    threads = [threading.Thread(target=ask, args=(index,)) for index in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    by_game: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for game, elapsed, granted in results:
        by_game[game].append((elapsed, granted))
    print(f"\n50 engine moves of {SECONDS:g} s at once")
    print(f"{'game':<12}{'answered':>9}{'median s':>10}{'slowest s':>10}{'granted s (median)':>20}")
    for game, rows in by_game.items():
        waits = [elapsed for elapsed, _ in rows]
        granted = [granted for _, granted in rows]
        print(
            f"{game:<12}{len(rows):>9}{statistics.median(waits):>10.2f}{max(waits):>10.2f}{statistics.median(granted):>20.3f}"
        )
    slowest = max(elapsed for _, elapsed, _ in results)
    total = sum(granted for _, _, granted in results)
    cores = os.cpu_count() or 1
    print(f"search time granted in all: {total:.2f} s ({cores} cores had {cores * SECONDS:g} s before the cap)")
    print(f"slowest answer {slowest:.2f} s for {SECONDS:g} s asked (cap + {slowest - SECONDS:.2f} s)")
    print(f"peak memory after them: {server.peak_memory_kb() / 1024:.0f} MB")
    server.stop()


if __name__ == "__main__":
    main()
