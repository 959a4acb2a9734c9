"""The server probed as ``negamax serve`` runs, in a process of its own: malformed, short,
slow, oversized and random requests each get a 4xx in time, many idle connections of one
client do not lock others out, 50 searches at once each end within their cap and a
second, and the server's memory stays under 300 MB throughout."""

from __future__ import annotations

import json
import random
import select
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

pytestmark = pytest.mark.fuzz

pytest.importorskip("fastapi")

MEMORY_LIMIT_KB = 300 * 1024


@dataclass
class Server:
    host: str
    port: int
    process: subprocess.Popen[str]

    def peak_memory_kb(self) -> int:
        with open(f"/proc/{self.process.pid}/status") as status:
            fields = dict(line.split(":", 1) for line in status)
        return int(fields["VmHWM"].split()[0])

    def exchange(self, raw: bytes, wait: float = 0.0, timeout: float = 10.0) -> tuple[int, float]:
        """Send ``raw`` (waiting ``wait`` s before closing the sending side), and return the
        status of the answer and the seconds it took from the last byte sent."""
        with socket.create_connection((self.host, self.port), timeout=timeout) as connection:
            connection.sendall(raw)
            sent = time.monotonic()
            answer = b""
            while b"\r\n" not in answer:
                chunk = connection.recv(4096)
                if not chunk:
                    break
                answer += chunk
            elapsed = time.monotonic() - sent
        return int(answer.split(b" ", 2)[1]), elapsed

    def call(self, path: str, body: dict[str, object] | None = None) -> dict[str, object]:
        """The JSON answer to a GET of ``path``, or to a POST of ``body`` to it."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"http://{self.host}:{self.port}{path}", data, {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=60) as answer:
            result: dict[str, object] = json.loads(answer.read())
        return result

    def wait_until_prepared(self, games: list[dict[str, object]], limit: float = 1800.0) -> None:
        """Open each of ``games`` as a page does, and wait until each is searched by the
        engine it will keep (its kernel loaded, or compiled by another process on a cold
        cache: minutes that would take a core from the searches measured)."""
        names = sorted({str(game["game"]) for game in games})
        for game in games:
            self.call("/api/state", game)
        deadline = time.monotonic() + limit
        while names:
            statuses = {name: self.call(f"/api/engine?game={name}")["status"] for name in names}
            names = [name for name, status in statuses.items() if status not in ("compiled", "python")]
            assert time.monotonic() < deadline, f"not prepared after {limit:g} s: {statuses}"
            time.sleep(1.0)

    def think(self, game: dict[str, object], seconds: float, client: str = "127.0.0.1") -> tuple[str, float, bytes]:
        """Ask for an engine move of ``seconds`` in ``game`` from the loopback address
        ``client`` and read the stream to its end: how it ended (``done`` or the status
        line), the seconds it took, and the stream."""
        body = json.dumps({**game, "seconds": seconds}).encode()
        started = time.monotonic()
        with socket.create_connection((self.host, self.port), timeout=60, source_address=(client, 0)) as connection:
            connection.sendall(post("/api/think", body))
            received = b""
            while b"event: done" not in received and b"event: error" not in received:
                chunk = connection.recv(65536)
                if not chunk:
                    break
                received += chunk
        outcome = "done" if b"event: done" in received else received.split(b"\r\n", 1)[0].decode()
        return outcome, time.monotonic() - started, received

    @classmethod
    def start(cls) -> Server:
        """``negamax serve`` on a free port, in a process of its own."""
        process = subprocess.Popen(
            [sys.executable, "-m", "negamax", "serve", "--port", "0"], stdout=subprocess.PIPE, text=True
        )
        assert process.stdout is not None
        line = process.stdout.readline()  # serving on http://127.0.0.1:PORT/ (Ctrl-C to stop)
        address = line.split("http://", 1)[1].split("/", 1)[0]
        host, port = address.rsplit(":", 1)
        return cls(host, int(port), process)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


SEARCH_GAMES: list[dict[str, object]] = [
    {"game": "chess", "moves": ["e2e4"]},
    {"game": "draughts"},
    {"game": "connect4", "moves": ["4"]},
    {"game": "tictactoe"},
    {"game": "nim", "start": "7,9,11,13"},
]
"""A position of each game to ask engine moves in."""


def post(path: str, body: bytes, length: str | None = None) -> bytes:
    length = str(len(body)) if length is None else length
    head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
    return head.encode() + body


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    running = Server.start()
    yield running
    running.stop()


WHY_LIST = {
    "a body that is not UTF-8": post("/api/state", b"\xff\xfe{\x81}"),
    "a JSON array 30,000 deep": post("/api/state", b"[" * 30_000 + b"]" * 30_000),
    "Content-Length: abc": post("/api/state", b"{}", length="abc"),
    "Content-Length: -1": post("/api/state", b"{}", length="-1"),
    "a body shorter than declared": post("/api/state", b'{"game": "nim"}', length="100"),
    "a trace of 100 Nim heaps of 1,000": post(
        "/api/trace", json.dumps({"game": "nim", "start": ",".join(["1000"] * 100)}).encode()
    ),
    "12,900 Nim heaps": post("/api/state", json.dumps({"game": "nim", "start": ",".join(["5"] * 12_900)}).encode()),
    "a body over 64 KB": post("/api/state", b" " * 100_000),
    "a declared length over 64 KB": post("/api/state", b"{}", length="10000000"),
}


@pytest.mark.parametrize("name", list(WHY_LIST))
def test_each_bad_request_gets_a_4xx(server: Server, name: str) -> None:
    status, _ = server.exchange(WHY_LIST[name])
    assert 400 <= status < 500, (name, status)


@pytest.mark.timing
@pytest.mark.parametrize("name", list(WHY_LIST))
def test_each_bad_request_is_answered_within_a_second(server: Server, name: str) -> None:
    status, seconds = server.exchange(WHY_LIST[name])
    assert 400 <= status < 500 and seconds < 1.0, (name, status, seconds)


def test_random_bodies_get_4xx_never_a_5xx(server: Server) -> None:
    rng = random.Random(7)
    pieces = [
        b"{",
        b"}",
        b"[",
        b"]",
        b'"game"',
        b":",
        b",",
        b'"chess"',
        b'"moves"',
        b"1e999",
        b"null",
        b"\x00",
        b"\xff",
    ]
    for _ in range(60):
        body = b"".join(rng.choice(pieces) for _ in range(rng.randrange(0, 40)))
        path = rng.choice(["/api/state", "/api/think", "/api/trace", "/api/solution"])
        status, _ = server.exchange(post(path, body))
        assert 400 <= status < 500, (path, body, status)


def test_a_slow_client_is_cut_off(server: Server) -> None:
    head = post("/api/state", b"", length="40")
    with socket.create_connection((server.host, server.port), timeout=10) as connection:
        connection.sendall(head)
        sent = 0
        try:
            while sent < 40:  # one byte every half second: each in time, the whole too slow
                connection.sendall(b" ")
                sent += 1
                if select.select([connection], [], [], 0.5)[0]:
                    break  # the server answered
        except OSError:
            pass  # the server answered and closed
        answer = connection.recv(4096)
    assert answer.startswith(b"HTTP/1.1 408")
    assert sent < 40, "the answer came only once the whole body had arrived"


def test_many_idle_clients_do_not_lock_others_out(server: Server) -> None:
    """300 idle connections from one address, more than the server has places: past its
    cap they are refused, and another client is served."""
    idle = [
        socket.create_connection((server.host, server.port), timeout=10, source_address=("127.0.0.2", 0))
        for _ in range(300)
    ]
    try:
        status, _ = server.exchange(post("/api/state", b'{"game": "tictactoe"}'))
        assert status == 200
    finally:
        for connection in idle:
            connection.close()


def test_memory_stays_under_300_mb_through_the_bad_requests(server: Server) -> None:
    """The server's peak memory once it has taken every bad request three times over: the
    load is sent here, so that the test measures it whatever ran before (or alone)."""
    for _ in range(3):
        for name, raw in WHY_LIST.items():
            status, _ = server.exchange(raw)
            assert 400 <= status < 500, (name, status)
    assert server.peak_memory_kb() < MEMORY_LIMIT_KB


def fifty_searches(server: Server, seconds: float) -> list[tuple[str, float]]:
    """(how each ended, its seconds) for 50 searches of ``seconds`` started at once."""
    results: list[tuple[str, float]] = []

    def think(index: int) -> None:
        # fifty users, each from an address of its own (one address has at most 32 connections)
        outcome, elapsed, _ = server.think(SEARCH_GAMES[index % len(SEARCH_GAMES)], seconds, f"127.0.0.{10 + index}")
        results.append((outcome, elapsed))

    threads = [threading.Thread(target=think, args=(index,)) for index in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def test_fifty_searches_at_once_all_end_with_a_move(server: Server) -> None:
    results = fifty_searches(server, 1.0)
    assert len(results) == 50 and all(outcome == "done" for outcome, _ in results), results


@pytest.mark.timing
def test_fifty_searches_at_once_each_end_within_its_cap_and_a_second(server: Server) -> None:
    server.wait_until_prepared(SEARCH_GAMES)  # the promise is a prepared server's
    results = fifty_searches(server, 1.0)
    assert len(results) == 50 and all(outcome == "done" for outcome, _ in results), results
    slowest = max(elapsed for _, elapsed in results)
    assert slowest < 1.0 + 1.0, slowest
