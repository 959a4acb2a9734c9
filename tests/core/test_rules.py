"""Text in and out of games: move lists, principal variations, repetitions, refusals."""

from __future__ import annotations

import pytest

from negamax.core.errors import InvalidPositionError
from negamax.core.rules import play_move_texts, pv_text, repeated_in_search
from negamax.games import get_game


def test_move_texts_are_played_in_turn_and_a_bad_one_is_named() -> None:
    game = get_game("tictactoe")
    position = play_move_texts(game, game.new_position(None), "4, 0 8")
    assert position.legal_moves() == [1, 2, 3, 5, 6, 7] and position.player() == 1
    with pytest.raises(InvalidPositionError, match="move 2"):
        play_move_texts(game, game.new_position(None), "4 4")
    assert play_move_texts(game, game.new_position(None), "start").legal_moves() == list(range(9))


def test_a_pv_is_written_until_a_move_is_not_legal() -> None:
    game = get_game("tictactoe")
    position = game.new_position("04")
    assert pv_text(game, position, (8, 2, 6)) == ["8", "2", "6"]
    assert pv_text(game, position, (8, 8, 6)) == ["8"]  # a stale line stops where it breaks


def test_a_repetition_counts_once_the_search_has_moved() -> None:
    keys = ["a", "b", "c", "d", "c"]
    assert repeated_in_search(keys, root_length=3, reversible_plies=10)
    assert not repeated_in_search(keys, root_length=5, reversible_plies=10)  # only the game's history
    assert not repeated_in_search(keys, root_length=3, reversible_plies=1)  # too far back
