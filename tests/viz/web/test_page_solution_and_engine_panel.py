"""The page in a real Chromium: the solution drawn on every board that can be solved
(tic-tac-toe's free cells, Nim's objects, as Connect 4's columns), the engine panel on an
answer from the book, and the compile banner counting on past its estimate."""

from __future__ import annotations

import re
from typing import Any

import pytest

from negamax.search import warmup
from tests.viz.web.conftest import Compiling, Web, screenshot
from tests.viz.web.test_page import PLAYED, open_game

VALUES = (
    "Object.fromEntries([...document.querySelectorAll('#board text.solution')]"
    ".map(t => [t.dataset.move, t.textContent]))"
)
RINGS = (
    "Object.fromEntries([...document.querySelectorAll('#board circle.token')]"
    ".map(t => [t.dataset.move, t.classList.value]))"
)


def test_tictactoe_solution_writes_each_free_cells_value(page: Any, web: Web) -> None:
    open_game(page, web, "tictactoe", moves="4")
    page.uncheck("#autoplay")
    page.check("#solution")
    page.wait_for_function(f"Object.values({VALUES}).length === 8 && !Object.values({VALUES}).includes('…')")
    # O against X in the centre: a corner draws; an edge loses, X forking it in six plies
    corners, edges = ("0", "2", "6", "8"), ("1", "3", "5", "7")
    assert page.evaluate(VALUES) == {**dict.fromkeys(corners, "draw"), **dict.fromkeys(edges, "loss in 6")}
    assert "free cell" in (page.text_content("#solution-note") or "") and page.is_visible("#solution-note")
    screenshot(page, "tictactoe-solution")
    page.click("#board rect.cell[data-move='0']")  # a value written in a cell leaves it playable
    page.wait_for_function(f"{PLAYED} === 2")


def test_nim_solution_rings_each_object_with_what_taking_it_leads_to(page: Any, web: Web) -> None:
    open_game(page, web, "nim")  # heaps of 3, 4 and 5
    page.uncheck("#autoplay")
    page.check("#solution")
    page.wait_for_function(f"Object.values({RINGS}).every(c => / (win|loss)$/.test(c))", timeout=30_000)
    rings = page.evaluate(RINGS)
    # 3 ^ 4 ^ 5 = 2: the one winning move leaves heaps whose xor is 0, taking 2 from the first
    assert {move for move, classes in rings.items() if classes.endswith("win")} == {"1:2"}
    assert len(rings) == 12 and "green ring" in (page.text_content("#solution-note") or "")
    title = page.evaluate("document.querySelector(\"#board circle.token[data-move='1:2'] title\").textContent")
    assert re.fullmatch(r"take 2 from heap 1: win in \d+", title), title
    screenshot(page, "nim-solution")


def test_an_answer_from_the_book_says_so(page: Any, web: Web) -> None:
    open_game(page, web, "connect4")
    page.click("#analyse")
    page.wait_for_function("document.getElementById('stats').textContent.trim() !== ''", timeout=30_000)
    assert page.text_content("#stats") == "solved · from the book"
    assert re.fullmatch(r"win in \d+ for red", page.text_content("#score") or ""), page.text_content("#score")


@pytest.mark.kernels("tictactoe")
def test_the_compile_banner_counts_on_past_its_estimate(
    browser: Any, compiling: Compiling, monkeypatch: pytest.MonkeyPatch
) -> None:
    began = warmup.compiling_since
    # as on a busy machine: the compilation began long before its estimate says it ends
    monkeypatch.setattr(warmup, "compiling_since", lambda name: None if began(name) is None else began(name) - 1000)
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    try:
        page.goto(f"{compiling.web.url}#game=tictactoe")
        page.wait_for_function("/s so far/.test(document.getElementById('engine-note').textContent)")
        note = page.text_content("#engine-note") or ""
        counted = re.search(r"(\d+) s so far, estimated (\d+) s", note)
        assert counted and int(counted[1]) >= 1000 > int(counted[2]), note
        screenshot(page, "engine-compiling-past-its-estimate")
    finally:
        page.close()
