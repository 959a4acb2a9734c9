"""The compiled search of move-list games: iterative deepening with aspiration windows to a
limit, exact solving by null-window bisection, limits, and the translation of the kernel's
results into the library's ``SearchResult``.

The position is a ``MoveListPosition`` (``negamax.core.game``). Its spec selects the
kernels: the package's own for the built-in games, a family of their own for any other
game (``families``). Importing this module imports numba; nothing else in the library does
until this path is chosen.

The kernel runs in the calling thread without the interpreter lock; a watcher thread
raises the kernel's stop flag when the stop event is set or the time is up.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any, Final

import numpy as np

from negamax.core.errors import GameDefinitionError, InvalidOptionError, NegamaxError
from negamax.core.game import CompiledRules, MoveListPosition
from negamax.core.keys import contradiction
from negamax.core.numba_cache import all_cached, compiling_allowed, load_from_cache
from negamax.core.ranges import DEFAULT_HASH_MIB, MAX_HASH_MIB
from negamax.core.score import INF, WIN, WIN_THRESHOLD, Bound, from_node
from negamax.core.types import OnIteration, SearchLimits, SearchResult, SearchStats
from negamax.search.compiled import families, move_list_bindings
from negamax.search.compiled import move_list_kernel as kernel
from negamax.search.compiled import move_list_layout as layout
from negamax.search.compiled.move_list_helper_pool import HelperSearches
from negamax.search.lines import line_of, proven_to_the_end, search_depth, with_lines
from negamax.search.params import check_threads
from negamax.search.windows import SOLVE_RANGE, aspirated, first_width, probe_point, proven_bounds

NO_LIMIT = 1 << 62
ENTRY_BYTES = 16
CLEAR_IN_PLACE_BYTES = 256 << 20
"""Up to this size a table most of whose pages were touched is cleared by writing zeros; a
larger one is replaced."""
PAGE_BYTES = 4096
DEEPEST = layout.MAX_PLY - 8
"""Iterations stop here: the deepest lines need room for extensions and quiescence."""


@contextlib.contextmanager
def watching(work: Any, limits: SearchLimits, start: float) -> Iterator[None]:
    """While the block runs, a thread raises a kernel's stop flag (``work[W_STOP]``) when the
    stop event is set or the time is up (the kernel holds no interpreter lock)."""
    if limits.time is None and limits.stop is None:
        yield
        return
    done = threading.Event()

    def watch() -> None:
        while not done.wait(limits.wait_before_next_look(start, time.perf_counter())):
            if limits.reached(start, time.perf_counter()):
                work[layout.W_STOP] = 1
                return

    watcher = threading.Thread(target=watch, name="search-watch", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()


@dataclasses.dataclass(frozen=True)
class _Bound:
    """A position's state with the kernels and spec it runs on."""

    kernels: Any
    spec: Any
    state: Any
    features: int
    rules: CompiledRules | None


