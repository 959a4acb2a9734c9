"""The web page's Monte Carlo tree search, on a game without an evaluation (Hex, from
``examples/hex.py``): the engine's playouts and visit counts, and the picture of its tree."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from negamax.viz.web.app import create_app
from negamax.viz.web.server import BackgroundServer
from tests.viz.web.conftest import Web

HEX = str(Path(__file__).resolve().parents[3] / "examples" / "hex.py") + ":Hex(3)"
HEX5 = HEX.replace("Hex(3)", "Hex(5)")


@pytest.fixture(scope="module")
def web() -> Iterator[Web]:
    # served in this process (the worker processes a user's game gets pass its answers on
    # unchanged: tests/viz/web/test_plugin_isolation.py)
    app = create_app(backend="python", extra_games=(HEX, HEX5), prepare=False, isolate=False)
    with BackgroundServer(app) as server:
        yield Web(server.url, app.app.state.searches)


def test_the_engine_thinks_in_playouts_and_lists_its_lines_with_their_visits(web: Web) -> None:
    # (a short solve comes first, which a position of 5x5 leaves unfinished)
    events = web.events({"game": HEX5, "moves": ["c3"], "seconds": 0.5, "lines": 3})
    name, done = events[-1]
    assert name == "done" and done["algorithm"] == "mcts" and done["nodes"] > 0 and done["seldepth"] > 0
    lines = done["lines"]
    assert len(lines) == 3 and all(line["visits"] is not None for line in lines)
    assert [line["visits"] for line in lines] == sorted((line["visits"] for line in lines), reverse=True)
    assert done["best"] == lines[0]["move"]


def test_the_tree_picture_shows_playouts_win_rates_and_the_chosen_line(web: Web) -> None:
    status, tree = web.post("/api/trace", {"game": HEX, "algorithm": "mcts", "max_nodes": 30})
    assert status == 200 and tree["note"].startswith("Monte Carlo tree search: 150 playouts")
    nodes = tree["nodes"]
    assert len(nodes) == 30 and nodes[0]["visits"] == 150 and nodes[0]["parent"] is None
    for node in nodes[1:]:
        parent = nodes[node["parent"]]
        assert node["index"] in parent["children"] and node["visits"] <= parent["visits"]
        assert node["value"].endswith("%") or node["bound"] == "exact"
        assert node["move"] in ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
    line = tree["pv"]
    assert line[0] == 0 and all(nodes[child]["parent"] == parent for parent, child in itertools.pairwise(line))
    assert tree["steps"] == [] and tree["value"]
