"""Chess's depth in a 2 s think on ``negamax serve``: on a clean server, and while two
searches of a plug-in game whose ``evaluate`` never returns run (its worker processes keep
it from the built-in games' searches). Three rounds with the plug-in isolated, one with it
in the server's own threads (``create_app(isolate=False)``, the server as it was).

    python benchmarks/plugin_isolation.py
"""

import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout, for tests.viz.web
from tests.viz.web.conftest import Web

from negamax.games import get_game
from negamax.viz.web.app import create_app
from negamax.viz.web.server import BackgroundServer

LOOPS = f"{Path(__file__).resolve().parents[1] / 'tests' / 'data' / 'broken_games.py'}:LoopsForever"


def depth(web):
    events = web.events({"game": "chess", "seconds": 2.0})
    assert events[-1][0] == "done", events[-1]
    return events[-1][1]["depth"], events[-1][1]["nodes"]


def run(isolate):
    app = create_app(extra_games=(LOOPS,), isolate=isolate)
    with BackgroundServer(app) as server:
        web = Web(server.url, app.app.state.searches)
        web.searches.prepare(get_game("chess"), "chess")
        deadline = time.monotonic() + 900
        while not web.searches.ready("chess") and time.monotonic() < deadline:
            time.sleep(0.2)
        workers = app.app.state.plugin_workers
        if workers is not None:
            workers.wait_ready(120)
        depth(web)  # warm
        rows = []
        for round_ in range(3):
            clean = depth(web)
            loops = [
                threading.Thread(target=lambda: web.events({"game": LOOPS, "seconds": 5.0}, timeout=60))
                for _ in range(2)
            ]
            for t in loops:
                t.start()
            time.sleep(0.5)
            busy = depth(web)
            for t in loops:
                t.join(60)
            if workers is not None:
                workers.wait_ready(120)
            rows.append((clean, busy))
            print(
                ("isolated" if isolate else "in-process"),
                "round",
                round_,
                "clean depth/nodes",
                clean,
                "with two looping plug-ins",
                busy,
                flush=True,
            )
        return rows


if __name__ == "__main__":
    for isolate in (True, False):
        run(isolate)
