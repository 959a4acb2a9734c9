"""Exact solving of placement games on the compiled kernel: limits, progress, the principal
variation, and the translation of results into the library's ``SearchResult``.

The position is a ``PlacementPosition`` (``negamax.core.game``). Its spec selects the
kernels: the package's own for the built-in games, a family of their own for any other
game (``families``). Importing this module imports numba; nothing else in the library does
until this path is chosen.

With limits or a progress callback, the kernel runs on a worker thread without the
interpreter lock; the calling thread watches the stop event, the clock and Ctrl-C,
reports progress, and raises the kernel's stop flag when one of them says so.
"""

from __future__ import annotations

import contextlib
import dataclasses
import queue
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from multiprocessing.shared_memory import SharedMemory
from typing import Any, Final, cast

import numpy as np

from negamax.core import score as score_conversions
from negamax.core.errors import InvalidOptionError
from negamax.core.game import PlacementPosition
from negamax.core.numba_cache import all_cached, load_from_cache
from negamax.core.ranges import DEFAULT_HASH_MIB
from negamax.core.score import INF, Bound
from negamax.core.types import STOP_LATENCY, OnIteration, SearchLimits, SearchResult, SearchStats
from negamax.search.compiled import families, placement_table
from negamax.search.compiled import placement_kernel as kernel
from negamax.search.compiled import placement_layout as layout
from negamax.search.compiled.placement_helper_pool import HelperProcesses, HelperThreads, shared_array

NO_LIMIT = 1 << 62
HELPERS_AFTER_NODES = 50_000
"""With several threads, helpers join a solve once the main worker has searched this many
nodes alone (a few tens of milliseconds): smaller solves do not pay for threads."""
PROGRESS_SECONDS = 0.25
WHOLE_RANGE: Final = (-64, 64)
"""Starting bounds (Pons' units) wider than any position's score range, which the kernel's
``solve`` narrows to it: a solve from scratch with no need to compute the range first."""


def table_bits(mib: float) -> int:
    """The entries (a power of two, as bits) of a table of at most ``mib`` MiB.

    :raises InvalidOptionError: for a size the kernel cannot take."""
    smallest, largest = (_mib(bits) for bits in (layout.MIN_TABLE_BITS, layout.MAX_TABLE_BITS))
    if not smallest <= mib <= largest:
        raise InvalidOptionError(f"the solver's table takes {smallest} to {largest} MiB, not {mib:g}")
    entries = int(mib * (1 << 20)) // 8
    return entries.bit_length() - 1


def _mib(bits: int) -> int:
    """The size in MiB of a table of ``2**bits`` entries (of 8 bytes)."""
    return (8 << bits) >> 20


