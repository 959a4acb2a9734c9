"""The minimax view of a typed tree in a real Chromium, on the classic tree of AIMA's
figure 5.2: max and min nodes drawn apart, values from max's side equal to a plain minimax
written here, cut-offs worded as a lecture words them and marked only where a move was left
unsearched, moves named by letters, no label on another; the negamax view one click away."""

from __future__ import annotations

import urllib.parse
from pathlib import Path
from typing import Any

import pytest

from tests.viz.web.conftest import Web, assert_no_overlap, screenshot

pytest.importorskip("fastapi")

CLASSIC = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
SHOTS = Path("/work/notes/shots")
NODES = "[...document.querySelectorAll('#tree g.node')]"


def minimax(tree: Any, maximising: bool = True) -> int:
    """Plain minimax, every value from the first player's side."""
    if isinstance(tree, int):
        return tree
    values = [minimax(child, not maximising) for child in tree]
    return max(values) if maximising else min(values)


def expected_values(tree: Any) -> dict[str, int]:
    """The value of every node by its path of letters ('' the root), searched or not."""
    values: dict[str, int] = {}

    def visit(node: Any, path: str, maximising: bool) -> None:
        values[path] = minimax(node, maximising)
        if isinstance(node, list):
            for at, child in enumerate(node):
                visit(child, path + chr(ord("a") + at), not maximising)

    visit(tree, "", True)
    return values


def traced(page: Any, web: Web, tree: Any, prune_equal: bool = True) -> None:
    page.goto(f"{web.url}#game=tree&start={urllib.parse.quote(str(tree).replace(' ', ''))}&moves=")
    page.wait_for_selector("#board pre")
    page.select_option("#trace-algorithm", "textbook")
    page.set_checked("#prune-equal", prune_equal)
    with page.expect_response("**/api/trace"):  # this trace's, not one shown before
        page.click("#trace")
    page.wait_for_function("document.querySelector('#tree-note').textContent !== 'tracing…'")
    page.wait_for_selector("#stepper:not([hidden])")


def number(shown: str) -> int:
    """A node's value as drawn, a bound's "≤" or "≥" taken off."""
    return int(shown.lstrip("≤≥"))


def shown_nodes(page: Any) -> list[dict[str, Any]]:
    return page.evaluate(
        f"{NODES}.map(g => ({{ path: g.dataset.path.replaceAll(' ', ''),"
        " value: g.querySelector('text.value').textContent,"
        " classes: [...g.classList], shape: g.querySelector('.shape').tagName,"
        " points: g.querySelector('.shape').getAttribute('points') }))"
    )


def step_to(page: Any, words: str) -> str:
    """Steps forward from the first step until the step's text holds ``words``."""
    page.click("#step-first")
    total = int(page.text_content("#step-count") or "0")
    for _ in range(total):
        text = page.text_content("#step-text") or ""
        if words in text:
            return text
        page.click("#step-forward")
    raise AssertionError(f"no step says {words!r}")


