"""One web server for the web app's tests, on a free port, with the compiled kernels loaded
(the session's warm-up put them on disk) before the first test."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from negamax.core.score import from_node
from negamax.core.types import SearchLimits
from negamax.games import get_game
from negamax.parallel.book import open_shipped_book
from negamax.search import solve

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from negamax.viz.web.app import create_app
from negamax.viz.web.searches import Searches
from negamax.viz.web.server import BackgroundServer

DATA = Path(__file__).resolve().parents[2] / "data"
CONNECT4 = get_game("connect4")
COMPILED = ("connect4", "chess", "tictactoe", "draughts")


def end_game_cases(count: int) -> list[tuple[str, int]]:
    """Pons' End-Easy positions (moves, score), from his benchmark set."""
    lines = (DATA / "Test_L3_R1").read_text().split("\n")[:count]
    return [(moves, int(score)) for moves, score in (line.split() for line in lines)]


def column_scores(moves: str) -> dict[str, int]:
    """Each column's exact value in Pons' convention, by the pure-Python solver."""
    position = CONNECT4.new_position(moves)
    scores = {}
    for move in position.legal_moves():
        child = position.copy()
        child.play(move)
        if child.is_terminal():
            value = -from_node(child.terminal_value(), 1)
        else:
            value = -from_node(solve(child, SearchLimits(), backend="python").score, 1)
        scores[CONNECT4.move_text(position, move)] = CONNECT4.game_score(position, value)
    return scores


@dataclass
class Web:
    url: str
    searches: Searches

    def post(self, path: str, body: Any, timeout: float = 60) -> tuple[int, Any]:
        """The status and decoded JSON answer of a POST."""
        request = urllib.request.Request(
            self.url + path.lstrip("/"), json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def get(self, path: str, timeout: float = 60) -> tuple[int, Any]:
        """The status and decoded JSON answer of a GET."""
        try:
            with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=timeout) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def events(self, body: Any, timeout: float = 60, path: str = "api/think") -> list[tuple[str, Any]]:
        """The Server-Sent Events a request streams (a think by default), in order."""
        request = urllib.request.Request(
            self.url + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=timeout) as response:
            text = response.read().decode()
        events = []
        for block in text.split("\n\n"):
            lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and line[0] != ":")
            if "event" in lines:
                events.append((lines["event"], json.loads(lines["data"])))
        return events


@pytest.fixture(scope="session")
def web() -> Iterator[Web]:
    app = create_app(book=open_shipped_book)  # as negamax serve: Connect 4's first plies answered at once
    with BackgroundServer(app) as server:
        searches: Searches = app.app.state.searches
        for name in COMPILED:  # as the page opening each game would
            searches.prepare(get_game(name))
        deadline = time.monotonic() + 300
        while not all(searches.ready(name) for name in COMPILED) and time.monotonic() < deadline:
            time.sleep(0.1)
        yield Web(server.url, searches)


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SCREENSHOTS = Path(__file__).resolve().parents[3] / ".artifacts" / "screenshots"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (CI installs it; without it, and outside CI,
    the browser tests are skipped)."""
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("CI installs chromium (.ci/run)")
        pytest.skip("Debian's chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any, web: Web) -> Iterator[Any]:
    """A fresh page on the app; a script error on it fails the test."""
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    refused = "the server responded with a status of 4"  # a refusal the page shows is not a script error
    yield page
    page.close()
    assert not [error for error in errors if refused not in error], errors


@pytest.fixture(scope="module")
def tree_web() -> Iterator[Web]:
    """A server for typed trees only: no game's kernel is loaded for them (the ``web``
    fixture loads four, and puts its tests in the numba suite)."""
    app = create_app()
    with BackgroundServer(app) as server:
        yield Web(server.url, app.app.state.searches)


def checked_page(browser: Any, allowed: str | None = None) -> Iterator[Any]:
    """A fresh page at 1280x800; a script error on it fails the test, except a console
    error holding ``allowed`` (a refusal the page shows is not one)."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    yield page
    page.close()
    assert not [error for error in errors if allowed is None or allowed not in error], errors


@pytest.fixture
def tree_page(browser: Any) -> Iterator[Any]:
    """A fresh page at 1280x800; a script error on it fails the test."""
    yield from checked_page(browser)


def assert_no_overlap(page: Any, texts: str = "#tree text", at_least: int = 20) -> None:
    """No two of a drawing's labels shown (a tree's moves, values, pruned counts, badges) overlap."""
    boxes = page.evaluate(
        f"[...document.querySelectorAll('{texts}')].filter(t => t.textContent && !t.closest('.future'))"
        ".map(t => { const b = t.getBoundingClientRect(); return [t.textContent, b.left, b.top, b.right, b.bottom]; })"
    )
    assert len(boxes) > at_least
    for at, (text, left, top, right, bottom) in enumerate(boxes):
        for other, other_left, other_top, other_right, other_bottom in boxes[at + 1 :]:
            apart = right <= other_left or other_right <= left or bottom <= other_top or other_bottom <= top
            assert apart, (text, other)


def screenshot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


@dataclass
class Compiling:
    """A server whose tic-tac-toe kernel is being compiled (by a stand-in that waits for
    ``release``), as on a machine's first start."""

    web: Web
    release: threading.Event


@pytest.fixture
def compiling(monkeypatch: pytest.MonkeyPatch) -> Iterator[Compiling]:
    from negamax.search import searcher, warmup

    release = threading.Event()
    monkeypatch.setattr(searcher, "_LOADED", set())  # nothing loaded in this process yet
    monkeypatch.setattr(warmup, "kernels_on_disk", lambda game: False)
    monkeypatch.setattr(warmup, "mark_on_disk", lambda game: None)
    monkeypatch.setattr(warmup, "_compile_in_child", lambda name, stop: release.wait(60))
    app = create_app()
    with BackgroundServer(app) as server:
        yield Compiling(Web(server.url, app.app.state.searches), release)
        release.set()


@pytest.fixture(scope="module")
def plain_web() -> Iterator[Web]:
    """A server that loads no game's kernel, for tests that never ask the engine to move
    (the ``web`` fixture loads four)."""
    app = create_app(prepare=False)
    with BackgroundServer(app) as server:
        yield Web(server.url, app.app.state.searches)
