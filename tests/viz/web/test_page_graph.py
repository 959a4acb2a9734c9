"""The evaluation graph, in a real Chromium: "evaluate the game" puts a point at every
position of the line shown, each the score the server answered for it (a finished game's end
its exact value), a score the page got before is kept and not asked again, clicking a point
shows its position, and a variation's line has its own graph. No game's kernel is loaded:
tic-tac-toe's searches are short in pure Python."""

from __future__ import annotations

import json
from typing import Any

from tests.viz.web.conftest import Web, screenshot
from tests.viz.web.test_page_variations import click_cell, opened, shown

POINTS = (
    "[...document.querySelectorAll('#graph .point')]"
    ".map(p => [Number(p.dataset.ply), Number(p.dataset.advantage), p.dataset.exact === '1'])"
)
GRAPH_LINE = "document.getElementById('graph').dataset.line"
LINE = ["0", "3", "1", "4", "2"]  # X takes the top row: the game ends after the fifth move


def evaluated(page: Any) -> None:
    page.click("#evaluate")
    page.wait_for_function("document.getElementById('graph-status').textContent.includes('evaluated')", timeout=60_000)


def answers_kept(page: Any) -> dict[tuple[str, ...], list[dict[str, Any]]]:
    """The final event of each search the page asks, by the moves of its position (the
    stream passed on whole once it has ended)."""
    answers: dict[tuple[str, ...], list[dict[str, Any]]] = {}

    def keep(route: Any) -> None:
        response = route.fetch()
        text = response.text()
        done = [block for block in text.split("\n\n") if block.startswith("event: done")]
        if done:
            moves = tuple(json.loads(route.request.post_data or "{}")["moves"])
            answers.setdefault(moves, []).append(json.loads(done[-1].split("data: ", 1)[1]))
        route.fulfill(response=response, body=text)

    page.route("**/api/think", keep)
    return answers


def test_evaluating_the_game_draws_the_servers_score_at_every_position(tree_page: Any, plain_web: Web) -> None:
    page = tree_page
    opened(page, plain_web, "tictactoe", ",".join(LINE))
    answers = answers_kept(page)
    page.click("#history button >> text=3")  # Analyse there first: the graph keeps its score
    shown(page, LINE[:2])
    page.click("#analyse")
    page.wait_for_function("document.querySelector('#graph .point[data-ply=\"2\"]')", timeout=30_000)
    assert [ply for ply, _, _ in page.evaluate(POINTS)] == [2, 5]  # and the game's end, from its state
    page.wait_for_function("document.getElementById('turn').className !== 'thinking'")
    page.wait_for_timeout(200)  # the analysis's last answer

    evaluated(page)
    points = page.evaluate(POINTS)
    assert [ply for ply, _, _ in points] == list(range(len(LINE) + 1))  # every position of the line
    # one search a position, the analysed one not asked again, the game's end not searched
    assert sorted(answers) == sorted(tuple(LINE[:ply]) for ply in range(len(LINE)))
    assert all(len(asked) == 1 for asked in answers.values())
    for ply, advantage, exact in points[:-1]:
        answer = answers[tuple(LINE[:ply])][0]
        assert advantage == answer["advantage"] and exact == answer["solved"], ply
    status, end = plain_web.post("/api/state", {"game": "tictactoe", "moves": LINE})
    assert status == 200 and end["result"] == "X wins"
    assert points[-1] == [len(LINE), 1, True]  # the finished game: X's win, exact, at the top
    assert page.get_attribute("#graph .marker", "data-ply") == "2"  # the position shown
    screenshot(page, "tictactoe-graph")

    page.click("#graph .point[data-ply='4']")  # a point: its position
    shown(page, LINE[:4])
    assert page.get_attribute("#graph .marker", "data-ply") == "4"
    assert page.locator("#history button.current").text_content() == "4"
    page.click("#graph .hit[data-ply='0']", position={"x": 70, "y": 8})  # its column, easier to tap: the start
    shown(page, [])


