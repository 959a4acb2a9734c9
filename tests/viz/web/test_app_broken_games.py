"""Games served from a user's file (``negamax serve --game file.py:Class``) that break the
library's contract: every answer is still JSON with a one-line error, never a plain-text
500, and the server goes on serving."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from negamax.viz.web.app import create_app
from negamax.viz.web.server import BackgroundServer
from tests.viz.web.conftest import Web

BROKEN_GAMES = '''
import math

from negamax.core.errors import GameDefinitionError
from negamax.core.score import WIN


class Stones:
    """Take one or two stones; whoever takes the last one wins."""

    def __init__(self, stones, broken):
        self.stones, self.turn, self.broken = stones, 0, broken

    def legal_moves(self):
        if self.broken == "moves":
            return None
        return [take for take in (1, 2) if take <= self.stones]

    def play(self, move):
        self.stones -= move
        self.turn ^= 1

    def undo(self, move):
        self.stones += move
        self.turn ^= 1

    def is_terminal(self):
        return self.stones == 0

    def terminal_value(self):
        return -WIN

    def evaluate(self):
        return math.nan if self.broken == "nan" else 0

    def key(self):
        return (self.stones, self.turn)

    def player(self):
        return self.turn

    def copy(self):
        clone = Stones(self.stones, self.broken)
        clone.turn = self.turn
        return clone


class TakeAway:
    broken = ""
    solvable = False

    def new_position(self, text=None):
        return Stones(int(text or 30), self.broken)

    def parse_move(self, position, text):
        if self.broken == "contract":
            raise GameDefinitionError("takeaway's parse_move broke the contract\\n(a second line)")
        if self.broken == "crash":
            raise KeyError(text)
        return int(text)

    def move_text(self, position, move):
        return str(move)


class NoMoves(TakeAway):
    broken = "moves"


class NotANumber(TakeAway):
    broken = "nan"


class BrokenContract(TakeAway):
    broken = "contract"


class Crashing(TakeAway):
    broken = "crash"
'''
NAMES = ("NoMoves", "NotANumber", "BrokenContract", "Crashing")


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Web, dict[str, str]]]:
    """A server of the broken games, and their names as the server knows them."""
    module = Path(tmp_path_factory.mktemp("games")) / "broken_games.py"
    module.write_text(BROKEN_GAMES)
    games = {name: f"{module}:{name}" for name in NAMES}
    # in this process: the same answers come from a user's game served apart (its workers:
    # tests/viz/web/test_plugin_isolation.py)
    app = create_app(backend="python", extra_games=tuple(games.values()), prepare=False, isolate=False)
    with BackgroundServer(app) as server:
        yield Web(server.url, app.app.state.searches), games


def served(web: Web) -> bool:
    with urllib.request.urlopen(web.url + "api/games", timeout=10) as response:
        return response.status == 200 and bool(json.loads(response.read()))


def one_line_error(status: int, answer: object) -> str:
    assert isinstance(answer, dict) and set(answer) == {"error"}, answer
    message = answer["error"]
    assert isinstance(message, str) and message and "\n" not in message and "Traceback" not in message
    return message


def test_moves_that_are_not_a_list_get_a_json_4xx_naming_the_method(broken: tuple[Web, dict[str, str]]) -> None:
    web, games = broken
    status, answer = web.post("/api/state", {"game": games["NoMoves"]})
    assert status == 422
    message = one_line_error(status, answer)
    assert "Stones.legal_moves (broken_games.py:" in message and "returned None" in message
    assert served(web)


def test_a_game_definition_error_gets_a_json_4xx_with_its_first_line(broken: tuple[Web, dict[str, str]]) -> None:
    web, games = broken
    status, answer = web.post("/api/state", {"game": games["BrokenContract"], "moves": ["1"]})
    assert status == 422
    assert one_line_error(status, answer) == "the game's definition is broken: takeaway's parse_move broke the contract"
    assert served(web)


def test_any_other_exception_of_the_games_code_gets_a_json_4xx_naming_it(broken: tuple[Web, dict[str, str]]) -> None:
    web, games = broken
    for path in ("/api/state", "/api/trace", "/api/solution"):
        status, answer = web.post(path, {"game": games["Crashing"], "moves": ["1"]})
        assert status == 422, path
        assert one_line_error(status, answer).startswith("TakeAway.parse_move raised KeyError('1') (broken_games.py:")


def test_an_evaluation_that_is_not_a_number_never_gets_plain_text(broken: tuple[Web, dict[str, str]]) -> None:
    """The search's own check of the values a game returns is the library's; whatever it
    decides, the answers stay JSON (a trace is answered or refused in one line) and the
    engine's stream ends with its move or an error event."""
    web, games = broken
    status, answer = web.post("/api/trace", {"game": games["NotANumber"], "depth": 2})
    assert status == 200 or one_line_error(status, answer)
    events = web.events({"game": games["NotANumber"], "seconds": 0.2})
    assert events and events[-1][0] in ("done", "error"), events
    if events[-1][0] == "error":
        one_line_error(500, events[-1][1])
    assert served(web)
