"""The page's engine at full strength in Connect 4, at the page's default think time (1 s):
it plays the only winning move of positions where Pascal Pons' solver finds exactly one
(``tests/data/connect4_one_winning_move.txt``), and says it is a proven win."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from negamax.games import get_game
from negamax.parallel.book import open_shipped_book
from negamax.viz.web.searches import Searches

pytestmark = [pytest.mark.timing, pytest.mark.kernels("connect4")]

DATA = Path(__file__).resolve().parents[2] / "data" / "connect4_one_winning_move.txt"
PAGE_SECONDS = 1.0
"""The think time the page offers first (``index.html``)."""


def test_the_engine_plays_the_only_winning_move() -> None:
    game = get_game("connect4")
    searches = Searches(book=open_shipped_book)
    searches.prepare(game)
    deadline = time.monotonic() + 300
    while not searches.ready(game.name):
        assert time.monotonic() < deadline, "the Connect 4 kernel was not ready within 300 s"
        time.sleep(0.1)
    cases = [line.split() for line in DATA.read_text().splitlines()]
    assert len(cases) >= 20 and {len(moves) for moves, *_ in cases} >= set(range(9, 21)) - {14}
    missed = []
    for moves, column, *_ in cases:
        answer = searches.think(game, game.new_position(moves), PAGE_SECONDS, threading.Event(), lambda _: None)
        if answer["best"] != column or not answer["score_text"].startswith("win"):
            missed.append((moves, column, answer["best"], answer["score_text"]))
    assert not missed
