"""The alpha-beta exercise in a real Chromium: a typed tree drawn with its leaves and nothing
the search found, the student's three answers (pruned leaves tapped, the leaves evaluated in
order, the root's value) graded as an alpha-beta written here says, each wrong answer told
where, the answer shown only when asked for, then the search itself step by step."""

from __future__ import annotations

import json
import math
import random
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.viz.web.conftest import Web, assert_no_overlap

pytest.importorskip("fastapi")

SHOTS = Path("/work/notes/shots/exercise")
CLASSIC = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
LEAVES = "[...document.querySelectorAll('#exercise-tree g.leaf')]"


@dataclass
class Answer:
    pruned: list[str]  # the leaves' keys ("1.2": the root's second child's third), left to right
    order: list[int]  # the leaves' values, as evaluated
    root: int


def alpha_beta(tree: Any) -> Answer:
    """CS188's alpha-beta in its max/min form: children left to right, a max node stops once
    its value is above beta, a min node once below alpha (never at equality)."""
    evaluated: list[tuple[str, int]] = []

    def value(node: Any, path: tuple[int, ...], alpha: float, beta: float, maximising: bool) -> float:
        if isinstance(node, int):
            evaluated.append((".".join(map(str, path)), node))
            return node
        best = -math.inf if maximising else math.inf
        for at, child in enumerate(node):
            found = value(child, (*path, at), alpha, beta, not maximising)
            if maximising:
                best = max(best, found)
                if best > beta:
                    break
                alpha = max(alpha, best)
            else:
                best = min(best, found)
                if best < alpha:
                    break
                beta = min(beta, best)
        return best

    root = value(tree, (), -math.inf, math.inf, True)
    done = {key for key, _ in evaluated}
    return Answer([key for key, _ in leaves(tree) if key not in done], [leaf for _, leaf in evaluated], int(root))


def leaves(tree: Any, path: tuple[int, ...] = ()) -> list[tuple[str, int]]:
    if isinstance(tree, int):
        return [(".".join(map(str, path)), tree)]
    return [leaf for at, child in enumerate(tree) for leaf in leaves(child, (*path, at))]


def random_tree(draw: random.Random, depth: int) -> Any:
    """A tree of 2 or 3 children a node, leaves at uneven depths, small values (ties too)."""
    if depth == 0 or (depth < 3 and draw.random() < 0.2):
        return draw.randint(-5, 12)
    return [random_tree(draw, depth - 1) for _ in range(draw.randint(2, 3))]


def open_tree(page: Any, web: Web, tree: Any) -> None:
    page.goto(f"{web.url}#game=tree&start={urllib.parse.quote(json.dumps(tree))}&moves=")
    page.wait_for_selector("#exercise-check:not([disabled])")


def answer(page: Any, pruned: list[str], order: list[int] | str, root: int | str) -> dict[str, tuple[str, str]]:
    """Taps the leaves ``pruned``, types the order and the root's value, checks: each part's
    verdict ("right" or "wrong") and words."""
    page.click("#exercise-again")
    for key in pruned:
        page.click(f"#exercise-tree g.leaf[data-leaf='{key}']")
    page.fill("#exercise-order", order if isinstance(order, str) else " ".join(map(str, order)))
    page.fill("#exercise-root", str(root))
    page.click("#exercise-check")
    rows = page.evaluate(
        "[...document.querySelectorAll('#exercise-result li')].map(li => [li.className, li.textContent])"
    )
    return {classes.split()[0]: (classes.split()[1], text) for classes, text in rows}


def nothing_found_shown(page: Any) -> None:
    """The tree as drawn before the answer: leaf values only, no value inside, nothing pruned."""
    assert page.text_content("#exercise-tree g.inner[data-path=''] text") == "?"
    assert page.locator("#exercise-tree g.inner text").count() == 1  # the root's "?" only
    assert page.locator("#exercise-tree .pruned, #exercise-tree text.order").count() == 0
    assert page.is_hidden("#exercise-solution")


