"""The web app's searches: every one capped in time and nodes, run on a thread of its own,
stopped when the page goes away, at most ``MAX_SEARCHES`` at once (a request beyond that is
refused with 429).

Each search runs on the best engine the package has for its game once that engine is
ready: the compiled kernels are compiled (or loaded) in the background when the server
starts (``negamax.search.warmup``), and until then the pure-Python search answers. The
placement solver (Connect 4, tic-tac-toe) owns a large table, so there is one, lent to
one search at a time; a search that finds it busy runs on the pure-Python engine.
"""

from __future__ import annotations

import dataclasses
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import partial
from typing import Any

from negamax.core.game import Position
from negamax.core.rules import Game, pv_text
from negamax.core.score import INF, WIN_THRESHOLD, describe, from_node
from negamax.core.types import SearchLimits, SearchResult
from negamax.search import backend, search, solve, warmup
from negamax.search.params import options_for
from negamax.search.trace import SearchTrace, TraceLimitExceeded
from negamax.viz.labels import move_labels, pruned_labels, value_text, window_text
from negamax.viz.web.boards import kind_of, shown_move
from negamax.viz.web.scheduler import MAX_SEARCHES, Scheduler

MAX_SECONDS = 5.0
"""The longest a page may ask one search to think."""
MAX_NODES = 50_000_000
PYTHON_TABLE_MIB = 4.0
COMPILED_TABLE_MIB = 1.0
SOLVER_TABLE_MIB = 128
"""The exact solver's table: the server's memory stays within a few hundred MiB."""
PYTHON_CHECK_EVERY = 16
"""Nodes between the python search's looks at the clock: chess there searches about a
thousand nodes a second, and dozens of requests at once share the interpreter, so a search
must notice its time is up within a few milliseconds of its own work."""
TRACE_MAX_NODES = 5_000
TRACE_SECONDS = 3.0
MAX_TRACE_DEPTH = 12
SOLUTION_SECONDS = 5.0
REPORT_SECONDS = 0.1
MAX_LINE = 24
"""The most moves of a principal variation the page shows."""
SOLVE_SHARE = 0.3
"""The part of its time an engine move spends trying to solve the position first (games
with a solver), before it searches to a horizon for the rest."""

OnIteration = Callable[[dict[str, Any]], None]
OpenBook = Callable[[Game], AbstractContextManager[Any]]
"""Opens a book of solved positions for a game: anything with ``lookup(position)``
returning an entry with a ``score`` (``negamax.parallel.book.Book``), or None."""


