"""A game's answers are checked as the search takes them: a broken game is refused with a
clear ``GameDefinitionError``, never scored."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from negamax import GameDefinitionError, SearchLimits, search, solve
from negamax.core.game import checked_evaluation, checked_moves, checked_terminal_value
from negamax.core.score import WIN


class Subtraction:
    """Take 1, 3 or 4 stones; whoever takes the last stone wins. Each answer can be broken."""

    def __init__(self, stones: int, evaluation: Any = 0, lost: Any = -WIN, moves: Any = list) -> None:
        self.stones, self.turn = stones, 0
        self.evaluation, self.lost, self.moves = evaluation, lost, moves

    def legal_moves(self) -> Any:
        takes = [take for take in (4, 3, 1) if take <= self.stones]
        return self.moves(takes)

    def play(self, take: int) -> None:
        self.stones -= take
        self.turn ^= 1

    def undo(self, take: int) -> None:
        self.stones += take
        self.turn ^= 1

    def is_terminal(self) -> bool:
        return self.stones == 0

    def terminal_value(self) -> Any:
        return self.lost

    def evaluate(self) -> Any:
        return self.evaluation

    def key(self) -> int:
        return self.stones

    def player(self) -> int:
        return self.turn

    def copy(self) -> Subtraction:
        clone = Subtraction(self.stones, self.evaluation, self.lost, self.moves)
        clone.turn = self.turn
        return clone


def generator(moves: list[int]) -> Iterator[int]:
    yield from moves


@pytest.mark.parametrize("evaluation", [math.nan, math.inf, 0.5, "1", None, WIN])
def test_an_evaluation_that_is_not_an_int_score_is_refused(evaluation: Any) -> None:
    with pytest.raises(GameDefinitionError, match=r"Subtraction\.evaluate \(test_game\.py:\d+\) returned"):
        search(Subtraction(30, evaluation=evaluation), SearchLimits(depth=3), backend="python")


@pytest.mark.parametrize("lost", [math.nan, -WIN - 1, 1.0, None])
def test_a_terminal_value_that_is_not_a_score_is_refused(lost: Any) -> None:
    with pytest.raises(GameDefinitionError, match=r"\.terminal_value \(test_game\.py:\d+\) returned"):
        solve(Subtraction(6, lost=lost), backend="python")


def test_legal_moves_returning_none_is_refused_not_read_as_game_over() -> None:
    with pytest.raises(GameDefinitionError, match=r"Subtraction\.legal_moves \(test_game\.py:\d+\) returned None"):
        solve(Subtraction(6, moves=lambda moves: None), backend="python")


def test_legal_moves_as_a_generator_gives_the_same_values() -> None:
    for stones in range(1, 12):
        expected = solve(Subtraction(stones), backend="python")
        found = solve(Subtraction(stones, moves=generator), backend="python")
        assert (found.score, found.best_move) == (expected.score, expected.best_move)


def test_numpy_integers_are_ints() -> None:
    assert checked_evaluation(lambda: np.int64(7))() == 7
    assert checked_terminal_value(lambda: np.int32(-WIN))() == -WIN
    assert checked_moves(lambda: (1, 2))() == (1, 2)
