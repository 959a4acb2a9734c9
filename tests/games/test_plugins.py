"""Games from outside the package: ``module:Class``, ``file.py:Class`` and the
``negamax.games`` entry-point group, from the library and the command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from negamax import get_game, solve
from negamax.core.errors import IllegalMoveError, UnknownGameError
from negamax.games import installed_games

GAME = '''
from negamax import WIN
from negamax.core.rules import BaseGame


class Stones:
    """Take 1 or 2 stones; whoever takes the last one wins."""

    def __init__(self, stones=7, turn=0):
        self.stones, self.turn = stones, turn
    def legal_moves(self):
        return [take for take in (2, 1) if take <= self.stones]
    def play(self, take):
        self.stones -= take; self.turn ^= 1
    def undo(self, take):
        self.stones += take; self.turn ^= 1
    def is_terminal(self):
        return self.stones == 0
    def terminal_value(self):
        return -WIN
    def evaluate(self):
        return 0
    def key(self):
        return self.stones
    def player(self):
        return self.turn
    def copy(self):
        return Stones(self.stones, self.turn)


class Half:
    """Moves, but no play: neither a game nor a position."""

    def legal_moves(self):
        return [1]


class StonesGame:
    """Take-away with 1 or 2 stones a move."""

    def new_position(self, text=None):
        return Stones(int(text or 7))
    def parse_move(self, position, text):
        return int(text)
    def move_text(self, position, move):
        return str(move)
'''


@pytest.fixture
def plugin_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "stones_plugin.py").write_text(GAME)
    dist = tmp_path / "stones_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: stones-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[negamax.games]\nstones = stones_plugin:StonesGame\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_a_game_class_by_module_file_or_entry_point(plugin_directory: Path) -> None:
    for name in ("stones_plugin:StonesGame", f"{plugin_directory / 'stones_plugin.py'}:StonesGame", "stones"):
        game = get_game(name)
        result = solve(game.new_position("7"))
        assert result.score_text == "win in 5" and game.move_text(game.new_position(), result.best_move) == "1"
        # what the game leaves out gets the defaults
        assert game.description == "Take-away with 1 or 2 stones a move."
        assert game.game_score(game.new_position(), 5) == 5
    assert "stones" in installed_games()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("no_such_module_anywhere:Game", "no module named 'no_such_module_anywhere'"),
        ("stones_plugin:Missing", "has no 'Missing'"),
        (
            "stones_plugin:Half",
            "is not a game: it has no new_position, parse_move, move_text (it looks like a position: a position"
            " class with legal_moves, play, undo, is_terminal and evaluate is taken as a game",
        ),
        ("/no/such/file.py:Game", "no file /no/such/file.py"),
        ("nothing_registered_by_this_name", "unknown game"),
    ],
)
def test_what_is_not_a_game_gets_one_clear_error(plugin_directory: Path, name: str, message: str) -> None:
    with pytest.raises(UnknownGameError, match=message.replace("(", r"\(")):
        get_game(name)


def test_the_command_line_takes_a_game_file_and_lists_registered_games(plugin_directory: Path) -> None:
    environment = {"PYTHONPATH": str(plugin_directory)}
    import os

    environment = {**os.environ, **environment}
    solved = subprocess.run(
        [sys.executable, "-m", "negamax", "solve", "stones_plugin.py:StonesGame", "8", "--json"],
        capture_output=True,
        text=True,
        cwd=plugin_directory,
        env=environment,
        timeout=120,
    )
    assert solved.returncode == 0, solved.stderr
    assert '"score_text": "win in 5"' in solved.stdout
    listed = subprocess.run(
        [sys.executable, "-m", "negamax", "games"], capture_output=True, text=True, env=environment, timeout=120
    )
    assert "stones" in listed.stdout.split("installed by other packages:")[1]
    bad = subprocess.run(
        [sys.executable, "-m", "negamax", "solve", "missing_file.py:Game"],
        capture_output=True,
        text=True,
        cwd=plugin_directory,
        env=environment,
        timeout=120,
    )
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "no file missing_file.py" in bad.stderr


def test_a_plain_position_class_is_a_game_whose_positions_are_its_moves(plugin_directory: Path) -> None:
    game = get_game("stones_plugin:Stones")
    assert "each as it prints (str(move))" in game.position_help
    assert solve(game.new_position("start")).score_text == "win in 5"
    position = game.new_position("2 2")
    assert position.stones == 3 and game.move_text(position, 1) == "1"
    with pytest.raises(IllegalMoveError, match=r"'5' is not a legal move here; the legal moves: 2 1"):
        game.new_position("5")
