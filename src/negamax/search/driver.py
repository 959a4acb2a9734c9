"""Root drivers: iterative deepening (with aspiration windows), MTD(f), and the
null-window bisection that solves games exactly; limits, results and progress.

Every driver reports each completed iteration (a depth, or one probe of the score range
when solving) to an optional callback as a ``SearchResult``; a search stopped by a limit
returns the last completed iteration's result with ``completed=False``, a solve the bounds
its completed probes proved (``SearchResult.score`` and ``score_text`` say how they read).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Sequence
from typing import Any

from negamax.core.errors import GameDefinitionError, InvalidOptionError
from negamax.core.game import HasSafeMoves, Position, checked_moves, checked_terminal_value
from negamax.core.keys import contradiction
from negamax.core.score import INF, MAX_PLY, WIN_THRESHOLD, Bound, from_node
from negamax.core.types import Line, OnIteration, SearchLimits, SearchResult
from negamax.search.alphabeta import NodeSearch, SearchAborted
from negamax.search.lines import line_of, proven_to_the_end, search_depth, with_lines
from negamax.search.params import SearchOptions, options_for
from negamax.search.trace import SearchTrace
from negamax.search.tt import TranspositionTable
from negamax.search.windows import SOLVE_RANGE, aspirated, first_width, probe_point, proven_bounds

SOLVE_DEPTH = MAX_PLY - 1
"""The depth a solve searches to: beyond the end of any game this library can describe."""


class _Run:
    """One search: the node closures plus what the drivers learn along the way."""

    def __init__(
        self,
        position: Position[Any],
        limits: SearchLimits,
        algorithm: str,
        options: SearchOptions,
        table: TranspositionTable | None,
        on_iteration: OnIteration | None,
        trace: SearchTrace | None = None,
        root_moves: Sequence[Any] | None = None,
    ) -> None:
        self.root_position = position
        """The caller's position, never played on: what a result's moves are taken from,
        since an aborted search leaves its copy (``position``) wherever in the tree the
        abort found it."""
        self.position = position.copy()
        self.algorithm = algorithm
        self.options = options
        if table is None and options.transposition_table:
            table = TranspositionTable(entries=options.tt_entries, mib=options.tt_mib, policy=options.tt_policy)
        if table is not None:
            table.new_search()
        self.search = NodeSearch(self.position, options, limits, table, trace, root_moves)
        self.root_moves = root_moves
        self.on_iteration = on_iteration
        self.iterations: list[int] = []
        self.last: SearchResult[Any] | None = None
        self.best_move: Any = None
        self.horizon_before = 0
        self.proven = (-INF, INF)
        """A solve's bounds on the value, as its completed probes left them."""

    def root(self, depth: int, alpha: int, beta: int) -> int:
        if not self.options.alpha_beta:
            return self.search.plain(depth, 0)
        return self.search.node(depth, alpha, beta, 0)

    def result(
        self,
        score: int,
        bound: Bound,
        depth: int,
        lower: int,
        upper: int,
        pv: tuple[Hashable, ...] = (),
        completed: bool = True,
    ) -> SearchResult[Any]:
        cpu, wall = self.search.elapsed()
        best = self.best_move if self.best_move is not None else (pv[0] if pv else None)
        if best is None:
            moves = checked_moves(self.root_position.legal_moves)() if self.root_moves is None else self.root_moves
            best = moves[0] if moves else None
        if pv and pv[0] != best:
            pv = (best,)
        if best is not None and abs(score) >= WIN_THRESHOLD and bound == Bound.EXACT:
            pv = _complete_pv(self.root_position, pv or (best,))
        return SearchResult(
            best_move=best,
            score=score,
            bound=bound,
            pv=pv if pv else ((best,) if best is not None else ()),
            depth=depth,
            nodes=self.search.node_count(),
            cpu_time=cpu,
            wall_time=wall,
            algorithm=self.algorithm,
            stats=self.search.stats(tuple(self.iterations)),
            lower=lower,
            upper=upper,
            completed=completed,
        )

    def report(self, result: SearchResult[Any]) -> None:
        self.last = result
        if self.on_iteration is not None:
            self.on_iteration(result)

    def finished(self, nodes_before: int) -> None:
        self.iterations.append(self.search.node_count() - nodes_before)

    def start_iteration(self) -> None:
        self.horizon_before = self.search.horizon_count()

    @property
    def horizon_reached(self) -> bool:
        """Whether the last iteration relied on a heuristic value anywhere."""
        return self.search.horizon_count() != self.horizon_before

    def exact(self, depth: int, value: int) -> SearchResult[Any]:
        self.best_move = _first_known(self.search.best_root_move(), self.best_move)
        self.search.set_root_hint(self.best_move)
        return self.result(value, Bound.EXACT, depth, value, value, self.search.pv())

    def inconsistent(self, detail: str) -> GameDefinitionError:
        """The error for two searches of the root that contradict each other."""
        return contradiction(detail, self.search.table is not None and self.options.transposition_table)

    # -- drivers -----------------------------------------------------------------------

    def iteration(self, depth: int, guess: int) -> SearchResult[Any]:
        """One depth of the deepening, its window aimed at ``guess`` (the last score)."""
        if self.options.driver == "mtdf":
            return self.mtdf(depth, guess)
        if self.options.aspiration_window and first_width(depth, guess):
            return self.aspiration(depth, guess)
        return self.full_window(depth)

    def lines(
        self, depth: int, count: int, previous: Sequence[Line[Any]], full: bool
    ) -> tuple[SearchResult[Any], bool]:
        """One depth of a multipv search (``lines.search_depth``): ``count`` lines, each one
        iteration of the root restricted to the moves the lines before it left (a
        ``full_window`` search if ``full``), as one result holding them all; and whether
        every line was seen to its end (a deeper search finds the same)."""
        assert self.root_moves is not None
        before, logged = self.search.node_count(), len(self.iterations)
        proven: list[bool] = []

        def line(moves: list[Any], hint: Any, guess: int) -> SearchResult[Any]:
            self.search.set_root_moves(moves)
            self.best_move = hint
            self.search.set_root_hint(hint)
            self.start_iteration()
            result = self.full_window(depth) if full else self.iteration(depth, guess)
            proven.append(not self.horizon_reached or proven_to_the_end(result, depth))
            return result

        found = search_depth(self.root_moves, count, previous, line)
        assert found is not None  # a limit raises SearchAborted
        del self.iterations[logged:]  # one count for the depth, its lines together
        self.iterations.append(self.search.node_count() - before)
        stats = self.search.stats(tuple(self.iterations))
        return with_lines(found, self.search.node_count(), self.search.elapsed(), stats), all(proven)

    def full_window(self, depth: int) -> SearchResult[Any]:
        before = self.search.node_count()
        value = self.root(depth, -INF, INF)
        self.finished(before)
        return self.exact(depth, value)

    def aspiration(self, depth: int, guess: int) -> SearchResult[Any]:
        before = self.search.node_count()
        width = self.options.aspiration_window
        value, _ = aspirated(lambda alpha, beta: self.root(depth, alpha, beta), guess, width)
        self.finished(before)
        return self.exact(depth, value)

    def mtdf(self, depth: int, guess: int) -> SearchResult[Any]:
        """Aske Plaat's MTD(f): null-window probes at the bound, converging on the value."""
        before = self.search.node_count()
        lower, upper, value = -INF, INF, guess
        best_move = None
        while lower < upper:
            beta = value + 1 if value == lower else value
            self.search.forget_root_move()
            value = self.root(depth, beta - 1, beta)
            if value < beta:
                upper = value
            else:
                lower = value
                best_move = self.search.best_root_move()
            if lower > upper:
                raise self.inconsistent(f"worth at least {lower} and at most {upper}")
            self.proven = (lower, upper)  # read by a solve (depth-limited bounds prove nothing)
        self.best_move = _first_known(best_move, self.best_move)
        result = self.principal_variation(depth, value)
        self.finished(before)
        return result

    def bisection(self, depth: int) -> SearchResult[Any]:
        """Solve by null-window probes that halve the range of possible values (Pons)."""
        lower, upper = SOLVE_RANGE
        best_move = None
        while lower < upper:
            middle = probe_point(lower, upper)
            before = self.search.node_count()
            self.search.forget_root_move()
            value = self.root(depth, middle, middle + 1)
            self.finished(before)
            if value <= middle:
                upper = value
            else:
                lower = value
                best_move = self.search.best_root_move()
                self.best_move = best_move
            if lower > upper:
                raise self.inconsistent(f"worth at least {lower} and at most {upper}")
            self.proven = proven_bounds(lower, upper)
            if lower < upper:
                self.report(self.unfinished_solve())
        return self.principal_variation(depth, lower)

    def unfinished_solve(self) -> SearchResult[Any]:
        """What a solve cut short has proven: its value if the bounds have met (only the
        search for its line was cut short), else the bounds, the lower one as the score."""
        lower, upper = self.proven
        if lower == upper:
            result = self.result(lower, Bound.EXACT, 0, lower, upper)
            return dataclasses.replace(result, depth=len(result.pv))
        return self.result(lower, Bound.LOWER, 0, lower, upper, completed=False)

    def principal_variation(self, depth: int, value: int) -> SearchResult[Any]:
        """Re-search a narrow window around a known value to collect the PV."""
        saved = self.best_move
        self.search.set_pv_node_cutoffs(False)
        self.search.set_root_hint(saved)
        self.search.forget_root_move()
        found = self.root(depth, value - 1, value + 1)
        self.search.set_pv_node_cutoffs(not self.options.pvs)
        if found != value:
            raise self.inconsistent(f"worth {value}, then {found}")
        self.best_move = _first_known(self.search.best_root_move(), saved)
        return self.result(value, Bound.EXACT, depth, value, value, self.search.pv())


