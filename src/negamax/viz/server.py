"""``negamax serve``: play the built-in games in a browser and watch the engine think.

A small standard-library HTTP server, bound to 127.0.0.1 by default. It keeps no game
state: the page sends the start position and the moves played so far, and the server
replays them (rejecting anything illegal) before it answers. Every request is validated
(a bad one gets a 400 with a message) and every search is capped in time, so one client
cannot hold the server.

Routes: ``GET /`` the page; ``GET /api/games``; ``POST /api/state`` (game, start, moves)
-> the board and the legal moves; ``GET /api/think?game=&start=&moves=&seconds=`` -> a
stream of Server-Sent Events, one per completed search iteration, then the engine's
move; ``POST /api/trace`` -> an SVG of the search of a position (the page sends the one
before the engine's last move), redone with alpha-beta and a table so it stays small.
"""

from __future__ import annotations

import json
import threading
import urllib.parse
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from negamax.core.errors import InvalidOptionError, NegamaxError
from negamax.core.game import Position
from negamax.core.rules import Game
from negamax.core.score import WIN_THRESHOLD, describe
from negamax.core.types import SearchLimits, SearchResult
from negamax.games import get_game
from negamax.search import search
from negamax.search.trace import SearchTrace, TraceLimitExceeded
from negamax.viz.page import PAGE
from negamax.viz.render import to_svg

PLAYABLE = ("tictactoe", "nim", "connect4")
SERVED_ENGINES = ("auto", "python")
"""One engine for every game served: ``compiled`` would fail for the games without a kernel."""
MAX_THINK_SECONDS = 3.0
MAX_MOVES = 200
MAX_BODY = 64 * 1024
TRACE_MAX_NODES = 3_000


class BadRequest(ValueError):
    """A request the server refuses (answered with 400 and the message)."""


def replay(game_name: str, start: str, moves: list[str]) -> tuple[Game, Position[Any]]:
    """The position after ``moves`` (written in the game's notation) from ``start``."""
    if game_name not in PLAYABLE:
        raise BadRequest(f"unknown game {game_name!r}; playable here: {', '.join(PLAYABLE)}")
    if not isinstance(moves, list) or len(moves) > MAX_MOVES or not all(isinstance(m, str) for m in moves):
        raise BadRequest(f"moves must be a list of at most {MAX_MOVES} move texts")
    game = get_game(game_name)
    try:
        position = game.new_position(start or None)
        for number, text in enumerate(moves, start=1):
            if position.is_terminal():
                raise BadRequest(f"move {number} ({text}) comes after the end of the game")
            position.play(game.parse_move(position, text))
    except NegamaxError as error:
        raise BadRequest(str(error)) from None
    return game, position


def outcome(position: Position[Any]) -> str | None:
    """``'first player wins'``, ``'second player wins'``, ``'draw'``, or None while playing."""
    if not position.is_terminal():
        return None
    value = position.terminal_value()
    mover, other = position.player(), 1 - position.player()
    names = ("first player", "second player")
    if value <= -WIN_THRESHOLD:
        return f"{names[other]} wins"
    if value >= WIN_THRESHOLD:
        return f"{names[mover]} wins"
    return "draw"


def state(game: Game, position: Position[Any]) -> dict[str, Any]:
    return {
        "board": game.render(position),
        "moves": [] if position.is_terminal() else [game.move_text(position, m) for m in position.legal_moves()],
        "turn": position.player(),
        "result": outcome(position),
    }


def iteration_record(game: Game, position: Position[Any], result: SearchResult[Any]) -> dict[str, Any]:
    board = position.copy()
    pv = []
    for move in result.pv:
        if move not in board.legal_moves():
            break
        pv.append(game.move_text(board, move))
        board.play(move)
    return {
        "depth": result.depth,
        "score": describe(result.score),
        "pv": pv,
        "nodes": result.nodes,
        "nps": round(result.nodes_per_second),
        "best": game.move_text(position, result.best_move) if result.best_move is not None else None,
    }


