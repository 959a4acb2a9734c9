"""Textbook alpha-beta: the value plain negamax finds, the moves in the game's order, and
the cut-offs of the exercises (only past beta, never at equality)."""

from __future__ import annotations

import random

import pytest

from negamax.core.score import INF
from negamax.core.types import SearchLimits
from negamax.games import get_game
from negamax.games.random_tree import RandomTree, TreeShape
from negamax.games.tree import ExplicitTree
from negamax.search import search, solve
from negamax.search.textbook import textbook_search
from negamax.search.trace import SearchTrace
from tests import oracle


@pytest.mark.parametrize("seed", range(12))
def test_the_value_is_plain_negamax_on_random_trees(seed: int) -> None:
    shape = TreeShape(branching=3, depth=5, seed=seed, low=-3, high=3, variable=True, leaves=10)
    plain = solve(RandomTree(shape), algorithm="negamax")
    textbook = textbook_search(RandomTree(shape))
    assert textbook.score == plain.score
    assert textbook.nodes <= plain.nodes  # it prunes, if less than alpha-beta at equality
    assert textbook.nodes >= solve(RandomTree(shape), algorithm="alphabeta").nodes


def test_depth_limited_values_are_plain_negamax_on_tic_tac_toe() -> None:
    game = get_game("tictactoe")
    for moves in ("", "4", "40", "0438"):
        position = game.new_position(moves)
        for depth in (1, 2, 3):
            plain = search(position, SearchLimits(depth=depth), algorithm="negamax", backend="python")
            assert textbook_search(position, SearchLimits(depth=depth)).score == plain.score, (moves, depth)
    assert textbook_search(game.new_position(None)).score == 0  # to the end: a draw


def test_a_player_who_moves_twice_keeps_the_value_and_the_window() -> None:
    for pits, seeds, moves in oracle.positions()[:6]:
        position = oracle.kalah(pits, seeds, moves)
        trace = SearchTrace(max_nodes=200_000)
        assert textbook_search(position, trace=trace).score == oracle.minimax(position)
        for depth in (1, 3):
            assert textbook_search(position, SearchLimits(depth=depth)).score == oracle.minimax(position, depth)
    # the trace says whose turn each node is: some child has its parent's player to move
    again = [node for node in trace.nodes[1:] if node.player == trace.nodes[node.parent or 0].player]
    assert again and all(trace.from_parent(node) == node.value for node in again)


def leaves_evaluated(tree: list[object], prune_equal: bool = False) -> list[int]:
    trace = SearchTrace()
    textbook_search(ExplicitTree(tree), trace=trace, prune_equal=prune_equal)  # type: ignore[arg-type]
    return [
        node.value if len(node.path) % 2 == 0 else -node.value  # type: ignore[operator]
        for node in trace.nodes
        if not node.children
    ]


def test_a_cut_off_only_past_beta_as_cs188_grades() -> None:
    # AIMA's figure 5.2: 4 and 6 are pruned (2 < 3 at the second min node)
    assert leaves_evaluated([[3, 12, 8], [2, 4, 6], [14, 5, 2]]) == [3, 12, 8, 2, 14, 5, 2]
    # a min node whose first leaf equals alpha: the textbook searches on, alpha-beta stops
    assert leaves_evaluated([[3, 12, 8], [3, 4, 6]]) == [3, 12, 8, 3, 4, 6]
    trace = SearchTrace()
    solve(ExplicitTree([[3, 12, 8], [3, 4, 6]]), algorithm="alphabeta", trace=trace)
    assert [node.value for node in trace.nodes if not node.children] == [3, 12, 8, 3]  # 4 and 6 cut
    # the same at a max node, two levels down
    assert leaves_evaluated([[[5, 1], [5, 9]], [[0, 0]]]) == [5, 1, 5, 9, 0, 0]


def test_a_limit_ends_it_with_nothing_proven() -> None:
    shape = TreeShape(branching=4, depth=8, seed=1)
    result = textbook_search(RandomTree(shape), SearchLimits(nodes=1000))
    assert not result.completed and result.nodes == 1001 and (result.lower, result.upper) == (-INF, INF)
    assert result.best_move is None and result.pv == ()


def lecture_alphabeta(tree: object, prune_equal: bool, leaves: list[int]) -> int:
    """Alpha-beta in its max/min form, written here as lectures write it: AIMA's returns
    once v >= beta (v <= alpha at a min node), CS188's only once v > beta (v < alpha)."""

    def value(node: object, alpha: float, beta: float, maximising: bool) -> float:
        if isinstance(node, int):
            leaves.append(node)
            return node
        assert isinstance(node, list)
        best = -float("inf") if maximising else float("inf")
        for child in node:
            found = value(child, alpha, beta, not maximising)
            if maximising:
                best = max(best, found)
                if best > beta or (prune_equal and best == beta):
                    return best
                alpha = max(alpha, best)
            else:
                best = min(best, found)
                if best < alpha or (prune_equal and best == alpha):
                    return best
                beta = min(beta, best)
        return best

    return int(value(tree, -float("inf"), float("inf"), True))


def random_typed_tree(generator: random.Random, depth: int) -> object:
    if depth <= 0:
        return generator.randint(0, 5)  # few values: many ties, where the two rules part
    return [random_typed_tree(generator, depth - 1 - generator.randint(0, 1)) for _ in range(generator.randint(1, 4))]


@pytest.mark.parametrize("prune_equal", [False, True])
def test_both_rules_evaluate_the_leaves_a_lecture_alphabeta_does(prune_equal: bool) -> None:
    generator = random.Random(5)
    parted = 0
    for _ in range(300):
        tree = random_typed_tree(generator, generator.randint(1, 5))
        if not isinstance(tree, list):
            continue
        lecture: list[int] = []
        value = lecture_alphabeta(tree, prune_equal, lecture)
        trace = SearchTrace()
        assert textbook_search(ExplicitTree(tree), trace=trace, prune_equal=prune_equal).score == value  # type: ignore[arg-type]
        assert leaves_evaluated(tree, prune_equal) == lecture, tree
        parted += lecture != _leaves(tree, not prune_equal)
    assert parted > 20  # the trees tell the rules apart


def _leaves(tree: list[object], prune_equal: bool) -> list[int]:
    leaves: list[int] = []
    lecture_alphabeta(tree, prune_equal, leaves)
    return leaves


def test_pruning_at_equality_stops_where_alpha_meets_beta() -> None:
    # AIMA's rule: the second min node's first leaf 3 equals alpha 3, its 4 and 6 pruned
    assert leaves_evaluated([[3, 12, 8], [3, 4, 6]], prune_equal=True) == [3, 12, 8, 3]
    trace = SearchTrace()
    textbook_search(ExplicitTree([[3, 12, 8], [3, 4, 6]]), trace=trace, prune_equal=True)
    assert not trace.strict_cutoffs and [len(trace.nodes[child].cut_moves) for child in trace.root.children] == [0, 2]
