"""What a student who knows minimax only in its max/min form found confusing in the textbook
view, in a real Chromium (issue 71's cold reading): a legend that explains only what the tree
shown can have, a node panel that follows the stepper and calls a value a bound only where
something was pruned below it, and a summary that calls no fully searched value a guess."""

from __future__ import annotations

from typing import Any

import pytest

from tests.viz.web.conftest import Web, assert_no_overlap
from tests.viz.web.test_page_exercise import answer, open_tree
from tests.viz.web.test_page_minimax import CLASSIC, step_to, traced

pytest.importorskip("fastapi")

THREE_PLIES = [[[3, 4], [5, 9]], [[1, 2], [0, 7]]]


def legend_shown(page: Any) -> list[str]:
    return page.evaluate(
        "[...document.querySelectorAll('#legend dt')].filter(dt => dt.offsetParent !== null)"
        ".map(dt => dt.textContent.trim())"
    )


def panel(page: Any) -> str:
    page.wait_for_timeout(200)  # the panel follows a hover after a moment
    return page.inner_text("#node-info")


def select(page: Any, path: str) -> str:
    page.click(f"#tree g.node[data-path='{path}'] .shape", force=True)
    return panel(page)


def test_the_legend_explains_only_the_view_and_the_marks_shown(tree_page: Any, tree_web: Web) -> None:
    page, web = tree_page, tree_web
    traced(page, web, CLASSIC)
    shown = " | ".join(legend_shown(page))
    for entry in ("max, min, leaf", "alpha, beta", "cut-off, ≤2 ≥5", "best line", "steps", "\N{MINUS SIGN}, +N"):
        assert entry in shown, shown
    # nothing of negamax, of games with wins and losses, of tables, Kalah or Monte Carlo
    for entry in ("whose turn", "[alpha, beta]", "value", "upper bound", "W3", "table", "moves again", "62%"):
        assert entry not in legend_shown(page), shown
    texts = page.inner_text("#legend")
    assert "max(\N{MINUS SIGN}child)" not in texts and "lower bound" not in texts
    # the marks a student meets: the current step's border, faded nodes, the shaded min node, the badge
    assert "purple border" in texts and "faded" in texts and "shaded" in texts and "folds its subtree" in texts
    assert "at most that value to max (≤2)" in texts  # a min node's cut: an upper bound, caused by alpha
    page.select_option("#tree-view", "negamax")
    shown = " | ".join(legend_shown(page))
    assert "whose turn" in shown and "[alpha, beta]" in shown and "max, min, leaf" not in shown, shown


def test_the_node_panel_follows_the_stepper_and_proves_bounds_only_past_a_cut(tree_page: Any, tree_web: Web) -> None:
    page, web = tree_page, tree_web
    traced(page, web, THREE_PLIES)
    # at the first step the root is being searched: nothing of the finished search shows
    assert "being searched" in panel(page) and "pruned" not in panel(page)
    step_to(page, "enter min node b ")
    text = panel(page)
    assert text.startswith("b\n") and "being searched" in text and "pruned" not in text, text
    step_to(page, "so max avoids it")
    page.click("#step-done")
    # what each dashed branch stands for: a leaf, or a move with two leaves under it
    labels = page.evaluate("[...document.querySelectorAll('#tree text.pruned-label')].map(t => t.textContent)")
    assert labels == ["1 leafpruned", "1 move(2 leaves)pruned"], labels
    assert_no_overlap(page)
    # b-a searched both its leaves (1, 2): exactly 2, whatever b's window; its leaves named in full
    text = select(page, "b a")
    assert text.startswith("b-a\n") and "worth exactly 2" in text and "something better" not in text, text
    # a-b cut after its 5: at least 5, min avoids it; b cut after b-a: at most 2, max avoids it
    text = select(page, "a b")
    assert "worth at least 5" in text and "so min avoids this node" in text, text
    text = select(page, "b")
    assert "worth at most 2" in text and "so max avoids this node" in text and "fell to" not in text, text
    assert "1 move searched, 3 nodes below" in text, text
    # the view switched: the panel says it again in that view's words
    page.select_option("#tree-view", "negamax")
    assert "a min node" not in panel(page) and "to move" in panel(page)


def test_a_typed_tree_searched_to_the_end_is_no_guess(tree_page: Any, tree_web: Web) -> None:
    page, web = tree_page, tree_web
    traced(page, web, CLASSIC)
    note = page.text_content("#tree-note") or ""
    assert note.startswith("value 3,") and "guess" not in note and "depth 0" not in note, note
    status, answer = web.post(
        "api/trace", {"game": "tree", "start": str(CLASSIC), "moves": [], "algorithm": "alphabeta"}
    )
    assert status == 200 and answer["value"] == "3"


def test_the_exercise_grades_by_the_rule_the_checkbox_says(tree_page: Any, tree_web: Web) -> None:
    page, web = tree_page, tree_web
    # min's first leaf in b equals alpha 3: the lecture's rule (alpha >= beta) prunes b's
    # other leaves, CS188's searches them
    tree = [[3, 12, 8], [3, 4, 6], [2, 5, 14]]
    open_tree(page, web, tree)
    assert page.is_visible("#prune-rule") and not page.is_checked("#prune-equal")  # CS188's, said so
    assert "only past the bound" in (page.text_content("#exercise-rule") or "")
    lecture = answer(page, ["1.1", "1.2", "2.1", "2.2"], [3, 12, 8, 3, 2], 3)
    assert lecture["order"][0] == "wrong" and lecture["pruned"][0] == "wrong", lecture
    with page.expect_response("**/api/trace"):  # the exercise's answers traced again by the rule
        page.check("#prune-equal")
    page.wait_for_selector("#exercise-check:not([disabled])")
    assert "at or below alpha" in (page.text_content("#exercise-rule") or "")
    lecture = answer(page, ["1.1", "1.2", "2.1", "2.2"], [3, 12, 8, 3, 2], 3)
    assert [verdict for verdict, _ in lecture.values()] == ["right"] * 3, lecture