class Handler(BaseHTTPRequestHandler):
    server_version = "negamax"
    engine = "auto"
    """The engine the searches run on: ``auto`` or ``python`` (``SERVED_ENGINES``)."""

    def log_message(self, format: str, *args: Any) -> None:
        return  # quiet: the terminal belongs to the user

    # -- plumbing ---------------------------------------------------------------------

    def _send(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, data: Any) -> None:
        self._send(status, json.dumps(data).encode(), "application/json")

    def _body(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            raise BadRequest("request body too large")
        try:
            data = json.loads(self.rfile.read(length) or b"{}")
        except json.JSONDecodeError:
            raise BadRequest("the body must be JSON") from None
        if not isinstance(data, dict):
            raise BadRequest("the body must be a JSON object")
        return data

    def _guarded(self, action: Any) -> None:
        try:
            action()
        except BadRequest as error:
            self._json(HTTPStatus.BAD_REQUEST, {"error": str(error)})
        except (BrokenPipeError, ConnectionResetError):
            pass

    # -- routes -----------------------------------------------------------------------

    def do_GET(self) -> None:
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/":
            self._send(HTTPStatus.OK, PAGE.encode(), "text/html; charset=utf-8")
        elif url.path == "/api/games":
            games = [{"name": name, "help": get_game(name).position_help} for name in PLAYABLE]
            self._json(HTTPStatus.OK, games)
        elif url.path == "/api/think":
            self._guarded(lambda: self._think(urllib.parse.parse_qs(url.query)))
        else:
            self._json(HTTPStatus.NOT_FOUND, {"error": f"no such page: {url.path}"})

    def do_POST(self) -> None:
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/api/state":
            self._guarded(self._state)
        elif url.path == "/api/trace":
            self._guarded(self._trace)
        else:
            self._json(HTTPStatus.NOT_FOUND, {"error": f"no such route: {url.path}"})

    def _state(self) -> None:
        body = self._body()
        game, position = replay(str(body.get("game", "")), str(body.get("start", "")), body.get("moves", []))
        self._json(HTTPStatus.OK, state(game, position))

    def _think(self, query: dict[str, list[str]]) -> None:
        def one(name: str, default: str = "") -> str:
            return query.get(name, [default])[0]

        moves = [text for text in one("moves").split(",") if text]
        game, position = replay(one("game"), one("start"), moves)
        if position.is_terminal():
            raise BadRequest("the game is over")
        try:
            seconds = float(one("seconds", "1"))
        except ValueError:
            raise BadRequest("seconds must be a number") from None
        if not 0 < seconds <= MAX_THINK_SECONDS:
            raise BadRequest(f"seconds must be above 0 and at most {MAX_THINK_SECONDS:g}")
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        stop = threading.Event()

        def emit(event: str, data: dict[str, Any]) -> None:
            try:
                self.wfile.write(f"event: {event}\ndata: {json.dumps(data)}\n\n".encode())
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                stop.set()  # the page went away: stop thinking for it

        result = search(
            position,
            SearchLimits(time=seconds, stop=stop),
            engine=self.engine,
            on_iteration=lambda item: emit("iteration", iteration_record(game, position, item)),
        )
        emit("done", iteration_record(game, position, result))

    def _trace(self) -> None:
        body = self._body()
        game, position = replay(str(body.get("game", "")), str(body.get("start", "")), body.get("moves", []))
        if game.name == "connect4":
            raise BadRequest("traces are for small games (tictactoe, nim)")
        if position.is_terminal():
            raise BadRequest("the game is over")
        trace = SearchTrace(max_nodes=TRACE_MAX_NODES)
        try:
            search(position, SearchLimits(depth=9), algorithm="alphabeta-tt", trace=trace)
        except TraceLimitExceeded as error:
            raise BadRequest(str(error)) from None
        svg = to_svg(trace, game, position, f"alpha-beta with a table: {len(trace.nodes)} nodes")
        self._send(HTTPStatus.OK, svg.encode(), "image/svg+xml")


def serve(
    host: str = "127.0.0.1", port: int = 8000, ready: threading.Event | None = None, engine: str = "auto"
) -> ThreadingHTTPServer:
    """Start serving on a background thread and return the server (``shutdown()`` stops it);
    the engine's searches run on ``engine`` (``SERVED_ENGINES``)."""
    if engine not in SERVED_ENGINES:
        raise InvalidOptionError(f"the server runs engine auto or python, not {engine!r}")
    handler = type("EngineHandler", (Handler,), {"engine": engine})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    if ready is not None:
        ready.set()
    return server
