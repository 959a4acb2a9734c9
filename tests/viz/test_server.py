"""The web app: its API answered over HTTP, then a whole game played in a real Chromium."""

from __future__ import annotations

import json
import os
import shutil
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from negamax.viz.server import serve

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    server = serve("127.0.0.1", 0)
    host, port = server.server_address[:2]
    yield f"http://{host}:{port}"
    server.shutdown()


def _post(url: str, data: dict[str, Any]) -> tuple[int, Any]:
    request = urllib.request.Request(url, json.dumps(data).encode(), {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_state_replays_moves_and_rejects_bad_input(base_url: str) -> None:
    status, state = _post(f"{base_url}/api/state", {"game": "tictactoe", "start": "", "moves": ["0", "4", "1"]})
    assert status == 200 and state["turn"] == 1 and "2" in state["moves"] and state["result"] is None
    for body, message in [
        ({"game": "chess", "moves": []}, "unknown game"),
        ({"game": "tictactoe", "moves": ["0", "0"]}, "already taken"),
        ({"game": "tictactoe", "moves": "0"}, "list"),
        ({"game": "connect4", "start": "4458", "moves": []}, "not a column"),
    ]:
        status, answer = _post(f"{base_url}/api/state", body)
        assert status == 400 and message in answer["error"]


def test_thinking_streams_iterations_then_a_move(base_url: str) -> None:
    with urllib.request.urlopen(f"{base_url}/api/think?game=tictactoe&moves=0,4&seconds=0.5", timeout=30) as stream:
        text = stream.read().decode()
    events = [block for block in text.split("\n\n") if block.strip()]
    assert events[0].startswith("event: iteration") and events[-1].startswith("event: done")
    done = json.loads(events[-1].split("data: ", 1)[1])
    assert done["best"] in [str(cell) for cell in (1, 2, 3, 5, 6, 7, 8)]
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{base_url}/api/think?game=tictactoe&seconds=60", timeout=30)
    assert refused.value.code == 400


def test_trace_of_a_small_game_is_an_svg(base_url: str) -> None:
    request = urllib.request.Request(
        f"{base_url}/api/trace", json.dumps({"game": "tictactoe", "moves": ["0", "4", "8"]}).encode()
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.headers["Content-Type"] == "image/svg+xml"
        assert response.read().startswith(b"<svg")


@pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"), reason="Debian's chromium is not installed")
def test_a_whole_game_in_chromium(base_url: str, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    assert CHROMIUM is not None, "CI installs chromium (.ci/run)"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        page = browser.new_page()
        page.goto(base_url + "/")
        page.wait_for_selector("#game option[value=tictactoe]", state="attached")
        page.select_option("#game", "tictactoe")
        page.select_option("#seconds", "0.2")
        page.click("#new")
        marks = "(document.querySelector('#board').textContent.match(/[XO]/g) || []).length"
        page.wait_for_selector("#moves button.move:not([disabled])")
        for _ in range(10):
            before = page.evaluate(marks)
            page.click("#moves button.move:not([disabled])")
            # our move and the engine's reply are on the board, or the game is over
            page.wait_for_function(
                f"document.querySelector('#result').textContent !== '' || "
                f"({marks} >= {before} + 2 && document.querySelector('#moves button.move:not([disabled])') !== null)",
                timeout=20_000,
            )
            if page.text_content("#result"):
                break
        page.click("#trace")
        page.wait_for_selector("#tree svg")
        result = page.text_content("#result")
        board = page.text_content("#board") or ""
        page.screenshot(path=str(tmp_path / "tictactoe.png"), full_page=True)
        browser.close()
    # The engine never loses tic-tac-toe: against our first-legal-move play it draws or wins.
    assert result in ("draw", "second player wins")
    assert board.count("X") >= 3 and board.count("O") >= 2
    assert (tmp_path / "tictactoe.png").stat().st_size > 5_000
