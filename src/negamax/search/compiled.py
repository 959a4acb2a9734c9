"""Exact solving on the compiled kernel: the table, the null-window bisection of the score
range (Pons' iterative deepening on the score), limits, and the translation of results.

The position must offer ``compiled_form()`` -> ``(spec, current, mask, moves)`` (see
``negamax.core.compiled``). Importing this module imports numba; nothing else in the
library does until this path is chosen.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from negamax.core.errors import InvalidOptionError
from negamax.core.game import Position
from negamax.core.score import INF, Bound, loss_in, win_in
from negamax.core.types import SearchLimits, SearchResult, SearchStats
from negamax.search.compiled_kernel import NO_LOWER, NO_UPPER, negamax

DEFAULT_ENTRIES = (1 << 23) + 9
"""8 M entries, 12 bytes each (a full 64-bit key and two int16 bounds): about 96 MiB."""
BYTES_PER_ENTRY = 12
TAG_SHIFT = 50
MAX_TAG = (1 << (63 - TAG_SHIFT)) - 1
CHECK_NODES = 1 << 16
"""Nodes between looks at the stop event when a search runs with a limit."""

OnProgress = Callable[[SearchResult[Any]], None]


class CompiledTable:
    """The kernel's transposition table: numpy arrays of keys and lower and upper bounds."""

    def __init__(self, entries: int | None = None, mib: float | None = None) -> None:
        if entries is not None and mib is not None:
            raise InvalidOptionError("give the table size in entries or in MiB, not both")
        if entries is None:
            entries = DEFAULT_ENTRIES if mib is None else int(mib * 2**20 / BYTES_PER_ENTRY)
        if entries < 1:
            raise InvalidOptionError(f"a transposition table needs at least 1 entry, not {entries}")
        self.keys = np.full(entries | 1, -1, dtype=np.int64)
        self.lowers = np.full(entries | 1, NO_LOWER, dtype=np.int16)
        self.uppers = np.full(entries | 1, NO_UPPER, dtype=np.int16)
        self.tag = 0

    def new_tag(self) -> int:
        """A fresh tag: entries stored under older tags no longer match, so the table is
        empty for the next solve without being rewritten."""
        self.tag += 1
        if self.tag > MAX_TAG:
            self.keys.fill(-1)
            self.tag = 1
        return self.tag << TAG_SHIFT


