"""The move list as an analysis board keeps it, in a real Chromium: a move played from an
earlier position starts a variation and keeps the moves after it, a variation's move shows
its position, the arrow keys walk the game, a line typed as the start is listed and taken
back, a link keeps the variations, and PGN writes and reads them in parentheses. No game's
kernel is loaded: the engine is not asked to move."""

from __future__ import annotations

import json
import urllib.parse
from typing import Any

from tests.viz.web.conftest import Web, screenshot
from tests.viz.web.test_page import PLAYED, moves_in_url
from tests.viz.web.test_page_solution_and_engine_panel import VALUES

MAIN_LINE = "[...document.querySelectorAll('#history li > button')].map(b => b.textContent)"
VARIATIONS = "[...document.querySelectorAll('#history li > .variation')].map(v => v.textContent)"


def opened(page: Any, web: Web, game: str, moves: str = "", start: str = "", board: str = "#board svg") -> None:
    """The game opened from a link, the engine's replies off."""
    page.goto("about:blank")
    page.goto(f"{web.url}#game={game}&start={urllib.parse.quote(start)}&moves={moves}")
    page.wait_for_selector(board)
    page.wait_for_function(f"{PLAYED} === {len([move for move in moves.split(',') if move])}")
    page.uncheck("#autoplay")


def shown(page: Any, moves: list[str]) -> None:
    """Waits until the page stands on the position after ``moves``: its link says so, and
    its board and move list are drawn for it."""
    expected = ",".join(moves)
    page.wait_for_function(
        "expected => (new URLSearchParams(location.hash.slice(1)).get('moves') ?? '') === expected"
        " && document.getElementById('history').dataset.line === expected",
        arg=expected,
    )


def click_cell(page: Any, cell: int, moves: list[str]) -> None:
    """A tic-tac-toe cell clicked, and the position after it shown."""
    page.click(f"#board rect.cell[data-move='{cell}']")
    shown(page, moves)


def back_to_the_second_move(page: Any, web: Web) -> None:
    """Tic-tac-toe after 0 4 8, the page gone back to the position after 4."""
    opened(page, web, "tictactoe", "0,4,8")
    page.click("#history button >> text=4")
    shown(page, ["0", "4"])


def test_a_move_from_an_earlier_position_starts_a_variation_and_keeps_the_later_moves(
    tree_page: Any, plain_web: Web
) -> None:
    page = tree_page
    back_to_the_second_move(page, plain_web)
    assert page.evaluate(PLAYED) == 3  # the move after it is kept
    click_cell(page, 8, ["0", "4", "8"])  # the move already played there is followed, not doubled
    assert page.evaluate(PLAYED) == 3 and page.evaluate(VARIATIONS) == []
    page.click("#history button >> text=4")
    shown(page, ["0", "4"])
    click_cell(page, 2, ["0", "4", "2"])  # another move: a variation
    click_cell(page, 6, ["0", "4", "2", "6"])
    assert page.evaluate(MAIN_LINE) == ["0", "4", "8"]  # the main line stays the main line
    assert page.evaluate(VARIATIONS) == ["(2. 2 6)"]
    assert page.locator("#history .variation button.current").text_content() == "6"
    cells = "[...document.querySelectorAll('#moves button')].map(b => b.textContent)"  # the free cells
    page.click("#history li > button >> text=8")  # the main line's move: its position
    shown(page, ["0", "4", "8"])
    assert "8" not in page.evaluate(cells) and "2" in page.evaluate(cells)
    page.click("#history .variation button >> text=2")  # the variation's: its position
    shown(page, ["0", "4", "2"])
    assert "2" not in page.evaluate(cells) and "8" in page.evaluate(cells)
    screenshot(page, "tictactoe-variation")

    # the link keeps the variation, and the move the page stands on
    link = page.evaluate("location.href")
    page.goto("about:blank")
    page.goto(link)
    page.wait_for_function(f"{PLAYED} === 5")
    assert page.evaluate(MAIN_LINE) == ["0", "4", "8"] and page.evaluate(VARIATIONS) == ["(2. 2 6)"]
    assert moves_in_url(page) == ["0", "4", "2"]
    assert page.locator("#history button.current").text_content() == "2"

    page.click("#promote")  # the variation becomes the main line, the old one a variation
    page.wait_for_function(f"{MAIN_LINE}.join(' ') === '0 4 2 6'")
    assert page.evaluate(VARIATIONS) == ["(2. 8)"] and moves_in_url(page) == ["0", "4", "2"]
    assert page.is_disabled("#promote") and page.is_disabled("#delete-line")  # on the main line now
    page.click("#history .variation button >> text=8")
    shown(page, ["0", "4", "8"])
    page.click("#delete-line")  # taken out: the page goes back to where it branched
    shown(page, ["0", "4"])
    assert page.evaluate(VARIATIONS) == [] and page.evaluate(MAIN_LINE) == ["0", "4", "2", "6"]