class Searches:
    """The server's searches and the compiled searchers they borrow."""

    def __init__(self, engine: str = "auto", book: OpenBook | None = None, max_searches: int = MAX_SEARCHES) -> None:
        self.engine = engine
        self.book = book
        self.scheduler = Scheduler(max_searches)
        """Runs the searches: a few at a time, each within its request's time."""
        self._ready: set[str] = set()
        """Games whose compiled kernel is loaded in this process."""
        self._searchers: list[Any] = []
        self._searchers_lock = threading.Lock()
        self._solver: Any = None
        self._closed = threading.Event()
        self._preparing = threading.Semaphore(max(1, (os.cpu_count() or 1) - 1))
        """Kernels compiled at once: one core stays free to serve the pages meanwhile."""
        self._solver_lock = threading.Lock()

    # -- slots and searchers ------------------------------------------------------------

    def close(self) -> None:
        """Let the running searches end (their pages have gone) and free the threads."""
        self._closed.set()  # a compilation still running elsewhere stops too
        self.scheduler.close()

    def prepare(self, game: Game) -> None:
        """Have ``game``'s compiled kernel ready in the background (compiled by another
        process if it is not on disk yet); searches use the python engine until then."""
        if self.engine == "python" or game.name in self._ready:
            return
        position = game.new_position(None)
        kinds = [kind for solving in (True, False) if (kind := backend.compiled_kind(position, solving))]
        if not kinds:
            return

        def load() -> None:
            with self._preparing:
                for kind in dict.fromkeys(kinds):
                    with self._borrow(kind, wait=True) as searcher:
                        prepared = warmup.prepare(searcher, position, game, stop=self._closed, compile_here=False)
                        if not prepared:
                            return
                self._ready.add(game.name)

        threading.Thread(target=load, name=f"prepare-{game.name}", daemon=True).start()

    def ready(self, game_name: str) -> bool:
        """Whether ``game_name``'s searches run on its compiled kernel now."""
        return game_name in self._ready

    @contextmanager
    def _borrow(self, kind: str, wait: bool = False) -> Iterator[Any]:
        """A compiled searcher of ``kind`` used by no one else, or ``None`` (the solver is
        busy, there is only one, and ``wait`` is off)."""
        if kind == backend.PLACEMENT:
            if not self._solver_lock.acquire(blocking=wait):
                yield None
                return
            try:
                if self._solver is None:
                    from negamax.search.compiled.placement import CompiledSolver

                    self._solver = CompiledSolver(pv_plies=1, hash_mib=SOLVER_TABLE_MIB)
                yield self._solver
            finally:
                self._solver_lock.release()
            return
        with self._searchers_lock:
            searcher = self._searchers.pop() if self._searchers else None
        if searcher is None:
            from negamax.search.compiled.move_list import CompiledSearcher

            searcher = CompiledSearcher(hash_mib=COMPILED_TABLE_MIB)
        try:
            yield searcher
        finally:
            with self._searchers_lock:
                self._searchers.append(searcher)

    def _compiled(self, game: Game, position: Position[Any], solving: bool) -> str | None:
        """The compiled kind to run ``position`` on, if its kernel is ready here."""
        if self.engine == "python" or game.name not in self._ready:
            return None
        return backend.compiled_kind(position, solving)

    # -- the searches -------------------------------------------------------------------

    def think(
        self, game: Game, position: Position[Any], seconds: float, stop: threading.Event, on_iteration: OnIteration
    ) -> dict[str, Any]:
        """The engine's move: its best search for ``seconds``, each iteration reported."""
        limits = SearchLimits(time=seconds, nodes=MAX_NODES, stop=stop)
        report = _reporter(game, position, on_iteration)
        started = time.perf_counter()
        kind = self._compiled(game, position, solving=True)
        if kind == backend.PLACEMENT:
            # first a short solve: where it finishes, the move it proves is the best there is
            with self._borrow(kind) as solver:
                if solver is not None:
                    result = solve(position, dataclasses.replace(limits, time=seconds * SOLVE_SHARE), searcher=solver)
                    if result.completed:
                        report(result)
                        return record(game, position, result, solved=True)
            limits = dataclasses.replace(limits, time=max(0.05, seconds - (time.perf_counter() - started)))
        kind = self._compiled(game, position, solving=False)
        if kind == backend.MOVE_LIST:
            with self._borrow(kind) as searcher:
                result = search(position, limits, searcher=searcher, on_iteration=report)
        else:
            options = dataclasses.replace(options_for("auto"), tt_mib=PYTHON_TABLE_MIB, check_every=PYTHON_CHECK_EVERY)
            result = search(position, limits, engine="python", options=options, on_iteration=report)
        return record(game, position, result)

    def solution(
        self, game: Game, position: Position[Any], seconds: float, stop: threading.Event
    ) -> list[dict[str, Any]]:
        """Every legal move's exact value, as Pascal Pons' solver shows Connect 4's columns:
        from the book where it knows, else solved, within ``seconds`` in all (a move not
        solved in time has none)."""
        deadline = time.perf_counter() + seconds
        moves = list(position.legal_moves())
        scores: list[dict[str, Any]] = []
        with _open_book(self.book, game) as book:
            for index, move in enumerate(moves):
                child = position.copy()
                child.play(move)
                value, source = self._child_value(game, child, book, deadline, len(moves) - index, stop)
                scores.append(
                    {
                        "move": game.move_text(position, move),
                        "score": None if value is None else game.game_score(position, value),
                        "text": None if value is None else describe(value),
                        "source": source,
                    }
                )
        return scores

    def _child_value(
        self, game: Game, child: Position[Any], book: Any, deadline: float, left: int, stop: threading.Event
    ) -> tuple[int | None, str]:
        """The value of the move that led to ``child``, for the side that made it, and
        where it comes from (``end``, ``book``, ``solver``, or ``timeout``)."""
        if child.is_terminal():
            return _parent_value(child.terminal_value()), "end"
        if book is not None:
            entry = book.lookup(child)
            if entry is not None:
                return _parent_value(entry.score), "book"
        seconds = (deadline - time.perf_counter()) / left
        if seconds <= 0.01 or stop.is_set():
            return None, "timeout"
        limits = SearchLimits(time=seconds, nodes=MAX_NODES, stop=stop)
        kind = self._compiled(game, child, solving=True)
        with self._borrow(kind) if kind == backend.PLACEMENT else _nothing() as solver:
            if solver is not None:
                result = solve(child, limits, searcher=solver)
            else:
                result = solve(child, limits, engine="python")
        return (_parent_value(result.score), "solver") if result.completed else (None, "timeout")

    def trace(
        self,
        game: Game,
        position: Position[Any],
        max_nodes: int,
        depth: int | None,
        algorithm: str,
        seconds: float,
        stop: threading.Event,
    ) -> dict[str, Any]:
        """The search of ``position``, node by node: to the end of the game if that fits in
        ``max_nodes`` nodes, else the deepest depth-limited search that does (said so in
        ``note``), all within ``seconds``.

        :raises TraceLimitExceeded: when even depth 1 (or the ``depth`` asked for) does not fit.
        """
        started = time.perf_counter()
        limits = SearchLimits(time=seconds, stop=stop)
        fitted: tuple[SearchTrace, SearchResult[Any], int | None] | None = None
        note = ""
        if depth is None and game.solvable:
            attempts: list[int | None] = [None]
        else:
            attempts = [depth] if depth is not None else []
        if depth is None:
            attempts += list(range(1, MAX_TRACE_DEPTH + 1))
        for attempt in attempts:
            if fitted is not None and fitted[2] is None:
                break  # the whole game fitted
            trace = SearchTrace(max_nodes=max_nodes)
            try:
                if attempt is None:
                    result = solve(position, limits, algorithm=algorithm, trace=trace)
                else:
                    left = seconds - (time.perf_counter() - started)
                    if left <= 0:
                        break
                    limited = dataclasses.replace(limits, time=left, depth=attempt)
                    result = search(position, limited, algorithm=algorithm, trace=trace)
            except TraceLimitExceeded:
                if attempt is None:
                    note = f"the search to the end of the game visits more than {max_nodes:,} nodes"
                    continue
                if fitted is None:
                    raise TraceLimitExceeded(
                        f"a search to depth {attempt} visits more than {max_nodes:,} nodes here; trace a later position"
                    ) from None
                if not note:
                    note = f"the search to depth {attempt} visits more than {max_nodes:,} nodes"
                break
            if not result.completed:
                if fitted is None:
                    fitted, note = (trace, result, attempt), f"stopped after {seconds:.2g} s"
                break
            fitted = (trace, result, attempt)
            if result.lower == result.upper and abs(result.score) >= WIN_THRESHOLD and attempt is not None:
                break  # a deeper search finds the same forced end
        if fitted is None:
            raise TraceLimitExceeded(f"no search of this position fits in {max_nodes:,} nodes")
        trace, result, reached = fitted
        if reached is not None and not note.startswith("stopped"):
            prefix = note + ": " if note else ""
            note = f"{prefix}this is {algorithm} to depth {reached} ({len(trace.nodes):,} nodes)"
        return _tree(game, position, trace, result, note, time.perf_counter() - started)


