"""The web app's routes (FastAPI). The server keeps no game: every request names the game,
the start position and the moves played, and the server replays them before it answers,
so a page can be reloaded, shared as a URL, or served by another process.

* ``GET /``: the page; ``GET /static/...``: its scripts and style;
* ``GET /api/games``: the games served;
* ``POST /api/state``: the board, the legal moves and the result after the moves;
* ``POST /api/think``: the engine's search, streamed as Server-Sent Events (``iteration``
  events, then ``done`` or ``error``), with ``lines`` root moves scored (1-8), at a
  ``level`` from 1 to 8 (``negamax.search.strength``; 8, the default: full strength);
* ``POST /api/solution``: every legal move's exact value (Connect 4's solution mode);
  ``POST /api/solution/stream``: the same as Server-Sent Events, each score as it comes;
* ``POST /api/trace``: the search tree, node by node;
* ``POST /api/edit``: a position set up in the board editor, checked (``editor``): its text
  for the page's start, or 400 and why it cannot be played from.

Every input has a size limit, every search a time and node cap, and a search stops when
its page goes away. The replay of the moves runs on a thread, as the searches do, so that
the event loop goes on answering the other requests.

A bad request gets a 4xx and ``{"error": "one line"}``; a game whose definition breaks
the library's contract (``GameDefinitionError``), and any failure of the server's own, a
500 and the same (the server's log has the traceback).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import importlib.util
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from functools import partial
from importlib import resources
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from negamax.core.errors import GameDefinitionError, NegamaxError
from negamax.core.game import Position
from negamax.core.ranges import DEPTH, LEVEL, NODES, TIME, Range
from negamax.core.rules import Game
from negamax.core.user_code import UserCodeError, user_code_error
from negamax.games import get_game
from negamax.games.chess.levels import LEVEL_ELO
from negamax.search.searcher import MULTIPV
from negamax.search.trace import TraceLimitExceeded
from negamax.viz.web import boards, editor, pgn
from negamax.viz.web.guard import RequestGuard
from negamax.viz.web.isolation import STATE_SECONDS, GameRefused, PluginWorkers, is_plugin
from negamax.viz.web.pgn import MAX_PGN
from negamax.viz.web.positions import MAX_LINES_SENT, MAX_MOVE_TEXT, MAX_MOVES, MAX_START, BadRequest, Positions
from negamax.viz.web.scheduler import MAX_SEARCHES, Busy
from negamax.viz.web.searches import (
    MAX_LINES,
    MAX_SECONDS,
    MAX_TRACE_DEPTH,
    SOLUTION_SECONDS,
    SOLUTION_STREAM_SECONDS,
    TRACE_MAX_NODES,
    TRACE_SECONDS,
    OpenBook,
    Searches,
)

BUILT_IN_GAMES = ("connect4", "chess", "draughts", "tictactoe", "nim", "checkers", "tree")
BUILT_IN_NEEDS = {"draughts": ("draughts", "draughts"), "checkers": ("draughts", "draughts")}
"""The built-in games that need an optional package: its import name and the extra that
installs it (py-draughts). Without it the game is left out of the menu, and serve says so."""
TRACE_ALGORITHMS = ("alphabeta-tt", "alphabeta", "pvs", "negamax")
HEARTBEAT_SECONDS = 0.5
"""How often a stream that has nothing new says so, which is how a search finds out that
its page went away even while no iteration completes."""

UNPROCESSABLE = 422
"""A request the game served cannot answer, by its own code's fault (named in the message)."""

log = logging.getLogger("negamax.web")

MoveText = Annotated[str, Field(max_length=MAX_MOVE_TEXT)]


