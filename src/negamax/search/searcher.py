"""``Searcher``: the one object that owns searching positions.

It decides, once per call, which backend runs it (the pure-Python search or a compiled
kernel), owns the compiled searchers it makes (their tables, helper threads and
processes), lends them to one call at a time from a pool, knows whether a game's kernel
is loaded and prepares it (here, or in another process while the pure-Python search
answers), and scores several root moves when asked (``multipv``). Every front end (the
command line, the web app, the UCI and HUB engines, batch workers, book builds) searches
through one; ``negamax.search()`` and ``negamax.solve()`` use a default one.

The same call on the same position gives the same answer whatever ran before in the
process: a searcher that does not keep its tables (the default) clears them for every
call, and a quick pure-Python path is chosen from the position alone (its ``plies_left``).

This module never imports numba: the compiled searchers are imported when first made.

>>> from negamax.games import get_game
>>> searcher = Searcher()
>>> position = get_game("tictactoe").new_position("01")
>>> result = searcher.solve(position, multipv=3)
>>> ", ".join(f"{line.move}: {line.score_text}" for line in result.lines)
'3: win in 5, 4: win in 5, 6: win in 5'
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from negamax.core.errors import InvalidOptionError
from negamax.core.game import PlacementPosition, Position, checked_terminal_value
from negamax.core.keys import check_keys
from negamax.core.ranges import DEFAULT_HASH_MIB, THREADS, TIME, hash_range
from negamax.core.rules import Game
from negamax.core.score import INF, Bound, from_child, from_child_bounds, to_child_bounds
from negamax.core.types import OnIteration, SearchLimits, SearchResult
from negamax.core.user_code import check_hashable_key, names_user_errors
from negamax.search import driver, mcts, warmup
from negamax.search.backend_choice import (
    BACKENDS,
    MCTS,
    MOVE_LIST,
    PLACEMENT,
    PYTHON,
    QUICK_NODES,
    Plan,
    Request,
    alpha_beta_trace,
    checked_call,
    compiled_kinds,
    monte_carlo_kind,
    planned_kind,
    python_only_request,
)
from negamax.search.backend_choice import MULTIPV as MULTIPV
from negamax.search.compiled_protocols import Compiled
from negamax.search.lines import checked_root_moves, solved_lines
from negamax.search.mcts_tree import MCTSTrace
from negamax.search.params import SearchOptions, options_for
from negamax.search.trace import SearchTrace
from negamax.search.tt import TranspositionTable

Announce = Callable[[str], None]

_LOADED: set[tuple[str, str]] = set()
"""(game's kernel name, kind) of every kernel loaded in this process: a kernel, once loaded,
serves every searcher, so readiness is the process's, not one searcher's."""

_Request = Request
"""What a call asks of the pure-Python search (``backend_choice.Request``)."""


class Searcher:
    """Searches and solves positions, on the backend each call needs.

    ``backend``: ``auto``, ``python`` or ``compiled`` (see ``BACKENDS``). ``hash_mib``: the
    table of each compiled searcher it makes (default ``DEFAULT_HASH_MIB``). ``threads``:
    workers sharing a table (the exact solver's helpers, or lazy SMP for searches to a
    limit); ``processes`` runs the solver's helpers as processes. ``keep_tables``: tables
    carry what they learnt from one call to the next (an engine playing a game); by
    default each call starts from clean tables, so its answer never depends on earlier
    calls. ``game``: the game searched, which lets the kernel be compiled in another
    process (``prepare``); with ``wait_for_kernel=False`` a call made before the kernel is
    ready runs on the pure-Python search instead of waiting for it. ``pv_plies``: how
    much of an exact solve's line to find (``None``: all). ``idle``: compiled searchers
    kept between calls, of each kind (calls at once get one each). ``python_options``: the
    pure-Python search's options when a call gives none (a slow game's ``check_every``).
    ``tree_mib``: the tree of each Monte Carlo search (``negamax.search.mcts``; default
    ``mcts.DEFAULT_TREE_MIB``, its memory taken as the tree grows). ``load_wait``: with
    ``wait_for_kernel=False``, the most seconds a call waits for its kernel to load from
    disk (at most half its time) before it answers without it. ``negamax.search.presets``
    makes the searcher each front end needs.
    """

    def __init__(
        self,
        backend: str = "auto",
        *,
        hash_mib: float | None = None,
        threads: int = 1,
        processes: bool = False,
        keep_tables: bool = False,
        game: Game | None = None,
        wait_for_kernel: bool = True,
        pv_plies: int | None = None,
        idle: int = 1,
        python_options: SearchOptions | None = None,
        tree_mib: float | None = None,
        load_wait: float = 0.0,
    ) -> None:
        if backend not in BACKENDS:
            raise InvalidOptionError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
        self.backend = backend
        self.hash_mib = DEFAULT_HASH_MIB if hash_mib is None else hash_range().check(hash_mib)
        self._hash_given = hash_mib is not None
        """Whether the size was asked for (else a solver's table may grow for a board whose
        keys need more: 128 MiB for 64-bit keys)."""
        self.threads = int(THREADS.check(threads))
        self.processes = processes
        self.keep_tables = keep_tables
        self.game = game
        self.wait_for_kernel = wait_for_kernel
        self.load_wait = load_wait
        self.pv_plies = pv_plies
        self.notes: list[str] = []
        """Why a compiled searcher runs with other helpers than asked (no shared memory)."""
        self._idle_limit = idle
        self._idle: dict[str, list[Any]] = {PLACEMENT: [], MOVE_LIST: [], MCTS: []}
        self.tree_mib = mcts.DEFAULT_TREE_MIB if tree_mib is None else hash_range().check(tree_mib)
        self._lock = threading.Lock()
        self._preparing: threading.Thread | None = None
        self._closing = threading.Event()
        self._compiling = threading.Event()
        self.python_options = python_options
        self._python_table: TranspositionTable | None = None
        """The pure-Python search's table, kept between calls by a searcher that keeps tables."""

    # -- the calls ----------------------------------------------------------------------

    @names_user_errors
    def search(
        self,
        position: Position[Any],
        limits: SearchLimits | None = None,
        *,
        multipv: int = 1,
        root_moves: Sequence[Any] | None = None,
        algorithm: str = "auto",
        options: SearchOptions | None = None,
        table: TranspositionTable | None = None,
        trace: SearchTrace | MCTSTrace | None = None,
        on_iteration: OnIteration | None = None,
        plan: Plan | None = None,
    ) -> SearchResult[Any]:
        """Search ``position`` within ``limits`` (a depth, node count or time is required),
        deepening one ply at a time, each completed iteration reported to ``on_iteration``.
        ``position`` is never changed.

        ``algorithm="mcts"`` (or ``auto`` on a game without an evaluation, to a time or
        node limit) runs Monte Carlo tree search instead (``negamax.search.mcts``): ``nodes``
        counts its playouts, ``multipv`` its lines (ranked by visits, with their win rates),
        ``options`` its exploration, seed and playouts, and ``trace`` may be an ``MCTSTrace``.

        ``multipv=k``: the ``k`` best root moves, each searched to the same depth with its
        own score and line (``result.lines``, best first): one deepening whose every depth
        searches the best move, then the best of the others, and so on; a depth is reported
        once all its lines are done, and a limit (nodes: all the lines' together) keeps the
        last such depth.
        ``root_moves``: the only moves searched at the root (UCI's ``searchmoves``).
        ``algorithm``, ``options``, ``table`` and ``trace`` are the pure-Python search's.
        ``plan``: this call's, if asked for first (``plan()``, given the same arguments and
        the limits, which are then not given here).

        :raises InvalidOptionError: if no limit is given, for an unknown algorithm or
            backend, a backend that cannot do what is asked, or root moves that are not legal.
        """
        plan = self._plan(plan, position, limits, False, multipv, _Request(algorithm, options, table), trace)
        limits, kind, multipv = plan.limits, plan.kind, int(MULTIPV.check(multipv))
        if plan.monte_carlo:
            return self._mcts(plan, position, multipv, root_moves, options, trace, on_iteration)
        request = _Request(algorithm, options, table, alpha_beta_trace(trace))
        if position.is_terminal():
            return driver.game_over(position, algorithm if kind == PYTHON else "compiled")
        self._check_keys(kind, position, request)
        root_moves = checked_root_moves(position, root_moves)
        if multipv == 1 and root_moves is None:
            quick = self._answer_first(plan, position, request, on_iteration)
            if quick is not None:
                return quick
        with self._lent(kind, position) as compiled:
            return self._search_once(compiled, position, limits, root_moves, request, on_iteration, multipv)

    @names_user_errors
    def value_at_least(self, position: Position[Any], threshold: int) -> bool:
        """Whether the exact value of ``position`` for the side to move is at least
        ``threshold``: one null-window test, the step a solve repeats to narrow its bounds.
        For a placement game, on the compiled placement solver and in its scores (Pons' for
        Connect 4: ``game.game_score``); for any other game, in distance scores
        (``negamax.core.score``), on the backend a solve of ``position`` runs on. The
        answer is exact; a searcher that keeps its tables (``keep_tables``) lets the next
        tests reuse what this one proved.

        :raises InvalidOptionError: for a finished position, or a game that cannot be solved
            exactly (``refuse_unbounded_solve``).
        """
        if position.is_terminal():
            raise InvalidOptionError("the game is over in this position: its value is the result")
        if isinstance(position, PlacementPosition):
            with self._lent(PLACEMENT, position) as solver:
                assert solver is not None and solver.kind == PLACEMENT
                return bool(solver.probe(position, threshold - 1, threshold) >= threshold)
        kind = self.plan(position, solving=True).kind  # refuses a game that cannot be solved exactly
        self._check_keys(kind, position, _Request())
        with self._lent(kind, position) as compiled:
            if compiled is None:
                return driver.value_at_least(
                    position, threshold, options=self.python_options, table=self._kept_python_table()
                )
            assert compiled.kind == MOVE_LIST  # placement games took the branch above
            return bool(compiled.value_at_least(position, threshold))

    @names_user_errors
    def solve(
        self,
        position: Position[Any],
        limits: SearchLimits | None = None,
        *,
        multipv: int = 1,
        root_moves: Sequence[Any] | None = None,
        algorithm: str = "auto",
        options: SearchOptions | None = None,
        table: TranspositionTable | None = None,
        trace: SearchTrace | MCTSTrace | None = None,
        on_iteration: OnIteration | None = None,
        pv_plies: int | None = None,
        plan: Plan | None = None,
        bounds: tuple[int, int] | None = None,
    ) -> SearchResult[Any]:
        """The game-theoretic value of ``position``: a search to the end of the game. Wins
        and losses carry their distance. ``limits`` may bound nodes or time; a solve cut
        short returns the bounds proven so far (``lower``/``upper``, ``-INF``/``INF`` where
        none is, ``completed=False``), the lower one as its ``score`` (``bound`` ``LOWER``).
        ``on_iteration`` gets the bounds as they narrow, then the result.

        ``multipv=k``: the ``k`` best moves with their exact values (``result.lines``,
        best first; every move when ``k`` is at least their number), each move's child
        solved on one shared table; ``root_moves`` restricts them (each is solved: with
        ``multipv`` 1, the best of them is the answer). ``pv_plies``: how much of the line
        to find, as the searcher's ``pv_plies``. ``plan`` as for ``search``.

        ``bounds``: what is already proven of the position's value, ``(lower, upper)`` (a
        book's exact value, say). The compiled solver of placement games starts its probes
        there, and each move's from what they imply for it (no move is worth more than the
        position), which saves the probes outside them; the other backends ignore them. The
        values found are the same, provided the bounds are true: wrong ones give wrong values
        (bounds no value of the position meets are refused). Where a bound already holds the
        value, no probe proves a best move: with ``pv_plies=0`` the move shown is unproven.

        ``algorithm="mcts"``: MCTS-Solver (``negamax.search.mcts``) until the root is solved
        (or a limit); its lines other than the best carry what it proved of them.

        :raises InvalidOptionError: for a depth limit, a game that cannot be solved exactly
            without a limit, an unknown algorithm or backend, or a backend that cannot do
            what is asked, or ``bounds`` whose lower one is above the upper.
        """
        if bounds is not None and bounds[0] > bounds[1]:
            raise InvalidOptionError(f"bounds {bounds}: the lower one is above the upper one")
        plan = self._plan(plan, position, limits, True, multipv, _Request(algorithm, options, table), trace)
        limits, kind, multipv = plan.limits, plan.kind, int(MULTIPV.check(multipv))
        if plan.monte_carlo:
            return self._mcts(plan, position, multipv, root_moves, options, trace, on_iteration)
        request = _Request(algorithm, options, table, alpha_beta_trace(trace))
        if position.is_terminal():
            return driver.game_over(position, algorithm if kind == PYTHON else "compiled")
        self._check_keys(kind, position, request)
        plies = self.pv_plies if pv_plies is None else pv_plies
        moves = checked_root_moves(position, root_moves)
        if multipv == 1 and moves is None:
            quick = self._answer_first(plan, position, request, on_iteration, plies)
            if quick is not None:
                return quick
            with self._lent(kind, position) as compiled:
                return self._solve_once(compiled, position, limits, request, on_iteration, plies, bounds=bounds)
        moves = moves or tuple(position.legal_moves())
        return self._solve_lines(kind, position, moves, limits, multipv, request, on_iteration, plies, bounds)

    def plan(
        self,
        position: Position[Any],
        limits: SearchLimits | None = None,
        *,
        solving: bool,
        multipv: int = 1,
        algorithm: str = "auto",
        options: SearchOptions | None = None,
        table: TranspositionTable | None = None,
        trace: SearchTrace | MCTSTrace | None = None,
    ) -> Plan:
        """What a ``solve`` (``solving``) or ``search`` with these arguments runs on now: the
        call's one decision (``Plan``), which the call makes itself when not given it. A
        searcher that does not wait for its kernel starts loading it here (answering with
        the pure-Python search meanwhile), after waiting up to ``load_wait`` for it.

        :raises InvalidOptionError: as ``search`` or ``solve`` would, before anything runs
            (a solve that would never end, a backend that cannot do what is asked).
        """
        return self._plan(None, position, limits, solving, multipv, _Request(algorithm, options, table), trace)

    def _plan(
        self,
        given: Plan | None,
        position: Position[Any],
        limits: SearchLimits | None,
        solving: bool,
        multipv: int,
        asked: _Request,
        trace: SearchTrace | MCTSTrace | None,
    ) -> Plan:
        """The plan a call was ``given``, else its plan made now.

        :raises InvalidOptionError: for a plan given with limits too, or made for the other call.
        """
        if given is not None:
            if limits is not None or given.solving != solving:
                raise InvalidOptionError(
                    "a call given its plan takes its limits from it, and the plan must be its kind's"
                )
            return given
        limits, monte_carlo, python_only = checked_call(position, limits, solving, multipv, asked, trace)
        kind, limits = self._kind(position, solving, monte_carlo, python_only, limits)
        quick = (
            not monte_carlo
            and kind != PYTHON
            and self.backend == "auto"
            and (solving or limits.depth is not None)
            and multipv == 1
            and not position.is_terminal()
            and self._needs_compiling(kind, position)
        )
        return Plan(kind, solving, monte_carlo, quick, limits)

    def answer_without_compiling(
        self,
        position: Position[Any],
        limits: SearchLimits | None = None,
        *,
        solving: bool | None = None,
        algorithm: str = "auto",
        options: SearchOptions | None = None,
        on_iteration: OnIteration | None = None,
        pv_plies: int | None = None,
        plan: Plan | None = None,
    ) -> SearchResult[Any] | None:
        """The answer of a ``solve`` (``solving``) or depth-limited ``search`` of one line
        whose compiled kernel would have to be compiled first (``plan.quick``), if the
        pure-Python search finds it within ``QUICK_NODES`` nodes; ``None`` if the kernel is
        ready (or on disk), the backend is not ``auto``, or the attempt did not finish.
        ``solve`` and ``search`` try it themselves; a front end that compiles in another
        process first (the command line) asks before it starts the compiler, with the
        call's ``plan`` (then given no ``limits`` nor ``solving``)."""
        if plan is None:
            if solving is None:
                raise InvalidOptionError("answer_without_compiling: say whether the call solves, or give its plan")
            plan = self.plan(position, limits, solving=solving, algorithm=algorithm, options=options)
        request = _Request(algorithm, options)
        return self._answer_first(
            plan, position, request, on_iteration, self.pv_plies if pv_plies is None else pv_plies
        )

    def _answer_first(
        self,
        plan: Plan,
        position: Position[Any],
        request: _Request,
        on_iteration: OnIteration | None,
        pv_plies: int | None = None,
    ) -> SearchResult[Any] | None:
        # the kernel may have been loaded since the plan was made (a front end's prepare)
        if not plan.quick or not self._needs_compiling(plan.kind, position):
            return None
        limits = plan.limits
        capped = dataclasses.replace(limits, nodes=min(limits.nodes or QUICK_NODES, QUICK_NODES))
        if plan.solving:
            result = self._solve_once(None, position, capped, request, on_iteration, pv_plies)
        else:
            result = self._search_once(None, position, capped, None, request, on_iteration)
        finished = result.completed and (plan.solving or result.depth >= (limits.depth or 0))
        return result if finished else None

    def _needs_compiling(self, kind: str, position: Position[Any]) -> bool:
        """Whether a call of ``kind`` on ``position`` would compile its kernel first (not
        loaded in this process, not in the disk cache)."""
        if self.game is not None:  # told by the disk cache's marker, without importing numba
            return not (self._loaded(kind) or warmup.kernels_on_disk(self.game))
        with self._lock:
            compiled = self._idle[kind].pop() if self._idle[kind] else None
        compiled = compiled or self._new(kind)
        try:
            return compiled.cached(position) is False
        finally:
            with self._lock:
                self._idle[kind].append(compiled)

    def backend_for(self, position: Position[Any], solving: bool, algorithm: str = "auto") -> str:
        """``"python"`` or ``"compiled"``: what a call for ``position`` runs on now."""
        python_only = python_only_request(algorithm, None, None, None)
        kind, _ = self._kind(position, solving, algorithm == mcts.ALGORITHM, python_only, SearchLimits())
        return PYTHON if kind == PYTHON else "compiled"

    def _kind(
        self, position: Position[Any], solving: bool, monte_carlo: bool, python_only: str, limits: SearchLimits
    ) -> tuple[str, SearchLimits]:
        """The one decision of a call: ``PYTHON``, ``PLACEMENT``, ``MOVE_LIST`` or ``MCTS``, and
        its limits, less the time it waited for its kernel to load."""
        if monte_carlo:
            kind = monte_carlo_kind(position, self.backend)
        else:
            kind = planned_kind(position, self.backend, solving=solving, python_only=python_only)
        if kind != PYTHON and not self.wait_for_kernel and self.game is not None and not self._loaded(kind):
            limits = self._waited_for_loading(limits)
            if not self._loaded(kind):
                self.prepare_in_background()
                return PYTHON, limits  # the first run after installing: answered while another process compiles
        return kind, limits

    def _waited_for_loading(self, limits: SearchLimits) -> SearchLimits:
        """``limits`` after waiting, up to ``load_wait`` seconds (at most half their time, not
        past their stop), for the kernels to load from the disk cache (not while another
        process compiles them): loading takes well under a second and holds the interpreter
        lock in stretches, so a call waits for it rather than race it."""
        if self.load_wait <= 0 or self.ready() or self.compiling:
            return limits
        started = time.perf_counter()
        self.prepare_in_background()
        budget = limits.time
        self.wait_until_ready(self.load_wait if budget is None else min(self.load_wait, budget / 2), limits.stop)
        if budget is None:
            return limits
        return dataclasses.replace(limits, time=max(0.001, budget - (time.perf_counter() - started)))

    def _mcts(
        self,
        plan: Plan,
        position: Position[Any],
        lines: int,
        root_moves: Sequence[Any] | None,
        options: SearchOptions | None,
        trace: SearchTrace | MCTSTrace | None,
        on_iteration: OnIteration | None,
    ) -> SearchResult[Any]:
        """A Monte Carlo tree search (a solve: until the root is solved) of ``position``."""
        if position.is_terminal():
            return driver.game_over(position, mcts.ALGORITHM)
        if plan.kind == PYTHON:  # its tree finds a node by the position's key, as a table does
            check_hashable_key(position)
            check_keys(position)
        moves = checked_root_moves(position, root_moves)
        with self._lent(plan.kind, position) as compiled:
            if compiled is None:
                run: Callable[..., SearchResult[Any]] = functools.partial(mcts.search, tree_mib=self.tree_mib)
            else:
                assert compiled.kind == MCTS
                run = compiled.search
            result: SearchResult[Any] = run(
                position,
                plan.limits,
                mcts.settings(options),
                lines=lines,
                root_moves=moves,
                on_iteration=on_iteration,
                solving=plan.solving,
                trace=trace,
            )
            return result

    def _check_keys(self, kind: str, position: Position[Any], request: _Request) -> None:
        """The quick check of a plain game's keys (``negamax.core.keys``) before a
        pure-Python search that keys a table by them (a compiled game's keys are checked
        with its rules, ``GameRules.check``).

        :raises GameDefinitionError: naming two positions one key confuses.
        """
        options = request.options or self.python_options or options_for(request.algorithm)
        if kind == PYTHON:
            check_hashable_key(position)
        if kind == PYTHON and options.transposition_table:
            check_keys(position)

    # -- compiled searchers ----------------------------------------------------------------

    @contextlib.contextmanager
    def _lent(self, kind: str, position: Position[Any]) -> Iterator[Compiled | None]:
        """A compiled searcher of ``kind`` that no other call uses, its kernel loaded for
        ``position``'s game and its table clean unless this searcher keeps tables (``None``
        for the pure-Python search)."""
        if kind == PYTHON:
            yield None
            return
        with self._lock:
            compiled = self._idle[kind].pop() if self._idle[kind] else None
        compiled = compiled or self._new(kind)
        try:
            cached = compiled.cached(position)
            if cached is False:
                warmup.announce_compiling(self.game, kind)
            if cached is not True:
                compiled.warm_up(position)  # loaded (or compiled) before the call's clock starts
            if not self.keep_tables:
                compiled.clear()  # after the warm-up, whose search left entries too
            yield compiled
        finally:
            with self._lock:
                if len(self._idle[kind]) < self._idle_limit:
                    self._idle[kind].append(compiled)
                else:
                    compiled.close()

    def _new(self, kind: str) -> Compiled:
        if kind == PLACEMENT:
            from negamax.search.compiled.placement import CompiledSolver  # imports numba

            solver = CompiledSolver(
                threads=self.threads,
                processes=self.processes,
                hash_mib=self.hash_mib if self._hash_given else None,
                pv_plies=self.pv_plies,
            )
            if solver.helper_note and solver.helper_note not in self.notes:
                self.notes.append(solver.helper_note)
            return solver
        if kind == MCTS:
            from negamax.search.compiled.mcts import CompiledMCTS  # imports numba

            return CompiledMCTS(self.tree_mib)
        from negamax.search.compiled.move_list import CompiledSearcher  # imports numba

        return CompiledSearcher(hash_mib=self.hash_mib, threads=self.threads)

    def _kept_python_table(self) -> TranspositionTable | None:
        """The pure-Python search's table of a searcher that keeps tables (``None``: each
        call makes its own)."""
        if not self.keep_tables:
            return None
        if self._python_table is None:
            self._python_table = TranspositionTable(mib=self.hash_mib)
        return self._python_table

    def python_hashfull(self) -> int:
        """Per mille of the kept pure-Python table in use (0 without one)."""
        return 0 if self._python_table is None else self._python_table.hashfull()

    def clear(self) -> None:
        """Forget what the tables learnt (a new game, for a searcher that keeps them)."""
        if self._python_table is not None:
            self._python_table.clear()
        with self._lock:
            for idle in self._idle.values():
                for compiled in idle:
                    compiled.clear()

    def close(self) -> None:
        """End every helper thread and process, and any compilation this searcher started
        (also done when it is collected, or at exit). It can still search afterwards."""
        self._closing.set()
        with self._lock:
            idle = [compiled for kinds in self._idle.values() for compiled in kinds]
            for kinds in self._idle.values():
                kinds.clear()
        for compiled in idle:
            compiled.close()
        if self._preparing is not None:
            self._preparing.join(1.0)
        self._closing = threading.Event()

    def __enter__(self) -> Searcher:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def hashfull(self) -> int:
        """Per mille of the move-list table used by the last search (UCI's ``hashfull``), or
        0 before any compiled search."""
        with self._lock:
            idle = self._idle[MOVE_LIST][-1:]
        # every one is a move-list searcher: the check only tells the type checker so
        return next((searcher.hashfull() for searcher in idle if searcher.kind == MOVE_LIST), 0)

    # -- readiness --------------------------------------------------------------------------

    def ready(self) -> bool:
        """Whether the kernels of this searcher's ``game`` are loaded (always, without a
        game or on the python backend)."""
        if self.game is None or self.backend == "python":
            return True
        return all(self._loaded(kind) for kind in self._kinds_of_game())

    def _loaded(self, kind: str) -> bool:
        assert self.game is not None
        return (warmup.kernel_name(self.game), kind) in _LOADED

    @property
    def compiling(self) -> bool:
        """Whether another process is compiling this searcher's kernels now."""
        return self._compiling.is_set()

    @property
    def preparing(self) -> bool:
        """Whether ``prepare_in_background`` is loading (or having compiled) the kernels now."""
        return self._preparing is not None and self._preparing.is_alive()

    def compile_estimate(self) -> float:
        """Seconds compiling this searcher's kernels takes: as long as it took last time on
        this machine, else the usual time for their kind (0 without a game or a kernel)."""
        if self.game is None or self.backend == "python":
            return 0.0
        return max((warmup.compile_seconds(self.game, kind) for kind in self._kinds_of_game()), default=0.0)

    def _kinds_of_game(self) -> list[str]:
        assert self.game is not None
        return compiled_kinds(self.game.new_position(None))

    def prepare(
        self,
        position: Position[Any] | None = None,
        *,
        announce: Announce | None = None,
        stop: threading.Event | None = None,
        compile_here: bool = True,
        command_name: str | None = None,
        algorithm: str = "auto",
    ) -> bool:
        """Load the kernels this searcher's game needs (for ``position``, by default the
        game's start): from the disk cache, else compiled first by another process (told
        to ``announce`` first, with a measured estimate), else here if ``compile_here``.
        Returns whether they are loaded; ``stop`` abandons the wait. ``command_name``: how
        another process is to name the game (a game from a file). ``algorithm="mcts"``:
        the Monte Carlo search's kernel too (a game without an evaluation has it anyway)."""
        if self.backend == "python":
            return True
        if position is None:
            if self.game is None:
                return True
            position = self.game.new_position(None)
        kinds = compiled_kinds(position, algorithm)
        name = warmup.kernel_name(self.game) if self.game is not None else ""
        with warmup.preparing_lock(name):
            if compile_here or self.game is None or warmup.kernels_on_disk(self.game):
                self._compiling.clear()  # set by prepare_in_background, which looked before
            else:
                # compiled first by another process while this one imports nothing of numba
                # (its import holds the interpreter for a quarter of a second), so that the
                # pure-Python search answering meanwhile gets the CPU its clock counts on
                self._compiling.set()
                try:
                    if not warmup.compile_elsewhere(command_name or self.game.name, stop):
                        return False
                finally:
                    self._compiling.clear()
                warmup.mark_on_disk(self.game)
            for kind in dict.fromkeys(kinds):
                with self._lock:
                    compiled = self._idle[kind].pop() if self._idle[kind] else None
                compiled = compiled or self._new(kind)
                try:
                    loaded = warmup.prepare(
                        compiled,
                        position,
                        self.game,
                        announce,
                        stop,
                        compile_here,
                        command_name,
                        on_compiling=self._compiling.set,
                    )
                finally:
                    self._compiling.clear()
                    with self._lock:
                        self._idle[kind].append(compiled)
                if not loaded:
                    return False
                if self.game is not None:
                    _LOADED.add((name, kind))
        return True

    def prepare_in_background(self, command_name: str | None = None) -> None:
        """Start loading (or having compiled) this searcher's kernels on a thread; calls
        made meanwhile run on the pure-Python search if ``wait_for_kernel`` is off.
        ``command_name``: how the process that compiles is to name the game, if not by its
        name (a game from a file: ``path/to/game.py:MyGame``)."""
        with self._lock:
            if self._preparing is not None or self.game is None or self.backend == "python":
                return
            if not warmup.kernels_on_disk(self.game):
                self._compiling.set()  # known at once: wait_until_ready does not wait for it
            self._preparing = threading.Thread(
                target=self._prepare_quietly, args=(command_name,), name="prepare", daemon=True
            )
            self._preparing.start()

    def _prepare_quietly(self, command_name: str | None) -> None:
        self.prepare(stop=self._closing, compile_here=False, command_name=command_name)

    def wait_until_ready(self, timeout: float, stop: threading.Event | None = None) -> bool:
        """Wait up to ``timeout`` seconds for the kernels to load from the disk cache; not
        at all while another process compiles them, nor past ``stop``."""
        deadline = time.perf_counter() + timeout
        while not self.ready():
            if self.compiling or time.perf_counter() >= deadline or (stop is not None and stop.is_set()):
                return False
            if stop is None:
                time.sleep(0.01)
            else:
                stop.wait(0.01)
        return True

    # -- one line ----------------------------------------------------------------------------

    def _search_once(
        self,
        compiled: Compiled | None,
        position: Position[Any],
        limits: SearchLimits,
        root_moves: tuple[Any, ...] | None,
        request: _Request,
        on_iteration: OnIteration | None,
        multipv: int = 1,
    ) -> SearchResult[Any]:
        """One deepening, of ``multipv`` lines (each backend's loop searches every depth's
        lines in turn, on one table)."""
        if compiled is None:
            return driver.search(
                position,
                limits,
                algorithm=request.algorithm,
                options=request.options if request.options is not None else self.python_options,
                table=request.table if request.table is not None else self._kept_python_table(),
                on_iteration=on_iteration,
                trace=request.trace,
                root_moves=root_moves,
                multipv=multipv,
            )
        assert compiled.kind == MOVE_LIST  # placement positions are only solved
        return compiled.search(position, limits, on_iteration, root_moves, multipv)

    def _solve_once(
        self,
        compiled: Compiled | None,
        position: Position[Any],
        limits: SearchLimits,
        request: _Request,
        on_iteration: OnIteration | None,
        pv_plies: int | None,
        fresh_table: bool = True,
        bounds: tuple[int, int] | None = None,
    ) -> SearchResult[Any]:
        if compiled is None:
            return driver.solve(
                position,
                limits,
                algorithm=request.algorithm,
                options=request.options if request.options is not None else self.python_options,
                table=request.table if request.table is not None else self._kept_python_table(),
                on_iteration=on_iteration,
                trace=request.trace,
            )
        if compiled.kind == PLACEMENT:
            # a searcher that keeps its tables keeps what earlier solves proved: exact bounds
            # of positions, true whatever the root
            fresh = fresh_table and not self.keep_tables
            return compiled.solve(position, limits, on_iteration, pv_plies, fresh, bounds or (-INF, INF))
        assert compiled.kind == MOVE_LIST  # a Monte Carlo solve runs through _monte_carlo
        return compiled.solve(position, limits, on_iteration)

    # -- several lines ---------------------------------------------------------------------

    def _solve_lines(
        self,
        kind: str,
        position: Position[Any],
        moves: tuple[Any, ...],
        limits: SearchLimits,
        count: int,
        request: _Request,
        on_iteration: OnIteration | None,
        pv_plies: int | None,
        bounds: tuple[int, int] | None,
    ) -> SearchResult[Any]:
        """Every move's exact value, each child solved on one shared table, the best
        ``count`` kept. Under a time limit every child first gets an equal share of what is
        left, then the ones not yet solved share what the others did not use (starting from
        what their first share proved). A placement solver with several workers solves the
        children side by side, one a worker (``solve_each``), each with its share of the
        workers' time. The position's proven ``bounds`` bound each child (``to_child_bounds``)."""
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        values: dict[int, tuple[int, int, Bound, tuple[Any, ...]]] = {}
        """index -> (lower, upper, bound, child's line), from the mover's side."""
        nodes = 0
        deadline = None if limits.time is None else start_wall + limits.time
        child_plies = None if pv_plies is None else max(0, pv_plies - 1)
        table = request.table
        if table is None and kind == PYTHON:
            table = TranspositionTable(mib=None if request.options is None else request.options.tt_mib)
        child_request = dataclasses.replace(request, table=table)
        name = request.algorithm if kind == PYTHON else "compiled"
        children = []
        mover = position.player()
        for move in moves:
            child = position.copy()
            child.play(move)
            children.append(child)
        at_least, at_most = bounds or (-INF, INF)
        child_bounds = [to_child_bounds(at_least, at_most, child.player() == mover) for child in children]

        def record(index: int, result: SearchResult[Any]) -> None:
            nonlocal nodes
            nodes += result.nodes
            # what this share proved, where the next one starts (from the child's side)
            child_lower, child_upper = child_bounds[index]
            child_bounds[index] = max(child_lower, result.lower), min(child_upper, result.upper)
            lower, upper = from_child_bounds(result.lower, result.upper, children[index].player() == mover)
            bound = Bound.EXACT if result.completed and lower == upper else Bound.UPPER
            values[index] = (lower, upper, bound, tuple(result.pv))
            if on_iteration is not None:
                on_iteration(solved_lines(moves, values, count, nodes, start_wall, start_cpu, False, name))

        with contextlib.ExitStack() as stack:
            lent: dict[str, Compiled | None] = {}
            for index, child in enumerate(children):
                if child.is_terminal():
                    value = from_child(checked_terminal_value(child.terminal_value)(), child.player() == mover)
                    values[index] = (value, value, Bound.EXACT, ())
            unsolved = [index for index in range(len(moves)) if index not in values]
            # a first share each, then what is left to the unsolved (no time limit: one)
            rounds = 1 if deadline is None else 2
            if len(unsolved) > 1 and kind == PLACEMENT:
                lent[kind] = stack.enter_context(self._lent(kind, children[unsolved[0]]))
                solver = lent[kind]
                assert solver is not None and solver.kind == PLACEMENT
                ends: dict[int, float] = {}
                """When the children being solved run out of their shares."""

                def limits_for(order: int) -> SearchLimits:
                    if deadline is None:
                        return limits
                    now = time.perf_counter()
                    left = deadline - now
                    # the workers' time left, less what the children they are on may still
                    # take, shared among the children not yet dealt out
                    held = sum(max(end - now, 0.0) for end in list(ends.values()))
                    share = min(left, max(left * solver.threads - held, 0.0) / (len(unsolved) - order))
                    ends[order] = now + share
                    return dataclasses.replace(limits, time=max(share, TIME.low))

                def solved(order: int, result: SearchResult[Any]) -> None:
                    ends.pop(order, None)
                    record(unsolved[order], result)

                each = [children[index] for index in unsolved]
                first_bounds = [child_bounds[index] for index in unsolved]
                if solver.solve_each(each, limits_for, solved, child_plies, False, first_bounds):
                    rounds -= 1  # that was the first round
            for _ in range(rounds):
                waiting = [
                    index for index in range(len(moves)) if values.get(index, (0, 0, Bound.UPPER))[2] != Bound.EXACT
                ]
                for order, index in enumerate(waiting):
                    child = children[index]
                    left = None if deadline is None else deadline - time.perf_counter()
                    stopped = limits.stop is not None and limits.stop.is_set()
                    if stopped or (left is not None and left <= 0.001):
                        break
                    share = None if left is None else left / (len(waiting) - order)
                    if not lent:  # one searcher, one table, for every child
                        lent[kind] = stack.enter_context(self._lent(kind, child))
                    child_limits = dataclasses.replace(limits, time=share)
                    result = self._solve_once(
                        lent[kind], child, child_limits, child_request, None, child_plies, False, child_bounds[index]
                    )
                    record(index, result)
        done = len(values) == len(moves) and all(value[2] == Bound.EXACT for value in values.values())
        return solved_lines(moves, values, count, nodes, start_wall, start_cpu, done, name)
