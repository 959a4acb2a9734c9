"""The stepper's steps on the textbook tree: each node entered and backed up once, the
window as it narrows, and the cut-off with its reason and the moves it prunes."""

from __future__ import annotations

from negamax.core.types import SearchLimits
from negamax.games import get_game
from negamax.search import search
from negamax.search.trace import SearchTrace
from negamax.viz.labels import move_labels, pruned_labels
from negamax.viz.steps import Step, visit_steps
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
    assert cuts[0].text.endswith("Cut-off: -2 >= beta -3, so the opponent avoids 1; 2 moves pruned (1 2)")
    assert steps[0].text == "enter the root with the window [-inf, +inf]"
    assert steps[-1].text == "the root is searched: worth 3"


def test_plain_negamax_has_no_window_and_no_cut_off() -> None:
    _, steps = textbook_steps("negamax")
    assert all(step.alpha == step.beta == "" and not step.cut for step in steps)
    assert len(steps) == 2 * 13  # the whole tree: the root, 3 inner nodes, 9 leaves


def test_a_player_who_moves_again_keeps_the_value() -> None:
    # Kalah: pit 3 of 4 seeds ends in the mover's store, who moves again
    game = get_game(f"{oracle.EXAMPLE}:Kalah")
    position = game.new_position("start")
    trace = SearchTrace()
    search(position, SearchLimits(depth=3), algorithm="negamax", trace=trace)
    steps = visit_steps(trace, move_labels(trace, game, position), pruned_labels(trace, game, position))
    again = [step for step in steps if "who moves again" in step.text]
    assert any(step.text.startswith("3 is worth ") for step in again)
    for node in trace.nodes:  # each value backs up unnegated exactly where the player stays
        if node.children:
            children = [trace.nodes[index] for index in node.children]
            worth = [child.value if child.player == node.player else -(child.value or 0) for child in children]
            assert node.value == max(worth)


def test_the_minimax_wording_of_the_cut_off_is_from_max_side() -> None:
    # the same cut as a lecture words it: min's 2 is at most max's alpha 3 (alpha-beta
    # cuts at equality, hence <=); the window from max's side, min's beta falling to 2
    _, steps = textbook_steps("alphabeta")
    cut = next(step for step in steps if step.cut)
    assert (cut.minimax_alpha, cut.minimax_beta, cut.minimax_best) == ("3", "2", "2")
    assert cut.minimax.endswith("min node 1: 2 <= alpha 3, so max avoids it; 2 leaves pruned (its 1, 2)")
    assert steps[0].minimax == "enter the root (max node) with alpha -inf, beta +inf"
    assert steps[1].minimax == "enter 0 (min node) with alpha -inf, beta +inf"
    assert steps[-1].minimax == "the root (max node) is worth 3"
    assert len([step for step in steps if "avoids" in step.minimax]) == 1