def _complete_pv(position: Position[Any], pv: tuple[Any, ...]) -> tuple[Any, ...]:
    """Extend a PV that stops where the search scored a forced win or loss without
    searching it (the game's immediate-win knowledge), with the moves that end the game."""
    board = position.copy()
    line = list(pv)
    for move in line:
        board.play(move)
    while len(line) < len(pv) + 4 and not board.is_terminal() and isinstance(board, HasSafeMoves):
        safe = board.safe_moves()
        if safe is not None and safe:
            break  # the game goes on beyond the horizon of this knowledge
        moves = list(board.legal_moves())
        chosen = moves[0]
        if safe is None:
            for move in moves:
                board.play(move)
                won = board.is_terminal()
                board.undo(move)
                if won:
                    chosen = move
                    break
        board.play(chosen)
        line.append(chosen)
    return tuple(line)


def _first_known(move: Any, fallback: Any) -> Any:
    """``move`` unless it is unknown (``None``); moves such as 0 are perfectly good."""
    return fallback if move is None else move


def game_over(position: Position[Any], algorithm: str) -> SearchResult[Any]:
    """The result of a search of a finished game: its value, no move, no node."""
    value = from_node(checked_terminal_value(position.terminal_value)(), 0)
    return SearchResult(None, value, Bound.EXACT, (), 0, 0, 0.0, 0.0, algorithm, lower=value, upper=value)