def test_the_example_trees_and_typed_ones_graded_as_an_alpha_beta_written_here(tree_page: Any, tree_web: Web) -> None:
    page, web = tree_page, tree_web
    open_tree(page, web, [[1, 2], [3, 4]])
    examples = page.evaluate(
        "[...document.querySelectorAll('#exercise-example option')].map(o => [o.value, o.textContent])"
    )
    assert len(examples) >= 5 and examples[0][0] == ""  # "your tree", then the examples
    seen_pruned = []
    for value, name in examples[1:]:
        before = page.input_value("#start")
        page.select_option("#exercise-example", value)
        # picking an example types its tree: the position box, the link and the drawing (the
        # box waited on till it changes, and the link till it holds it: the last tree's ready at once)
        page.wait_for_function("before => document.getElementById('start').value !== before", arg=before)
        page.wait_for_function(
            "decodeURIComponent(location.hash).includes(document.getElementById('start').value.replaceAll(' ', ''))"
        )
        page.wait_for_selector("#exercise-check:not([disabled])")
        tree = json.loads(page.input_value("#start"))
        assert urllib.parse.unquote(page.evaluate("location.hash")).count(json.dumps(tree, separators=(",", ":"))) == 1
        drawn = page.evaluate(f"{LEAVES}.map(g => [g.dataset.leaf, Number(g.querySelector('text.value').textContent)])")
        assert [tuple(leaf) for leaf in drawn] == leaves(tree), name
        nothing_found_shown(page)
        right = alpha_beta(tree)
        verdicts = answer(page, right.pruned, right.order, right.root)
        assert {part: verdict for part, (verdict, _) in verdicts.items()} == dict.fromkeys(
            ("pruned", "order", "root"), "right"
        ), (name, verdicts)
        assert page.input_value("#exercise-example") == value
        seen_pruned.append(len(right.pruned))
        page.click("#exercise-again")  # for the next example, the select's change starts anew
    assert 0 in seen_pruned and max(seen_pruned) >= 4  # one prunes nothing, one a lot
    # typed trees, not among the examples: a leaf equal to alpha (searched on), uneven depths
    typed = [[[3, 12, 8], [3, 4, 6], [2, 5, 14]], [[3, [5, 1]], [[2, 8], 4], 6], [[[5, -1], [0, 7]], [[-2, 9], 3]]]
    for tree in typed + [random_tree(random.Random(seed), 4) for seed in range(3)]:
        open_tree(page, web, tree)
        assert page.input_value("#exercise-example") == ""
        right = alpha_beta(tree)
        verdicts = answer(page, right.pruned, right.order, right.root)
        assert all(verdict == "right" for verdict, _ in verdicts.values()), (tree, verdicts)
    # alpha-beta's answer where it cuts at equality is not the textbook's
    open_tree(page, web, [[3, 12, 8], [3, 4, 6], [2, 5, 14]])
    verdicts = answer(page, ["1.1", "1.2", "2.1", "2.2"], "3 12 8 3 2", 3)
    assert verdicts["pruned"] == ("wrong", "Pruned leaves: not right; marked but evaluated: bb (4), bc (6).")
    assert verdicts["order"][1].endswith("at the 5th leaf: your 5th leaf, 2, is not the search's.")
    assert verdicts["root"] == ("right", "Root value: right, 3.")


