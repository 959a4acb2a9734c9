"""The stepper's steps on the textbook tree: each node entered and backed up once, the
window as it narrows, and the cut-off with its reason and the moves it prunes."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from negamax.core.score import Bound
from negamax.core.types import SearchLimits
from negamax.games import get_game
from negamax.search import search
from negamax.search.textbook import textbook_search
from negamax.search.trace import SearchTrace
from negamax.viz.labels import move_labels, pruned_labels
from negamax.viz.steps import Step, full_names, is_max, proven_bounds, visit_steps
from tests import oracle


def textbook_steps(algorithm: str) -> tuple[SearchTrace, list[Step]]:
    game = get_game("tree")
    position = game.new_position("[[3,12,8],[2,4,6],[14,5,2]]")
    trace = SearchTrace()
    assert search(position, SearchLimits(depth=2), algorithm=algorithm, trace=trace).score == 3
    return trace, visit_steps(trace, move_labels(trace, game, position), pruned_labels(trace, game, position))


def test_every_node_is_entered_then_backed_up_once_in_the_order_searched() -> None:
    trace, steps = textbook_steps("alphabeta")
    entered = [step.node for step in steps if step.kind == "enter"]
    backed_up = [step.node for step in steps if step.kind == "return"]
    assert entered == list(range(len(trace.nodes)))  # the trace's order is the visit order
    assert sorted(backed_up) == entered and backed_up[-1] == 0


def test_the_second_min_node_is_cut_off_after_its_first_leaf() -> None:
    # Max has 3 from the first subtree: the second, whose first leaf is 2, is worth at most
    # 2 to Max, so its 4 and 6 are never searched (in negamax: -2 >= beta -3)
    _, steps = textbook_steps("alphabeta")
    cuts = [step for step in steps if step.cut]
    assert [(step.node, step.alpha, step.beta, step.best) for step in cuts] == [(6, "-2", "-3", "-2")]
    assert cuts[0].text.endswith("Cut-off at b: -2 >= beta -3, so the root avoids it; 2 leaves pruned (its b, c)")
    assert steps[0].text == "enter the root with the window [-inf, +inf]"
    assert steps[-1].text == "the root is searched: worth 3"


def test_the_negamax_view_explains_the_sign_once_and_carries_bounds_across_it() -> None:
    # a student switching to the negamax view meets each value twice, for its own player and
    # negated for the parent, with why said once, and a bound turned over with the sign
    _, steps = typed_steps("[[3,12,8],[2,4,6],[14,5,2]]")
    texts = [step.text for step in steps]
    assert texts[3] == (
        "a-a is worth 3 to its player to move, so -3 to a (negamax: what one player wins, the other loses),"
        " the best so far; alpha rises to -3"
    )
    assert sum("what one player wins" in text for text in texts) == 1
    assert sum("negated and swapped" in text for text in texts) == 1
    assert "a-b is worth 12 to its player to move, so -12 to a; -12 < -3, so a keeps -3" in texts
    assert "b is worth at least -2 to its player to move, so at most 2 to the root; 2 < 3, so the root keeps 3" in texts
    assert not any("avoids" in text for step, text in zip(steps, texts, strict=True) if not step.cut)


def test_plain_negamax_has_no_window_and_no_cut_off() -> None:
    _, steps = textbook_steps("negamax")
    assert all(step.alpha == step.beta == "" and not step.cut for step in steps)
    assert len(steps) == 2 * 13  # the whole tree: the root, 3 inner nodes, 9 leaves


def kalah_steps(algorithm: str, depth: int) -> tuple[SearchTrace, list[Step], dict[int, str]]:
    """The steps of a search of Kalah's start, where a player may move twice, and the moves' labels."""
    game = get_game(f"{oracle.EXAMPLE}:Kalah")
    position = game.new_position("start")
    trace = SearchTrace()
    search(position, SearchLimits(depth=depth), algorithm=algorithm, trace=trace)
    labels = dict(move_labels(trace, game, position))
    return trace, visit_steps(trace, labels, pruned_labels(trace, game, position)), labels


def test_a_player_who_moves_again_keeps_the_value() -> None:
    # Kalah: pit 3 of 4 seeds ends in the mover's store, who moves again
    trace, steps, _ = kalah_steps("negamax", 3)
    again = [step for step in steps if "who moves again" in step.text]
    assert any(step.text.startswith("3 is worth ") for step in again)
    for node in trace.nodes:  # each value backs up unnegated exactly where the player stays
        if node.children:
            children = [trace.nodes[index] for index in node.children]
            worth = [child.value if child.player == node.player else -(child.value or 0) for child in children]
            assert node.value == max(worth)


def test_where_the_same_player_moves_again_no_window_is_swapped_and_the_cut_names_the_opponent() -> None:
    # Kalah: a child of the same player keeps the parent's window (nothing negated), and a
    # cut node is avoided by the nearest node above it where the other player moves
    trace, steps, labels = kalah_steps("alphabeta", 5)
    names = full_names(trace, labels)
    by_name = {name: index for index, name in names.items()}
    assert any(
        trace.nodes[i].player == trace.nodes[trace.nodes[i].parent or 0].player for i in range(1, len(trace.nodes))
    )
    cuts = 0
    for step in steps:
        node = trace.nodes[step.node]
        if step.kind == "enter" and "negated and swapped" in step.text:
            assert node.parent is not None and trace.nodes[node.parent].player != node.player, step.text
        if step.cut:
            cut_node = trace.nodes[node.parent or 0]
            avoider = step.text.split(", so ")[-1].split(" avoids it")[0]
            assert avoider == "the opponent" or trace.nodes[by_name[avoider]].player != cut_node.player, step.text
            cuts += 1
    assert cuts > 0


def test_the_minimax_wording_of_the_cut_off_is_from_max_side() -> None:
    # the same cut as a lecture words it: min's 2 is at most max's alpha 3 (alpha-beta
    # cuts at equality, hence <=); the window from max's side, min's beta falling to 2
    _, steps = textbook_steps("alphabeta")
    cut = next(step for step in steps if step.cut)
    assert (cut.minimax_alpha, cut.minimax_beta, cut.minimax_best) == ("3", "2", "2")
    assert cut.minimax.endswith("min node b: 2 <= alpha 3, so max avoids it; 2 leaves pruned (its b, c)")
    assert steps[0].minimax == "enter the root (max node) with alpha -inf, beta +inf"
    assert steps[1].minimax == "enter min node a with alpha -inf, beta +inf"
    assert steps[-1].minimax == "the root (max node) is worth 3"
    assert len([step for step in steps if "avoids" in step.minimax]) == 1


# -- a typed tree as a lecture draws it, stepped in the minimax view ----------------------

EQUAL = "[[3,12,8],[3,4,6],[2,5,14]]"
"""Min's first leaf in the second subtree equals alpha 3: the two rules part there."""


