"""Iterative deepening on the compiled deepening kernel: aspiration windows, limits, and
the translation of each iteration into the library's ``SearchResult``.

The position must offer ``compiled_search_form()`` and ``compiled_line(codes)``
(``negamax.core.game.HasCompiledSearch``). Importing this module imports numba; nothing
else in the library does until this path is chosen.

The kernel runs in the calling thread without the interpreter lock; a watcher thread
raises the kernel's stop flag when the stop event is set or the time is up.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from negamax.core.errors import InvalidOptionError
from negamax.core.game import HasCompiledSearch
from negamax.core.score import INF, WIN, WIN_THRESHOLD, Bound
from negamax.core.types import SearchLimits, SearchResult, SearchStats
from negamax.search import deepening_kernel as kernel

NO_LIMIT = 1 << 62
ENTRY_BYTES = 16
ASPIRATION_WINDOW = 25
ASPIRATION_FROM_DEPTH = 4
WATCH_SECONDS = 0.002
DEEPEST = kernel.MAX_PLY - 8
"""Iterations stop here: the deepest lines need room for extensions and quiescence."""

OnIteration = Callable[[SearchResult[Any]], None]


class CompiledDeepening:
    """Searches positions of compiled move-list games; owns the kernel's table (sized in
    MiB, rounded down to a power of two of entries) and working memory, reused between
    searches so that the table carries knowledge from one move to the next."""

    def __init__(self, hash_mib: float = 64, features: int = kernel.ALL_FEATURES) -> None:
        if not 0 < hash_mib <= 65536:
            raise InvalidOptionError(f"the table size must be above 0 and at most 65536 MiB, not {hash_mib}")
        entries = 1 << max(10, int(hash_mib * 2**20 // ENTRY_BYTES).bit_length() - 1)
        self.keys = np.zeros(entries, dtype=np.int64)
        self.data = np.zeros(entries, dtype=np.int64)
        self.work = np.zeros(kernel.WORK_SIZE, dtype=np.int64)
        self.features = features
        self.generation = 0

    @property
    def entries(self) -> int:
        return int(self.keys.size)

    def clear(self) -> None:
        """Forget everything learnt (a new game)."""
        self.keys[:] = 0
        self.data[:] = 0
        self.work[:] = 0
        self.generation = 0

    def hashfull(self) -> int:
        """Per mille of the table used by the last search (UCI's ``hashfull``)."""
        return int(kernel.hash_permille(self.keys, self.data, self.generation))

    def warm_up(self, position: HasCompiledSearch[Any]) -> None:
        """Load (or compile) the kernel for this game now, so no timed search pays for it."""
        self.search(position, SearchLimits(depth=1))

    def search(
        self,
        position: HasCompiledSearch[Any],
        limits: SearchLimits | None = None,
        on_iteration: OnIteration | None = None,
    ) -> SearchResult[Any]:
        """Deepens until a limit: ``depth`` iterations, ``nodes``, ``time`` seconds, or the
        ``stop`` event. Returns the last completed iteration (with a better move from the
        interrupted one, if it found one), ``completed=False`` when a limit cut it short."""
        limits = limits or SearchLimits()
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        spec, state = position.compiled_search_form()
        work = self.work
        self._prepare(limits)
        done = threading.Event()
        watcher = self._watch(limits, start_wall, done)
        iterations: list[int] = []
        last: SearchResult[Any] | None = None
        score = 0
        try:
            for depth in range(1, min(limits.depth or DEEPEST, DEEPEST) + 1):
                before = int(work[kernel.W_NODES])
                value = self._iterate(spec, state, depth, score)
                code = int(work[kernel.W_BEST_MOVE])
                if work[kernel.W_ABORTED]:
                    if last is not None and code != 0 and list(position.compiled_line([code]))[:1] != [last.best_move]:
                        # the unfinished iteration proved a new move better than the old best
                        partial = int(work[kernel.W_BEST_SCORE])
                        last = self._result(position, partial, depth - 1, [code], iterations, start_wall, start_cpu)
                    break
                if code == 0:
                    return self._game_over(position, value, start_wall, start_cpu)
                score = value
                iterations.append(int(work[kernel.W_NODES]) - before)
                length = int(work[kernel.PV_LENGTHS])
                line = [int(work[kernel.PV + index]) for index in range(length)]
                last = self._result(position, score, depth, line, iterations, start_wall, start_cpu)
                if on_iteration is not None:
                    on_iteration(last)
                if limits.depth is None and abs(score) >= WIN_THRESHOLD and depth >= WIN - abs(score):
                    break  # a mate, proved to its end
        finally:
            done.set()
            if watcher is not None:
                watcher.join()
        if last is None:
            return self._game_over(position, None, start_wall, start_cpu)
        if work[kernel.W_ABORTED] and not (limits.depth is not None and last.depth >= limits.depth):
            # the unfinished iteration's nodes and time count too
            return dataclasses.replace(
                last,
                completed=False,
                nodes=int(work[kernel.W_NODES]),
                cpu_time=time.process_time() - start_cpu,
                wall_time=time.perf_counter() - start_wall,
            )
        return last

    def _prepare(self, limits: SearchLimits) -> None:
        work = self.work
        work[: kernel.HISTORY] = 0  # the counters and the killers
        history = work[kernel.HISTORY : kernel.HISTORY + kernel.HISTORY_SLOTS]
        history //= 8  # old successes still count, a little
        work[kernel.W_FEATURES] = self.features
        work[kernel.W_NODE_LIMIT] = limits.nodes if limits.nodes is not None else NO_LIMIT
        self.generation = self.generation % 255 + 1
        work[kernel.W_GENERATION] = self.generation

    def _watch(self, limits: SearchLimits, start: float, done: threading.Event) -> threading.Thread | None:
        if limits.time is None and limits.stop is None:
            return None
        deadline = None if limits.time is None else start + limits.time
        stop_event, work = limits.stop, self.work

        def watch() -> None:
            while not done.wait(WATCH_SECONDS):
                if (stop_event is not None and stop_event.is_set()) or (
                    deadline is not None and time.perf_counter() >= deadline
                ):
                    work[kernel.W_STOP] = 1
                    return

        watcher = threading.Thread(target=watch, name="search-watch", daemon=True)
        watcher.start()
        return watcher

    def _iterate(self, spec: Any, state: Any, depth: int, guess: int) -> int:
        """One depth, with an aspiration window around ``guess`` from
        ``ASPIRATION_FROM_DEPTH`` on, widened until the value falls inside."""
        if depth < ASPIRATION_FROM_DEPTH or abs(guess) >= WIN_THRESHOLD:
            return int(kernel.search_root(spec, state, self.keys, self.data, self.work, depth, -INF, INF))
        width = ASPIRATION_WINDOW
        alpha, beta = guess - width, guess + width
        while True:
            value = int(kernel.search_root(spec, state, self.keys, self.data, self.work, depth, alpha, beta))
            if self.work[kernel.W_ABORTED]:
                return value
            if value <= alpha:
                alpha = max(value - width, -INF)
            elif value >= beta:
                beta = min(value + width, INF)
            else:
                return value
            width *= 4
            if width > 1000:
                alpha, beta = -INF, INF
            self.work[kernel.W_RESEARCHES] += 1

    def _result(
        self,
        position: HasCompiledSearch[Any],
        score: int,
        depth: int,
        line: list[int],
        iterations: list[int],
        start_wall: float,
        start_cpu: float,
    ) -> SearchResult[Any]:
        pv = tuple(position.compiled_line(line)) or tuple(position.compiled_line(line[:1]))
        return SearchResult(
            best_move=pv[0],
            score=score,
            bound=Bound.EXACT,
            pv=pv,
            depth=depth,
            nodes=int(self.work[kernel.W_NODES]),
            cpu_time=time.process_time() - start_cpu,
            wall_time=time.perf_counter() - start_wall,
            algorithm="compiled",
            stats=self._stats(iterations),
            lower=score,
            upper=score,
        )

    def _stats(self, iterations: list[int]) -> SearchStats:
        work = self.work
        return SearchStats(
            beta_cutoffs=int(work[kernel.W_BETA_CUTOFFS]),
            first_move_cutoffs=int(work[kernel.W_FIRST_MOVE_CUTOFFS]),
            tt_probes=int(work[kernel.W_TT_PROBES]),
            tt_hits=int(work[kernel.W_TT_HITS]),
            tt_cutoffs=int(work[kernel.W_TT_CUTOFFS]),
            researches=int(work[kernel.W_RESEARCHES]),
            quiescence_nodes=int(work[kernel.W_QUIESCENCE_NODES]),
            seldepth=int(work[kernel.W_SELDEPTH]),
            null_move_cutoffs=int(work[kernel.W_NULL_CUTOFFS]),
            reduced_moves=int(work[kernel.W_REDUCED]),
            iterations_nodes=tuple(iterations),
        )

    def _game_over(
        self, position: HasCompiledSearch[Any], value: int | None, start_wall: float, start_cpu: float
    ) -> SearchResult[Any]:
        """No legal move (``value`` is mate or stalemate), or stopped before depth 1
        finished (``None``: any legal move, unsearched)."""
        moves = position.legal_moves()  # type: ignore[attr-defined]
        best = moves[0] if moves and value is None else None
        return SearchResult(
            best_move=best,
            score=value or 0,
            bound=Bound.EXACT if best is None else Bound.LOWER,
            pv=() if best is None else (best,),
            depth=0,
            nodes=int(self.work[kernel.W_NODES]),
            cpu_time=time.process_time() - start_cpu,
            wall_time=time.perf_counter() - start_wall,
            algorithm="compiled",
            stats=self._stats([]),
            lower=value if value is not None else -INF,
            upper=value if value is not None else INF,
            completed=best is None,
        )