class CompiledSearcher:
    """Searches and solves positions of move-list games; owns the kernel's table (sized in
    MiB, rounded down to a power of two of entries) and working memory, reused between
    searches so that the table carries knowledge from one move to the next.

    ``features`` (bits of ``move_list_kernel``) applies to searches to a limit; by default
    every feature for the built-in games and, for games written as rules, the ones that
    never change a fixed-depth value (``RULES_FEATURES``). Solves use ``SOLVE_FEATURES``.

    ``threads`` above 1 adds helper threads to searches to a limit of the built-in games
    (lazy SMP, ``move_list_helper_pool``): stronger in the same time, but no longer
    repeatable. Solves, searches to a node limit and games written as rules search in one
    thread.
    """

    kind: Final = "move list"
    """The games it searches (``negamax.search.searcher.MOVE_LIST``)."""

    def __init__(
        self, hash_mib: float = DEFAULT_HASH_MIB, features: int | None = None, prefault: bool = False, threads: int = 1
    ) -> None:
        if not 0 < hash_mib <= MAX_HASH_MIB:
            raise InvalidOptionError(f"the table size must be above 0 and at most {MAX_HASH_MIB} MiB, not {hash_mib}")
        check_threads(threads, "threads")
        entries = 1 << max(10, int(hash_mib * 2**20 // ENTRY_BYTES).bit_length() - 1)
        self.table = np.zeros(2 * entries, dtype=np.int64)
        if prefault:  # map every page now, not in the middle of the first (timed) searches
            self.table[:] = 0
        self.work = np.zeros(layout.WORK_SIZE, dtype=np.int64)
        self.threads = threads
        self._helpers = HelperSearches(threads - 1)
        self.features = features
        self.generation = 0
        self._nodes_before = 0
        """Nodes of the searches since the last clear, before the current one."""
        self._kernels: Any = kernel
        self._game: Any = None
        self._checked: tuple[MoveListPosition[Any], _Bound] | None = None

    @property
    def entries(self) -> int:
        return int(self.table.size // 2)

    def clear(self) -> None:
        """Forget everything learnt (a new game)."""
        written = self._nodes_before + self._nodes()  # about one entry a node, anywhere
        if self.generation == 0:
            pass  # nothing searched since the last clear: nothing to forget
        elif self.table.nbytes <= CLEAR_IN_PLACE_BYTES and written * PAGE_BYTES >= self.table.nbytes:
            # most pages were touched, so they are mapped: writing zeros over them is fifty
            # times cheaper than having the system map fresh ones (0.04 ms a MiB against 1.7)
            self.table[:] = 0
        else:
            # a large table, or one barely touched (a warm-up), is replaced: its pages are
            # mapped lazily as a search touches them (zeroing 8 GiB took 17 s here, and
            # zeroing 64 MiB of unmapped pages 0.2 s, in a GUI's ucinewgame)
            self.table = np.zeros(self.table.size, dtype=np.int64)
        self._nodes_before = 0
        self.work[:] = 0
        self._helpers.clear()
        self.generation = 0

    def close(self) -> None:
        """End the helper threads (they run only during a search; nothing else to free)."""
        self._helpers.stop()

    def hashfull(self) -> int:
        """Per mille of the table used by the last search (UCI's ``hashfull``)."""
        return int(self._kernels.hash_permille(self.table, self.generation))

    def warm_up(self, position: MoveListPosition[Any]) -> None:
        """Load (or compile) the kernel for this game now, so no timed search pays for it,
        and the game's compiled helpers that only set a search up (they would otherwise run
        as Python before every search)."""
        with compiling_allowed():
            self._checked = None  # the state built afresh, here
            self.search(position, SearchLimits(depth=1))
            bound = self._bind(position)
            bound.kernels.list_root_moves(bound.spec, bound.state, self.work)
        self.hashfull()  # its compiled helpers too

    def cached(self, position: MoveListPosition[Any]) -> bool | None:
        """Whether the kernels for this game are loaded now, from numba's disk cache if they
        are there (``False``: they must be compiled first; ``None``: cannot tell)."""
        bound = self._bind(position)
        self._checked = (position, bound)  # the search that follows need not build it again
        return all_cached(
            [
                load_from_cache(
                    bound.kernels.search_root, (bound.spec, bound.state, self.table, self.work, 1, -INF, INF)
                ),
                load_from_cache(bound.kernels.hash_permille, (self.table, 1)),
                load_from_cache(bound.kernels.list_root_moves, (bound.spec, bound.state, self.work)),
            ]
        )

    def _bind_once(self, position: MoveListPosition[Any]) -> _Bound:
        """``_bind(position)``, or what ``cached`` bound for this very position just before."""
        checked, self._checked = self._checked, None
        if checked is not None and checked[0] is position:
            return checked[1]
        return self._bind(position)

    def _bind(self, position: MoveListPosition[Any]) -> _Bound:
        spec, state = position.move_list_form()
        kernels, kernel_spec = families.kernels_for(kernel, spec)
        if spec is not self._game:
            if self._game is not None:  # a new table is clear already
                self.clear()  # another game's entries would answer for this one's keys
            self._game = spec
        self._kernels = kernels
        if isinstance(spec, CompiledRules):
            default = layout.RULES_FEATURES | (layout.QUIESCENCE if "noisy_moves" in spec.rule_functions() else 0)
            return _Bound(kernels, kernel_spec, state, default if self.features is None else self.features, spec)
        features = layout.ALL_FEATURES if self.features is None else self.features
        return _Bound(kernels, kernel_spec, state, features, None)

    def search(
        self,
        position: MoveListPosition[Any],
        limits: SearchLimits | None = None,
        on_iteration: OnIteration | None = None,
        root_moves: Sequence[Any] | None = None,
        multipv: int = 1,
    ) -> SearchResult[Any]:
        """Deepens until a limit: ``depth`` iterations, ``nodes``, ``time`` seconds, or the
        ``stop`` event. Returns the last completed iteration (with a better move from the
        interrupted one, if it found one), ``completed=False`` when a limit cut it short.
        ``root_moves`` (legal moves of ``position``): the only moves searched at the root.
        ``multipv`` above 1: that many best root moves in the one deepening (``_lines``).

        :raises InvalidOptionError: if ``root_moves`` names no legal move.
        """
        limits = limits or SearchLimits()
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        bound = self._bind_once(position)
        if position.is_terminal():
            return self._game_over(position, from_node(position.terminal_value(), 0), start_wall, start_cpu)
        work = self.work
        self._prepare(limits, bound.features)
        if multipv > 1:
            return self._lines(bound, position, limits, on_iteration, root_moves, multipv, (start_wall, start_cpu))
        fallback = None
        if root_moves is not None:
            codes = self._root_codes(bound, position, root_moves)
            work[layout.ROOT_MOVES : layout.ROOT_MOVES + len(codes)] = codes
            work[layout.W_ROOT_MOVES] = len(codes)
            fallback = position.moves_from_codes(codes[:1])[0]
        iterations: list[int] = []
        last: SearchResult[Any] | None = None
        score = 0
        with self._watching(limits, start_wall), self._helping(bound, limits):
            for depth in range(1, min(limits.depth or DEEPEST, DEEPEST) + 1):
                before = int(work[layout.W_NODES])
                value = self._iterate(bound, depth, score)
                code = int(work[layout.W_BEST_MOVE])
                if work[layout.W_ABORTED]:
                    if (
                        last is not None
                        and code != 0
                        and list(position.moves_from_codes([code]))[:1] != [last.best_move]
                    ):
                        # the unfinished iteration proved a new move better than the old best
                        partial = int(work[layout.W_BEST_SCORE])
                        last = self._result(position, partial, depth - 1, [code], iterations, start_wall, start_cpu)
                    break
                if code == 0:
                    return self._game_over(position, value, start_wall, start_cpu)
                score = value
                iterations.append(int(work[layout.W_NODES]) - before)
                line = self._line()
                if fallback is not None:  # a restricted root: this depth's best move leads the next
                    work[layout.W_ROOT_HINT] = line[0] if line else code
                last = self._result(position, score, depth, line, iterations, start_wall, start_cpu, fallback)
                if on_iteration is not None:
                    on_iteration(last)
                if limits.depth is None and abs(score) >= WIN_THRESHOLD and depth >= WIN - abs(score):
                    break  # a mate, proved to its end
        if last is None:
            return self._game_over(position, None, start_wall, start_cpu, fallback)
        if work[layout.W_ABORTED] and not (limits.depth is not None and last.depth >= limits.depth):
            return self._cut_short(last, (start_wall, start_cpu))
        return last

    def _lines(
        self,
        bound: _Bound,
        position: MoveListPosition[Any],
        limits: SearchLimits,
        on_iteration: OnIteration | None,
        root_moves: Sequence[Any] | None,
        count: int,
        start: tuple[float, float],
    ) -> SearchResult[Any]:
        """A multipv search: at every depth, ``count`` lines (``lines.search_depth``), each
        one iteration of the root restricted to the moves the lines before it left (its codes
        at ``ROOT_MOVES``) with the previous depth's best of them first (``W_ROOT_HINT``).
        A depth is reported once all its lines are done; a limit keeps the last such depth."""
        work = self.work
        codes = self._root_codes(bound, position, root_moves)
        codes_of: dict[Any, list[int]] = {}  # each move's codes (a game may give one move two)
        for code in codes:
            codes_of.setdefault(position.moves_from_codes([code])[0], []).append(code)
        moves = list(codes_of)
        count = min(count, len(moves))
        iterations: list[int] = []
        last: SearchResult[Any] | None = None

        def line(depth: int, remaining: list[Any], hint: Any, guess: int) -> SearchResult[Any] | None:
            listed = [code for move in remaining for code in codes_of[move]]
            work[layout.ROOT_MOVES : layout.ROOT_MOVES + len(listed)] = listed
            work[layout.W_ROOT_MOVES] = len(listed)
            work[layout.W_ROOT_HINT] = 0 if hint is None else codes_of[hint][0]
            value = self._iterate(bound, depth, guess)
            if work[layout.W_ABORTED]:
                return None
            return self._result(position, value, depth, self._line(), iterations, *start, remaining[0])

        work[layout.ROOT_MOVES : layout.ROOT_MOVES + len(codes)] = codes  # the helpers' root
        work[layout.W_ROOT_MOVES] = len(codes)
        with self._watching(limits, start[0]), self._helping(bound, limits):
            for depth in range(1, min(limits.depth or DEEPEST, DEEPEST) + 1):
                before = int(work[layout.W_NODES])
                found = search_depth(moves, count, last.lines if last else (), functools.partial(line, depth))
                if found is None:
                    break
                iterations.append(int(work[layout.W_NODES]) - before)
                elapsed = (time.process_time() - start[1], time.perf_counter() - start[0])
                last = with_lines(found, self._nodes(), elapsed, self._stats(iterations))
                if on_iteration is not None:
                    on_iteration(last)
                if limits.depth is None and all(proven_to_the_end(result, depth) for result in found):
                    break  # every line proven to the end of the game: deeper finds the same
        if last is None:
            single = self._game_over(position, None, *start, moves[0])
            return dataclasses.replace(single, lines=(line_of(single),))
        if work[layout.W_ABORTED] and not (limits.depth is not None and last.depth >= limits.depth):
            return self._cut_short(last, start)
        return last

    def solve(
        self,
        position: MoveListPosition[Any],
        limits: SearchLimits | None = None,
        on_iteration: OnIteration | None = None,
    ) -> SearchResult[Any]:
        """The exact value of ``position`` with its distance (``win in 7``), its best move
        and principal variation: null-window tests that halve the range of possible values,
        then one narrow search for the line. ``on_iteration`` gets each test's proven bounds;
        a solve cut short by a limit returns them (``completed=False``).

        :raises InvalidOptionError: for a depth limit, or a game longer than the deepest ply
            the kernel reaches (it cannot be solved exactly here).
        """
        limits = limits or SearchLimits()
        if limits.depth is not None:
            raise InvalidOptionError("solve() searches to the end of the game; use search() for a depth limit")
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        bound = self._bind_once(position)
        if position.is_terminal():
            return self._game_over(position, from_node(position.terminal_value(), 0), start_wall, start_cpu)
        work = self.work
        self._prepare(limits, layout.SOLVE_FEATURES)
        lower, upper = SOLVE_RANGE
        best_code = 0
        probes: list[int] = []
        with self._watching(limits, start_wall):
            while lower < upper:
                middle = probe_point(lower, upper)
                before = int(work[layout.W_NODES])
                value = self._root(bound, layout.SOLVE_DEPTH, middle, middle + 1)
                if work[layout.W_ABORTED]:
                    break
                self._check_exact(position)
                probes.append(int(work[layout.W_NODES]) - before)
                if value <= middle:
                    upper = value
                else:
                    lower = value
                    best_code = int(work[layout.W_BEST_MOVE]) or best_code
                if lower > upper:
                    self._contradicted(bound, f"worth at least {lower} and at most {upper}")
                if lower < upper and on_iteration is not None:
                    on_iteration(self._bounds(position, lower, upper, best_code, probes, start_wall, start_cpu))
            if lower < upper:
                return self._bounds(position, lower, upper, best_code, probes, start_wall, start_cpu)
            # the line: one search just around the value, whose PV nodes are never cut short
            nodes = int(work[layout.W_NODES])
            found = self._root(bound, layout.SOLVE_DEPTH, lower - 1, lower + 1)
            aborted = bool(work[layout.W_ABORTED])
            if not aborted and found != lower:
                self._contradicted(bound, f"worth {lower}, then {found}")
            line = self._line() if not aborted and found == lower else []
            work[layout.W_NODES] = nodes  # the line's search is not part of the solve's count
        if not line and best_code:
            line = [best_code]
        result = self._result(position, lower, len(line), line, probes, start_wall, start_cpu)
        if on_iteration is not None:
            on_iteration(result)
        return result

    def value_at_least(self, position: MoveListPosition[Any], threshold: int) -> bool:
        """Whether the exact value of ``position`` (unfinished) is at least ``threshold``: one
        of ``solve``'s null-window tests, on this searcher's table as it is (what earlier
        tests proved answers for this one).

        :raises InvalidOptionError: for a game longer than the kernel can solve.
        """
        bound = self._bind_once(position)
        self._prepare(SearchLimits(), layout.SOLVE_FEATURES)
        value = self._root(bound, layout.SOLVE_DEPTH, threshold - 1, threshold)
        self._check_exact(position)
        return value >= threshold

    def _root_codes(
        self, bound: _Bound, position: MoveListPosition[Any], root_moves: Sequence[Any] | None
    ) -> list[int]:
        """The codes of ``root_moves`` (``None``: every legal move), the kernel's codes of the
        root's legal moves that stand for them: a game turns codes into moves, not moves into
        codes."""
        count = int(bound.kernels.list_root_moves(bound.spec, bound.state, self.work))
        wanted = None if root_moves is None else set(root_moves)
        codes = []
        for code in self.work[layout.ROOT_MOVES : layout.ROOT_MOVES + count].tolist():
            moves = position.moves_from_codes([code])
            if moves and (wanted is None or moves[0] in wanted):
                codes.append(code)
        if not codes:
            raise InvalidOptionError("none of the root moves to search is legal here")
        return codes

    def _contradicted(self, bound: _Bound, detail: str) -> None:
        """Two searches of the root that contradict each other: for a game written as rules,
        an error naming its key; the built-in games' line falls back on the best move.

        :raises GameDefinitionError:
        """
        if bound.rules is not None:
            self.clear()  # entries of positions the key confused
            raise contradiction(detail, game=bound.rules.name)

    def _check_exact(self, position: MoveListPosition[Any]) -> None:
        if self.work[layout.W_HORIZON]:
            self.clear()  # its entries claim values to the end of the game they do not have
            raise InvalidOptionError(
                f"a line of this game goes on past {layout.MAX_PLY - 1} plies, deeper than the compiled"
                " search can solve; search() to a limit instead"
            )

    def _prepare(self, limits: SearchLimits, features: int) -> None:
        work = self.work
        self._nodes_before += self._nodes()
        work[: layout.HISTORY] = 0  # the counters and the killers
        history = work[layout.HISTORY : layout.HISTORY + layout.HISTORY_SLOTS]
        history //= 8  # old successes still count, a little
        self._helpers.reset_nodes()
        work[layout.W_FEATURES] = features
        work[layout.W_NODE_LIMIT] = limits.nodes if limits.nodes is not None else NO_LIMIT
        self.generation = self.generation % 255 + 1
        work[layout.W_GENERATION] = self.generation

    def _watching(self, limits: SearchLimits, start: float) -> contextlib.AbstractContextManager[None]:
        return watching(self.work, limits, start)

    @contextlib.contextmanager
    def _helping(self, bound: _Bound, limits: SearchLimits) -> Iterator[None]:
        """While the block runs, the helper threads search too; not for games written as
        rules (their own code might not bear being run in threads), nor under a node
        limit (it makes a search repeatable, which threads would not be)."""
        if not self._helpers.works or bound.rules is not None or limits.nodes is not None:
            yield
            return
        self._helpers.start(bound.kernels, bound.spec, bound.state, self.table, self.work, DEEPEST)
        try:
            yield
        finally:
            self._helpers.stop()

    def _root(self, bound: _Bound, depth: int, alpha: int, beta: int) -> int:
        """One search of the root, with a game's broken rules turned into an error."""
        try:
            value = int(bound.kernels.search_root(bound.spec, bound.state, self.table, self.work, depth, alpha, beta))
        except NegamaxError:
            raise
        except Exception as error:
            if bound.rules is None:
                raise
            raise GameDefinitionError(
                f"{bound.rules.name}'s rules raised {type(error).__name__} in the compiled search: {error}"
            ) from None
        if self.work[layout.W_ERROR] and bound.rules is not None:
            raise GameDefinitionError(self._rules_error(bound.rules))
        return value

    def _rules_error(self, rules: CompiledRules) -> str:
        text = move_list_bindings.rules_error(self.work, rules)
        self.clear()  # the search stopped halfway: nothing it stored can be trusted
        return text

    def _iterate(self, bound: _Bound, depth: int, guess: int) -> int:
        """One depth, with an aspiration window around ``guess`` (the policy of
        ``negamax.search.windows``, the pure-Python driver's), widened until the value
        falls inside."""
        value, repeats = aspirated(
            lambda alpha, beta: self._root(bound, depth, alpha, beta),
            guess,
            first_width(depth, guess),
            lambda: bool(self.work[layout.W_ABORTED]),
        )
        self.work[layout.W_RESEARCHES] += repeats
        return value

    def _line(self) -> list[int]:
        length = int(self.work[layout.PV_LENGTHS])
        return [int(self.work[layout.PV + index]) for index in range(length)]

    def _result(
        self,
        position: MoveListPosition[Any],
        score: int,
        depth: int,
        line: list[int],
        iterations: list[int],
        start_wall: float,
        start_cpu: float,
        fallback: Any = None,
    ) -> SearchResult[Any]:
        pv = tuple(position.moves_from_codes(line)) or tuple(position.moves_from_codes(line[:1]))
        if not pv:  # stopped before any move was proven best: one the root may search
            pv = (fallback,) if fallback is not None else tuple(position.legal_moves())[:1]
        return SearchResult(
            best_move=pv[0] if pv else None,
            score=score,
            bound=Bound.EXACT,
            pv=pv,
            depth=depth,
            nodes=self._nodes(),
            cpu_time=time.process_time() - start_cpu,
            wall_time=time.perf_counter() - start_wall,
            algorithm="compiled",
            stats=self._stats(iterations),
            lower=score,
            upper=score,
        )

    def _bounds(
        self,
        position: MoveListPosition[Any],
        lower: int,
        upper: int,
        best_code: int,
        probes: list[int],
        start_wall: float,
        start_cpu: float,
    ) -> SearchResult[Any]:
        """What a solve has proven so far: the value lies in [lower, upper] (the lower bound
        is the score, as the pure-Python solve's)."""
        moves = list(position.moves_from_codes([best_code])) if best_code else []
        best = moves[0] if moves else next(iter(position.legal_moves()), None)
        lower, upper = proven_bounds(lower, upper)
        return SearchResult(
            best_move=best,
            score=lower,
            bound=Bound.LOWER,
            pv=() if best is None else (best,),
            depth=0,
            nodes=self._nodes(),
            cpu_time=time.process_time() - start_cpu,
            wall_time=time.perf_counter() - start_wall,
            algorithm="compiled",
            stats=self._stats(probes),
            lower=lower,
            upper=upper,
            completed=False,
        )

    def _cut_short(self, last: SearchResult[Any], start: tuple[float, float]) -> SearchResult[Any]:
        """``last``, the last whole iteration of a search a limit cut short, with the nodes
        and time of the unfinished one counted too."""
        return dataclasses.replace(
            last,
            completed=False,
            nodes=self._nodes(),
            cpu_time=time.process_time() - start[1],
            wall_time=time.perf_counter() - start[0],
        )

    def _nodes(self) -> int:
        """The nodes searched since the search began, the helper threads' included."""
        return int(self.work[layout.W_NODES]) + self._helpers.nodes()

    def _stats(self, iterations: list[int]) -> SearchStats:
        work = self.work
        return SearchStats(
            beta_cutoffs=int(work[layout.W_BETA_CUTOFFS]),
            first_move_cutoffs=int(work[layout.W_FIRST_MOVE_CUTOFFS]),
            tt_probes=int(work[layout.W_TT_PROBES]),
            tt_hits=int(work[layout.W_TT_HITS]),
            tt_cutoffs=int(work[layout.W_TT_CUTOFFS]),
            researches=int(work[layout.W_RESEARCHES]),
            quiescence_nodes=int(work[layout.W_QUIESCENCE_NODES]),
            seldepth=int(work[layout.W_SELDEPTH]),
            null_move_cutoffs=int(work[layout.W_NULL_CUTOFFS]),
            reduced_moves=int(work[layout.W_REDUCED]),
            iterations_nodes=tuple(iterations),
        )

    def _game_over(
        self,
        position: MoveListPosition[Any],
        value: int | None,
        start_wall: float,
        start_cpu: float,
        fallback: Any = None,
    ) -> SearchResult[Any]:
        """The game is over (``value`` is its result), or the search stopped before depth 1
        finished (``None``: ``fallback`` or any legal move, unsearched)."""
        moves = ([fallback] if fallback is not None else position.legal_moves()) if value is None else ()
        best = moves[0] if moves else None
        return SearchResult(
            best_move=best,
            score=value or 0,
            bound=Bound.EXACT if best is None else Bound.LOWER,
            pv=() if best is None else (best,),
            depth=0,
            nodes=self._nodes(),
            cpu_time=time.process_time() - start_cpu,
            wall_time=time.perf_counter() - start_wall,
            algorithm="compiled",
            stats=self._stats([]),
            lower=value if value is not None else -INF,
            upper=value if value is not None else INF,
            completed=best is None,
        )
