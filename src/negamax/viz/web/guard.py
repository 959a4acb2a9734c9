"""The request guard: every request's body is read whole before the app sees it, at most
``MAX_BODY`` bytes, each part within ``PART_SECONDS`` and the whole within
``BODY_SECONDS``, so that no client can hold the server with a slow or short body (it gets
a 408 within a second), or fill the memory with a long one (413).

uvicorn (h11) already refuses a malformed ``Content-Length`` (``abc``, ``-1``) with a 400.
An error the app raises ends here: logged with its traceback, and answered with a JSON 500
if the app had not answered yet.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

MAX_BODY = 64 * 1024
PART_SECONDS = 0.8
BODY_SECONDS = 5.0

log = logging.getLogger("negamax.web")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class RequestGuard:
    """ASGI middleware: the body bounded in size and time, then replayed to ``app``."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY, stopping: threading.Event | None = None) -> None:
        self.app = app
        self.max_body = max_body
        self.stopping = stopping or threading.Event()
        """Set when the server begins to stop (``server``): the app's streams end then."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_body:
            await _refuse(send, 413, f"a request body holds at most {self.max_body} bytes")
            return
        chunks: list[bytes] = []
        size = 0
        more = scope["method"] in ("POST", "PUT", "PATCH")
        deadline = asyncio.get_running_loop().time() + BODY_SECONDS
        while more:
            wait = min(PART_SECONDS, deadline - asyncio.get_running_loop().time())
            try:
                message = await asyncio.wait_for(receive(), max(0.0, wait))
            except TimeoutError:
                await _refuse(send, 408, "the request body stopped arriving (or arrives too slowly)")
                return
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await _refuse(send, 413, f"a request body holds at most {self.max_body} bytes")
                return
            chunks.append(chunk)
            more = bool(message.get("more_body", False))
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: a disconnect, when the page goes away

        started = finished = False

        async def watched(message: Message) -> None:
            nonlocal started, finished
            started = started or message["type"] == "http.response.start"
            finished = message["type"] == "http.response.body" and not message.get("more_body", False)
            await send(message)

        try:
            await self.app(scope, replay, watched)
        except asyncio.CancelledError:
            # the server stopping with this answer under way (a stream): it ends here, its
            # search told to stop by the stream itself, with no traceback for each in the log
            if not started:
                raise
            if not finished:
                with contextlib.suppress(Exception):
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
        except Exception:
            # The app has answered with its JSON 500 (or was streaming): the error ends
            # here, logged once, and uvicorn keeps the connection and logs nothing more.
            log.exception("%s %s failed", scope["method"], scope["path"])
            if not started:
                await _refuse(send, 500, "the server failed on this request (its log says more)")


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
