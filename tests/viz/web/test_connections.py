"""The server's connections: no client starves the others. A client over its cap of
connections is refused while others are served, the caps in all hold, idle and slow
request heads are closed after the header timeout, and a long replay runs off the event
loop. Each test runs a server of its own with short timeouts and small caps; the clients
are told apart by their loopback source addresses (127.0.0.2, 127.0.0.3, ...)."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import urllib.request
from collections.abc import Hashable, Iterator
from pathlib import Path
from typing import Any

import pytest

from negamax.core.score import WIN
from negamax.viz.web.app import create_app
from negamax.viz.web.connections import ConnectionLimits, client_key
from negamax.viz.web.server import BackgroundServer
from tests.viz.web.conftest import Web

LONG_CHESS_GAME = (Path(__file__).resolve().parents[2] / "data" / "chess" / "long_game.txt").read_text().split()
GATED = f"{__name__}:GatedGame"
REPLAY_STARTED = threading.Event()
RELEASE_REPLAY = threading.Event()


class Stones:
    """Take one stone at a time; whoever takes the last one wins."""

    def __init__(self, stones: int) -> None:
        self.stones, self.turn = stones, 0

    def legal_moves(self) -> list[int]:
        return [1] if self.stones else []

    def play(self, move: int) -> None:
        self.stones -= move
        self.turn ^= 1

    def undo(self, move: int) -> None:
        self.stones += move
        self.turn ^= 1

    def is_terminal(self) -> bool:
        return self.stones == 0

    def terminal_value(self) -> int:
        return -WIN

    def evaluate(self) -> int:
        return 0

    def key(self) -> Hashable:
        return self.stones, self.turn

    def player(self) -> int:
        return self.turn

    def copy(self) -> Stones:
        clone = Stones(self.stones)
        clone.turn = self.turn
        return clone


class GatedGame:
    """A game whose replay waits for the test to let it through, so that it holds its
    thread for as long as the test likes (served as ``GATED``, the same module)."""

    def new_position(self, text: str | None = None) -> Stones:
        return Stones(2_000)

    def parse_move(self, position: Any, text: str) -> int:
        REPLAY_STARTED.set()
        RELEASE_REPLAY.wait(60)
        return int(text)

    def move_text(self, position: Any, move: Hashable) -> str:
        return str(move)


@contextlib.contextmanager
def serving(limits: ConnectionLimits) -> Iterator[Web]:
    # in this process: the gated game's replay is held by an event of this test's
    app = create_app(backend="python", extra_games=(GATED,), prepare=False, isolate=False)
    with BackgroundServer(app, limits=limits) as server:
        yield Web(server.url, app.app.state.searches)


def address(web: Web) -> tuple[str, int]:
    host, port = web.url.removeprefix("http://").strip("/").rsplit(":", 1)
    return host, int(port)


def connect(web: Web, client: str) -> socket.socket:
    """A connection from the loopback address ``client`` (one client each)."""
    return socket.create_connection(address(web), timeout=10, source_address=(client, 0))


def request(web: Web, client: str, raw: bytes = b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n") -> tuple[int, bytes]:
    """The status and body of the answer to ``raw`` sent from ``client``."""
    with connect(web, client) as connection:
        connection.sendall(raw)
        return read_answer(connection)


def read_answer(connection: socket.socket) -> tuple[int, bytes]:
    """The status and body of the answer the server sends, read until it closes or the
    body is whole (a connection the server closed at once reads as status 0)."""
    answer = b""
    try:
        while True:
            chunk = connection.recv(65536)
            if not chunk:
                break
            answer += chunk
            head, _, body = answer.partition(b"\r\n\r\n")
            lengths = [line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
            if lengths and len(body) >= int(lengths[0].split(b":")[1]):
                break
    except ConnectionResetError:
        pass
    if not answer:
        return 0, b""
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def closed_by_server(connection: socket.socket) -> bool:
    """Whether the server closed ``connection`` (within the socket's timeout)."""
    try:
        while connection.recv(65536):
            pass
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    return True


def test_a_client_over_its_cap_is_refused_while_others_are_served() -> None:
    with serving(ConnectionLimits(header_seconds=30, per_client=4, total=64)) as web:
        idle = [connect(web, "127.0.0.2") for _ in range(4)]
        try:
            for _ in range(6):  # more than its cap, fewer than the cap in all
                status, body = request(web, "127.0.0.2")
                assert status == 429 and "at most 4" in json.loads(body)["error"]
            status, body = request(web, "127.0.0.1")
            assert status == 200 and json.loads(body)
        finally:
            for connection in idle:
                connection.close()
        deadline = time.monotonic() + 10
        status = 0
        while status != 200 and time.monotonic() < deadline:  # its places free once it closes them
            status, _ = request(web, "127.0.0.2")
        assert status == 200


def test_the_cap_in_all_holds_against_many_clients() -> None:
    with serving(ConnectionLimits(header_seconds=30, per_client=4, total=8)) as web:
        idle = [connect(web, client) for client in ("127.0.0.2", "127.0.0.3") for _ in range(4)]
        try:
            status, body = request(web, "127.0.0.4")
            assert status == 503 and json.loads(body)["error"]
        finally:
            for connection in idle:
                connection.close()


def test_idle_connections_and_slow_heads_are_closed_after_the_header_timeout() -> None:
    with serving(ConnectionLimits(header_seconds=0.3, idle_seconds=0.3, per_client=32)) as web:
        with connect(web, "127.0.0.2") as idle:
            assert closed_by_server(idle)  # nothing sent: closed without an answer
        with connect(web, "127.0.0.2") as slow:
            slow.sendall(b"GET /api/games HTTP/1.1\r\n")
            lines = 0
            with contextlib.suppress(OSError):
                while lines < 100:  # a header line every 0.1 s: each in time, the head never whole
                    time.sleep(0.1)
                    slow.sendall(b"X-Slow: yes\r\n")
                    lines += 1
            status, _ = read_answer(slow)
        assert lines < 100, "the head was never cut off"
        assert status in (0, 408)  # the 408 may be lost to the reset of a socket still sending
        with connect(web, "127.0.0.2") as kept:
            kept.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
            status, _ = read_answer(kept)
            assert status == 200
            kept.sendall(b"GET /api/games HTTP/1.1\r\n")  # the next head, never finished
            assert closed_by_server(kept)


def test_a_slow_head_gets_a_408_in_json() -> None:
    with serving(ConnectionLimits(header_seconds=0.3, per_client=32)) as web, connect(web, "127.0.0.2") as slow:
        slow.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
        status, body = read_answer(slow)
    assert status == 408 and "within 0.3 s" in json.loads(body)["error"]


@pytest.mark.parametrize(
    "raw",
    [
        b"NOT HTTP\r\n\r\n",
        b"POST /api/state HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n{}",
        b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
    ],
)
def test_a_request_that_is_not_http_gets_a_400_in_json(raw: bytes) -> None:
    with serving(ConnectionLimits()) as web:
        status, body = request(web, "127.0.0.1", raw)
    assert status == 400 and json.loads(body) == {"error": "the request is not valid HTTP/1.1"}


def test_many_slow_clients_do_not_lock_others_out() -> None:
    """The issue's attack, in small: two clients try to hold more connections than the
    server has places (40 of 16), each with a head that arrives a line at a time; another
    client is answered all the while."""
    with serving(ConnectionLimits(header_seconds=30, per_client=4, total=16)) as web:
        slow = [connect(web, f"127.0.0.{2 + index % 2}") for index in range(40)]
        try:
            for connection in slow:
                with contextlib.suppress(OSError):
                    connection.sendall(b"POST /api/state HTTP/1.1\r\n")
            for _ in range(3):
                status, _ = request(web, "127.0.0.1")
                assert status == 200
        finally:
            for connection in slow:
                connection.close()


def test_a_long_replay_does_not_hold_up_other_requests() -> None:
    with serving(ConnectionLimits()) as web:
        answers: list[tuple[int, Any]] = []
        replaying = threading.Thread(
            target=lambda: answers.append(web.post("/api/state", {"game": GATED, "moves": ["1"] * 1000}))
        )
        replaying.start()
        try:
            assert REPLAY_STARTED.wait(30)
            # the replay is held on its thread: a blocked event loop would answer nothing now
            with urllib.request.urlopen(web.url + "api/games", timeout=30) as response:
                assert response.status == 200
            status, state = web.post("/api/state", {"game": "chess", "moves": LONG_CHESS_GAME}, timeout=30)
            assert status == 200 and len(state["played"]) == 1000 and state["result"] is None
            assert not answers  # the first replay is still waiting
        finally:
            RELEASE_REPLAY.set()
            replaying.join(60)
        assert answers and answers[0][0] == 200 and len(answers[0][1]["played"]) == 1000


@pytest.mark.parametrize(
    ("client", "key"),
    [
        (("127.0.0.1", 5000), "127.0.0.1"),
        (("::ffff:10.1.2.3", 5000), "10.1.2.3"),
        (("2001:db8:1:2:3:4:5:6", 5000), "2001:db8:1:2::/64"),
        (None, None),
    ],
)
def test_a_client_is_its_address_or_its_ipv6_network(client: tuple[str, int] | None, key: str | None) -> None:
    assert client_key(client) == key