class PositionRequest(BaseModel):
    """A position: the game, where it starts, and the moves played since."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=200)
    start: str = Field("", max_length=MAX_START)
    moves: list[MoveText] = Field(default_factory=list, max_length=MAX_MOVES)


class PgnRequest(BaseModel):
    """A PGN text to read."""

    model_config = ConfigDict(extra="forbid")
    pgn: str = Field(max_length=MAX_PGN)


class EditRequest(BaseModel):
    """A position set up by hand: its text (a FEN, a Connect 4 board) and who is to move."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=200)
    position: str = Field(max_length=MAX_START)
    turn: int | None = Field(None, ge=0, le=1)


class StateRequest(PositionRequest):
    flipped: bool = False


class StartRequest(BaseModel):
    """A start position as typed, perhaps a line of moves."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=200)
    start: str = Field(max_length=MAX_START)


class LinesRequest(BaseModel):
    """Lines of moves from one start: a game's main line and its variations."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=200)
    start: str = Field("", max_length=MAX_START)
    lines: list[Annotated[list[MoveText], Field(max_length=MAX_MOVES)]] = Field(max_length=MAX_LINES_SENT)


class PgnOutRequest(PositionRequest):
    """The game to write as PGN: the line to the position shown, and every line of the
    game (the main line first, then the variations), as ``LinesRequest``."""

    lines: list[Annotated[list[MoveText], Field(max_length=MAX_MOVES)]] = Field(
        default_factory=list, max_length=MAX_LINES_SENT
    )


def _checked_by(rule: Range, name: str, high: float, low: float | None = None) -> BeforeValidator:
    """A request's number checked by the library's rule for its kind (``core.ranges``), so
    that the page is refused what every other front end is refused (text, ``true``, NaN,
    a time under a microsecond), within the web's own narrower bounds."""
    narrowed = dataclasses.replace(rule, name=name, low=max(rule.low, low or rule.low), high=min(rule.high, high))
    return BeforeValidator(narrowed.check_optional)


class ThinkRequest(PositionRequest):
    seconds: Annotated[float, _checked_by(TIME, "seconds", MAX_SECONDS)] = 1.0
    lines: Annotated[int, _checked_by(MULTIPV, "lines", MAX_LINES)] = 1
    level: Annotated[int, _checked_by(LEVEL, "level", LEVEL.high)] = int(LEVEL.high)
    """How well the engine plays its move (``negamax.search.strength``; 8: full strength)."""


class TraceRequest(PositionRequest):
    max_nodes: Annotated[int, _checked_by(NODES, "max_nodes", TRACE_MAX_NODES, low=10)] = 1_000
    depth: Annotated[int | None, _checked_by(DEPTH, "depth", MAX_TRACE_DEPTH)] = None
    algorithm: Literal["alphabeta-tt", "alphabeta", "pvs", "negamax", "textbook", "mcts"] = "alphabeta-tt"
    prune_equal: bool = False
    """The textbook search's rule: prune at alpha >= beta (AIMA), else only past it (CS188)."""