class CompiledSolver:
    """Solves positions of one compiled game; keeps its table between solves."""

    def __init__(self, table: CompiledTable | None = None) -> None:
        self.table = table or CompiledTable()
        self.scratch = np.zeros((64, 2, 16), dtype=np.int64)
        self.counters = np.zeros(8, dtype=np.int64)
        self.control = np.zeros(8, dtype=np.int64)

    def _probe(self, spec: Any, current: int, mask: int, moves: int, alpha: int, beta: int) -> int:
        return int(
            negamax(
                spec,
                np.int64(current),
                np.int64(mask),
                np.int64(moves),
                np.int64(alpha),
                np.int64(beta),
                self.table.keys,
                self.table.lowers,
                self.table.uppers,
                self.scratch,
                self.counters,
                self.control,
            )
        )

    def solve(
        self,
        position: Position[Any],
        limits: SearchLimits | None = None,
        on_iteration: OnProgress | None = None,
        principal_variation: bool = True,
        keep_table: bool = False,
    ) -> SearchResult[Any]:
        """The exact value of ``position`` (Pons' score convention inside, the library's
        distance scores outside), its best move and principal variation.

        :raises InvalidOptionError: for a depth limit (solving goes to the end).
        """
        limits = limits or SearchLimits()
        if limits.depth is not None:
            raise InvalidOptionError("the compiled solver searches to the end of the game; no depth limit")
        spec, current, mask, moves = position.compiled_form()  # type: ignore[attr-defined]
        if not keep_table:
            self.control[2] = self.table.new_tag()
        self.counters[:] = 0
        self.control[0] = limits.nodes if limits.nodes is not None else 1 << 62
        self.control[1] = 0
        self.control[3] = moves
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        cells = _cells(position, moves)
        lower, upper = -((cells - moves) // 2), (cells + 1 - moves) // 2
        best_move: Any = None
        probes: list[int] = []
        watcher = _Watcher(limits, self.control)
        aborted = False
        with watcher:
            # Step 1. Null-window probes halve [lower, upper], nearer to 0 first (Pons).
            while lower < upper:
                middle = lower + (upper - lower) // 2
                if middle <= 0 and lower // 2 < middle:
                    middle = lower // 2
                elif middle >= 0 and upper // 2 > middle:
                    middle = upper // 2
                before = int(self.counters[0])
                self.control[4] = 0
                value = self._probe(spec, current, mask, moves, middle, middle + 1)
                if self.control[1]:
                    aborted = True
                    break
                probes.append(int(self.counters[0]) - before)
                if value <= middle:
                    upper = value
                else:
                    lower = value
                    if self.control[4]:
                        best_move = int(self.control[4])
                if on_iteration is not None and lower < upper:
                    on_iteration(self._result(position, lower, upper, best_move, (), start_cpu, start_wall, probes))
            value_nodes = int(self.counters[0])
            pv: tuple[Any, ...] = ()
            if not aborted and principal_variation:
                pv = self._principal_variation(position, lower)
                aborted = bool(self.control[1])
                if pv:
                    best_move = pv[0]
        result = self._result(position, lower, upper, best_move, pv, start_cpu, start_wall, probes)
        stats = result.stats
        return SearchResult(
            best_move=result.best_move,
            score=result.score,
            bound=result.bound,
            pv=result.pv,
            depth=len(result.pv),
            nodes=value_nodes if not principal_variation else result.nodes,
            cpu_time=result.cpu_time,
            wall_time=result.wall_time,
            algorithm="compiled",
            stats=stats,
            lower=result.lower,
            upper=result.upper,
            completed=not aborted and lower == upper,
        )

    def _principal_variation(self, position: Position[Any], value: int) -> tuple[Any, ...]:
        """Follow moves that keep the value, each found by null-window tests of the children."""
        board = position.copy()
        line: list[Any] = []
        while not board.is_terminal() and len(line) < 64:
            spec, current, mask, moves = board.compiled_form()  # type: ignore[attr-defined]
            chosen = None
            for move in board.legal_moves():
                board.play(move)
                if board.is_terminal():
                    child = -_terminal_pons(board)
                else:
                    _, child_current, child_mask, child_moves = board.compiled_form()  # type: ignore[attr-defined]
                    # the child is worth -value exactly when it is at most -value
                    child = -self._probe(spec, child_current, child_mask, child_moves, -value, -value + 1)
                board.undo(move)
                if self.control[1]:
                    return tuple(line)
                if child >= value:
                    chosen = move
                    break
            if chosen is None:
                break
            line.append(chosen)
            board.play(chosen)
            value = -value
        return tuple(line)

    def _result(
        self,
        position: Position[Any],
        lower: int,
        upper: int,
        best_move: Any,
        pv: tuple[Any, ...],
        start_cpu: float,
        start_wall: float,
        probes: list[int],
    ) -> SearchResult[Any]:
        counters = self.counters
        stats = SearchStats(
            beta_cutoffs=int(counters[3]),
            first_move_cutoffs=int(counters[4]),
            tt_probes=int(counters[0]),
            tt_hits=int(counters[1]),
            tt_cutoffs=int(counters[2]),
            iterations_nodes=tuple(probes),
        )
        exact = lower == upper
        low, high = pons_to_engine(position, lower), pons_to_engine(position, upper)
        if best_move is None:
            best_move = next(iter(position.legal_moves()), None)
        return SearchResult(
            best_move=best_move,
            score=low if exact or lower > -INF else high,
            bound=Bound.EXACT if exact else Bound.LOWER,
            pv=pv or ((best_move,) if best_move is not None else ()),
            depth=len(pv),
            nodes=int(counters[0]),
            cpu_time=time.process_time() - start_cpu,
            wall_time=time.perf_counter() - start_wall,
            algorithm="compiled",
            stats=stats,
            lower=low,
            upper=high,
            completed=exact,
        )


def _cells(position: Position[Any], moves: int) -> int:
    spec = position.compiled_form()[0]  # type: ignore[attr-defined]
    cells: int = spec.width * spec.height
    return cells


def _terminal_pons(board: Position[Any]) -> int:
    """A finished game's score in Pons' units, for the side to move."""
    _, _, _, moves = board.compiled_form()  # type: ignore[attr-defined]
    if board.terminal_value() == 0:
        return 0
    cells = _cells(board, moves)
    return -((cells + 2 - moves) // 2)


def pons_to_engine(position: Position[Any], score: int) -> int:
    """A Pons-convention score of ``position`` as the library's distance score."""
    spec, _, _, moves = position.compiled_form()  # type: ignore[attr-defined]
    cells = spec.width * spec.height
    if score == 0:
        return 0
    magnitude = abs(score)
    # the game ends with stone n, (cells + 2 - n) // 2 == magnitude; the winner's parity
    # picks n: the side to move places stones moves+1, moves+3, ...
    first_choice = cells + 1 - 2 * magnitude  # n is this or the next number
    winner_parity = (moves + 1) % 2 if score > 0 else moves % 2
    stone = first_choice if first_choice % 2 == winner_parity else first_choice + 1
    plies = stone - moves
    return win_in(plies) if score > 0 else loss_in(plies)


class _Watcher:
    """While the kernel runs (holding no Python lock it needs), a thread turns the stop
    event and the time limit into the kernel's stop flag."""

    def __init__(self, limits: SearchLimits, control: np.ndarray[Any, Any]) -> None:
        self.limits = limits
        self.control = control
        self.done = threading.Event()
        self.thread: threading.Thread | None = None

    def __enter__(self) -> _Watcher:
        if self.limits.stop is not None or self.limits.time is not None:
            self.thread = threading.Thread(target=self._watch, daemon=True)
            self.thread.start()
        return self

    def _watch(self) -> None:
        deadline = None if self.limits.time is None else time.perf_counter() + self.limits.time
        while not self.done.wait(0.01):
            stopped = self.limits.stop is not None and self.limits.stop.is_set()
            if stopped or (deadline is not None and time.perf_counter() >= deadline):
                self.control[1] = 1
                return

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        if self.thread is not None:
            self.thread.join()
