"""Running the app on uvicorn: in the foreground (``negamax serve``) or on a thread (tests,
notebooks). The socket is bound first, so a busy port is a one-line error and port 0
gives a free port whose number is known before the first request. The connections are
bounded in time and number by ``connections`` (``ConnectionLimits``)."""

from __future__ import annotations

import socket
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from negamax.viz.web.connections import ConnectionLimits

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: any free port).

    :raises OSError: if the address cannot be bound (in use, not this machine's).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=128)


def address(listening: socket.socket) -> str:
    """The page's URL for a bound socket."""
    host, port = listening.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def open_to_others(host: str) -> bool:
    """Whether binding ``host`` lets other machines reach the server."""
    return host not in LOCAL_HOSTS


def _server(app: Any, limits: ConnectionLimits | None) -> Any:
    import uvicorn

    from negamax.viz.web.connections import ConnectionLimits, protocol_for

    config = uvicorn.Config(
        app,
        log_level="warning",
        http=protocol_for(limits or ConnectionLimits()),  # the caps and timeouts
        ws="none",  # the app has no websocket: an upgrade is answered as a plain request
        timeout_graceful_shutdown=1,
        lifespan="on",
    )

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            _stopping(app)  # the streams end now, before uvicorn's grace runs out
            super().handle_exit(sig, frame)

    return Server(config)


def _stopping(app: Any) -> None:
    """Tell ``app`` (a ``RequestGuard``) that the server stops: its streams end."""
    stopping = getattr(app, "stopping", None)
    if stopping is not None:
        stopping.set()


SWITCH_SECONDS = 0.001
"""The interpreter lock's switch interval while serving (5 ms by default): with dozens of
searches on threads, the thread answering the pages waits its turn for each step, and a
shorter turn keeps the pages answered in time."""


def run(app: Any, listening: socket.socket, limits: ConnectionLimits | None = None) -> None:
    """Serve until Ctrl-C (``limits``: the connections' caps and timeouts, by default
    ``ConnectionLimits()``)."""
    sys.setswitchinterval(SWITCH_SECONDS)
    _server(app, limits).run(sockets=[listening])


class BackgroundServer:
    """The app served on a thread; ``stop()`` ends it."""

    def __init__(
        self, app: Any, host: str = "127.0.0.1", port: int = 0, limits: ConnectionLimits | None = None
    ) -> None:
        self.socket = bind(host, port)
        self.url = address(self.socket)
        self._server = _server(app, limits)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self.socket]}, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started and self._thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        if not self._server.started:
            raise RuntimeError("the web server did not start")

    def stop(self) -> None:
        _stopping(self._server.config.app)
        self._server.should_exit = True
        self._thread.join(10)
        self.socket.close()

    def __enter__(self) -> BackgroundServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
