"""The games in ``examples/``: each passes the rules checker, written either way, and its
two versions (plain Python and ``CompiledGame``) give the same values."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from negamax import WIN, SearchLimits, get_game, search, solve
from negamax.games.checker import check_positions
from tests import oracle

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PLAIN = {
    "othello.py:Othello6": "OthelloPosition",
    "breakthrough.py:Breakthrough": "BreakthroughPosition",
    "kalah.py:CompiledKalah": "KalahPosition",
    "hex.py:CompiledHex": "HexPosition",
}


class PlainGame:
    """The plain version of an example as a game: its start position is all the checker needs."""

    def __init__(self, position_class: type) -> None:
        self.name = position_class.__name__
        self.position_class = position_class

    def new_position(self, text: str | None = None) -> Any:
        return self.position_class()


def example(reference: str) -> tuple[Any, type]:
    game = get_game(f"{EXAMPLES / reference}")
    module = sys.modules[type(game).__module__]
    return game, getattr(module, PLAIN[reference])


@pytest.mark.parametrize("reference", list(PLAIN))
def test_both_versions_pass_the_checker(reference: str) -> None:
    game, plain_class = example(reference)
    assert game.check(games=40).ok
    report = check_positions(PlainGame(plain_class), games=40)
    assert report.ok, report.problems


def test_othello_written_both_ways_searches_to_the_same_values() -> None:
    game, plain_class = example("othello.py:Othello6")
    generator = random.Random(4)
    for _ in range(6):
        rules, plain = game.new_position(), plain_class()
        for _ply in range(generator.randrange(0, 24)):
            if plain.is_terminal():
                break
            move = generator.choice(plain.legal_moves())
            assert rules.legal_moves() == plain.legal_moves()
            rules.play(move)
            plain.play(move)
        limits = SearchLimits(depth=3)
        assert search(rules, limits, backend="python").score == search(plain, limits, backend="python").score


def test_kalah_written_both_ways_moves_twice_alike_and_searches_to_the_oracles_values() -> None:
    # the compiled version's rules run here in Python (its positions' own protocol)
    game, plain_class = example("kalah.py:CompiledKalah")
    generator = random.Random(7)
    moved_again = 0
    for _ in range(8):
        rules, plain = game.new_position(), plain_class()
        for _ply in range(generator.randrange(0, 30)):
            if plain.is_terminal():
                break
            pit = generator.choice(plain.legal_moves())
            assert [game.move_text(rules, move) for move in rules.legal_moves()] == [
                str(m) for m in plain.legal_moves()
            ]
            mover = plain.player()
            rules.play(game.parse_move(rules, str(pit)))
            plain.play(pit)
            moved_again += plain.player() == mover
            assert rules.player() == plain.player() and rules.is_terminal() == plain.is_terminal()
        for depth in (1, 3):
            expected = oracle.minimax(plain, depth)
            assert search(rules, SearchLimits(depth=depth), backend="python").score == expected
            assert search(plain, SearchLimits(depth=depth), backend="python").score == expected
    assert moved_again > 0


def test_hex_written_both_ways_plays_as_openspiels_hex_and_solves_alike() -> None:
    _, plain_class = example("hex.py:CompiledHex")
    generator = random.Random(11)
    for size in (3, 5):
        rules_game = get_game(f"{EXAMPLES / 'hex.py'}:CompiledHex({size})")
        for _ in range(20):
            rules, plain = rules_game.new_position(), plain_class(size)
            while not plain.is_terminal():
                assert rules.legal_moves() == plain.legal_moves() and not rules.is_terminal()
                move = generator.choice(plain.legal_moves())
                rules.play(move)
                plain.play(move)
            assert rules.is_terminal() and rules.terminal_value() == plain.terminal_value()
            assert rules.playout(3) in (WIN, -WIN) and plain.playout(3) in (WIN, -WIN)
    for size in (2, 3):
        rules = get_game(f"{EXAMPLES / 'hex.py'}:CompiledHex({size})").new_position()
        assert solve(rules, backend="python").score == solve(plain_class(size), backend="python").score


def test_hex_is_openspiels_hex() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    generator = random.Random(5)
    for size in (3, 4, 5):
        game = get_game(f"{EXAMPLES / 'hex.py'}:CompiledHex({size})")
        spiel = pyspiel.load_game(f"hex(board_size={size})")
        for _ in range(30):
            state, position = spiel.new_initial_state(), game.new_position()
            while not state.is_terminal():
                assert sorted(position.legal_moves()) == state.legal_actions() and not position.is_terminal()
                action = generator.choice(state.legal_actions())
                assert game.move_text(position, action) == state.action_to_string(action)
                state.apply_action(action)
                position.play(action)
            # over at the same move, won by the player who made it
            assert position.is_terminal() and state.returns()[(len(state.history()) - 1) % 2] == 1.0
