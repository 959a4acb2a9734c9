"""``negamax serve`` of deliberately broken plug-ins, as a user would run it (issue 72): random
requests of every endpoint for games that loop, raise, recurse, mutate, name their moves
at length or have a million of them. Every answer is JSON in one line, in time (its time
and a second's grace, plus a little), the built-in games stay answered, Ctrl-C stops the
server at once, and no worker process outlives it."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.fuzz

pytest.importorskip("fastapi")

ROOT = Path(__file__).resolve().parents[3]
BROKEN = ROOT / "tests" / "data" / "broken_games.py"
CLASSES = (
    "LoopsForever",
    "LoopsMoves",
    "RaisesKey",
    "Recurses",
    "HugeMoveNames",
    "ManyMoves",
    "Stones",
)
PATHS = ("/api/state", "/api/think", "/api/solution", "/api/solution/stream", "/api/trace", "/api/engine")
SLACK_SECONDS = 4.0
"""Beyond a request's time and the grace: a worker's dump, its kill, a loaded machine."""


def request(url: str, path: str, body: dict[str, object], timeout: float = 60) -> tuple[int, str]:
    if path == "/api/engine":
        call = urllib.request.Request(f"{url}api/engine?game={urllib.request.quote(str(body['game']))}")
    else:
        call = urllib.request.Request(
            url + path.lstrip("/"), json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
    try:
        with urllib.request.urlopen(call, timeout=timeout) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_broken_plugins_served_under_random_requests() -> None:
    names = [f"{BROKEN}:{name}" for name in CLASSES]
    command = [sys.executable, "-m", "negamax", "serve", "--port", "0", "--backend", "python"]
    for name in names:
        command += ["--game", name]
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
    try:
        assert server.stdout is not None
        url = re.search(r"(http://\S+)", server.stdout.readline())[1]  # type: ignore[index]
        deadline = time.monotonic() + 120  # two workers a game start
        while len(children(server.pid)) < 2 * len(names) and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(3)
        outcomes: dict[int, int] = {}
        slow: list[str] = []
        failed: list[str] = []
        lock = threading.Lock()

        def probe(number: int) -> None:
            try:
                checked(number)
            except Exception as error:  # a timeout too: a thread that dies unrecorded would pass
                with lock:
                    failed.append(f"{type(error).__name__}: {str(error)[:300]}")

        def checked(number: int) -> None:
            rng = random.Random(number)
            name, path = rng.choice(names), rng.choice(PATHS)
            seconds = rng.choice([0.1, 0.5, 1.0, 2.0])
            body: dict[str, object] = {"game": name, "moves": rng.choice([[], ["1"], ["2", "1"], ["x"]])}
            if path == "/api/think":
                body["seconds"] = seconds
            started = time.monotonic()
            status, text = request(url, path, body)
            took = time.monotonic() - started
            limit = {"/api/solution": 5.0, "/api/solution/stream": 15.0, "/api/trace": 3.0}.get(path, seconds)
            if path in ("/api/state", "/api/engine"):
                limit = 5.0
            with lock:
                outcomes[status] = outcomes.get(status, 0) + 1
                if took > limit + 1.0 + SLACK_SECONDS:
                    slow.append(f"{path} {name.rpartition(':')[2]} took {took:.1f} s")
            assert status in (200, 400, 422, 429), (path, name, status, text)
            if path.endswith("stream") or path == "/api/think":
                last = [block for block in text.split("\n\n") if block.startswith("event:")][-1]
                assert last.startswith(("event: done", "event: error")), text[-300:]
                assert len(text) < 1_000_000
            else:
                answer = json.loads(text)
                if status != 200:
                    assert set(answer) == {"error"} and "\n" not in answer["error"], answer
                    assert len(answer["error"]) < 600, answer

        for batch in range(6):
            threads = [threading.Thread(target=probe, args=(batch * 8 + index,)) for index in range(8)]
            for thread in threads:
                thread.start()
            status, _ = request(url, "/api/state", {"game": "tictactoe", "moves": ["4"]}, timeout=5)
            assert status == 200  # the built-in games are answered meanwhile
            for thread in threads:
                thread.join(60)
        if failed:  # the server's log says where a 500 came from
            server.send_signal(signal.SIGINT)
            try:
                _, err = server.communicate(timeout=15)
            except subprocess.TimeoutExpired:
                err = "(the server did not end within 15 s)"
            raise AssertionError(f"{failed}\nthe server's log ends:\n{err[-4000:]}")
        assert not slow, slow
        assert outcomes.get(422, 0) > 0 and outcomes.get(200, 0) > 0, outcomes
        workers = children(server.pid)
        assert workers
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=15)
        assert "Traceback" not in err, err[-2000:]
        deadline = time.monotonic() + 5
        while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(Path(f"/proc/{pid}").exists() for pid in workers), "a worker outlived the server"
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()
