"""The engine behind a protocol: a position, a transposition table that lives across
moves, and searches on a worker thread that ``stop`` ends at once.

The protocol layer (``uci.py``) only turns text into calls of this API and results into
text, so the same engine can sit behind another protocol or a test.
"""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from negamax.core.errors import InvalidOptionError
from negamax.core.game import Position
from negamax.core.ranges import ENGINE_HASH_MIB, THREADS, hash_range
from negamax.core.rules import Game
from negamax.core.score import INF, Bound
from negamax.core.types import SearchLimits, SearchResult
from negamax.engines.time_plan import TimePlan
from negamax.search import Searcher, presets, search
from negamax.search.searcher import MULTIPV
from negamax.search.strength import Strength

OnInfo = Callable[[SearchResult[Any]], None]
OnDone = Callable[[SearchResult[Any]], None]
OnError = Callable[[str], None]


@dataclasses.dataclass(frozen=True)
class GoLimits:
    """What ``go`` asks for; the clock fields are the protocol's, in seconds."""

    depth: int | None = None
    nodes: int | None = None
    move_time: float | None = None
    infinite: bool = False
    time_left: float | None = None
    increment: float = 0.0
    moves_to_go: int | None = None
    search_moves: tuple[Any, ...] | None = None
    """The only moves the root may play (legal ones; ``None``: every move)."""


MOVE_OVERHEAD_SECONDS = 0.01
"""Kept back from every time budget for the search to stop and the reply to travel. Measured
over python-chess's UCI client here, 20 moves at each of 50, 200 and 1000 ms: the move came
a median 3 ms after the budget (7 ms at most, 12 for a session's first); 10 ms is also
Stockfish's default ``Move Overhead``. (A fixed 60 ms left 1 ms of a 50 ms move and 140 of
200.)"""


def clock_plan(limits: GoLimits) -> TimePlan | None:
    """How long to think on a clock (``None``: no clock, or a fixed time or none)."""
    if limits.infinite or limits.move_time is not None or limits.time_left is None:
        return None
    return TimePlan.for_clock(limits.time_left, limits.increment, limits.moves_to_go, MOVE_OVERHEAD_SECONDS)


def time_budget(limits: GoLimits) -> float | None:
    """The most seconds to think: the move time as given, or the clock plan's ceiling."""
    if limits.infinite:
        return None
    if limits.move_time is not None:
        return max(0.001, limits.move_time - MOVE_OVERHEAD_SECONDS)
    plan = clock_plan(limits)
    return None if plan is None else plan.ceiling


def _forced(position: Position[Any], limits: SearchLimits, search_moves: tuple[Any, ...] | None) -> bool:
    """Whether a search to a time only has nothing to choose: a single move to play."""
    if limits.time is None or limits.depth is not None or limits.nodes is not None:
        return False
    moves = iter(position.legal_moves() if search_moves is None else search_moves)
    return next(moves, None) is not None and next(moves, None) is None


def _move_anyway(
    position: Position[Any], result: SearchResult[Any], root_moves: tuple[Any, ...] | None
) -> SearchResult[Any]:
    """``result`` with a move if the position has one: a position over by a rule that
    leaves moves (chess's fifty moves, a repetition, bare kings) is no search's, but a GUI
    that asks for a move there is owed one: the best by the static value a ply on."""
    moves = list(position.legal_moves() if root_moves is None else root_moves)
    if not moves:
        return result

    def value(move: Any) -> int:
        child = position.copy()
        child.play(move)
        return -(child.terminal_value() if child.is_terminal() else child.evaluate())

    best = max(moves, key=value)
    return dataclasses.replace(result, best_move=best, pv=(best,))


def _reserve(mib: float) -> None:
    """Whether ``mib`` MiB can be had at all (``MemoryError`` if not): asked of the system
    and given back at once, untouched, so it costs no time (pages are mapped on first use)."""
    reserved = np.empty(int(mib * 2**20), dtype=np.uint8)
    del reserved


