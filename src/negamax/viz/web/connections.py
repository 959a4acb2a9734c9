"""The connections the server holds, bounded so that no client can starve the others.

uvicorn bounds the connections open at once (it answers 503 beyond), but it waits forever
for the first request of a connection and for a request head that arrives a line at a
time, so a few hundred idle or slow sockets used to hold every place. Here uvicorn's HTTP
protocol (h11) gets what it lacks:

* a **header timeout**: a connection must deliver a complete request head within
  ``header_seconds`` of opening, and of each response, else it is closed (with a 408 if
  part of a head had come);
* an **idle timeout** between requests (uvicorn's keep-alive timeout, ``idle_seconds``);
* a cap of open connections **per client address** (``per_client``; an IPv6 client is its
  /64 network, which one host usually has whole): a client over it gets a 429 and the
  connection is closed, while other clients are served;
* a cap of open connections **in all** (``total``), refused with a 503.

Every refusal is JSON, ``{"error": "one line"}``, as the app's own, and so is uvicorn's
answer to a request that is not HTTP.

The cap per client is 32: a browser opens at most six connections to a server, and the
page holds one more for each search it streams, so 32 leaves room for a user with several
tabs open, while it takes eight addresses to fill the 256 places. Behind a reverse proxy
every client has the proxy's address: there the proxy must do this, with the cap set to
``total``.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import http
import ipaddress
import json
from typing import Any, ClassVar

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 5.0
"""A request head is a few hundred bytes, one packet: a client that has not sent it whole
in this time is idle or slowloris."""
IDLE_SECONDS = 5.0
"""Between two requests of a connection kept alive (a page asks again within a second)."""
PER_CLIENT = 32
TOTAL = 256
"""Open connections at once (each costs a little memory)."""


@dataclasses.dataclass(frozen=True)
class ConnectionLimits:
    """How long a connection may take, and how many one client and all may hold."""

    header_seconds: float = HEADER_SECONDS
    idle_seconds: float = IDLE_SECONDS
    per_client: int = PER_CLIENT
    total: int = TOTAL


def client_key(client: tuple[str, int] | None) -> str | None:
    """Who a connection's peer counts as: its IPv4 address, or its IPv6 /64 network
    (``None`` for a peer without an address, such as a Unix socket's)."""
    if client is None:
        return None
    host = client[0]
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


class LimitedProtocol(H11Protocol):
    """uvicorn's h11 protocol with the header timeout and the caps (see the module).

    One subclass per server (``protocol_for``) holds that server's limits and its count of
    connections by client; uvicorn runs every connection's protocol on the event loop's
    thread, so the count needs no lock.
    """

    limits: ClassVar[ConnectionLimits] = ConnectionLimits()
    open_by_client: ClassVar[collections.Counter[str]] = collections.Counter()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # uvicorn's keep-alive timeout is the idle one (its annotation says int; call_later
        # takes any number of seconds)
        self.timeout_keep_alive = self.limits.idle_seconds  # type: ignore[assignment]
        self._client_key: str | None = None
        self._head_timer: asyncio.TimerHandle | None = None
        self._waiting_cycle: object = None
        """The request the timer was armed after: a new one means a head has come."""
        self._head_begun = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.limits.total:
            self._refuse(503, "the server has too many connections open; try again in a moment")
            return
        key = client_key(self.client)
        if key is not None:
            if self.open_by_client[key] >= self.limits.per_client:
                self._refuse(429, f"too many connections from one address (at most {self.limits.per_client} at once)")
                return
            self.open_by_client[key] += 1
            self._client_key = key
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head_timer()
        key, self._client_key = self._client_key, None
        if key is not None:
            self.open_by_client[key] -= 1
            if self.open_by_client[key] <= 0:
                del self.open_by_client[key]
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return  # refused or timed out: nothing more is read
        self._head_begun = True
        super().data_received(data)
        if self._head_timer is not None and self.cycle is not self._waiting_cycle:
            self._disarm_head_timer()  # a complete head: the request is the app's now

    def on_response_complete(self) -> None:
        super().on_response_complete()  # arms the idle timeout, serves a pipelined request
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._arm_head_timer()

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a request that is not HTTP (``Content-Length: abc``), in
        JSON as every refusal of the server (uvicorn's own is plain text)."""
        self._refuse(400, "the request is not valid HTTP/1.1")

    def _arm_head_timer(self) -> None:
        self._disarm_head_timer()
        self._waiting_cycle = self.cycle
        self._head_begun = False
        self._head_timer = self.loop.call_later(self.limits.header_seconds, self._head_too_slow)

    def _disarm_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if self._head_begun:
            self._refuse(408, f"a request head must arrive within {self.limits.header_seconds:g} s")
        else:
            self._close()  # an idle connection: nothing was asked, nothing to answer

    def _refuse(self, status: int, message: str) -> None:
        """Answer ``status`` and close, without h11, which answers only a request it has
        read whole (here there is none, or not a valid one)."""
        body = json.dumps({"error": message}).encode()
        head = (
            f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
        )
        self.transport.write(head.encode() + body)
        self._close()

    def _close(self) -> None:
        self.transport.close()
        # no longer one of the server's connections, though asyncio reports it lost only
        # later: a burst of refusals must not fill the places of the connections served
        self.connections.discard(self)


def protocol_for(limits: ConnectionLimits) -> type[LimitedProtocol]:
    """A protocol class for one server (``uvicorn.Config(http=...)``): ``limits``, and a
    count of connections by client of its own."""

    class ServerProtocol(LimitedProtocol):
        pass

    ServerProtocol.limits = limits
    ServerProtocol.open_by_client = collections.Counter()
    return ServerProtocol