def _prepare(
    algorithm: str, options: SearchOptions | None, limits: SearchLimits | None
) -> tuple[SearchOptions, SearchLimits]:
    if options is None:
        options = options_for(algorithm)
    return options, limits or SearchLimits()


def search(
    position: Position[Any],
    limits: SearchLimits | None = None,
    *,
    algorithm: str = "auto",
    options: SearchOptions | None = None,
    table: TranspositionTable | None = None,
    on_iteration: OnIteration | None = None,
    trace: SearchTrace | None = None,
    root_moves: Sequence[Any] | None = None,
    multipv: int = 1,
) -> SearchResult[Any]:
    """Search ``position`` within ``limits`` (a depth, node count or time is required).

    Deepens one ply at a time for every algorithm but the plain ones given a depth, which
    search that depth once. ``position`` is copied, never changed. ``root_moves`` (legal
    moves of ``position``, checked by the caller): the only moves searched at the root.
    ``multipv`` above 1: that many best root moves, best first, each with its own score and
    line (``result.lines``), all in the one deepening (``_Run.lines``); a depth is reported
    once all its lines are searched, and a limit keeps the last such depth.

    :raises InvalidOptionError: if no limit is given or the algorithm is unknown.
    """
    options, limits = _prepare(algorithm, options, limits)
    if limits.depth is None and limits.nodes is None and limits.time is None:
        raise InvalidOptionError("give a depth, node or time limit (or call solve() to search to the end)")
    if position.is_terminal():
        return game_over(position, algorithm)
    if multipv > 1 and root_moves is None:
        root_moves = checked_moves(position.legal_moves)()
    run = _Run(position, limits, algorithm, options, table, on_iteration, trace, root_moves)
    max_depth = limits.depth if limits.depth is not None else SOLVE_DEPTH
    single = options.driver == "single" and limits.depth is not None
    try:
        if multipv > 1:
            _deepen_lines(run, range(max_depth if single else 1, max_depth + 1), multipv, single)
        elif single:
            run.report(run.full_window(max_depth))
        else:
            guess = 0
            for depth in range(1, max_depth + 1):
                run.start_iteration()
                result = run.iteration(depth, guess)
                guess = result.score
                run.report(result)
                if not run.horizon_reached:
                    break  # every line ended before the horizon: the value is exact
    except SearchAborted:
        return _final(run, aborted=True, lines=multipv > 1)
    return _final(run, aborted=False, lines=multipv > 1)


