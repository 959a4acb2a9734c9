"""The games in ``examples/``: each passes the rules checker, written either way, and its
two versions (plain Python and ``CompiledGame``) give the same values."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from negamax import SearchLimits, get_game, search
from negamax.games.checker import check_positions
from tests import oracle

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PLAIN = {
    "othello.py:Othello6": "OthelloPosition",
    "breakthrough.py:Breakthrough": "BreakthroughPosition",
    "kalah.py:CompiledKalah": "KalahPosition",
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