def test_a_variation_has_its_own_graph(tree_page: Any, plain_web: Web) -> None:
    page = tree_page
    opened(page, plain_web, "tictactoe", ",".join(LINE))
    evaluated(page)
    page.click("#history button >> text=3")
    shown(page, LINE[:2])
    click_cell(page, 8, ["0", "3", "8"])  # a variation: its line is the graph's
    page.wait_for_function(f"{GRAPH_LINE} === '0,3,8'")
    assert [ply for ply, _, _ in page.evaluate(POINTS)] == [0, 1, 2]  # the positions it shares
    with page.expect_request("**/api/think") as asked:
        evaluated(page)
    assert json.loads(asked.value.post_data or "{}")["moves"] == ["0", "3", "8"]
    assert "1 position evaluated" in (page.text_content("#graph-status") or "")
    assert [ply for ply, _, _ in page.evaluate(POINTS)] == [0, 1, 2, 3]
    page.click("#graph .point[data-ply='1']")  # back along the variation: the line stays
    shown(page, ["0"])
    assert page.evaluate(GRAPH_LINE) == "0,3,8"
    page.click("#history li > button >> text=2")  # the main line's end: its graph again
    shown(page, LINE)
    page.wait_for_function(f"{GRAPH_LINE} === '{','.join(LINE)}'")
    assert len(page.evaluate(POINTS)) == len(LINE) + 1


def test_a_new_game_stops_the_evaluation_and_a_phone_keeps_the_graph_narrow(browser: Any, plain_web: Web) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        opened(page, plain_web, "tictactoe", ",".join(LINE))
        asked: list[Any] = []
        page.on("request", lambda request: asked.append(request) if request.url.endswith("/api/think") else None)
        page.click("#evaluate")
        page.wait_for_function("document.getElementById('graph-status').textContent.startsWith('evaluating: 1 of 5')")
        page.click("#new")
        shown(page, [])
        page.wait_for_function("document.getElementById('evaluate').textContent === 'Evaluate the game'")
        before = len(asked)
        page.wait_for_timeout(1500)
        assert len(asked) == before < 5  # no search asked after the new game
        assert page.evaluate(POINTS) == [] and page.evaluate(GRAPH_LINE) == ""
        assert "evaluated" not in (page.text_content("#graph-status") or "")
        box = page.locator("#graph").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        page.close()


def test_the_solution_puts_its_positions_exact_value_on_the_graph(tree_page: Any, plain_web: Web) -> None:
    page = tree_page
    opened(page, plain_web, "tictactoe", "0,3")
    page.check("#solution")
    page.wait_for_function("document.querySelector('#graph .point[data-ply=\"2\"]')", timeout=30_000)
    status, answer = plain_web.post("/api/solution", {"game": "tictactoe", "moves": ["0", "3"]})
    assert status == 200
    best = max(item["advantage"] for item in answer["moves"])  # X to move: the best for X
    assert page.evaluate(POINTS) == [[2, best, True]] and best == 1  # O's 3 loses: X wins


def test_the_solutions_value_is_the_best_moves_by_its_exact_score(tree_page: Any, plain_web: Web) -> None:
    """X to move can win at once (5) or later: every win has the same clipped advantage,
    so the graph's text must be the quickest win's, the mover's best exact score."""
    page = tree_page
    moves = ["2", "4", "8", "7"]
    opened(page, plain_web, "tictactoe", ",".join(moves))
    page.check("#solution")
    point = "#graph .point[data-ply='4']"
    page.wait_for_function(f'document.querySelector("{point}")', timeout=30_000)
    status, answer = plain_web.post("/api/solution", {"game": "tictactoe", "moves": moves})
    assert status == 200
    best = max(answer["moves"], key=lambda item: item["score"])  # the mover's own score
    wins = {item["text"] for item in answer["moves"] if item["advantage"] == 1}
    assert len(wins) > 1  # wins of different lengths: the advantage alone cannot tell them apart
    status, state = plain_web.post("/api/state", {"game": "tictactoe", "moves": moves})
    assert status == 200
    title = page.text_content(f"{point} title") or ""
    assert title.endswith(f": {best['text']} for {state['players'][state['turn']]} (solved)"), title


def test_the_heights_and_the_finished_values_are_as_the_guide_says(tree_page: Any, plain_web: Web) -> None:
    """docs/web-app.md: +1.00 in chess (an advantage of 0.1) a little under a fifth of the way
    up, +3.00 halfway; a finished game's advantage 1, 0 or -1, or another end's value / 1000."""
    page = tree_page
    page.goto(plain_web.url)
    heights = page.evaluate(
        "async () => { const { height } = await import('/static/graph.js'); return [0.1, 0.3, 1, -1].map(height); }"
    )
    assert 0.15 < heights[0] < 0.2 and abs(heights[1] - 0.5) < 0.01 and heights[2:] == [1, -1]
    status, won = plain_web.post("/api/state", {"game": "tictactoe", "moves": LINE})
    assert status == 200 and won["advantage"] == 1
    status, leaf = plain_web.post("/api/state", {"game": "tree", "start": "[[5, 7], [3]]", "moves": ["0", "0"]})
    assert status == 200 and leaf["result"] and leaf["advantage"] == 0.005  # 5 for the first player