def test_the_arrow_keys_walk_the_game_along_the_line_walked(tree_page: Any, plain_web: Web) -> None:
    page = tree_page
    opened(page, plain_web, "connect4", "4,4,5,5")
    page.click("#history button >> text=5")  # the first 5: the variation starts after it
    shown(page, ["4", "4", "5"])
    page.click("#board rect.column[data-move='3']")
    shown(page, ["4", "4", "5", "3"])
    page.focus("#autoplay")  # a ticked box keeps no keys from the game
    page.keyboard.press("Home")
    shown(page, [])
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    shown(page, ["4", "4"])
    page.keyboard.press("End")  # along the line last walked: the variation
    shown(page, ["4", "4", "5", "3"])
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    shown(page, ["4", "4"])
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    shown(page, ["4", "4", "5", "3"])
    page.click("#history li > button >> nth=3")  # the main line's last move
    shown(page, ["4", "4", "5", "5"])
    page.keyboard.press("ArrowLeft")
    shown(page, ["4", "4", "5"])
    page.keyboard.press("ArrowRight")
    shown(page, ["4", "4", "5", "5"])
    page.keyboard.press("ArrowRight")  # the end: nothing further
    page.focus("#start")  # the keys belong to a field being typed in
    page.keyboard.press("Home")
    page.keyboard.press("ArrowLeft")
    page.wait_for_timeout(300)
    assert moves_in_url(page) == ["4", "4", "5", "5"]


def test_a_line_typed_as_the_start_is_listed_and_taken_back(tree_page: Any, plain_web: Web) -> None:
    page = tree_page
    opened(page, plain_web, "connect4", board="#board svg rect.column")
    page.fill("#start", "4455")
    page.click("#set")
    shown(page, ["4", "4", "5", "5"])
    assert page.evaluate(MAIN_LINE) == ["4", "4", "5", "5"]
    assert "&start=&" in page.evaluate("location.hash")
    page.click("#undo")
    shown(page, ["4", "4", "5"])
    assert page.evaluate(PLAYED) == 3
    opened(page, plain_web, "chess", board="#board svg rect.a1")
    page.fill("#start", "startpos moves e2e4 e7e5 g1f3")
    page.click("#set")
    shown(page, ["e2e4", "e7e5", "g1f3"])
    page.wait_for_function(f"{MAIN_LINE}.join(' ') === 'e4 e5 Nf3'")
    page.fill("#start", "3,4,5")  # not a line: the start as typed
    opened(page, plain_web, "nim", board="#board svg")
    page.fill("#start", "3,4,5")
    page.click("#set")
    page.wait_for_function("location.hash.includes('start=3%2C4%2C5')")
    assert page.evaluate(PLAYED) == 0 and not page.is_visible("#error")