class Engine:
    """Searches ``game`` positions one at a time on a worker thread, with a ``Searcher``
    whose tables carry over from one move to the next.

    ``backend`` as for ``negamax.search``: ``auto`` runs the compiled search when the game
    has one, ``compiled`` insists on it, ``python`` runs the pure-Python search. A kernel
    not yet on disk is compiled by another process while the pure-Python search answers.
    """

    def __init__(
        self,
        game: Game,
        hash_mib: float = ENGINE_HASH_MIB,
        backend: str = "auto",
        threads: int = 1,
        seed: int | None = None,
    ) -> None:
        self.game = game
        self.position: Position[Any] = game.new_position(None)
        self.searcher = self._new_searcher(hash_range().check(hash_mib), int(THREADS.check(threads)), backend)
        self.backend = self.searcher.backend
        """``compiled`` or ``python``: what ``backend`` came to for this game."""
        self.multipv = 1
        """Root moves each search scores (UCI's ``MultiPV``)."""
        self.strength = Strength()
        """How well it plays (``Skill Level``, ``UCI_Elo``): full strength unless set."""
        self.generator = random.Random(seed)
        """Where a weakened strength draws its choices from (``seed``: the same games again)."""
        self._stop = threading.Event()
        self._worker: threading.Thread | None = None

    def _new_searcher(self, hash_mib: float, threads: int, backend: str) -> Searcher:
        return presets.for_engine(self.game, backend=backend, hash_mib=hash_mib, threads=threads)

    @property
    def hash_mib(self) -> float:
        return self.searcher.hash_mib

    @property
    def threads(self) -> int:
        return self.searcher.threads

    def warm_up_in_background(self) -> None:
        """Load the compiled kernel on a thread; searches use the python backend until it
        is ready. A kernel not yet on disk is compiled by another process first."""
        self.searcher.prepare_in_background()

    @property
    def compiling(self) -> bool:
        """Whether another process is compiling the kernel (searches use the python backend)."""
        return self.searcher.compiling

    def close(self) -> None:
        """Stop any search, and the process compiling the kernel if there is one."""
        self.wait()
        self.searcher.close()

    def with_backend(self, backend: str) -> Engine:
        """This engine's position, table size and threads on ``backend`` (new tables); this
        one is closed (its kernel's compilation stopped, if it was running)."""
        self.close()
        other = Engine(self.game, self.hash_mib, backend, self.threads)
        other.position = self.position
        other.multipv = self.multipv
        other.strength, other.generator = self.strength, self.generator
        other.warm_up_in_background()
        return other

    def ready(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the compiled kernel to be loaded from the disk
        cache; not at all while it is being compiled (the python backend answers meanwhile)."""
        return self.searcher.wait_until_ready(timeout)

    def set_hash(self, mib: float) -> None:
        """A table of ``mib`` MiB (``negamax.core.ranges.hash_range``), new and empty.

        :raises InvalidOptionError: for a size out of range, or one the machine cannot
            give now; the engine then keeps its table.
        """
        self._renew_searcher(hash_range().check(mib), self.threads)

    def set_threads(self, threads: int) -> None:
        """Search with ``threads`` threads (the compiled backend; the python one has one)."""
        self._renew_searcher(self.hash_mib, int(THREADS.check(threads)))

    def set_multipv(self, count: int) -> None:
        """Score the ``count`` best root moves in every search (1: only the best)."""
        self.multipv = int(MULTIPV.check(count))

    def _renew_searcher(self, mib: float, threads: int) -> None:
        """A searcher made afresh for a new table size or thread count, its memory had
        before the old one is let go: if the machine cannot give it, nothing changes.

        :raises InvalidOptionError: when the memory cannot be had.
        """
        self.wait()
        try:
            _reserve(mib)  # the tables are made when first searched; they will fit
        except MemoryError:
            raise InvalidOptionError(
                f"hash: this machine cannot give {mib:g} MiB now; the table stays at {self.hash_mib:g} MiB"
            ) from None
        ready = self.searcher.ready()
        self.searcher.close()
        self.searcher = self._new_searcher(mib, threads, self.backend)
        if ready:
            self.searcher.prepare_in_background()  # the kernel is loaded already: at once

    def hashfull(self) -> int:
        """Per mille of the table in use (UCI's ``hashfull``)."""
        return max(self.searcher.hashfull(), self.searcher.python_hashfull())

    def new_game(self) -> None:
        self.wait()
        self.searcher.clear()

    def set_position(self, text: str | None) -> None:
        """The position ``text`` describes (see the game's ``position_help``).

        :raises InvalidPositionError: and the engine keeps its previous position.
        """
        self.wait()
        self.position = self.game.new_position(text)

    @property
    def searching(self) -> bool:
        return self._worker is not None and self._worker.is_alive()

    def go(self, limits: GoLimits, on_info: OnInfo, on_done: OnDone, on_error: OnError | None = None) -> None:
        """Start searching the current position; ``on_done`` gets the result, always exactly
        once: if the search fails, ``on_error`` is told why and ``on_done`` gets a move all
        the same (from a depth-1 search of the python backend, or any move it may play)."""
        self.wait()
        self._stop.clear()
        search_limits = SearchLimits(
            depth=limits.depth,
            nodes=limits.nodes,
            time=time_budget(limits),
            stop=self._stop,
        )
        if search_limits.depth is None and search_limits.nodes is None and search_limits.time is None:
            search_limits = dataclasses.replace(search_limits, depth=64)  # "go infinite": until stopped
        search_limits = self.strength.limits(search_limits, self.generator)
        if _forced(self.position, search_limits, limits.search_moves) and self.multipv == 1:
            # one legal move: play it at once (a depth-1 search gives its score), and keep
            # the clock for the moves that need it
            search_limits = dataclasses.replace(search_limits, depth=1)
        position = self.position
        started = time.perf_counter()
        plan = clock_plan(limits)
        if plan is not None and search_limits.depth is None:
            on_info = self._planned(plan, started, on_info)

        root_moves = limits.search_moves

        def run() -> None:
            try:
                # a kernel loading from disk is waited for by the searcher's plan
                result = self.analyse(position, search_limits, on_info, root_moves)
                if result.best_move is None:
                    result = _move_anyway(position, result, root_moves)
                if not self.strength.full:  # the legal moves only where a weaker player may pick among them
                    legal = list(position.legal_moves() if root_moves is None else root_moves)
                    result = self.strength.choose(result, legal, self.generator, self.game.evaluation_unit)
            except Exception as error:  # a move is owed whatever happened (a GUI waits for it)
                if on_error is not None:
                    on_error(f"the search failed ({type(error).__name__}: {error}); playing a quick move")
                result = self._fallback(position, root_moves)
            on_done(result)

        self._worker = threading.Thread(target=run, name="search", daemon=True)
        self._worker.start()

    def _fallback(self, position: Position[Any], root_moves: tuple[Any, ...] | None) -> SearchResult[Any]:
        """A move for a search that failed: a depth-1 search of the python engine on a table
        of its own, or, should that fail too, the first move it may play, unsearched."""
        try:
            return search(position, SearchLimits(depth=1), backend="python", root_moves=root_moves)
        except Exception:
            moves = list(position.legal_moves() if root_moves is None else root_moves)
            best = moves[0] if moves else None
            line = () if best is None else (best,)
            return SearchResult(
                best, 0, Bound.LOWER, line, 0, 0, 0.0, 0.0, "none", lower=-INF, upper=INF, completed=False
            )

    def _planned(self, plan: TimePlan, started: float, on_info: OnInfo) -> OnInfo:
        """``on_info``, then a stop when the plan says the move has had its time."""

        def report(result: SearchResult[Any]) -> None:
            on_info(result)
            if plan.enough(result.depth, result.best_move, result.score, time.perf_counter() - started):
                self._stop.set()

        return report

    def analyse(
        self,
        position: Position[Any],
        limits: SearchLimits,
        on_info: OnInfo | None = None,
        root_moves: tuple[Any, ...] | None = None,
    ) -> SearchResult[Any]:
        """Search ``position`` in this thread with the engine's tables (what ``go`` runs),
        the root restricted to ``root_moves`` if given: on the compiled kernel once it is
        ready, on the python backend until then."""
        multipv = self.strength.multipv(self.multipv)
        return self.searcher.search(position, limits, multipv=multipv, root_moves=root_moves, on_iteration=on_info)

    def stop(self) -> None:
        """End the search now; its ``on_done`` still runs, with the best move so far."""
        self._stop.set()

    def wait(self) -> None:
        """Stop any search and wait for it to report."""
        if self._worker is not None:
            self._stop.set()
            self._worker.join()
            self._worker = None