def create_app(
    backend: str = "auto",
    book: OpenBook | None = None,
    extra_games: tuple[str, ...] = (),
    max_searches: int = MAX_SEARCHES,
    prepare: bool = True,
    isolate: bool = True,
) -> Any:
    """The app, ready for uvicorn: the built-in games and ``extra_games`` (any name
    ``get_game`` takes), searched on ``backend`` (``auto`` or ``python``), Connect 4's
    solution also answered from the book ``book(game)`` opens, when given. With ``prepare``, the
    compiled kernels load (or compile, in another process) in the background: those of
    ``extra_games`` from the start, a built-in game's once the page first opens it (a game
    never opened is never compiled); searches run on the pure-Python engine until then.
    With ``isolate``, a user's game (``isolation.is_plugin``) is answered by worker
    processes of its own, which a hard deadline can end (``negamax.viz.web.isolation``)."""
    games: dict[str, Game] = {}
    left_out: list[str] = []
    for name in (*BUILT_IN_GAMES, *extra_games):
        package, extra = BUILT_IN_NEEDS.get(name, (None, None))
        if package is not None and importlib.util.find_spec(package) is None:
            left_out.append(f"{name} (it needs {package}: pip install 'negamax[{extra}]')")
            continue
        games[name] = get_game(name)
    searches = Searches(backend=backend, book=book, max_searches=max_searches)
    positions = Positions(games, searches, prepare)
    plugins = tuple(name for name in extra_games if name in games and isolate and is_plugin(name))
    workers: PluginWorkers | None = None

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        nonlocal workers
        if plugins:
            workers = PluginWorkers(plugins, "python" if backend == "python" or not prepare else backend)
            app.state.plugin_workers = workers
        if prepare:
            for name in extra_games:  # the games the server was started for, first
                if name in games and name not in plugins:
                    searches.prepare(games[name], name)
        # each game's start position made once, now: the packages it imports on first use
        # (py-draughts: 0.6 s) load before a page asks, not inside the first answer's time
        threading.Thread(target=_start_positions, args=(list(games.values()),), name="imports", daemon=True).start()
        try:
            yield
        finally:
            searches.close()
            if workers is not None:
                workers.close()

    def isolated(name: str) -> PluginWorkers | None:
        """The workers answering for ``name``, if it is a user's game served apart."""
        return workers if workers is not None and workers.isolated(name) else None

    async def in_worker(
        found: PluginWorkers, request: PositionRequest, operation: str, seconds: float, arrived: float, **extra: Any
    ) -> Any:
        payload = {**request.model_dump(), **extra}
        work = found.schedule(lambda granted: found.call(request.game, operation, payload, granted), seconds, arrived)
        return await asyncio.wrap_future(work)

    app = FastAPI(title="negamax", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.state.searches = searches
    app.state.plugin_workers = None
    """The worker processes of the users' games, once the server runs (``PluginWorkers``)."""
    app.state.stopping = threading.Event()
    """Set as the server stops: the streams end at once (``RequestGuard.stopping``)."""
    app.state.left_out = left_out
    """The built-in games not served, each with what it needs."""
    static = resources.files("negamax.viz.web") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        return _error(400, _validation_message(error))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, error: StarletteHTTPException) -> JSONResponse:
        return _error(error.status_code, str(error.detail))

    @app.exception_handler(NegamaxError)
    async def refused(_: Request, error: NegamaxError) -> JSONResponse:
        if isinstance(error, GameRefused):
            return _error(error.status, str(error))
        if isinstance(error, UserCodeError):  # named already: the method and the line
            return _error(UNPROCESSABLE, str(error))
        if isinstance(error, GameDefinitionError):
            # the game served breaks the library's contract, in a way its author can fix
            log.warning("a game's definition is broken: %s", error)
            return _error(UNPROCESSABLE, f"the game's definition is broken: {error}")
        return _error(429 if isinstance(error, Busy) else 400, str(error))

    @app.exception_handler(Exception)
    async def failed(_: Request, error: Exception) -> JSONResponse:
        named = user_code_error(error)  # the game's own code raised it: a 4xx naming where
        if named is not None:
            return _error(UNPROCESSABLE, str(named))
        # Starlette answers this (it would answer plain text) and raises the error on to
        # the request guard, which logs it with its traceback
        return _error(500, f"the server failed on this request ({type(error).__name__}; its log says more)")

    @app.get("/", response_class=HTMLResponse)
    async def page() -> HTMLResponse:
        return HTMLResponse((static / "index.html").read_text(encoding="utf-8"), headers={"Cache-Control": "no-store"})

    @app.get("/api/games")
    async def list_games() -> list[dict[str, Any]]:
        return [
            {
                "name": name,
                "description": game.description,
                "position_help": game.position_help,
                "kind": boards.kind_of(game),
                "solvable": game.solvable,
                "editable": boards.kind_of(game) in editor.EDITABLE,
                "size": boards.draughts_size(game),
                "level_elo": list(LEVEL_ELO) if boards.kind_of(game) == "chess" else None,
            }
            for name, game in games.items()
        ]

    async def replayed(request: PositionRequest) -> tuple[Game, Position[Any]]:
        return await asyncio.to_thread(positions.playable, request.game, request.start, request.moves)

    @app.post("/api/state")
    async def state(request: StateRequest) -> dict[str, Any]:
        found = isolated(request.game)
        if found is not None:
            answer: dict[str, Any] = await in_worker(found, request, "state", STATE_SECONDS, time.perf_counter())
            return answer
        return await asyncio.to_thread(positions.state, request.game, request.start, request.moves, request.flipped)

    @app.get("/api/engine")
    def engine(game: str) -> dict[str, Any]:  # on a worker thread: it reads a file
        """How the game is searched now (``Searches.engine``): the page asks again while
        its kernel compiles, to count the seconds down."""
        plugin = isolated(game)
        if plugin is not None:
            asked = {"game": game, "start": "", "moves": []}
            work = plugin.schedule(lambda granted: plugin.call(game, "engine", asked, granted), STATE_SECONDS)
            answer: dict[str, Any] = work.result()
            return answer
        return searches.engine(positions.game(game), game)

    @app.post("/api/start")
    async def start(request: StartRequest) -> dict[str, Any]:
        """A start position typed as a line of moves, split into where it begins and its
        moves (``Positions.split``); a user's game's start comes back whole."""
        if isolated(request.game) is not None:
            return {"start": request.start, "moves": []}
        return await asyncio.to_thread(positions.split, request.game, request.start)

    @app.post("/api/lines")
    async def lines(request: LinesRequest) -> dict[str, Any]:
        """Each line's moves as a player reads them, and who played each (``Positions.lines``)."""
        if isolated(request.game) is not None:
            raise BadRequest("a user's game's variations are listed as its moves are written")
        return {"lines": await asyncio.to_thread(positions.lines, request.game, request.start, request.lines)}

    @app.post("/api/pgn")
    async def pgn_out(request: PgnOutRequest) -> dict[str, Any]:
        """The chess game played so far, as PGN (a finished one too), with its variations."""
        if isolated(request.game) is not None:  # a user's game: never chess, and never replayed here
            raise BadRequest(f"PGN is for chess; {positions.game(request.game).name} has no PGN")
        game, position = await asyncio.to_thread(positions.replay, request.game, request.start, request.moves)
        if boards.kind_of(game) != "chess":
            raise BadRequest(f"PGN is for chess; {game.name} has no PGN")
        from negamax.games.chess.rules import ChessPosition

        assert isinstance(position, ChessPosition)
        return {"pgn": await asyncio.to_thread(pgn.written, position.board, request.lines, len(request.moves))}

    @app.post("/api/edit")
    async def edit(request: EditRequest) -> dict[str, Any]:
        """The editor's position checked: its text, which the page sets as its start."""
        if isolated(request.game) is not None:  # a user's game: never a board the editor draws
            raise BadRequest(f"{request.game} has no board editor")
        game = positions.game(request.game)
        return {"start": await asyncio.to_thread(editor.checked, game, request.position, request.turn)}

    @app.post("/api/pgn/read")
    async def pgn_in(request: PgnRequest) -> dict[str, Any]:
        """A PGN text's first game, as the start position and moves the page plays it from."""
        return await asyncio.to_thread(pgn.read, request.pgn)

    @app.post("/api/think")
    async def think(request: ThinkRequest, http: Request) -> StreamingResponse:
        arrived = time.perf_counter()  # the time asked for counts from here, replaying included
        stop = threading.Event()
        found = isolated(request.game)
        if found is not None:
            payload = request.model_dump()
            events = _events_of(partial(found.call, request.game, "think", payload, stop=stop), "search")
            found.schedule(lambda granted: events.run(granted), request.seconds, arrived)
            return _event_stream(http, events.queue, stop, "iteration")
        game, position = await replayed(request)

        def work(granted: float, put: Put) -> dict[str, Any]:
            report = partial(put, "iteration")
            done = searches.think(game, position, granted, stop, report, request.lines, request.level)
            return {**done, "granted": round(granted, 3)}

        events = _events_of(work, "search")
        searches.scheduler.submit(events.run, request.seconds, arrived)  # Busy (429) before the stream starts
        return _event_stream(http, events.queue, stop, "iteration")

    @app.post("/api/solution")
    async def solution(request: PositionRequest, http: Request) -> dict[str, Any]:
        arrived = time.perf_counter()
        found = isolated(request.game)
        if found is not None:
            stop = threading.Event()
            payload = request.model_dump()
            work = found.schedule(
                lambda granted: found.call(request.game, "solution", payload, granted, stop=stop),
                SOLUTION_SECONDS,
                arrived,
            )
            return {"moves": (await _run(http, stop, work))["moves"], "seconds": SOLUTION_SECONDS}
        game, position = await replayed(request)
        if not game.solvable:
            raise BadRequest(f"{game.name} cannot be solved exactly here; ask the engine to think instead")
        stop = threading.Event()
        work = searches.scheduler.submit(
            lambda granted: searches.solution(game, position, granted, stop), SOLUTION_SECONDS, arrived
        )
        scores = await _run(http, stop, work)
        return {"moves": scores, "seconds": SOLUTION_SECONDS}

    @app.post("/api/solution/stream")
    async def solution_stream(request: PositionRequest, http: Request) -> StreamingResponse:
        """The solution's scores as they come: a ``scores`` event with every move (``null``
        where not known yet) each time one more is known, the book's and the game's ends
        first, then ``done`` (or ``error``)."""
        arrived = time.perf_counter()
        found = isolated(request.game)
        if found is not None:
            stop = threading.Event()
            payload = {**request.model_dump(), "stream": True}
            events = _events_of(partial(found.call, request.game, "solution", payload, stop=stop), "solve")
            found.schedule(lambda granted: events.run(granted), SOLUTION_STREAM_SECONDS, arrived)
            return _event_stream(http, events.queue, stop, "scores")
        game, position = await replayed(request)
        if not game.solvable:
            raise BadRequest(f"{game.name} cannot be solved exactly here; ask the engine to think instead")
        stop = threading.Event()

        def work(granted: float, put: Put) -> dict[str, Any]:
            scores = searches.solution(game, position, granted, stop, lambda moves: put("scores", {"moves": moves}))
            return {"moves": scores, "seconds": round(granted, 3)}

        events = _events_of(work, "solve")
        searches.scheduler.submit(events.run, SOLUTION_STREAM_SECONDS, arrived)
        return _event_stream(http, events.queue, stop, "scores")

    @app.post("/api/trace")
    async def trace(request: TraceRequest, http: Request) -> dict[str, Any]:
        arrived = time.perf_counter()
        found = isolated(request.game)
        if found is not None:
            stop = threading.Event()
            payload = request.model_dump()
            work = found.schedule(
                lambda granted: found.call(request.game, "trace", payload, granted, stop=stop), TRACE_SECONDS, arrived
            )
            tree: dict[str, Any] = await _run(http, stop, work)
            tree["limits"] = {"max_nodes": request.max_nodes, "seconds": TRACE_SECONDS}
            return tree
        game, position = await replayed(request)
        stop = threading.Event()
        work = searches.scheduler.submit(
            lambda granted: searches.trace(
                game, position, request.max_nodes, request.depth, request.algorithm, granted, stop, request.prune_equal
            ),
            TRACE_SECONDS,
            arrived,
        )
        try:
            tree = await _run(http, stop, work)
        except TraceLimitExceeded as error:
            raise BadRequest(str(error)) from None
        tree["limits"] = {"max_nodes": request.max_nodes, "seconds": TRACE_SECONDS}
        return tree

    return RequestGuard(app, stopping=app.state.stopping)


