"""OpenSpiel's games through ``openspiel:NAME``: the same values as OpenSpiel's own
``alpha_beta_search`` at the same depth, make/unmake by undo or by copies, whole turns for
games where a player acts twice, and a one-line refusal for games outside the class."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import minimax

from negamax import SearchLimits, get_game, search, solve
from negamax.core.errors import InvalidPositionError, UnknownGameError
from negamax.core.score import WIN_THRESHOLD


def outcome(score: int) -> int:
    """A score as OpenSpiel's values: 1 a win, -1 a loss, 0 a draw or no result within the depth."""
    return 1 if score >= WIN_THRESHOLD else -1 if score <= -WIN_THRESHOLD else 0


def positions(name: str, count: int, plies: range, seed: int) -> list[Any]:
    game = get_game(f"openspiel:{name}")
    generator = random.Random(seed)
    found = []
    while len(found) < count:
        position = game.new_position()
        for _ in range(generator.choice(plies)):
            if position.is_terminal():
                break
            position.play(generator.choice(position.legal_moves()))
        if not position.is_terminal():
            found.append(position)
    return found


def theirs(position: Any, depth: int | None = None) -> float:
    value_function = None if depth is None else (lambda state: 0.0)
    value, _ = minimax.alpha_beta_search(
        position.game.spiel, position.state.clone(), value_function=value_function, maximum_depth=depth or 1000
    )
    return float(value)


@pytest.mark.parametrize(
    ("name", "count", "plies"),
    [
        ("tic_tac_toe", 12, range(0, 6)),
        ("connect_four", 4, range(28, 33)),
        ("nim(pile_sizes=1;3;5;2,is_misere=False)", 4, range(0, 3)),
        ("nim(pile_sizes=2;3;4)", 4, range(0, 3)),  # misère, OpenSpiel's default
    ],
)
def test_solved_values_equal_openspiels(name: str, count: int, plies: range) -> None:
    for position in positions(name, count, plies, seed=7):
        assert outcome(solve(position).score) == theirs(position), position


def test_breakthrough_at_a_fixed_depth_equals_openspiels() -> None:
    decided = 0
    for position in positions("breakthrough(rows=5,columns=5)", 20, range(10, 24), seed=3):
        expected = theirs(position, depth=3)
        assert outcome(search(position, SearchLimits(depth=3), algorithm="alphabeta").score) == expected
        decided += expected != 0
    assert decided >= 3  # the sample holds wins and losses, not only unknowns


def test_make_unmake_restores_the_state_with_undo_or_copies() -> None:
    for name, undo_works, text in (("tic_tac_toe", True, "4 0 8"), ("connect_four", False, "3 3 4")):
        game = get_game(f"openspiel:{name}")
        assert game.undo_works is undo_works
        position = game.new_position(text)
        before = (str(position.state), position.key(), position.player())
        for move in position.legal_moves():
            position.play(move)
            position.undo(move)
            assert (str(position.state), position.key(), position.player()) == before
        assert game.position_text(position) == text


def test_a_player_who_acts_again_is_searched_as_openspiel_plays_it() -> None:
    # dots and boxes: completing a box earns another action, and OpenSpiel's current_player()
    # says so; the exact value is the sign of OpenSpiel's own alpha-beta (a separate search)
    for name in ("dots_and_boxes(num_rows=1,num_cols=2)", "dots_and_boxes(num_rows=2,num_cols=2)"):
        game = get_game(f"openspiel:{name}")
        value, _ = minimax.alpha_beta_search(game.spiel, maximizing_player_id=0)
        score = solve(game.new_position()).score
        assert (score > 0) - (score < 0) == value, name
    # a box completed: the same player again, in the position and in its text
    game = get_game("openspiel:dots_and_boxes(num_rows=1,num_cols=1)")
    position = game.new_position("0 2 1")  # three sides of the only box
    mover = position.player()
    position.play(3)
    assert position.is_terminal() or position.player() == mover
    text = game.position_text(position)
    assert game.position_text(game.new_position(text)) == text == "0 2 1 3"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("openspiel:kuhn_poker", "cannot be searched here: it has chance events"),
        ("openspiel:goofspiel", "cannot be searched here"),
        ("openspiel:no_such_game", "OpenSpiel cannot load 'no_such_game'"),
    ],
)
def test_games_outside_the_class_are_refused(name: str, message: str) -> None:
    with pytest.raises(UnknownGameError, match=message):
        get_game(name)


def test_a_bad_move_names_the_legal_ones() -> None:
    with pytest.raises(InvalidPositionError, match="move 2: 'x' is not a legal move here; legal: "):
        get_game("openspiel:tic_tac_toe").new_position("4 x")
