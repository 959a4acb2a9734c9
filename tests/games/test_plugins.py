"""Games from outside the package: ``module:Class``, ``file.py:Class`` and the
``negamax.games`` entry-point group, from the library and the command line."""

from __future__ import annotations

import json
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
    """Take 1 or 2 stones (or up to most); whoever takes the last one wins."""

    def __init__(self, stones=7, turn=0, most=2):
        self.stones, self.turn, self.most = stones, turn, most
    def legal_moves(self):
        return list(range(min(self.most, self.stones), 0, -1))
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
        return Stones(self.stones, self.turn, self.most)


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


class TakeAway(StonesGame):
    """Take 1 to most stones; whoever takes the last one wins."""

    name = "takeaway"

    def __init__(self, stones=7, most=2):
        if most < 1:
            raise ValueError("most must be at least 1")
        self.stones, self.most = stones, most

    def new_position(self, text=None):
        return Stones(int(text or self.stones), most=self.most)


A_GAME = StonesGame()
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


def negamax(directory: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """The command run in ``directory``, which it imports games from (and the package from
    where this process does)."""
    import os

    path = os.pathsep.join(filter(None, [str(directory), os.environ.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "negamax", *arguments],
        capture_output=True,
        text=True,
        cwd=directory,
        env={**os.environ, "PYTHONPATH": path},
        timeout=120,
    )


def test_the_command_line_takes_a_game_file_and_lists_registered_games(plugin_directory: Path) -> None:
    solved = negamax(plugin_directory, "solve", "stones_plugin.py:StonesGame", "8", "--json")
    assert solved.returncode == 0, solved.stderr
    assert '"score_text": "win in 5"' in solved.stdout
    listed = negamax(plugin_directory, "games")
    assert "stones" in listed.stdout.split("installed by other packages:")[1]
    bad = negamax(plugin_directory, "solve", "missing_file.py:Game")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "no file missing_file.py" in bad.stderr


def test_the_command_line_takes_a_game_class_with_its_arguments(plugin_directory: Path) -> None:
    for reference, most in (("stones_plugin.py:TakeAway(9, 2)", 2), ("stones_plugin:TakeAway(9, most=3)", 3)):
        solved = negamax(plugin_directory, "solve", reference, "--json")
        assert solved.returncode == 0, solved.stderr
        record = json.loads(solved.stdout)
        assert record["game"] == f"takeaway(stones=9,most={most})"
        assert (record["score"] > 0) == first_player_wins(9, most)
    for arguments in (
        ("solve", "stones_plugin.py:TakeAway(9, 0)"),
        ("serve", "--game", "stones_plugin.py:TakeAway(x)"),
    ):
        bad = negamax(plugin_directory, *arguments)
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "TakeAway" in bad.stderr, bad.stderr


def first_player_wins(stones: int, most: int) -> bool:
    """Whether the side to move wins take-away, by brute force (the known answer: unless
    ``stones`` is a multiple of ``most + 1``)."""
    wins = [False]
    for left in range(1, stones + 1):
        wins.append(any(not wins[left - take] for take in range(1, min(most, left) + 1)))
    return wins[stones]


def test_a_game_class_takes_its_arguments_in_its_name(plugin_directory: Path) -> None:
    file = plugin_directory / "stones_plugin.py"
    sizes = [
        (f"{file}:TakeAway(9, 2)", 9, 2),
        ("stones_plugin:TakeAway(most=3, stones=9)", 9, 3),
        ("stones_plugin:TakeAway(10)", 10, 2),
        (" stones_plugin:TakeAway( 11 , most = 4 ) ", 11, 4),
    ]
    for reference, stones, most in sizes:
        game = get_game(reference)
        # named with every parameter, defaults too: one size, one name, however written
        assert game.name == f"takeaway(stones={stones},most={most})", reference
        assert game.description == "Take 1 to most stones; whoever takes the last one wins."
        assert (solve(game.new_position()).score > 0) == first_player_wins(stones, most), reference
    # without arguments: the defaults, named with them
    assert get_game("stones_plugin:TakeAway").name == "takeaway(stones=7,most=2)"
    # a plain position class starts from the position its arguments make
    position_game = get_game("stones_plugin:Stones(8, most=3)")
    assert position_game.name == "Stones(stones=8,turn=0,most=3)"
    assert (solve(position_game.new_position()).score > 0) == first_player_wins(8, 3)


def test_a_registered_game_takes_its_arguments_too(plugin_directory: Path) -> None:
    (plugin_directory / "stones_plugin-1.0.dist-info" / "entry_points.txt").write_text(
        "[negamax.games]\nstones = stones_plugin:StonesGame\ntakeaway = stones_plugin:TakeAway\n"
    )
    game = get_game("takeaway(9, most=3)")
    assert game.name == "takeaway(stones=9,most=3)" and solve(game.new_position()).score > 0
    with pytest.raises(UnknownGameError, match=r"takes no arguments: too many positional arguments"):
        get_game("stones(9)")
    # a colon in a string argument is not a reference's: the registered class gets the string
    with pytest.raises(UnknownGameError, match=r"TakeAway\(most='a:b'\) failed \(TypeError"):
        get_game("takeaway(most='a:b')")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("stones_plugin:TakeAway(9,", "'stones_plugin:TakeAway(9,': malformed arguments ('(' was never closed)"),
        ("stones_plugin:TakeAway(9)(3)", "malformed arguments (more than one call)"),
        ("stones_plugin:TakeAway(n)", "argument 1 (n) must be a number, a string in quotes, True, False, None"),
        ("stones_plugin:TakeAway(most=[3])", "most ([3]) must be a number"),
        ("stones_plugin:TakeAway(*sizes)", "write each argument out (no *arguments)"),
        ("stones_plugin:TakeAway(1, 2, 3)", "TakeAway takes (stones=7, most=2): too many positional arguments"),
        ("stones_plugin:TakeAway(size=3)", "TakeAway takes (stones=7, most=2): got an unexpected keyword argument"),
        ("stones_plugin:StonesGame(3)", "StonesGame takes no arguments: too many positional arguments"),
        ("stones_plugin:TakeAway(9, most=0)", "TakeAway(9, most=0) failed (ValueError: most must be at least 1)"),
        ("stones_plugin:A_GAME(3)", "A_GAME is a game, not a class: it takes no arguments"),
        ("tictactoe(3)", "the built-in game tictactoe takes no arguments"),
    ],
)
def test_arguments_that_do_not_fit_get_one_clear_error(plugin_directory: Path, name: str, message: str) -> None:
    with pytest.raises(UnknownGameError) as raised:
        get_game(name)
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_a_plain_position_class_is_a_game_whose_positions_are_its_moves(plugin_directory: Path) -> None:
    game = get_game("stones_plugin:Stones")
    assert "each as it prints (str(move))" in game.position_help
    assert solve(game.new_position("start")).score_text == "win in 5"
    position = game.new_position("2 2")
    assert position.stones == 3 and game.move_text(position, 1) == "1"
    with pytest.raises(IllegalMoveError, match=r"'5' is not a legal move here; the legal moves: 2 1"):
        game.new_position("5")
