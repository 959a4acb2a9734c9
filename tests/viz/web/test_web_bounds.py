"""The web app's smaller findings of issue 72 (finding 7): a solution of more moves than
one solve scores, and a server stopped with streams open."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from negamax.games import get_game
from negamax.search.searcher import MULTIPV
from negamax.viz.web.searches import Searches

ROOT = Path(__file__).resolve().parents[3]


def test_a_solution_of_more_moves_than_one_solve_scores_lists_them_all() -> None:
    """Nim's ``100,100,57`` failed: "multipv must be a whole number from 1 to 256 (moves),
    not 257", a setting the user never gave."""
    game = get_game("nim")
    position = game.new_position("100,100,57")
    moves = list(position.legal_moves())
    assert len(moves) == 257 > MULTIPV.high
    listed = Searches(backend="python").solution(game, position, 0.3, threading.Event())
    assert [item["move"] for item in listed] == [game.move_text(position, move) for move in moves]
    assert {item["source"] for item in listed} <= {"solver", "timeout", "end"}


def test_a_solution_of_a_few_moves_is_still_exact() -> None:
    game = get_game("nim")
    position = game.new_position("1,2")
    listed = Searches(backend="python").solution(game, position, 2.0, threading.Event())
    # Bouton: a move wins exactly when it leaves heaps whose XOR is zero (1,1)
    assert {item["move"]: item["score"] > 0 for item in listed} == {"1:1": False, "2:2": False, "2:1": True}


@pytest.mark.fuzz
def test_a_server_stopped_with_streams_open_logs_no_traceback() -> None:
    """19 tracebacks in the log when ``serve`` stopped with 9 streams open."""
    command = [sys.executable, "-m", "negamax", "serve", "--port", "0", "--backend", "python"]
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
    assert server.stdout is not None
    url = re.search(r"(http://\S+)", server.stdout.readline())[1]  # type: ignore[index]
    ended: list[str] = []

    def stream() -> None:
        body = json.dumps({"game": "chess", "seconds": 5}).encode()
        call = urllib.request.Request(url + "api/think", body, {"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(call, timeout=30) as response:
                ended.append(response.read().decode().rstrip().rsplit("\n\n", 1)[-1])
        except OSError as error:
            ended.append(repr(error))

    streams = [threading.Thread(target=stream) for _ in range(9)]
    for thread in streams:
        thread.start()
    time.sleep(1.5)
    server.send_signal(signal.SIGINT)
    _, err = server.communicate(timeout=30)
    for thread in streams:
        thread.join(30)
    assert "Traceback" not in err and "ERROR" not in err, err[-3000:]
    assert len(ended) == 9 and all("the server is stopping" in text for text in ended), ended