def _deepen_lines(run: _Run, depths: range, count: int, full: bool) -> None:
    """The deepening of a multipv search: every depth's ``count`` lines (``_Run.lines``),
    until the depths run out or every line is seen to its end."""
    assert run.root_moves is not None
    count = min(count, len(run.root_moves))
    previous: tuple[Line[Any], ...] = ()
    for depth in depths:
        result, proven = run.lines(depth, count, previous, full)
        run.report(result)
        previous = result.lines
        if proven:
            break


def solve(
    position: Position[Any],
    limits: SearchLimits | None = None,
    *,
    algorithm: str = "auto",
    options: SearchOptions | None = None,
    table: TranspositionTable | None = None,
    on_iteration: OnIteration | None = None,
    trace: SearchTrace | None = None,
) -> SearchResult[Any]:
    """The game-theoretic value of ``position``: search to the end of the game.

    Wins and losses carry their distance. ``limits`` may bound nodes or time; a solve cut
    short returns the bounds proven so far (``lower``/``upper``, ``completed=False``, the
    lower bound as ``score``). ``on_iteration`` gets each probe's bounds, then the result.

    :raises InvalidOptionError: if the algorithm is unknown or a depth limit is given.
    """
    options, limits = _prepare(algorithm, options, limits)
    if limits.depth is not None:
        raise InvalidOptionError("solve() searches to the end of the game; use search() for a depth limit")
    if position.is_terminal():
        return game_over(position, algorithm)
    if algorithm == "auto" and options.driver == "deepening":
        options = dataclasses.replace(options, driver="bisection")
    run = _Run(position, limits, algorithm, options, table, on_iteration, trace)
    try:
        if options.driver == "bisection":
            result = run.bisection(SOLVE_DEPTH)
        elif options.driver == "mtdf":
            result = run.mtdf(SOLVE_DEPTH, 0)
        else:
            result = run.full_window(SOLVE_DEPTH)
        result = dataclasses.replace(result, depth=len(result.pv))
        run.report(result)
    except SearchAborted:
        result = run.unfinished_solve()
        if result.completed:  # the value was proven, only its line cut short: as a full solve, reported
            run.report(result)
        return result
    except RecursionError:
        # a game that can go on for hundreds of plies (chess): one line outran Python's stack
        raise InvalidOptionError(
            "a line of this game goes deeper than the pure-Python search can follow, so it cannot be solved"
            " exactly; search it to a limit instead (search(), negamax analyze)"
        ) from None
    return _final(run, aborted=False)


def value_at_least(
    position: Position[Any],
    threshold: int,
    *,
    options: SearchOptions | None = None,
    table: TranspositionTable | None = None,
) -> bool:
    """Whether the exact value of ``position`` (unfinished) for its side to move is at least
    ``threshold``: one null-window search to the end of the game, the step ``solve``'s
    bisection repeats. A ``table`` kept from one question to the next lets it reuse what
    the earlier ones proved.

    :raises InvalidOptionError: for a game whose lines outrun Python's stack.
    """
    options, limits = _prepare("auto", options, None)
    run = _Run(position, limits, "auto", options, table, None)
    try:
        return run.root(SOLVE_DEPTH, threshold - 1, threshold) >= threshold
    except RecursionError:
        raise InvalidOptionError(
            "a line of this game goes deeper than the pure-Python search can follow: it cannot be solved exactly"
        ) from None


def _final(run: _Run, aborted: bool, lines: bool = False) -> SearchResult[Any]:
    """The last completed iteration, with the totals of the whole search (and, for a
    multipv search (``lines``) stopped before its first depth, its one unsearched line)."""
    last = run.last
    if last is None:
        result = run.result(0, Bound.UPPER, 0, -INF, INF, completed=False)
        return dataclasses.replace(result, lines=(line_of(result),)) if lines else result
    cpu, wall = run.search.elapsed()
    return dataclasses.replace(
        last,
        nodes=run.search.node_count(),
        cpu_time=cpu,
        wall_time=wall,
        stats=run.search.stats(tuple(run.iterations)),
        completed=not aborted,
    )
