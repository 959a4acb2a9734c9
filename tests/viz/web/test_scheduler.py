"""The scheduler: each request's time counts from its arrival, and a request whose time
ran out while it waited still gets a quick search."""

from __future__ import annotations

import threading
import time

from negamax.games import get_game
from negamax.viz.web.scheduler import MARGIN_SECONDS, QUICK_SECONDS, Scheduler
from negamax.viz.web.searches import Searches


def test_the_time_counts_from_the_arrival_not_from_the_submission() -> None:
    scheduler = Scheduler(cores=1)
    try:
        # a request that spent half of its second being replayed has half a second left
        arrived = time.perf_counter() - 0.5
        granted = scheduler.submit(lambda seconds: seconds, 1.0, arrived).result(10)
        assert QUICK_SECONDS <= granted <= 1.0 - 0.5 - MARGIN_SECONDS
        # and one whose time went by before it was submitted still gets a quick search
        late = scheduler.submit(lambda seconds: seconds, 1.0, time.perf_counter() - 2.0).result(10)
        assert late == QUICK_SECONDS
    finally:
        scheduler.close()


def test_a_request_whose_time_ran_out_gets_a_one_ply_answer() -> None:
    # dozens of these at once must each end in time: one ply, not a search the clock stops
    searches = Searches(backend="python")
    try:
        game = get_game("chess")
        position = game.new_position(None)
        done = searches.think(game, position, QUICK_SECONDS, threading.Event(), lambda item: None)
        legal = {game.move_text(position, move) for move in position.legal_moves()}
        assert done["depth"] == 1 and done["best"] in legal
    finally:
        searches.close()