def test_a_wrong_answer_said_where_then_the_answer_and_the_search(tree_page: Any, tree_web: Web) -> None:
    page, web = tree_page, tree_web
    open_tree(page, web, CLASSIC)
    right = alpha_beta(CLASSIC)  # 4 and 6 pruned under b; 3 12 8 2 14 5 2; worth 3
    assert right.pruned == ["1.1", "1.2"]
    # 12 marked though evaluated, 6 not marked though pruned; the order alpha-beta would give
    # if min's b went on; a min node's value for the root's
    verdicts = answer(page, ["0.1", "1.1"], "3 12 8 2 4 14 5 2", 2)
    assert verdicts["pruned"] == (
        "wrong",
        "Pruned leaves: not right; marked but evaluated: ab (12); pruned but not marked: bc (6).",
    )
    assert verdicts["order"] == (
        "wrong",
        "Order: not right; it first differs at the 5th leaf: your 5th leaf, 4, is not the search's.",
    )
    assert verdicts["root"] == ("wrong", "Root value: not right (you wrote 2).")
    rings = page.evaluate(f"{LEAVES}.filter(g => g.classList.contains('wrong')).map(g => g.dataset.leaf)")
    assert rings == ["0.1", "1.2"]
    nothing_found_shown(page)  # the right root value only once asked for
    shoot(page, "graded-wrong")
    # a shorter order is told where it stops; the answer shown, then hidden again
    verdicts = answer(page, right.pruned, right.order[:3], right.root)
    assert verdicts["order"] == (
        "wrong",
        "Order: not right; it first differs at the 4th leaf: yours stops after 3 leaves, the search goes on.",
    )
    assert verdicts["pruned"][0] == verdicts["root"][0] == "right"
    page.click("#exercise-answer")
    assert page.text_content("#exercise-tree g.inner[data-path=''] text") == str(right.root)
    assert page.text_content("#exercise-solution") == (
        "The search evaluates 3 12 8 2 14 5 2 in this order (numbered under the leaves), prunes bb (4), bc (6),"
        " and the root is worth 3."
    )
    numbers = page.evaluate(f"{LEAVES}.map(g => g.querySelector('text.order')?.textContent ?? '')")
    assert numbers == ["1", "2", "3", "4", "", "", "5", "6", "7"]
    assert_no_overlap(page, "#exercise-tree text", at_least=10)
    assert (
        page.evaluate(f"{LEAVES}.filter(g => g.classList.contains('pruned')).map(g => g.dataset.leaf)") == right.pruned
    )
    # the pruned leaves' values greyed, the evaluated ones not
    fills = page.evaluate(f"{LEAVES}.map(g => getComputedStyle(g.querySelector('text.value')).fill)")
    assert [fill == "rgb(152, 162, 179)" for fill in fills] == [number == "" for number in numbers]
    page.click("#exercise-answer")
    nothing_found_shown(page)
    # the retry graded right, then the search that explains it, from the textbook trace
    verdicts = answer(page, right.pruned, right.order, right.root)
    assert [verdict for verdict, _ in verdicts.values()] == ["right"] * 3
    assert verdicts["root"][1] == "Root value: right, 3."
    shoot(page, "graded-right")
    page.click("#exercise-search")
    page.wait_for_selector("#stepper:not([hidden])")
    assert page.input_value("#trace-algorithm") == "textbook" and page.input_value("#tree-view") == "minimax"
    assert page.input_value("#step-number") == "1"  # the search opens at its first step, to follow
    page.click("#step-done")
    assert page.text_content("#tree g.node[data-path=''] text.value") == "3"
    assert page.text_content("#tree-note").startswith("value 3,")  # exact: no "guess" about a whole tree
    # the exercise is on a typed tree's root: gone once a move is played, or in another game
    page.click("#moves button >> nth=0")
    page.wait_for_selector("#exercise", state="hidden")
    page.select_option("#game", "nim")
    page.wait_for_function("location.hash.startsWith('#game=nim')")
    assert page.is_hidden("#exercise")


def shoot(page: Any, name: str) -> None:
    """The exercise at 1280x800 and on a phone (390x844): no label on another, nothing wider than the phone."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(f"document.getElementById('exercise-tree').getBoundingClientRect().width <= {width}")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert_no_overlap(page, "#exercise-tree text", at_least=10)
        page.locator("#exercise").evaluate("section => section.scrollIntoView()")
        page.screenshot(path=str(SHOTS / f"{name}-{width}x{height}.png"))
    page.set_viewport_size({"width": 1280, "height": 800})


def test_a_tree_too_big_for_the_exercise_is_never_drawn_not_even_at_a_resize(tree_page: Any, tree_web: Web) -> None:
    page = tree_page
    open_tree(page, tree_web, CLASSIC)
    assert page.locator("#exercise-tree g.leaf").count() == 9
    big = [list(range(41)), list(range(41))]  # 82 leaves: one more than an exercise takes
    page.goto(f"{tree_web.url}#game=tree&start={urllib.parse.quote(json.dumps(big))}&moves=")
    page.wait_for_function("document.getElementById('exercise-status').textContent.includes('82 leaves')")
    assert page.locator("#exercise-tree g.leaf").count() == 0
    page.set_viewport_size({"width": 900, "height": 800})  # a resize draws the tree again
    page.wait_for_timeout(300)
    assert page.locator("#exercise-tree g.leaf").count() == 0, "the refused tree drawn, its leaves tappable"
    assert page.is_disabled("#exercise-check")