class CompiledSolver:
    """Solves positions of placement games with ``threads`` workers sharing one table.

    Owns the kernel's memory (a table of ``hash_mib`` MiB, by default
    ``negamax.core.ranges.DEFAULT_HASH_MIB``, and each worker's counters and buffers) and reuses it between
    solves: each solve gets a fresh tag, so nothing is cleared.

    With several workers (at most ``placement_layout.MAX_WORKERS``), the solver starts
    ``threads - 1`` helpers sharing the table: threads by default, or with
    ``processes=True`` processes that map it from shared memory (``placement_helper_pool``).
    ``close()`` ends them (so does leaving a ``with`` block, collecting the solver, or
    exiting). The main worker searches alone for ``HELPERS_AFTER_NODES`` nodes, then starts
    over on the warm table and publishes split points that the helpers search (YBWC with
    helpful masters; ``docs/parallel-solver.md`` tells the design and the designs measured
    and dropped). Helpers only ever add proven bounds to the table, so the value is the
    main worker's and never depends on the number of workers; node counts vary from run
    to run.
    """

    kind: Final = "placement"
    """The games it searches (``negamax.search.searcher.PLACEMENT``)."""

    def __init__(
        self,
        threads: int = 1,
        processes: bool = False,
        prefault: bool = False,
        pv_plies: int | None = None,
        hash_mib: float | None = None,
    ) -> None:
        if threads < 1:
            raise InvalidOptionError(f"threads must be at least 1, not {threads}")
        self.table_bits = table_bits(DEFAULT_HASH_MIB if hash_mib is None else hash_mib)
        self._sized_by_default = hash_mib is None
        """Whether the table may grow for a game whose keys need more (``_use_keys``)."""
        self.threads = min(threads, layout.MAX_WORKERS)
        self.helper_note = f"{self.threads} workers, the most there can be" if threads > self.threads else ""
        """Why the helpers are not what was asked for, if they are not."""
        self._allocate(threads, processes, prefault)
        self.works = [np.zeros(layout.WORK_SIZE, dtype=np.int64)]
        self.key_bits = 0
        """The key bits of the game last searched (``_form`` sets them for probe() and the
        tags)."""
        self.state = self.works[0][: layout.STATE_SIZE]
        self.tag = 0
        self._solve_entries: dict[type, Callable[..., Any]] = {}
        self._each_works: list[np.ndarray[Any, Any]] = []
        """``solve_each``'s workers' counters and buffers, made on its first call."""
        self._user_stopped = False
        self.helper_nodes = 0
        """The nodes the helpers searched in the last solve."""
        self.pv_plies = pv_plies
        """How much of the principal variation ``solve`` finds unless told (``None``: all
        of it; 0: none, only the kernel's best move)."""
        self._release = weakref.finalize(self, _release, self._helpers, self._table_memory)

    def _allocate(self, threads: int, processes: bool, prefault: bool) -> None:
        """Make the table of ``2**table_bits`` entries, and the helpers that share it."""
        length = placement_table.table_length(self.table_bits)
        self.processes = False
        """Whether the helpers are processes (else threads)."""
        self._helpers: HelperThreads | HelperProcesses | None = None
        self._table_memory: SharedMemory | None = None
        if threads > 1 and processes:
            shared = shared_array(length)
            if shared is None:
                self.helper_note = "helper threads: no room in shared memory for the table"
            else:
                self._table_memory, self.table = shared
                try:
                    self._helpers = HelperProcesses(threads - 1, self._table_memory)
                    self.processes = True
                except OSError as error:
                    self.helper_note = f"helper threads: {error}"
        if self._table_memory is None:
            # An all-zero entry is empty. The operating system maps the pages as they are first
            # written (a third of a second for all of them here, more than most solves take);
            # a benchmark asks for them all up front (prefault), so no timed solve pays.
            self.table = np.zeros(length, dtype=np.int64)
            if prefault:
                self.table[:] = 0
        if threads > 1 and self._helpers is None:
            self._helpers = HelperThreads(threads - 1, self.table)

    @property
    def table_mib(self) -> int:
        """The transposition table's size in MiB."""
        return _mib(self.table_bits)

    def close(self) -> None:
        """End the helpers, and free the shared table if there is one (also done when the
        solver is collected, or at exit). The solver then works alone."""
        self.table = np.zeros(
            placement_table.table_length(self.table_bits), dtype=np.int64
        )  # no view into freed memory
        self._helpers = None
        self.threads = 1
        self._release()

    def clear(self) -> None:
        """Forget what the table holds: the next solve starts on a new tag, which no entry
        carries (cheaper than zeroing: nothing is written)."""
        self._next_tag(True)

    def __enter__(self) -> CompiledSolver:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _next_tag(self, fresh_table: bool) -> int:
        if fresh_table or self.tag == 0:
            self.tag += 1
            if self.tag > placement_table.max_tag(self.table_bits, self.key_bits):
                self.table[:] = 0
                self.tag = 1
        return self.tag

    def warm_up(self, position: PlacementPosition[Any], wait_for_helpers: bool = False) -> None:
        """Load (or compile) the kernel for this game now, so no timed solve pays for it.
        Helpers load it too, meanwhile sitting out any solve; ``wait_for_helpers`` returns
        only once they are ready (for measurements)."""
        kernels, spec, current, mask, moves = self._form(position)
        tag = self._next_tag(True)
        if self._helpers is not None and self._helpers.idle():
            # without waiting: a helper still loading sits out the solves until it is ready
            self.table[layout.SPLIT_RUN] = 0
            self._helpers.start(spec)
        kernels.solve(spec, current, mask, moves, tag, 1, *WHOLE_RANGE, self.table, self.works[0])
        if wait_for_helpers and self._helpers is not None:
            self._helpers.stop()

    def cached(self, position: PlacementPosition[Any]) -> bool | None:
        """Whether the kernels for this game are loaded now, from numba's disk cache if they
        are there (``False``: they must be compiled first; ``None``: cannot tell)."""
        kernels, spec, current, mask, moves = self._form(position)
        work = self.works[0]
        checks = [
            load_from_cache(kernels.solve, (spec, current, mask, moves, 1, 1, 0, 0, self.table, work)),
            load_from_cache(kernels.negamax, (spec, current, mask, moves, 0, 1, self.table, work)),
        ]
        if self._helpers is not None:
            checks.append(load_from_cache(kernels.help_workers, (spec, self.table, work)))
        return all_cached(checks)

    def probe(self, position: PlacementPosition[Any], alpha: int, beta: int) -> int:
        """One fail-soft search of ``position`` with the window (alpha, beta) in Pons' units,
        sharing the current solve's table (a first one if none has run: no entry is read
        under tag 0, which an empty entry would match)."""
        kernels, spec, current, mask, moves = self._form(position)
        work = self.works[0]
        work[layout.STATE_TAG] = self._next_tag(False)
        work[layout.STATE_STOP] = 0  # (a stopped solve may have left it set)
        work[layout.STATE_NODES] = 0
        work[layout.STATE_NODE_LIMIT] = NO_LIMIT
        return int(kernels.negamax(spec, current, mask, moves, alpha, beta, self.table, self.works[0]))

    def solve_value(self, position: PlacementPosition[Any]) -> tuple[int, int]:
        """The exact value in Pons' units and the nodes searched (by every worker): the
        lean path that Pons' benchmark measures (no best move, no limits, no result)."""
        kernels, spec, current, mask, moves = self._form(position)
        if self.threads == 1:
            solve = self._solve_entries.get(type(spec)) or self._solve_entry(kernels, spec)
            tag = self._next_tag(True)
            value = solve(spec, current, mask, moves, tag, NO_LIMIT, *WHOLE_RANGE, self.table, self.works[0])
            return int(value), int(self.state[layout.STATE_NODES])
        nodes = self._search(
            kernels, spec, current, mask, moves, self._next_tag(True), NO_LIMIT, WHOLE_RANGE, SearchLimits(), None, None
        )
        return int(self.state[layout.STATE_LOWER]), nodes

    def _form(self, position: PlacementPosition[Any]) -> tuple[Any, Any, int, int, int]:
        """The kernels for the position's game, its spec for them, and its bitboards."""
        spec, current, mask, moves = position.placement_form()
        if self.processes and not type(spec).__module__.startswith(families.PACKAGE_PREFIX):
            raise InvalidOptionError("helper processes solve the built-in games only; use helper threads")
        kernels, spec = families.kernels_for(kernel, spec)
        key_bits = int(spec.key_bits)
        if key_bits != self.key_bits:
            self._use_keys(key_bits)
        return kernels, spec, current, mask, moves

    def _use_keys(self, key_bits: int) -> None:
        """Lay the table out for keys of ``key_bits`` bits. Entries laid out for other keys
        would be misread (the tag moves with the quotient's width): the table is emptied.

        :raises InvalidOptionError: if the table is too small for such keys."""
        smallest = placement_table.min_table_bits(key_bits)
        if self.table_bits < smallest and self._sized_by_default:
            # the default size is too small for these keys: the table grows (the helpers
            # are made again around it)
            processes = self.processes
            self._release()
            self.table_bits = smallest
            self._allocate(self.threads, processes, False)
            self._release = weakref.finalize(self, _release, self._helpers, self._table_memory)
            self.key_bits = 0
        if self.table_bits < smallest:
            raise InvalidOptionError(
                f"this board's keys take {key_bits} bits: its table needs at least {_mib(smallest)} MiB"
                f" (--hash {_mib(smallest)}), not {self.table_mib}"
            )
        if self.key_bits:
            self.table[:] = 0
            self.tag = 0
        self.key_bits = key_bits
        work = self.works[0]
        work[layout.STATE_TABLE_SHIFT] = placement_table.table_shift_for(self.table_bits, key_bits)
        work[layout.STATE_BUCKET_MASK] = (1 << (self.table_bits - 1)) - 1  # for probe() before solve()

    def _solve_entry(self, kernels: Any, spec: Any) -> Callable[..., Any]:
        """``solve`` as compiled for this game, called without numba's dispatch (which
        types every argument at every call: a microsecond, a tenth of an End-Easy solve);
        until it is compiled, the dispatcher itself."""
        from numba import typeof

        arguments = (spec, 0, 0, 0, 0, 0, 0, 0, self.table, self.works[0])
        types = tuple(typeof(argument) for argument in arguments)  # type: ignore[no-untyped-call]
        compiled: Any = kernels.solve.overloads.get(types)
        if compiled is None:
            return kernels.solve  # type: ignore[no-any-return]
        entry: Callable[..., Any] = compiled.entry_point
        self._solve_entries[type(spec)] = entry
        return entry

    def solve(
        self,
        position: PlacementPosition[Any],
        limits: SearchLimits | None = None,
        on_iteration: OnIteration | None = None,
        pv_plies: int | None = None,
        fresh_table: bool = True,
        bounds: tuple[int, int] = (-INF, INF),
    ) -> SearchResult[Any]:
        """The exact value of ``position`` as a distance score (``win in 7``), its best move
        and the first ``pv_plies`` moves of its principal variation (by default the solver's
        ``pv_plies``, all of it unless set; ``0``: none, and the best move is the kernel's,
        which a bisection may leave unproven, or none proven at all where ``bounds`` hold
        the value). ``bounds``: what is already proven of the value (distance scores, as a
        book or an earlier solve proved them), where the probes start; they must be true.
        A solve cut short by a limit returns the bounds proven so far (``completed=False``;
        a bound neither ``bounds`` nor a probe has moved is ``-INF``/``INF``, and the lower
        one is the score).
        ``on_iteration`` gets the bounds as they stand every ``PROGRESS_SECONDS`` while the
        kernel runs (it does not stop between its probes), then the result.

        ``nodes`` counts the value search only (by every worker), as Pons' benchmark does;
        the principal variation's null-window tests reuse the warm table and are not counted.

        :raises InvalidOptionError: for a depth limit (solving goes to the end), or bounds
            no value of the position meets.
        """
        limits = limits or SearchLimits()
        plies = self.pv_plies if pv_plies is None else pv_plies
        if limits.depth is not None:
            raise InvalidOptionError("the compiled solver searches to the end of the game; no depth limit")
        kernels, spec, current, mask, moves = self._form(position)
        state = self.state
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        node_limit = limits.nodes if limits.nodes is not None else NO_LIMIT

        tag = self._next_tag(fresh_table)
        start = pons_bounds(position, *bounds)
        proven = list(start)

        def snapshot() -> SearchResult[Any]:
            # The kernel starts over (from ``start``) when the helpers join: report
            # the tightest bounds proven by either phase, and none before the kernel starts.
            running = state[layout.STATE_TAG] == tag
            if running:
                proven[0] = max(proven[0], int(state[layout.STATE_LOWER]))
                proven[1] = min(proven[1], int(state[layout.STATE_UPPER]))
            return self._result(position, (), start_cpu, start_wall, (proven[0], proven[1]), running)

        nodes = self._search(
            kernels, spec, current, mask, moves, tag, node_limit, start, limits, on_iteration, snapshot, start_wall
        )
        snapshot()  # the bounds of both phases
        exact = proven[0] == proven[1]
        pv: tuple[Any, ...] = ()
        if exact and plies != 0:
            length = layout.MAX_PLIES if plies is None else plies
            pv = self._principal_variation(position, proven[0], length)
        result = self._result(position, pv, start_cpu, start_wall, (proven[0], proven[1]), not exact)
        result = dataclasses.replace(result, nodes=nodes, completed=exact)
        if on_iteration is not None:
            on_iteration(result)  # the kernel's probes are not seen one by one: the last, at least
        return result

    def solve_each(
        self,
        positions: Sequence[PlacementPosition[Any]],
        limits_for: Callable[[int], SearchLimits],
        on_solved: Callable[[int, SearchResult[Any]], None],
        pv_plies: int | None = None,
        fresh_table: bool = True,
        bounds: Sequence[tuple[int, int]] | None = None,
    ) -> bool:
        """Solve several positions of one game side by side, one a worker, on the shared
        table (as the children of a position whose every move is scored): where the
        workers would otherwise split each solve between them, every worker searches a
        whole one, with no split points to publish, and what each proves serves the others.
        Measured on Connect 4 positions of plies 9 and 10 whose every column was scored:
        about a fifth less wall time than the solves in turn on two workers.

        ``limits_for(index)`` gives a position's limits when a worker takes it (its time
        counted from then); ``on_solved(index, result)`` is called on this thread as each
        ends, solved or stopped by its limits (``completed``), with ``pv_plies`` of its
        principal variation as ``solve`` gives them; ``bounds``, each position's as ``solve``
        takes them. Returns ``False``, having solved none,
        where there is nothing to gain (one worker, fewer than two positions) or the
        positions' keys differ.
        """
        if self.threads < 2 or len(positions) < 2:
            return False
        forms = [self._form(position) for position in positions]  # (any table change done here)
        if len({int(form[1].key_bits) for form in forms}) > 1:
            return False
        given = [(-INF, INF)] * len(positions) if bounds is None else bounds
        starts = [pons_bounds(position, *pair) for position, pair in zip(positions, given, strict=True)]
        plies = self.pv_plies if pv_plies is None else pv_plies
        tag = self._next_tag(fresh_table)
        while len(self._each_works) < self.threads:
            self._each_works.append(np.zeros(layout.WORK_SIZE, dtype=np.int64))
        lock = threading.Lock()
        taken = [0]
        running: dict[int, tuple[np.ndarray[Any, Any], float, SearchLimits]] = {}
        finished: queue.SimpleQueue[tuple[int, SearchResult[Any] | BaseException, int]] = queue.SimpleQueue()
        """Each position's index, result and value in Pons' units, as it ends (or an error)."""

        def solve_next(work: np.ndarray[Any, Any]) -> bool:
            with lock:
                index = taken[0]
                if index >= len(positions):
                    return False
                taken[0] += 1
            position = positions[index]
            limits = limits_for(index)
            kernels, spec, current, mask, moves = forms[index]
            start_cpu, start_wall = time.thread_time(), time.perf_counter()
            with lock:
                running[index] = (work, start_wall, limits)
            node_limit = limits.nodes if limits.nodes is not None else NO_LIMIT
            lower, upper = starts[index]
            if limits.reached(start_wall, start_wall):  # not started: nothing more proven
                work[: layout.STATE_SIZE] = 0
                work[layout.STATE_LOWER], work[layout.STATE_UPPER] = lower, upper
            else:
                kernels.solve(spec, current, mask, moves, tag, node_limit, lower, upper, self.table, work)
            with lock:
                del running[index]
            result = self._result(position, (), start_cpu, start_wall, None, False, work, time.thread_time)
            completed = dataclasses.replace(result, completed=result.bound == Bound.EXACT)
            finished.put((index, completed, int(work[layout.STATE_LOWER])))
            return True

        def work_on(work: np.ndarray[Any, Any]) -> None:
            try:
                while solve_next(work):
                    pass
            except BaseException as error:  # raised again on the calling thread
                finished.put((-1, error, 0))

        def stop_all() -> None:
            with lock:
                taken[0] = len(positions)  # the workers take nothing more
            for worker, work in zip(workers, self._each_works, strict=True):
                # a kernel only starting clears the flag: keep raising it until the worker ends
                while worker.is_alive():
                    work[layout.STATE_STOP] = 1
                    worker.join(STOP_LATENCY)

        workers = [threading.Thread(target=work_on, args=(work,), daemon=True) for work in self._each_works]
        for worker in workers:
            worker.start()
        reported = 0
        try:
            while reported < len(positions):
                now = time.perf_counter()
                with lock:
                    looks = [limits.wait_before_next_look(start, now) for _, start, limits in running.values()]
                try:  # (at least a millisecond: a child whose time is up is unwinding)
                    index, outcome, value = finished.get(timeout=max(min([STOP_LATENCY, *looks]), 0.001))
                except queue.Empty:
                    now = time.perf_counter()
                    with lock:
                        for work, start, limits in running.values():
                            if limits.reached(start, now):
                                work[layout.STATE_STOP] = 1
                    continue
                if isinstance(outcome, BaseException):
                    raise outcome
                reported += 1
                result = outcome
                if result.completed and plies != 0:
                    # on this thread, with the main worker's counters (the workers have their own)
                    length = layout.MAX_PLIES if plies is None else plies
                    pv = self._principal_variation(positions[index], value, length) or result.pv
                    best = pv[0] if pv else result.best_move
                    result = dataclasses.replace(result, pv=pv, best_move=best, depth=len(pv))
                on_solved(index, result)
        except BaseException:
            stop_all()
            raise
        finally:
            for worker in workers:
                worker.join()
        return True

    def _search(
        self,
        kernels: Any,
        spec: Any,
        current: int,
        mask: int,
        moves: int,
        tag: int,
        node_limit: int,
        bounds: tuple[int, int],
        limits: SearchLimits,
        on_iteration: OnIteration | None,
        snapshot: Callable[[], SearchResult[Any]] | None,
        start: float | None = None,
    ) -> int:
        """Run the main worker (and, for long solves, the helpers) from ``bounds`` (Pons'
        units); return all their nodes."""
        start = time.perf_counter() if start is None else start
        main = self.works[0]
        self.helper_nodes = 0
        self._user_stopped = False
        helpers = self._helpers
        nodes = 0
        chunk = HELPERS_AFTER_NODES if helpers is not None else node_limit
        while True:
            limit = min(chunk, node_limit - nodes)
            arguments = (spec, current, mask, moves, tag, limit, *bounds)
            self._run(kernels, arguments, limits, start, on_iteration, snapshot, False)
            nodes += int(main[layout.STATE_NODES])
            if not main[layout.STATE_STOP] or self._user_stopped or nodes >= node_limit:
                return nodes
            assert helpers is not None
            if helpers.idle():
                break
            # The helpers are still loading the kernel (a solve right after the solver was
            # made): go on alone for twice as long, starting over on the warm table, then
            # look again.
            chunk *= 2
        # Phase 2: the main worker starts over on the warm table, publishing its split
        # points; the helpers search children of those (see placement_layout).
        table = self.table
        table[layout.SPLIT_HEADER : layout.SPLIT_BASE + self.threads * layout.SPLIT_AREA] = 0
        table[layout.BUSY_BASE : layout.BUSY_BASE + layout.BUSY_SIZE] = 0
        table[layout.SPLIT_TAG] = tag
        table[layout.SPLIT_WORKERS] = self.threads
        table[layout.SPLIT_RUN] = 1
        main[layout.STATE_PUBLISH] = 1
        helpers.start(spec)
        try:
            arguments = (spec, current, mask, moves, tag, node_limit - nodes, *bounds)
            self._run(kernels, arguments, limits, start, on_iteration, snapshot, True)
        finally:
            main[layout.STATE_PUBLISH] = 0
            table[layout.SPLIT_RUN] = 0
            self.helper_nodes = helpers.stop()
        return nodes + int(main[layout.STATE_NODES]) + self.helper_nodes

    def _run(
        self,
        kernels: Any,
        arguments: tuple[Any, ...],
        limits: SearchLimits,
        start: float,
        on_iteration: OnIteration | None,
        snapshot: Callable[[], SearchResult[Any]] | None,
        helpers: bool,
    ) -> None:
        """Run the main worker's solve; watch the limits and report progress meanwhile."""
        # no report reads the state as this solve's until the kernel has reset it (it
        # writes the tag last), even when the tag is the previous solve's
        self.works[0][layout.STATE_TAG] = 0
        call = (*arguments, self.table, self.works[0])
        if limits.stop is None and limits.time is None and on_iteration is None and not helpers:
            kernels.solve(*call)  # nothing to watch: run on this thread
            return
        worker = threading.Thread(target=kernels.solve, args=call, daemon=True)
        next_report = time.perf_counter() + PROGRESS_SECONDS
        worker.start()
        try:
            while worker.is_alive():
                wait = limits.wait_before_next_look(start, time.perf_counter())
                worker.join(min(wait, PROGRESS_SECONDS))
                now = time.perf_counter()
                if limits.reached(start, now):  # measured from the solve's start, across its phases
                    self._user_stopped = True
                    self.works[0][layout.STATE_STOP] = 1
                if on_iteration is not None and snapshot is not None and now >= next_report and worker.is_alive():
                    on_iteration(snapshot())
                    next_report = now + PROGRESS_SECONDS
        except KeyboardInterrupt:
            self._user_stopped = True
            self.works[0][layout.STATE_STOP] = 1
            worker.join()
            raise

    def _principal_variation(self, position: PlacementPosition[Any], value: int, plies: int) -> tuple[Any, ...]:
        """Follow moves that keep the value, each found by null-window tests of the children."""
        saved = self.state.copy()
        board = cast(PlacementPosition[Any], position.copy())
        line: list[Any] = []
        self.state[layout.STATE_ROOT_MOVES] = -1  # these tests need no root bookkeeping
        while not board.is_terminal() and len(line) < plies:
            chosen = None
            for move in board.legal_moves():
                board.play(move)
                # a child worth at most -value keeps the value
                child = _terminal_score(board) if board.is_terminal() else self.probe(board, -value, -value + 1)
                board.undo(move)
                if -child >= value:
                    chosen = move
                    break
            if chosen is None:
                break
            line.append(chosen)
            board.play(chosen)
            value = -value
        self.state[:] = saved  # the counters describe the value search
        return tuple(line)

    def _result(
        self,
        position: PlacementPosition[Any],
        pv: tuple[Any, ...],
        start_cpu: float,
        start_wall: float,
        bounds: tuple[int, int] | None = None,
        probing: bool = True,
        work: np.ndarray[Any, Any] | None = None,
        cpu_clock: Callable[[], float] = time.process_time,
    ) -> SearchResult[Any]:
        """The result the kernel's state describes (the main worker's, or that of ``work``),
        with ``bounds`` (Pons' units) in place of the state's when given, and the window
        being searched if ``probing``; its CPU time by ``cpu_clock``, from ``start_cpu``."""
        state = self.state if work is None else work[: layout.STATE_SIZE]
        probes = min(int(state[layout.STATE_PROBES]), layout.MAX_LOGGED_PROBES)
        logged = state[layout.STATE_PROBE_NODES : layout.STATE_PROBE_NODES + probes]
        stats = SearchStats(
            beta_cutoffs=int(state[layout.STATE_BETA_CUTOFFS]),
            first_move_cutoffs=int(state[layout.STATE_FIRST_MOVE_CUTOFFS]),
            tt_probes=int(state[layout.STATE_NODES]),  # every node that gets that far probes
            tt_hits=int(state[layout.STATE_TT_HITS]),
            tt_cutoffs=int(state[layout.STATE_TT_CUTOFFS]),
            iterations_nodes=tuple(int(count) for count in logged),
        )
        lower, upper = bounds or (int(state[layout.STATE_LOWER]), int(state[layout.STATE_UPPER]))
        best_move: Any = pv[0] if pv else (int(state[layout.STATE_BEST_MOVE]) or None)
        if best_move is None:
            best_move = next(iter(position.legal_moves()), None)
        low, high = pons_to_distance(position, lower), pons_to_distance(position, upper)
        if lower < upper:  # a bound still where the kernel starts proves nothing
            first, last = score_range(position)
            low = -INF if lower <= first else low
            high = INF if upper >= last else high
        window = None
        testing = int(state[layout.STATE_WINDOW])
        if probing and lower <= testing < upper:
            window = (pons_to_distance(position, testing), pons_to_distance(position, testing + 1))
        return SearchResult(
            best_move=best_move,
            score=low,
            bound=Bound.EXACT if lower == upper else Bound.LOWER,
            pv=pv or ((best_move,) if best_move is not None else ()),
            depth=len(pv),
            nodes=int(state[layout.STATE_NODES]),
            cpu_time=cpu_clock() - start_cpu,
            wall_time=time.perf_counter() - start_wall,
            algorithm="compiled",
            stats=stats,
            lower=low,
            upper=high,
            completed=lower == upper,
            window=window,
        )