def _start_positions(games: list[Game]) -> None:
    for game in games:
        try:
            game.new_position(None)
        except Exception:  # the first request for it says what is wrong, to its page
            log.debug("the start position of %s failed", game.name, exc_info=True)


Put = Callable[[str, dict[str, Any]], None]
"""Sends an event (its name and data) to a stream, from a search thread."""


@dataclasses.dataclass
class _Events:
    """The events of a search run on a thread, for ``_event_stream`` to send."""

    queue: asyncio.Queue[tuple[str, dict[str, Any]]]
    run: Callable[[float], None]
    """What the scheduler runs: the work, its result as ``done``, a failure as ``error``."""


def _events_of(work: Callable[[float, Put], dict[str, Any]], what: str) -> _Events:
    """``work(granted, put)`` made a job whose events (the ones it puts, then ``done`` with
    what it returns, or ``error``) reach the event loop's queue; called on the loop."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()

    def put(event: str, data: dict[str, Any]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed (the server stopped): no one to tell
            loop.call_soon_threadsafe(queue.put_nowait, (event, data))

    def run(granted: float) -> None:
        try:
            put("done", work(granted, put))
        except NegamaxError as error:
            put("error", {"error": _one_line(str(error))})
        except Exception:
            log.exception("a %s failed", what)
            put("error", {"error": f"the {what} failed (a bug: the server's log says more)"})

    return _Events(queue, run)


def _event_stream(
    http: Request, events: asyncio.Queue[tuple[str, dict[str, Any]]], stop: threading.Event, going_on: str
) -> StreamingResponse:
    """Server-Sent Events from ``events`` until one that is not ``going_on`` (``done``,
    ``error``); a comment line when nothing new comes for a while, and the search stopped
    once the stream ends, the page goes away, or the server stops (``RequestGuard.stopping``:
    the stream ends with an ``error`` saying so)."""
    stopping: threading.Event = getattr(http.app.state, "stopping", threading.Event())

    async def stream() -> AsyncIterator[str]:
        watcher = asyncio.create_task(_watch_disconnect(http, stop))
        try:
            while True:
                if stopping.is_set():
                    yield f"event: error\ndata: {json.dumps({'error': 'the server is stopping'})}\n\n"
                    return
                try:
                    event, data = await asyncio.wait_for(events.get(), HEARTBEAT_SECONDS)
                except TimeoutError:
                    yield ": working\n\n"
                    continue
                yield f"event: {event}\ndata: {json.dumps(data)}\n\n"
                if event != going_on:
                    return
        finally:
            stop.set()
            watcher.cancel()

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})


async def _run(http: Request, stop: threading.Event, work: Any) -> Any:
    """The result of a search thread, which is told to stop when the page goes away."""
    watcher = asyncio.create_task(_watch_disconnect(http, stop))
    try:
        return await asyncio.wrap_future(work)
    finally:
        stop.set()
        watcher.cancel()


async def _watch_disconnect(http: Request, stop: threading.Event) -> None:
    """Set ``stop`` when the client goes away (the body has been read by then)."""
    while True:
        message = await http.receive()
        if message["type"] == "http.disconnect":
            stop.set()
            return


def _validation_message(error: RequestValidationError) -> str:
    problems = []
    for item in error.errors()[:3]:
        where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
        message = str(item.get("msg", "invalid"))
        if item.get("type") == "json_invalid":
            problems.append("the body must be JSON")
        elif item.get("type") == "value_error" and "error" in item.get("ctx", {}):
            problems.append(str(item["ctx"]["error"]))  # a rule's own message names the field
        else:
            problems.append(f"{where}: {message}" if where else message)
    return "; ".join(problems) or "invalid request"


MAX_ERROR = 500
"""The longest error message a page is sent (one quoting a game's huge move is cut)."""


def _one_line(message: str) -> str:
    line = next((line for line in message.splitlines() if line.strip()), "error")
    if len(line) <= MAX_ERROR:
        return line
    cut = f" [...{len(line) - MAX_ERROR + 40:,} characters...] "
    return line[: MAX_ERROR // 2 - 20] + cut + line[-(MAX_ERROR // 2 - 20) :]


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": _one_line(message)}, status_code=status)
