"""A user's game, served where a hard deadline can end it.

A plug-in (``negamax serve --game file.py:Class``) is the user's code: a method may loop,
recurse, or take a second a call. Every request for such a game, its replay included,
runs in a worker process of that game (``WORKERS_PER_GAME`` of them, started with the
server), at a low priority. A job that has not answered ``GRACE_SECONDS`` after its time
is over, or after its page went away, has its worker killed and replaced: the page is told
which method overran (the worker's stack, written by ``faulthandler`` on ``SIGUSR1``, which
needs no Python code of the worker to run), and the server's own searches, the built-in
games', never wait for it nor share its interpreter.

A worker's answers are bounded too: a move's text longer than a page can send back, or an
answer over ``MAX_ANSWER_BYTES``, is refused in one line.
"""

from __future__ import annotations

import ast
import contextlib
import faulthandler
import json
import logging
import multiprocessing
import os
import queue
import re
import signal
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from negamax.core.errors import GameDefinitionError, NegamaxError
from negamax.core.user_code import UserCodeError, is_user_file, place, user_code_error
from negamax.viz.web.scheduler import MARGIN_SECONDS, MAX_SEARCHES, QUICK_SECONDS, Busy

T = TypeVar("T")

WORKERS_PER_GAME = 2
"""Worker processes of each plug-in game: as many requests for it at once."""
GRACE_SECONDS = 1.0
"""How long past its time (or its page's leaving) a job may take before its worker is killed."""
STATE_SECONDS = 5.0
"""The time a request that does not search (a state, the engine's status) may take."""
START_SECONDS = 60.0
"""How long a request waits for a worker still starting (importing, loading the game)."""
MAX_ANSWER_BYTES = 4 * 1024 * 1024
WORKER_NICE = 19
"""The workers' priority below the server's (and, on Linux, the idle scheduling class): a
game that loops takes what the server leaves."""
DUMP_SECONDS = 0.3
"""How long the stack dump of a worker that overran may take to be written."""

Put = Callable[[str, dict[str, Any]], None]
log = logging.getLogger("negamax.web")


class GameRefused(NegamaxError, ValueError):
    """A worker's answer that is an error, with the status the page gets."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class Overran(GameRefused):
    """A job of a user's game that did not end in time: its worker was killed (a 422: the
    game's own code is at fault, and named)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, 422)


def is_plugin(name: str) -> bool:
    """Whether the game served as ``name`` is a user's code (a file, a module, a package's
    entry point), not a built-in game, a Connect 4 size or an OpenSpiel game."""
    from negamax.games import available_games
    from negamax.games.plugins import is_reference

    base = name.partition("(")[0].strip()
    if base.lower().startswith(("openspiel:", "connect4:")) or base in available_games():
        return False
    return is_reference(name) or base not in available_games()