@contextmanager
def _nothing() -> Iterator[None]:
    yield None


@contextmanager
def _open_book(open_book: OpenBook | None, game: Game) -> Iterator[Any]:
    """The book for this thread (a book's SQLite connection stays in its thread)."""
    if open_book is None:
        yield None
        return
    with open_book(game) as book:
        yield book


def _parent_value(child_value: int) -> int:
    """The value, for the side that moved, of the move leading to a child worth
    ``child_value`` to its own side to move (a win one ply further away)."""
    return -from_node(child_value, 1)


def _reporter(game: Game, position: Position[Any], on_iteration: OnIteration) -> Callable[[SearchResult[Any]], None]:
    """Reports iterations at most every ``REPORT_SECONDS`` (the shallow ones come by the
    dozen in a millisecond; the page could not show them, and each costs the server)."""
    last = -REPORT_SECONDS

    def report(result: SearchResult[Any]) -> None:
        nonlocal last
        now = time.perf_counter()
        if now - last >= REPORT_SECONDS:
            last = now
            on_iteration(record(game, position, result))

    return report


def record(game: Game, position: Position[Any], result: SearchResult[Any], solved: bool = False) -> dict[str, Any]:
    """An iteration (or the final result) as the page shows it (``solved``: by a solve,
    whose value is exact whatever its depth)."""
    moves = result.pv[:MAX_LINE]
    pv = pv_text(game, position, moves)
    line = pv_text(game, position, moves, partial(shown_move, game)) if kind_of(game) == "chess" else pv
    exact = result.lower == result.upper
    first_player = result.score if position.player() == 0 else -result.score
    return {
        "depth": result.depth,
        "score": game.game_score(position, result.score),
        "score_text": _score_text(game, result.score) if exact else _interval(result),
        "advantage": _advantage(first_player),
        "pv": pv,
        "line": line,
        "nodes": result.nodes,
        "nps": round(result.nodes_per_second),
        "seconds": round(result.wall_time, 3),
        "best": game.move_text(position, result.best_move) if result.best_move is not None else None,
        "algorithm": result.algorithm,
        "completed": result.completed,
        "solved": solved,
    }


