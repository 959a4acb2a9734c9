"""A game served with its class's arguments (``negamax serve --game 'file.py:Class(9, 2)'``):
listed, asked for and answered by the name it was served as, each size with searchers of
its own (its name carries its parameters)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from negamax.viz.web.app import create_app
from negamax.viz.web.server import BackgroundServer
from tests.games.test_plugins import GAME, first_player_wins
from tests.viz.web.conftest import Web


@pytest.fixture(scope="module")
def sizes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Web, dict[str, int]]]:
    """A server of two sizes of one game, and the names it serves them by, with their most stones a move."""
    module = tmp_path_factory.mktemp("games") / "stones_sizes.py"
    module.write_text(GAME)
    names = {f"{module}:TakeAway(9, 2)": 2, f"{module}:TakeAway(9, most=3)": 3}
    # in this process, to see its searchers (a user's game is served by workers of its own
    # otherwise: tests/viz/web/test_plugin_isolation.py)
    app = create_app(backend="python", extra_games=tuple(names), prepare=False, isolate=False)
    with BackgroundServer(app) as server:
        yield Web(server.url, app.app.state.searches), names


def test_each_size_is_served_by_the_name_it_was_given(sizes: tuple[Web, dict[str, int]]) -> None:
    web, names = sizes
    status, games = web.get("/api/games")
    assert status == 200 and [game["name"] for game in games if game["name"] in names] == list(names)
    for name, most in names.items():
        status, state = web.post("/api/state", {"game": name, "moves": ["1"]})
        assert status == 200 and state["moves"] == [str(take) for take in range(most, 0, -1)], state
        status, answer = web.post("/api/solution", {"game": name})
        assert status == 200, answer
        # a move wins when it leaves the opponent a lost position
        wins = {item["move"]: item["score"] > 0 for item in answer["moves"]}
        assert wins == {str(take): not first_player_wins(9 - take, most) for take in range(1, most + 1)}
    # a searcher (and its table) for each size, by the name carrying its parameters
    opened = web.searches.games_opened()
    assert "takeaway(stones=9,most=2)" in opened and "takeaway(stones=9,most=3)" in opened