class _Worker:
    """One worker process and its two pipes."""

    def __init__(self, context: Any, name: str, backend: str) -> None:
        self.name = name
        self.dump = tempfile.NamedTemporaryFile(prefix="negamax-worker-", suffix=".stack", delete=False)  # noqa: SIM115
        to_worker, self._requests = context.Pipe(duplex=False)
        self._answers, from_worker = context.Pipe(duplex=False)
        self.process = context.Process(
            target=worker_main,
            args=(to_worker, from_worker, name, backend, self.dump.name),
            name=f"negamax-game-{os.getpid()}",
            daemon=True,
        )
        self.process.start()
        to_worker.close()
        from_worker.close()
        self.ready = False

    def send(self, message: tuple[Any, ...]) -> None:
        self._requests.send(message)

    def poll(self, seconds: float) -> bool:
        return bool(self._answers.poll(max(0.0, seconds)))

    def receive(self) -> tuple[Any, ...]:
        message: tuple[Any, ...] = self._answers.recv()
        return message

    def where(self) -> str:
        """Where the worker's code runs now, from its stack dump: ``Kalah.evaluate
        (kalah.py:42)``, or ``""`` when no frame is the user's."""
        if self.process.pid is None or not self.process.is_alive():
            return ""
        with contextlib.suppress(OSError):
            size = os.path.getsize(self.dump.name)
            os.kill(self.process.pid, signal.SIGUSR1)
            deadline = time.monotonic() + DUMP_SECONDS
            while time.monotonic() < deadline and os.path.getsize(self.dump.name) == size:
                time.sleep(0.01)
            time.sleep(0.02)  # the rest of the dump
            with open(self.dump.name, encoding="utf-8", errors="replace") as handle:
                handle.seek(size)
                return stuck_place(handle.read())
        return ""

    def kill(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.process.kill()
        self.process.join(2)
        for connection in (self._requests, self._answers):
            with contextlib.suppress(OSError):
                connection.close()
        with contextlib.suppress(OSError):
            self.dump.close()
            os.remove(self.dump.name)


_FRAME = re.compile(r'^\s*File "(.+)", line (\d+) in (\S+)')


def stuck_place(dump: str) -> str:
    """The user's method a ``faulthandler`` dump shows running, as ``Kalah.evaluate
    (kalah.py:42)`` (the method the library called, and the user's line it is at)."""
    for section in re.split(r"\n(?=(?:Current thread|Thread) 0x)", dump):
        frames = [match.groups() for line in section.splitlines() if (match := _FRAME.match(line))]
        user = [is_user_file(file) for file, _, _ in frames]  # most recent call first
        if not any(user):
            continue
        innermost = user.index(True)
        outermost = innermost
        while outermost + 1 < len(frames) and user[outermost + 1]:
            outermost += 1
        file, line, _ = frames[innermost]
        method_file, method_line, method = frames[outermost]
        return f"{qualified_name(method_file, int(method_line), method)} ({place(file, int(line))})"
    return ""


def qualified_name(file: str, line: int, name: str) -> str:
    """``Class.method`` for the function ``name`` running at ``line`` of ``file``."""
    try:
        with open(file, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
    except (OSError, SyntaxError, ValueError):
        return name
    found = name

    def visit(node: ast.AST, prefix: str) -> None:
        nonlocal found
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                end = getattr(child, "end_lineno", child.lineno) or child.lineno
                if child.lineno <= line <= end:
                    qualified = f"{prefix}{child.name}"
                    if child.name == name and not isinstance(child, ast.ClassDef):
                        found = qualified
                    visit(child, qualified + ".")

    visit(tree, "")
    return found


class PluginWorkers:
    """The worker processes of the plug-in games a server serves (see the module)."""

    def __init__(self, names: tuple[str, ...], backend: str = "auto", per_game: int = WORKERS_PER_GAME) -> None:
        self.names = frozenset(names)
        self.backend = backend
        self.per_game = per_game
        self._context = multiprocessing.get_context("spawn")  # the server has threads: no fork
        self._idle: dict[str, queue.Queue[_Worker]] = {name: queue.Queue() for name in names}
        self._all: set[_Worker] = set()
        self._starting: dict[str, int] = dict.fromkeys(names, 0)
        self._starters: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._executor = ThreadPoolExecutor(max_workers=MAX_SEARCHES, thread_name_prefix="plugin")
        self._accepted = threading.BoundedSemaphore(MAX_SEARCHES)
        for name in names:
            for _ in range(per_game):
                self._start(name)

    def isolated(self, name: str) -> bool:
        return name in self.names

    def idle(self, name: str) -> int:
        """Workers of ``name`` ready for a job now."""
        return self._idle[name].qsize()

    def pids(self, name: str) -> set[int]:
        """The process ids of ``name``'s workers (started, and not killed yet)."""
        with self._lock:
            return {worker.process.pid for worker in self._all if worker.name == name and worker.process.pid}

    def wait_ready(self, timeout: float) -> bool:
        """Wait until every game has all its workers idle (a server just started)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(self.idle(name) >= self.per_game for name in self.names):
                return True
            time.sleep(0.05)
        return False

    def _start(self, name: str) -> None:
        """A new worker of ``name``, given to the idle ones once it has loaded the game."""
        if self._closed.is_set():
            return
        with self._lock:
            self._starting[name] += 1

        def starting() -> None:
            try:
                worker = _Worker(self._context, name, self.backend)
            except OSError:
                log.exception("a worker of %s did not start", name)
                with self._lock:
                    self._starting[name] -= 1
                return
            with self._lock:
                closed = self._closed.is_set()
                if not closed:
                    self._all.add(worker)
            if closed:  # the server stopped while it started
                worker.kill()
                return
            try:
                ready = worker.poll(START_SECONDS) and worker.receive()[0] == "ready"
            except (EOFError, OSError):  # it failed to load the game, or the server stopped
                ready = False
            with self._lock:
                self._starting[name] -= 1
            if ready and not self._closed.is_set():
                self._idle[name].put(worker)
            else:
                self._retire(worker)

        starter = threading.Thread(target=starting, name="plugin-start", daemon=True)
        with self._lock:
            self._starters = [thread for thread in self._starters if thread.is_alive()] + [starter]
        starter.start()

    def _retire(self, worker: _Worker) -> None:
        with self._lock:
            self._all.discard(worker)
        worker.kill()

    def schedule(self, job: Callable[[float], T], seconds: float, arrived: float | None = None) -> Future[T]:
        """Run ``job(granted)`` on a thread of the plug-ins' own (never the built-in games'
        scheduler), where ``granted`` ends ``seconds`` after ``arrived``.

        :raises Busy: when ``MAX_SEARCHES`` requests for plug-ins are waiting already.
        """
        if not self._accepted.acquire(blocking=False):
            raise Busy(f"the server has {MAX_SEARCHES} requests for its plug-in games already; try again in a moment")
        deadline = (time.perf_counter() if arrived is None else arrived) + seconds

        def run() -> T:
            return job(max(QUICK_SECONDS, deadline - time.perf_counter() - MARGIN_SECONDS))

        try:
            future = self._executor.submit(run)
        except BaseException:
            self._accepted.release()
            raise
        future.add_done_callback(lambda _: self._accepted.release())
        return future

    def call(
        self,
        name: str,
        operation: str,
        payload: dict[str, Any],
        seconds: float,
        put: Put | None = None,
        stop: threading.Event | None = None,
    ) -> Any:
        """``operation`` on a worker of ``name``, within ``seconds`` (waiting for a worker
        included): its events passed to ``put``, its answer returned.

        :raises Busy: when no worker of the game is free in time.
        :raises Overran: when the job ran ``GRACE_SECONDS`` past its time (its worker killed).
        :raises GameRefused: for an error the worker answered.
        """
        started = time.monotonic()
        try:
            worker = self._idle[name].get(timeout=max(0.0, seconds))
        except queue.Empty:
            with self._lock:
                starting = self._starting[name]
            if starting:
                raise Busy(f"the worker processes of {name} are starting; try again in a moment") from None
            raise Busy(f"every worker process of {name} is busy; try again in a moment") from None
        granted = max(QUICK_SECONDS, seconds - (time.monotonic() - started))
        healthy = False
        try:
            worker.send(("job", operation, payload, granted))
            answer = self._answer(worker, granted, stop, put)
            healthy = True
            return answer
        except GameRefused as refused:
            # an error the worker answered leaves it ready for the next job; one that did not
            # answer in time, or that ended, is replaced
            healthy = not isinstance(refused, Overran) and refused.status != 500
            raise
        finally:
            if healthy and not self._closed.is_set():
                self._idle[name].put(worker)
            else:
                self._retire(worker)
                self._start(name)

    def _answer(self, worker: _Worker, granted: float, stop: threading.Event | None, put: Put | None) -> Any:
        deadline = time.monotonic() + granted + GRACE_SECONDS
        stopped = False
        while not self._closed.is_set():
            if stop is not None and stop.is_set() and not stopped:
                stopped = True
                with contextlib.suppress(OSError):
                    worker.send(("stop",))
                deadline = min(deadline, time.monotonic() + GRACE_SECONDS)
            left = deadline - time.monotonic()
            if left <= 0:
                where = worker.where()
                said = f"{where} did not return" if where else f"the search of {worker.name} did not end"
                raise Overran(f"{said} within the time asked (and {GRACE_SECONDS:g} s more): its worker was stopped")
            try:
                if not worker.poll(min(left, 0.1)):
                    continue
                message = worker.receive()
            except (EOFError, OSError):
                raise GameRefused("the game's worker process ended (its log may say why)", 500) from None
            kind = message[0]
            if kind == "event" and put is not None:
                put(message[1], message[2])
            elif kind == "done":
                return message[1]
            elif kind == "error":
                raise GameRefused(message[2], message[1])
        raise GameRefused("the server is stopping", 503)

    def close(self) -> None:
        """Kill every worker; the requests waiting on them end."""
        self._closed.set()
        with self._lock:
            workers = list(self._all)
            self._all.clear()
            starters = list(self._starters)
        for worker in workers:
            worker.kill()
        for starter in starters:  # a worker starting now is killed as soon as it has started
            starter.join(5)
        self._executor.shutdown(wait=False, cancel_futures=True)


# -- the worker process -------------------------------------------------------------------


def worker_main(requests: Connection, answers: Connection, name: str, backend: str, dump: str) -> None:
    """A worker's life: load the game, then answer jobs one at a time until the server
    goes (see the module)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server's Ctrl-C is the server's: it ends us
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICE)
    with contextlib.suppress(OSError, AttributeError):  # Linux: the CPU only when no one else wants it
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    stack = open(dump, "w")  # noqa: SIM115 - written by faulthandler until the process ends
    if hasattr(signal, "SIGUSR1"):
        faulthandler.register(signal.SIGUSR1, file=stack, all_threads=True)
    from negamax.games import get_game
    from negamax.viz.web.positions import Positions
    from negamax.viz.web.searches import Searches

    parent = os.getppid()

    def orphaned() -> None:  # the server was killed outright: a game that loops must not outlive it
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=orphaned, name="orphaned", daemon=True).start()
    game = get_game(name)
    bound_texts(game)
    searches = Searches(backend=backend)
    positions = Positions({name: game}, searches, prepare=backend != "python")
    if backend != "python":
        # the kernel ready from the server's start, as the server's own games have theirs (the
        # game's other workers wait for this one's compiler, then load what it left on disk)
        searches.prepare(game, name)
    answers.send(("ready",))
    pending: tuple[Any, ...] | None = None
    while True:
        try:
            message, pending = pending or requests.recv(), None
        except (EOFError, OSError):
            return
        if message[0] != "job":
            continue
        stop = threading.Event()
        _, operation, payload, granted = message
        job = threading.Thread(
            target=_run_job, args=(positions, name, operation, payload, granted, stop, answers), daemon=True
        )
        job.start()
        while job.is_alive():
            if pending is None and requests.poll(0.05):
                try:
                    received = requests.recv()
                except (EOFError, OSError):
                    return
                if received[0] == "stop":
                    stop.set()
                else:  # the next job, sent as this one's answer went out: it comes next
                    pending = received
            elif pending is not None:
                job.join(0.05)


