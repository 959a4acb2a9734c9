"""The registry of games (``negamax.games``): every built-in name gives its game."""

import pytest

from negamax.core.errors import UnknownGameError
from negamax.games import available_games, get_game


def test_registry() -> None:
    assert set(available_games()) >= {"tictactoe", "connect4", "nim", "tree", "random"}
    with pytest.raises(UnknownGameError, match="chekers"):
        get_game("chekers")