def _score_text(game: Game, score: int) -> str:
    """A score as players read it: chess in pawns (+0.32), wins as ``win in N``."""
    if kind_of(game) == "chess" and abs(score) < WIN_THRESHOLD:
        return f"{score / 100:+.2f}"
    return describe(score)


def _interval(result: SearchResult[Any]) -> str:
    low = "-inf" if result.lower <= -INF else describe(result.lower)
    high = "+inf" if result.upper >= INF else describe(result.upper)
    return f"in [{low}, {high}]"


def _advantage(score: int) -> float:
    """The first player's advantage from -1 to 1, for the evaluation bar (a win is 1)."""
    if score >= WIN_THRESHOLD:
        return 1.0
    if score <= -WIN_THRESHOLD:
        return -1.0
    return max(-0.95, min(0.95, score / 1000))


def _tree(
    game: Game, position: Position[Any], trace: SearchTrace, result: SearchResult[Any], note: str, seconds: float
) -> dict[str, Any]:
    labels = move_labels(trace, game, position)
    pruned = pruned_labels(trace, game, position)
    nodes = [
        {
            "index": node.index,
            "parent": node.parent,
            "move": labels.get(node.index, ""),
            "depth": node.depth,
            "window": window_text(node),
            "value": value_text(node.value),
            "bound": node.bound.name.lower(),
            "table": node.tt_cutoff,
            "children": node.children,
            "pruned": pruned.get(node.index, []),
        }
        for node in trace.nodes
    ]
    return {
        "nodes": nodes,
        "pv": trace.principal_variation(),
        "value": describe(result.score),
        "note": note,
        "seconds": round(seconds, 3),
    }
