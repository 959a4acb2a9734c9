import pytest

from negamax.core.score import Bound
from negamax.core.types import SearchLimits
from negamax.games.tictactoe.rules import TicTacToeGame
from negamax.games.tree import ExplicitTree
from negamax.search import ALGORITHMS, mcts, search, solve
from negamax.search.trace import SearchTrace, TraceLimitExceeded

AIMA = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]


def test_alphabeta_on_the_textbook_tree_prunes_what_the_textbook_prunes() -> None:
    trace = SearchTrace()
    result = search(ExplicitTree(AIMA), SearchLimits(depth=2), algorithm="alphabeta", trace=trace)
    assert result.score == 3 and len(trace.nodes) == result.nodes == 11
    first, second, third = (trace.nodes[index] for index in trace.root.children)
    assert (first.cut_moves, second.cut_moves, third.cut_moves) == ([], [1, 2], [])
    assert second.bound == Bound.LOWER  # its first leaf (2) refutes it: a value of at least -2
    assert (second.alpha, second.beta) == (-(10**6), -3)
    assert trace.principal_variation() == [0, first.index, first.children[0]]


@pytest.mark.parametrize("algorithm", [name for name in ALGORITHMS if name != mcts.ALGORITHM])  # MCTSTrace: test_mcts
def test_every_node_is_recorded_with_its_value(algorithm: str) -> None:
    position = TicTacToeGame().new_position("04")
    trace = SearchTrace()
    result = solve(position, algorithm=algorithm, trace=trace)
    assert len(trace.nodes) == result.nodes
    assert trace.root.value is not None
    for node in trace.nodes:
        assert node.value is not None
        for child in node.children:
            assert trace.nodes[child].parent == node.index
            assert trace.nodes[child].path[:-1] == node.path


def test_recording_does_not_change_the_search() -> None:
    position = TicTacToeGame().new_position("4")
    plain = solve(position, backend="python")
    traced = solve(position, trace=SearchTrace())
    assert (plain.score, plain.nodes, plain.pv) == (traced.score, traced.nodes, traced.pv)


def test_the_node_limit_is_reported_clearly() -> None:
    with pytest.raises(TraceLimitExceeded, match="more than 100 nodes"):
        solve(TicTacToeGame().new_position(""), algorithm="negamax", trace=SearchTrace(max_nodes=100))
