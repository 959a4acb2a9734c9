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

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PLAIN = {"othello.py:Othello6": "OthelloPosition", "breakthrough.py:Breakthrough": "BreakthroughPosition"}


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
