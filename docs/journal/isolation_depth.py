"""Chess's depth in a 2 s think: on a clean server, and while two looping plug-in searches run."""
from pathlib import Path
import json, statistics, sys, threading, time

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the checkout, for tests.viz.web
from negamax.games import get_game
from negamax.viz.web.app import create_app
from negamax.viz.web.server import BackgroundServer
from tests.viz.web.conftest import Web

LOOPS = f"{Path(__file__).resolve().parents[2] / 'tests' / 'data' / 'broken_games.py'}:LoopsForever"

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
            loops = [threading.Thread(target=lambda: web.events({"game": LOOPS, "seconds": 5.0}, timeout=60)) for _ in range(2)]
            for t in loops: t.start()
            time.sleep(0.5)
            busy = depth(web)
            for t in loops: t.join(60)
            if workers is not None:
                workers.wait_ready(120)
            rows.append((clean, busy))
            print(("isolated" if isolate else "in-process"), "round", round_, "clean depth/nodes", clean, "with two looping plug-ins", busy, flush=True)
        return rows

if __name__ == "__main__":
    for isolate in (True, False):
        run(isolate)