def typed_steps(tree: str, prune_equal: bool = False) -> tuple[SearchTrace, list[Step]]:
    """The steps of the textbook search of a typed tree, named as the page names them."""
    game = get_game("tree")
    position = game.new_position(tree)
    trace = SearchTrace()
    textbook_search(position, trace=trace, prune_equal=prune_equal)
    labels = move_labels(trace, game, position)  # a b c: as the game writes them
    return trace, visit_steps(trace, labels, pruned_labels(trace, game, position), separator="-")


def random_tree(generator: random.Random, depth: int) -> Any:
    """A typed tree of 1 to 3 children a node, values 0 to 6 (ties are common)."""
    if depth <= 0:
        return generator.randint(0, 6)
    return [random_tree(generator, depth - 1 - generator.randint(0, 1)) for _ in range(generator.randint(1, 3))]


def random_trees(count: int) -> list[str]:
    generator = random.Random(71)
    trees = []
    while len(trees) < count:
        tree = random_tree(generator, generator.randint(2, 4))
        if isinstance(tree, list):
            trees.append(str(tree).replace(" ", ""))
    return trees


RELATION = re.compile(
    r"(-?\d+|[-+]inf) (<=|>=|<|>|=|equals) (?:alpha |beta )?(-?\d+|[-+]inf)(?! is false)(?=[ ,;:.)]|$)"
)


def holds(left: str, relation: str, right: str) -> bool:
    def number(text: str) -> float:
        return float(text.replace("inf", "Infinity"))

    a, b = number(left), number(right)
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "=": a == b, "equals": a == b}[relation]


