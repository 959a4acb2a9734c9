"""Random trees (``negamax.games.random_tree``): the same seed gives the same tree."""

import pytest

from negamax.core.errors import InvalidPositionError
from negamax.core.types import SearchLimits
from negamax.games.random_tree import RandomTree, RandomTreeGame, TreeShape
from negamax.search import search, solve


def test_random_trees_are_deterministic() -> None:
    shape = TreeShape(branching=3, depth=5, seed=42, transpositions=10)
    first, second = RandomTree(shape), RandomTree(shape)
    assert solve(first).score == solve(second).score
    assert search(first, SearchLimits(depth=3)).nodes == search(second, SearchLimits(depth=3)).nodes
    game = RandomTreeGame()
    position = game.new_position(game.position_text(first))
    assert position.shape == shape
    with pytest.raises(InvalidPositionError, match="unknown setting"):
        game.new_position("branchin=3")
    with pytest.raises(InvalidPositionError, match="whole number"):
        game.new_position("depth=x")