def test_the_classic_tree_in_the_minimax_view(tree_page: Any, tree_web: Web) -> None:
    page, web = tree_page, tree_web
    traced(page, web, CLASSIC)
    assert page.input_value("#tree-view") == "minimax"  # the default in textbook mode
    assert page.is_hidden("#view-note")
    # the exercise is not spoiled: the tree opens at its first step, nothing backed up yet
    assert page.input_value("#step-number") == "1" and page.text_content("#step-text") == (
        "enter the root (max node) with alpha -inf, beta +inf"
    )
    assert [node["value"] for node in shown_nodes(page)].count("") == 10
    assert page.evaluate("document.querySelector('#tree').classList.contains('undecided')")
    page.click("#step-done")  # the finished search: the last step, said so
    total = page.text_content("#step-count")
    assert page.input_value("#step-number") == total and page.text_content("#step-text") == (
        "the root (max node) is worth 3"
    )
    assert not page.evaluate("document.querySelector('#tree').classList.contains('undecided')")
    nodes = shown_nodes(page)
    expected = expected_values(CLASSIC)
    by_path = {node["path"]: node for node in nodes}
    # every node searched, named by letters, worth what plain minimax says, from max's side
    assert set(by_path) == {"", "a", "aa", "ab", "ac", "b", "ba", "c", "ca", "cb", "cc"}
    for path, node in by_path.items():
        assert number(node["value"]) == expected[path], path
    # b's value a bound, as a lecture writes it; c searched every leaf: exactly 2
    assert by_path[""]["value"] == "3" and by_path["b"]["value"] == "≤2" and by_path["c"]["value"] == "2"
    # max and min nodes drawn apart: a triangle up, a triangle down, leaves as squares
    assert "max" in by_path[""]["classes"] and by_path[""]["shape"] == "polygon"
    for path in ("a", "b", "c"):
        assert "min" in by_path[path]["classes"] and by_path[path]["shape"] == "polygon"
        assert by_path[path]["points"] != by_path[""]["points"]
    leaves = [node for path, node in by_path.items() if len(path) == 2]
    assert all(node["shape"] == "rect" and "leaf" in node["classes"] for node in leaves)
    # only the second min node cut off (its b and c never searched); never a leaf
    assert [path for path, node in by_path.items() if "cut" in node["classes"] or "lower" in node["classes"]] == ["b"]
    assert page.text_content("#tree text.pruned-label") == "2 leavespruned"  # on two lines
    labels = page.evaluate(
        "[...document.querySelectorAll('#tree text.move:not(.pruned-label)')].map(t => t.textContent)"
    )
    assert sorted(labels) == ["a", "a", "a", "a", "b", "b", "b", "c", "c", "c"]
    # the third min node visits 14, 5, 2; the leaves in order
    body = {"game": "tree", "start": str(CLASSIC), "moves": [], "algorithm": "textbook"}
    status, answer = web.post("api/trace", body)
    assert status == 200 and [leaf["value"] for leaf in answer["leaves"]] == ["3", "12", "8", "2", "14", "5", "2"]
    # the cut-off as a lecture words it, node b marked from that step on
    step_to(page, "enter min node b ")
    assert "cut" not in page.get_attribute("#tree g.node[data-path='b']", "class")
    text = step_to(page, "2 leaves pruned")
    assert "cut" in page.get_attribute("#tree g.node[data-path='b']", "class")
    assert page.text_content("#tree g.node[data-path='b'] text.value") == "≤2"  # known from the cut on
    assert "min node b: 2 <= alpha 3, so max avoids it; 2 leaves pruned (its b, c)" in text, text
    assert page.get_attribute("#step-text", "class") == "cut"
    assert page.text_content("#step-window") == "at min node b: alpha 3 · beta 2 · min's best so far 2"
    assert "lower" not in (page.text_content("#step-text") or "")
    assert_no_overlap(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#tree").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "minimax-cutoff-1280x800.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.click("#fit")
    assert_no_overlap(page)
    page.locator("#step-text").evaluate("text => text.scrollIntoView()")
    page.screenshot(path=str(SHOTS / "minimax-cutoff-390x844.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    # the negamax view, one click away, with the sign flip explained once
    page.select_option("#tree-view", "negamax")
    assert page.is_visible("#view-note") and "\N{MINUS SIGN}3" in (page.text_content("#view-note") or "")
    page.click("#step-done")
    negamax = {node["path"]: node["value"] for node in shown_nodes(page)}
    assert negamax["a"] == "-3" and negamax["b"] == "-2" and negamax[""] == "3"
    assert step_to(page, "Cut-off at b:").count(">= beta -3") == 1
    page.screenshot(path=str(SHOTS / "negamax-cutoff-1280x800.png"))
    page.select_option("#tree-view", "minimax")
    assert page.is_hidden("#view-note")
    screenshot(page, "minimax-classic")


def test_a_max_node_cut_off_worded_from_max_side(tree_page: Any, tree_web: Web) -> None:
    page, web = tree_page, tree_web
    # three plies: max node ab cuts after its first leaf (5 past min's beta 4), min node b
    # after its first child (2 below max's alpha 4)
    tree = [[[3, 4], [5, 9]], [[1, 2], [0, 7]]]
    traced(page, web, tree)
    page.click("#step-done")
    nodes = {node["path"]: node for node in shown_nodes(page)}
    expected = expected_values(tree)
    for path, node in nodes.items():  # a cut node's value is a bound: at least (max), at most (min)
        shown = number(node["value"])
        if "cut" not in node["classes"]:
            assert shown == expected[path] and node["value"] == str(shown), path
        elif "max" in node["classes"]:
            assert shown <= expected[path] and node["value"] == f"≥{shown}", path
        else:
            assert shown >= expected[path] and node["value"] == f"≤{shown}", path
    assert nodes["ab"]["value"] == "≥5" and nodes["b"]["value"] == "≤2"
    text = step_to(page, "so min avoids it")
    assert "max node a-b: 5 >= beta 4, so min avoids it; 1 leaf pruned (its b)" in text, text
    assert [path for path, node in nodes.items() if "cut" in node["classes"]] == ["ab", "b"]


def all_step_texts(page: Any) -> list[str]:
    total = int((page.text_content("#step-count") or "0").replace(",", ""))
    texts = []
    page.click("#step-first")
    for _ in range(total):
        page.click("#step-forward")
        texts.append(page.text_content("#step-text") or "")
    return texts


def test_a_leaf_equal_to_alpha_searched_on_in_textbook_mode(tree_page: Any, tree_web: Web) -> None:
    page, web = tree_page, tree_web  # a typed tree needs no game's kernels
    # min's first leaf equals alpha there: the textbook searches on (CS188), alpha-beta cuts
    # (the exercise grades it: tests/viz/web/test_page_exercise.py)
    tree = "[[3,12,8],[3,4,6],[2,5,14]]"
    traced(page, web, tree, prune_equal=True)  # pruning at equality, as most lectures do
    texts = all_step_texts(page)
    assert any("min node b: 3 <= alpha 3, so max avoids it; 2 leaves pruned (its b, c)" in text for text in texts)
    traced(page, web, tree, prune_equal=False)  # the page's default: only past the bound (CS188)
    # the step where min's value equals alpha says why the search goes on, in both views
    texts = all_step_texts(page)
    said = [text for text in texts if "equals alpha" in text]
    assert said == [
        "b-a is worth 3, min's best so far; beta falls to 3; min's best 3 equals alpha 3: the rule chosen prunes"
        " only past alpha (3 < 3 is false), so the search goes on"
    ], said
    assert any("min node c: 2 < alpha 3, so max avoids it; 2 leaves pruned (its b, c)" in text for text in texts)
    screenshot(page, "textbook-graded")
    page.select_option("#tree-view", "negamax")
    texts = all_step_texts(page)
    assert any("the rule chosen prunes only past beta (>), so the search goes on" in text for text in texts), texts
    assert any(". Cut-off at " in text and "> beta" in text and ">= beta" not in text for text in texts)


def test_another_search_opens_in_negamax_with_minimax_a_switch_away(tree_page: Any, tree_web: Web) -> None:
    page, web = tree_page, tree_web
    page.goto(f"{web.url}#game=tree&start={urllib.parse.quote('[[3,12,8],[2,4,6],[14,5,2]]')}&moves=")
    page.wait_for_selector("#board pre")
    page.select_option("#trace-algorithm", "alphabeta")
    page.click("#trace")
    page.wait_for_selector("#stepper:not([hidden])")
    assert page.input_value("#tree-view") == "negamax" and page.is_visible("#view-note")
    negamax = {node["path"]: node for node in shown_nodes(page)}
    assert negamax["b"]["value"] == "-2" and negamax["b"]["shape"] == "circle"
    assert [path for path, node in negamax.items() if "lower" in node["classes"]] == ["b"]  # not the leaves
    page.select_option("#tree-view", "minimax")
    assert page.is_hidden("#view-note")
    shown = {node["path"]: node for node in shown_nodes(page)}
    expected = expected_values(CLASSIC)
    assert all(number(node["value"]) == expected[path] for path, node in shown.items())
    text = step_to(page, "so max avoids it")
    assert "min node b: 2 <= alpha 3, so max avoids it; 2 leaves pruned (its b, c)" in text, text
    assert_no_overlap(page)