@pytest.mark.parametrize("prune_equal", [False, True])
def test_every_comparison_a_step_states_is_true(prune_equal: bool) -> None:
    # "b is worth 4; it equals alpha 3" (4 is not 3), "2 fell to alpha 3", "5 reached beta
    # 4": every "x < alpha y", "x equals beta y", "12 > 3" a step says holds, in both views
    checked = 0
    for tree in [EQUAL, *random_trees(150)]:
        _, steps = typed_steps(tree, prune_equal)
        for step in steps:
            for text in (step.minimax, step.text):
                assert not re.search(r"fell to|reaches|reached", text), text
                for left, relation, right in RELATION.findall(text):
                    assert holds(left, relation, right), (tree, text)
                    checked += 1
    assert checked > 300


def test_min_equal_to_alpha_is_said_once_with_the_values_that_are_equal() -> None:
    _, steps = typed_steps(EQUAL)
    said = [step.minimax for step in steps if "equals alpha" in step.minimax]
    assert said == [
        "b-a is worth 3, min's best so far; beta falls to 3; min's best 3 equals alpha 3: the rule chosen prunes"
        " only past alpha (3 < 3 is false), so the search goes on"
    ]
    assert "b-b is worth 4; 4 > 3, so min keeps 3" in [step.minimax for step in steps]
    # pruning at equality, as most lectures do: b stops after its first leaf
    _, steps = typed_steps(EQUAL, prune_equal=True)
    cuts = [step.minimax for step in steps if step.cut]
    assert cuts[0].endswith("min node b: 3 <= alpha 3, so max avoids it; 2 leaves pruned (its b, c)"), cuts


def test_steps_name_nodes_by_their_whole_path_and_reason_on_each_value() -> None:
    _, steps = typed_steps("[[3,12,8],[2,4,6],[14,5,2]]")
    entered = [step.minimax for step in steps if step.kind == "enter"]
    assert entered[:3] == [
        "enter the root (max node) with alpha -inf, beta +inf",
        "enter min node a with alpha -inf, beta +inf",
        "enter leaf a-a with alpha -inf, beta +inf",
    ]
    assert len(set(entered)) == len(entered)  # no two nodes named alike
    texts = [step.minimax for step in steps]
    assert "a-b is worth 12; 12 > 3, so min keeps 3" in texts
    assert "c is worth 2; 2 < 3, so max keeps 3" in texts  # c searched all its leaves: exact
    cut = next(step for step in steps if step.cut)
    assert cut.minimax_window == "at min node b: alpha 3 · beta 2 · min's best so far 2"
    assert steps[-2].minimax_window == "at the root (max node): alpha 3 · beta +inf · max's best so far 3"
    assert "b is worth at most 2; 2 < 3, so max keeps 3" in texts  # b's cut makes its 2 a bound


def true_values(tree: Any) -> dict[tuple[int, ...], int]:
    """Every node's value by plain minimax, by its path, from max's side."""
    values: dict[tuple[int, ...], int] = {}

    def visit(node: Any, path: tuple[int, ...], maximising: bool) -> int:
        if isinstance(node, int):
            values[path] = node
            return node
        below = [visit(child, (*path, at), not maximising) for at, child in enumerate(node)]
        values[path] = max(below) if maximising else min(below)
        return values[path]

    visit(tree, (), True)
    return values


@pytest.mark.parametrize("prune_equal", [False, True])
def test_what_a_value_proves_is_true_and_a_fully_searched_node_is_exact(prune_equal: bool) -> None:
    # "worth at most 2" said of a min node that searched all its leaves, "at least 9" of a
    # max node that searched both: a node with nothing pruned below it is worth exactly its value
    import ast

    bounded = 0
    for tree in random_trees(150):
        trace = SearchTrace()
        textbook_search(get_game("tree").new_position(tree), trace=trace, prune_equal=prune_equal)
        proven = proven_bounds(trace)
        truth = true_values(ast.literal_eval(tree))
        for node in trace.nodes:
            value = node.value if is_max(trace, node) else -(node.value or 0)
            true = truth[tuple(node.path)]  # type: ignore[index]
            bound = proven[node.index]
            if not is_max(trace, node):  # from max's side
                bound = {Bound.LOWER: Bound.UPPER, Bound.UPPER: Bound.LOWER}.get(bound, bound)
            below = [other for other in trace.nodes if other.path[: len(node.path)] == node.path]
            if not any(other.cut_moves for other in below):
                assert bound == Bound.EXACT, (tree, node.path)
            assert {Bound.EXACT: true == value, Bound.LOWER: true >= value, Bound.UPPER: true <= value}[bound]
            bounded += bound != Bound.EXACT
    assert bounded > 50