def test_pgn_writes_the_variations_in_parentheses_and_reads_them_back(tree_page: Any, plain_web: Web) -> None:
    page = tree_page
    opened(page, plain_web, "chess", "e2e4,e7e5,g1f3", board="#board svg rect.a1")
    page.click("#history button >> text=e4")
    shown(page, ["e2e4"])
    page.click("#board rect[data-square=c7]")
    page.click("#board rect[data-square=c5]")
    shown(page, ["e2e4", "c7c5"])
    page.click("#pgn")
    page.wait_for_function("document.getElementById('pgn-text').value.includes('1. e4')")
    assert "1. e4 e5 ( 1... c5 ) 2. Nf3" in page.input_value("#pgn-text")

    page.fill("#pgn-text", "1. d4 d5 (1... Nf6 2. c4 (2. Nf3 g6) e6) 2. c4 *")
    page.click("#pgn-load")
    page.wait_for_function(f"{PLAYED} === 8")
    assert moves_in_url(page) == ["d2d4", "d7d5", "c2c4"]  # the main line's end
    page.wait_for_function(f"{VARIATIONS}.join() === '(1… Nf6 2. c4 (2. Nf3 g6) 2… e6)'")  # named in SAN
    page.click("#history .variation button >> text=g6")
    shown(page, ["d2d4", "g8f6", "g1f3", "g7g6"])
    page.click("#pgn")
    page.wait_for_function("document.getElementById('pgn-text').value.includes('1. d4')")
    assert "1. d4 d5 ( 1... Nf6 2. c4 ( 2. Nf3 g6 ) 2... e6 ) 2. c4" in page.input_value("#pgn-text")


def test_undo_takes_back_the_last_move_and_steps_back_over_a_move_with_moves_after_it(
    tree_page: Any, plain_web: Web
) -> None:
    page = tree_page
    back_to_the_second_move(page, plain_web)
    page.click("#undo")  # 4 has a move after it: it stays, the page steps back
    shown(page, ["0"])
    assert page.evaluate(MAIN_LINE) == ["0", "4", "8"]
    click_cell(page, 2, ["0", "2"])
    assert page.evaluate(VARIATIONS) == ["(1… 2)"]
    page.click("#undo")  # the variation's last move, with nothing after it: taken back
    shown(page, ["0"])
    assert page.evaluate(VARIATIONS) == [] and page.evaluate(PLAYED) == 3
    page.keyboard.press("Home")
    shown(page, [])
    click_cell(page, 1, ["1"])  # a variation of the first move: the main line resumes after it
    assert page.text_content("#history li") == "0(1. 1)1… 4"
    assert page.locator("#history li > .resume").text_content() == "1… "


def test_the_engine_replies_and_the_solution_answer_in_the_variation_shown(tree_page: Any, plain_web: Web) -> None:
    page = tree_page
    back_to_the_second_move(page, plain_web)
    page.check("#autoplay")
    page.click("#board rect.cell[data-move='2']")  # a variation; the engine answers in it
    page.wait_for_function("document.querySelectorAll('#history .variation button').length === 2", timeout=30_000)
    reply = page.locator("#history .variation button.current").text_content() or ""
    assert reply.endswith(" (engine)") and page.evaluate(MAIN_LINE) == ["0", "4", "8"]
    shown(page, ["0", "4", "2", reply.removesuffix(" (engine)")])
    page.uncheck("#autoplay")
    page.check("#solution")  # every free cell of the variation's position valued
    page.wait_for_function(f"Object.keys({VALUES}).length === 5 && !Object.values({VALUES}).includes('…')")
    page.click("#history li > button >> text=8")  # back on the main line: its own free cells
    page.wait_for_function(f"Object.keys({VALUES}).length === 6 && !Object.values({VALUES}).includes('…')")
    assert "8" not in page.evaluate(VALUES) and "2" in page.evaluate(VALUES)
    page.click("#history .variation button >> text=2")
    shown(page, ["0", "4", "2"])
    with page.expect_request("**/api/trace") as traced:  # the search traced is the variation's
        page.click("#trace")
    assert json.loads(traced.value.post_data or "{}")["moves"] == ["0", "4", "2"]
    page.wait_for_function("document.getElementById('tree-note').textContent.includes('nodes')")