def bound_texts(game: Any) -> None:
    """Have ``game``'s move texts refused past what a page sends back (``MAX_MOVE_TEXT``)."""
    from negamax.viz.web.positions import MAX_MOVE_TEXT

    original = game.move_text

    def move_text(position: Any, move: Any) -> str:
        text = str(original(position, move))
        if len(text) > MAX_MOVE_TEXT:
            raise GameDefinitionError(
                f"{game.name}'s move_text gave a move a text of {len(text):,} characters; a page takes at most"
                f" {MAX_MOVE_TEXT}"
            )
        return text

    with contextlib.suppress(AttributeError, TypeError):
        game.move_text = move_text


def _run_job(
    positions: Any,
    name: str,
    operation: str,
    payload: dict[str, Any],
    granted: float,
    stop: threading.Event,
    answers: Connection,
) -> None:
    from negamax.search.trace import TraceLimitExceeded

    lock = threading.Lock()

    def send(message: tuple[Any, ...]) -> None:
        with lock:
            answers.send(message)

    def put(event: str, data: dict[str, Any]) -> None:
        _check_size(name, data)
        send(("event", event, data))

    try:
        answer = _operation(positions, name, operation, payload, granted, stop, put)
        _check_size(name, answer)
        send(("done", answer))
    except TraceLimitExceeded as error:
        send(("error", 400, str(error)))
    except Busy as error:
        send(("error", 429, str(error)))
    except UserCodeError as error:
        send(("error", 422, str(error)))
    except GameDefinitionError as error:
        send(("error", 422, f"the game's definition is broken: {error}"))
    except NegamaxError as error:
        send(("error", 400, str(error)))
    except Exception as error:
        named = user_code_error(error)
        if named is not None:
            send(("error", 422, str(named)))
        else:
            log.exception("a request for %s failed", name)
            send(("error", 500, f"the server failed on this request ({type(error).__name__}; its log says more)"))


