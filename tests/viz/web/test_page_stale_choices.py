"""The page in a real Chromium: what was chosen for one game or one position stays there.
The solution ticked in Connect 4 does not follow the page into games that cannot be
solved; a promotion box left open while another move is played never plays its piece in
the new position; a move the server refuses is taken back, and the page plays on."""

from __future__ import annotations

import json
from typing import Any

from tests.viz.web.conftest import Web, screenshot
from tests.viz.web.test_page import PLAYED, moves_in_url, open_game, solution_shown

PROMOTING = "k7/4P3/8/8/8/8/8/7K w - - 0 1"
"""White's pawn on e7 promotes on e8; each king far from the other."""
SETTLE_MS = 600
"""Long enough for a request the page would send after a move to be sent and answered (a
refused solution comes back in milliseconds): the test then looks for what it left."""


def asked_for_solutions(page: Any) -> list[str]:
    """The game of each solution the page asks the server for, from now on."""
    asked: list[str] = []
    page.on(
        "request",
        lambda request: (
            asked.append(json.loads(request.post_data or "{}").get("game", ""))
            if "/api/solution" in request.url
            else None
        ),
    )
    return asked


def play_chess_move(page: Any, start: str, end: str, played: int) -> None:
    page.click(f"#board rect[data-square={start}]")
    page.click(f"#board rect[data-square={end}]")
    page.wait_for_function(f"{PLAYED} === {played}", timeout=30_000)


def test_the_solution_ticked_in_connect4_stays_with_the_games_that_can_be_solved(page: Any, web: Web) -> None:
    open_game(page, web, "connect4")
    page.uncheck("#autoplay")
    page.check("#solution")
    solution_shown(page)
    asked = asked_for_solutions(page)

    page.select_option("#game", "chess")
    page.wait_for_selector("#board rect[data-square=e2]")
    play_chess_move(page, "e2", "e4", 1)
    page.wait_for_timeout(SETTLE_MS)
    assert not page.is_visible("#error"), page.text_content("#error")  # "chess cannot be solved exactly here"
    assert page.text_content("#solution-detail") == "" and not page.is_visible("#solution-note")
    assert not page.is_visible("#solution-toggle") and not page.is_checked("#solution")

    page.select_option("#game", "checkers")
    page.wait_for_selector("#board rect[data-square='11']")
    for square in ("11", "15"):  # Black opens 11-15
        page.click(f"#board rect[data-square='{square}']")
    page.wait_for_function(f"{PLAYED} === 1", timeout=30_000)
    page.wait_for_timeout(SETTLE_MS)
    assert not page.is_visible("#error"), page.text_content("#error")
    assert page.text_content("#solution-detail") == ""
    assert asked == [], asked  # nothing asked of a game that cannot be solved

    # each game keeps its own setting: tic-tac-toe's was never ticked, Connect 4's still is
    page.select_option("#game", "tictactoe")
    page.wait_for_selector("#board rect.cell")
    assert page.is_visible("#solution-toggle") and not page.is_checked("#solution")
    page.select_option("#game", "connect4")
    page.wait_for_selector("#board rect.column")
    assert page.is_checked("#solution") and solution_shown(page)
    assert asked == ["connect4"], asked


def test_a_promotion_box_left_open_closes_when_another_move_is_played(page: Any, web: Web) -> None:
    open_game(page, web, "chess", PROMOTING)
    page.uncheck("#autoplay")
    page.click("#board rect[data-square=e7]")
    page.click("#board rect[data-square=e8]")
    assert page.is_visible("#promotion")
    play_chess_move(page, "h1", "g1", 1)  # another move instead: the box is for e8 no more
    # its queen clicked now (a stale tap; a script where the box is closed) plays nothing:
    # e8=Q is not a move of Black's
    page.evaluate("document.querySelector('#promotion button[data-piece=q]').click()")
    page.wait_for_timeout(SETTLE_MS)
    assert moves_in_url(page) == ["h1g1"] and page.locator("#board svg").count() == 1
    assert not page.is_visible("#error") and page.is_enabled("#undo")
    assert page.is_hidden("#promotion")
    screenshot(page, "promotion-closed-by-another-move")

    play_chess_move(page, "a8", "b8", 2)  # the game goes on, and the promotion still works
    page.click("#board rect[data-square=e7]")
    page.click("#board rect[data-square=e8]")
    page.click("#promotion button[data-piece=q]")
    page.wait_for_function(f"{PLAYED} === 3")
    assert moves_in_url(page) == ["h1g1", "a8b8", "e7e8q"] and page.is_hidden("#promotion")


def test_a_move_the_server_refuses_is_taken_back_and_the_page_plays_on(page: Any, web: Web) -> None:
    open_game(page, web, "chess", PROMOTING)
    page.uncheck("#autoplay")

    def refuse_the_move(route: Any) -> None:
        if json.loads(route.request.post_data or "{}").get("moves"):
            route.fulfill(
                status=400, content_type="application/json", body=json.dumps({"error": "move 1 (h1g1): refused"})
            )
        else:
            route.continue_()

    page.route("**/api/state", refuse_the_move)
    page.click("#board rect[data-square=h1]")
    page.click("#board rect[data-square=g1]")
    page.wait_for_function("document.getElementById('error').textContent.includes('was not played')")
    page.wait_for_selector("#board svg")
    assert page.text_content("#error") == "h1g1 was not played: move 1 (h1g1): refused"
    assert moves_in_url(page) == [] and page.is_enabled("#go") and page.locator("#board.disabled").count() == 0
    page.unroute("**/api/state")
    play_chess_move(page, "h1", "g1", 1)
    assert moves_in_url(page) == ["h1g1"] and not page.is_visible("#error")
