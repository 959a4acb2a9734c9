"""Trees given explicitly (``negamax.games.tree``): a textbook tree's value."""

import pytest

from negamax.core.errors import InvalidPositionError
from negamax.games.tree import ExplicitTree, TreeGame
from negamax.search import solve


def test_explicit_textbook_tree() -> None:
    game = TreeGame()
    tree = game.new_position("[[3,12,8],[2,4,6],[14,5,2]]")
    result = solve(tree)
    assert (result.score, result.best_move, result.pv) == (3, 0, (0, 0))
    # max(min(max(1, 5), max(2)), min(max(-3, 9))) = max(2, 9)
    assert solve(ExplicitTree([[[1, 5], [2]], [[-3, 9]]])).score == 9
    for text in ("[[1,2],[]]", "[1, 'a']", "[[1,2]", "[[1, 200000]]"):
        with pytest.raises(InvalidPositionError):
            game.new_position(text)


def test_a_node_is_drawn_named_by_letters_as_the_search_tree_names_it() -> None:
    game = TreeGame()
    position = game.new_position("[[3,12,8],[2,4,6],[14,5,2]]")
    assert game.render(position) == "the root: [[3,12,8],[2,4,6],[14,5,2]]"
    position.play(1)
    position.play(0)
    assert game.render(position) == "node b-a: 2"  # the second child's first: moves 1 0