def _check_size(name: str, answer: Any) -> None:
    """Refuse an answer or event over ``MAX_ANSWER_BYTES`` (as JSON).

    :raises GameDefinitionError:
    """
    size = len(json.dumps(answer))
    if size > MAX_ANSWER_BYTES:
        raise GameDefinitionError(
            f"an answer for {name} would be {size / 1e6:.1f} MB; a page takes at most {MAX_ANSWER_BYTES / 1e6:.0f} MB"
            " (has a position that many moves, or texts that long?)"
        )


def _operation(
    positions: Any,
    name: str,
    operation: str,
    payload: dict[str, Any],
    granted: float,
    stop: threading.Event,
    put: Put,
) -> Any:
    """What the app would answer for ``payload`` (a request's body), here."""
    started = time.perf_counter()
    start, moves = payload.get("start", ""), payload.get("moves", [])
    searches = positions.searches

    def left() -> float:
        return max(QUICK_SECONDS, granted - (time.perf_counter() - started))

    if operation == "state":
        return positions.state(name, start, moves, bool(payload.get("flipped", False)))
    if operation == "engine":
        return searches.engine(positions.game(name), name)
    if operation == "think":
        game, position = positions.playable(name, start, moves)
        report = (lambda record: put("iteration", record)) if payload.get("stream", True) else (lambda _: None)
        done = searches.think(game, position, left(), stop, report, payload["lines"], payload["level"])
        return {**done, "granted": round(granted, 3)}
    if operation == "solution":
        game, position = positions.solvable(name, start, moves)
        on_scores = (lambda scores: put("scores", {"moves": scores})) if payload.get("stream") else None
        return {"moves": searches.solution(game, position, left(), stop, on_scores), "seconds": round(granted, 3)}
    if operation == "trace":
        game, position = positions.playable(name, start, moves)
        return searches.trace(
            game,
            position,
            payload["max_nodes"],
            payload["depth"],
            payload["algorithm"],
            left(),
            stop,
            bool(payload.get("prune_equal", False)),
        )
    raise ValueError(f"no operation {operation!r}")
