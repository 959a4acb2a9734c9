"""Tic-tac-toe's rules (``negamax.games.tictactoe.rules``): its value, its notation, its symmetries."""

import pytest

from negamax.core.errors import IllegalMoveError, InvalidPositionError
from negamax.games.tictactoe.rules import TicTacToe, TicTacToeGame
from negamax.search import solve


def test_tictactoe_is_a_draw_and_the_default_needs_few_nodes() -> None:
    result = solve(TicTacToe())
    assert result.score == 0
    assert result.nodes <= 2000
    plain = solve(TicTacToe(), algorithm="negamax")
    assert (plain.score, plain.nodes) == (0, 549_946)


def test_tictactoe_parsing() -> None:
    game = TicTacToeGame()
    assert game.new_position("x...o....").key() == game.new_position("04").key()
    for text, reason in [("0a", "not a cell"), ("00", "twice"), ("xx.......", "X moves first"), ("0314258", "over")]:
        with pytest.raises(InvalidPositionError, match=reason):
            game.new_position(text)
    with pytest.raises(IllegalMoveError, match="taken"):
        game.parse_move(game.new_position("4"), "4")


def test_tictactoe_symmetry_and_safe_moves() -> None:
    game = TicTacToeGame()
    corners = {game.new_position(str(cell)).canonical_key() for cell in (0, 2, 6, 8)}
    assert len(corners) == 1
    assert game.new_position("0314").safe_moves() is None  # X to move wins at 6
    assert game.new_position("04").safe_moves() is not None