def _release(helpers: HelperThreads | HelperProcesses | None, table_memory: SharedMemory | None) -> None:
    if helpers is not None:
        helpers.close()
    if table_memory is not None:
        with contextlib.suppress(BufferError):  # a view still exported: the OS frees it at exit
            table_memory.close()
        with contextlib.suppress(FileNotFoundError):
            table_memory.unlink()


def _terminal_score(board: PlacementPosition[Any]) -> int:
    """A finished game's score in Pons' units, for the side to move (who has lost or drawn)."""
    spec, _, _, moves = board.placement_form()
    if board.terminal_value() == 0:
        return 0
    cells: int = spec.width * spec.height
    return -((cells + 2 - int(moves)) // 2)


def score_range(position: PlacementPosition[Any]) -> tuple[int, int]:
    """Every value ``position`` can have, in Pons' units: where the kernel's bisection starts."""
    spec, _, _, moves = position.placement_form()
    cells: int = spec.width * spec.height
    return -((cells - moves) // 2), (cells + 1 - moves) // 2


def pons_bounds(position: PlacementPosition[Any], lower: int, upper: int) -> tuple[int, int]:
    """Proven bounds of ``position``'s value, distance scores, as bounds in Pons' units
    within its score range: a value is a draw or a win or loss with its distance, so a bound
    between those (a heuristic score, or a win or loss later than the game can last) says
    only on which side of the draw the value lies.

    :raises InvalidOptionError: for bounds no value of the position meets.
    """
    spec, _, _, moves = position.placement_form()
    cells: int = spec.width * spec.height
    first, last = score_range(position)

    def pons(score: int, upward: bool) -> int:
        if score_conversions.is_decisive(score):
            value = score_conversions.distance_to_pons(score, cells, moves)
            if value != 0 and (value > 0) == (score > 0):
                return value
            # a win or loss later than the game can last: every real one is sooner, so
            # the bound says only on which side of the draw the value lies
            if score > 0:
                return 1 if upward else 0
            return 0 if upward else -1
        if score == 0:
            return 0
        if upward:  # at least a heuristic score: at least a win (above 0) or a draw (below)
            return 1 if score > 0 else 0
        return -1 if score < 0 else 0

    low = first if lower <= -INF else max(first, pons(lower, True))
    high = last if upper >= INF else min(last, pons(upper, False))
    if low > high:
        raise InvalidOptionError(f"bounds ({lower}, {upper}): no value of this position lies within them")
    return low, high


def pons_to_distance(position: PlacementPosition[Any], score: int) -> int:
    """A Pons-convention score of ``position`` as the library's distance score."""
    spec, _, _, moves = position.placement_form()
    return score_conversions.pons_to_distance(score, spec.width * spec.height, moves)
