"""``search()`` and ``solve()``: the one place that decides between the pure-Python search
and a compiled kernel, for every caller (the library, the command line, the engines, batches
and the web app).

``engine="auto"`` runs a compiled kernel whenever the position declares one and nothing
asks for the pure-Python search's extras (another algorithm, its options, its table, a
trace); ``"compiled"`` insists on the kernel, ``"python"`` on the pure-Python search. The
kernels: for solving, the placement solver (``PlacementPosition``) or the move-list search
(``MoveListPosition``); for a search to a limit, the move-list search. Values are the same
either way; only the speed differs.

This module never imports numba: the compiled modules are imported when first chosen.
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from negamax.core.errors import InvalidOptionError
from negamax.core.game import MoveListPosition, PlacementPosition, Position
from negamax.core.types import SearchLimits, SearchResult
from negamax.search import driver
from negamax.search.params import SearchOptions
from negamax.search.trace import SearchTrace
from negamax.search.tt import TranspositionTable

if TYPE_CHECKING:
    from negamax.search.compiled.move_list import CompiledSearcher
    from negamax.search.compiled.placement import CompiledSolver

ENGINES = ("auto", "python", "compiled")
"""The engines a search may ask for."""
PLACEMENT = "placement"
"""Games the compiled placement solver takes (``CompiledSolver.kind``)."""
MOVE_LIST = "move list"
"""Games the compiled move-list search takes (``CompiledSearcher.kind``)."""

OnIteration = Callable[[SearchResult[Any]], None]


def compiled_kind(position: Position[Any], solving: bool) -> str | None:
    """Which compiled search can take ``position`` (``PLACEMENT`` or ``MOVE_LIST``), or ``None``."""
    if solving and isinstance(position, PlacementPosition):
        return PLACEMENT
    if isinstance(position, MoveListPosition):
        return MOVE_LIST
    return None


def choose_engine(position: Position[Any], engine: str = "auto", *, solving: bool, python_only: str = "") -> str:
    """``"python"`` or ``"compiled"``: the engine a search of ``position`` runs on.

    ``python_only`` names what the caller asked for that only the pure-Python search does
    (``"the algorithm 'mtdf'"``, ``"a trace"``), or is empty.

    :raises InvalidOptionError: for an unknown engine, or ``"compiled"`` where it cannot run.
    """
    if engine not in ENGINES:
        raise InvalidOptionError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    if engine == "python":
        return "python"
    available = compiled_kind(position, solving) is not None
    if engine == "compiled":
        if not available:
            job = "solve" if solving else "search to a limit"
            raise InvalidOptionError(f"there is no compiled engine to {job} this game; use the python engine")
        if python_only:
            raise InvalidOptionError(f"{python_only} needs the python engine; the compiled one has a single algorithm")
        return "compiled"
    return "compiled" if available and not python_only else "python"


def python_only_request(
    algorithm: str, options: SearchOptions | None, table: TranspositionTable | None, trace: SearchTrace | None
) -> str:
    """What in a request only the pure-Python search does, in words ("" for nothing)."""
    if algorithm != "auto":
        return f"the algorithm {algorithm!r}"
    if options is not None:
        return "search options"
    if table is not None:
        return "a python transposition table"
    if trace is not None:
        return "a trace"
    return ""


def search(
    position: Position[Any],
    limits: SearchLimits | None = None,
    *,
    engine: str = "auto",
    algorithm: str = "auto",
    options: SearchOptions | None = None,
    table: TranspositionTable | None = None,
    on_iteration: OnIteration | None = None,
    trace: SearchTrace | None = None,
    searcher: CompiledSearcher | None = None,
    root_moves: Sequence[Any] | None = None,
) -> SearchResult[Any]:
    """Search ``position`` within ``limits`` (a depth, node count or time is required).

    Deepens one ply at a time (the plain algorithms given a depth search it once) and
    reports each completed iteration to ``on_iteration``. ``position`` is never changed.

    ``engine``: ``"auto"`` (a compiled kernel when the game has one, see this module),
    ``"compiled"`` or ``"python"``. ``algorithm``, ``options``, ``table`` and ``trace``
    are the pure-Python search's. ``searcher`` is the compiled search to run on (its table
    lives from one call to the next); by default one this process keeps. ``root_moves``:
    the only moves the root may play (UCI's ``searchmoves``), all legal; ``None`` for all.

    :raises InvalidOptionError: if no limit is given, or for an unknown algorithm or
        engine, or an engine that cannot do what is asked, or ``root_moves`` that are not
        legal moves (or none).
    """
    limits = limits or SearchLimits()
    if limits.depth is None and limits.nodes is None and limits.time is None:
        raise InvalidOptionError("give a depth, node or time limit (or call solve() to search to the end)")
    chosen = _route(position, engine, False, python_only_request(algorithm, options, table, trace), searcher)
    if position.is_terminal():
        return driver.game_over(position, algorithm if chosen == "python" else "compiled")
    root_moves = _checked_root_moves(position, root_moves)
    if chosen == "python":
        return driver.search(
            position,
            limits,
            algorithm=algorithm,
            options=options,
            table=table,
            on_iteration=on_iteration,
            trace=trace,
            root_moves=root_moves,
        )
    assert isinstance(position, MoveListPosition)
    _check_kind(searcher, MOVE_LIST)
    with _lend(MOVE_LIST, searcher) as compiled:
        _load(compiled, position)
        result: SearchResult[Any] = compiled.search(position, limits, on_iteration, root_moves)
    return result


def _checked_root_moves(position: Position[Any], root_moves: Sequence[Any] | None) -> tuple[Any, ...] | None:
    """``root_moves`` without repeats, each a legal move of ``position``.

    :raises InvalidOptionError: for a move that is not legal there, or none at all.
    """
    if root_moves is None:
        return None
    legal = list(position.legal_moves())
    chosen = tuple(dict.fromkeys(root_moves))
    for move in chosen:
        if move not in legal:
            raise InvalidOptionError(f"root_moves: {move} is not a legal move here")
    if not chosen:
        raise InvalidOptionError("root_moves names no move (None searches every move)")
    return chosen


def solve(
    position: Position[Any],
    limits: SearchLimits | None = None,
    *,
    engine: str = "auto",
    algorithm: str = "auto",
    options: SearchOptions | None = None,
    table: TranspositionTable | None = None,
    on_iteration: OnIteration | None = None,
    trace: SearchTrace | None = None,
    searcher: CompiledSolver | CompiledSearcher | Callable[[], Any] | None = None,
) -> SearchResult[Any]:
    """The game-theoretic value of ``position``: search to the end of the game.

    Wins and losses carry their distance. ``limits`` may bound nodes or time; a solve cut
    short returns the bounds proven so far (``lower``/``upper``, ``completed=False``).
    ``engine``, ``algorithm``, ``options``, ``table``, ``trace`` and ``searcher`` as for
    ``search()`` (a ``CompiledSolver`` for placement games, or a function that makes one
    when it is needed).

    With ``engine="auto"``, before numba is loaded in this process (half a second, or a
    first compilation), a position the pure-Python search solves within ``QUICK_NODES``
    nodes is answered by it: loading the kernel would cost more than the solve.

    :raises InvalidOptionError: for a depth limit, an unknown algorithm or engine, or an
        engine that cannot do what is asked.
    """
    limits = limits or SearchLimits()
    if limits.depth is not None:
        raise InvalidOptionError("solve() searches to the end of the game; use search() for a depth limit")
    refuse_unbounded_solve(position, limits)
    chosen = _route(position, engine, True, python_only_request(algorithm, options, table, trace), searcher)
    if position.is_terminal():
        return driver.game_over(position, algorithm if chosen == "python" else "compiled")
    if chosen == "python":
        return driver.solve(
            position, limits, algorithm=algorithm, options=options, table=table, on_iteration=on_iteration, trace=trace
        )
    if engine == "auto" and (searcher is None or callable(searcher)) and "numba" not in sys.modules:
        quick = driver.solve(position, dataclasses.replace(limits, nodes=min(limits.nodes or QUICK_NODES, QUICK_NODES)))
        if quick.completed:
            if on_iteration is not None:
                on_iteration(quick)
            return quick
    if callable(searcher):
        searcher = searcher()
    kind = compiled_kind(position, solving=True) or MOVE_LIST
    _check_kind(searcher, kind)
    with _lend(kind, searcher) as compiled:
        _load(compiled, position)
        result: SearchResult[Any] = compiled.solve(position, limits, on_iteration)
    return result


def refuse_unbounded_solve(position: Position[Any], limits: SearchLimits) -> None:
    """Refuse to solve, without a node limit, a time limit or a stop event, a position
    whose game says it cannot be solved exactly (its ``solvable`` is false: chess,
    draughts, large OpenSpiel games): such a solve would never end.

    :raises InvalidOptionError:
    """
    if getattr(position, "solvable", True) or limits.nodes is not None or limits.time is not None:
        return
    if limits.stop is None:
        raise InvalidOptionError(
            "this game cannot be solved exactly here (its game tree is far too large): give solve() a node or"
            " time limit, or search() to a depth"
        )


def _load(searcher: Any, position: Position[Any]) -> None:
    """The kernel for this game loaded (or compiled) before the search's clock starts, so
    that its time and nodes describe the search alone."""
    if searcher.cached(position) is not True:
        searcher.warm_up(position)


def _check_kind(searcher: Any, kind: str) -> None:
    if searcher is not None and searcher.kind != kind:
        needed = "CompiledSolver" if kind == PLACEMENT else "CompiledSearcher"
        raise InvalidOptionError(
            f"a {type(searcher).__name__} searches {searcher.kind} games; this one needs a {needed}"
        )


def _route(position: Position[Any], engine: str, solving: bool, python_only: str, searcher: Any) -> str:
    """The engine for a call of ``search`` or ``solve``: a compiled searcher given is a
    request for the compiled engine, unless something asks for the python one."""
    if searcher is not None and engine == "auto" and not python_only:
        engine = "compiled"
    return choose_engine(position, engine, solving=solving, python_only=python_only)


QUICK_NODES = 5_000
"""How many nodes the pure-Python search may try before the compiled kernel is loaded:
about 50 ms, against half a second for loading numba."""
LENT_TABLE_MIB = 16
"""The table of the move-list searcher a call gets when it brings none (cleared each call)."""
MAX_IDLE = 1
"""Searchers of each kind kept for the next call (calls at once get one each)."""
_idle: dict[str, list[Any]] = {PLACEMENT: [], MOVE_LIST: []}
_idle_lock = threading.Lock()


@contextlib.contextmanager
def _lend(kind: str, searcher: Any) -> Iterator[Any]:
    """``searcher`` if given, else a compiled searcher of ``kind`` used by no other thread
    (one this process keeps for the next call, with its table)."""
    if searcher is not None:
        yield searcher
        return
    with _idle_lock:
        lent = _idle[kind].pop() if _idle[kind] else None
    if lent is None:
        lent = _new_searcher(kind)
    elif kind == MOVE_LIST:
        lent.clear()  # a fresh table, as the python engine's: a result never depends on earlier calls
    try:
        yield lent
    finally:
        with _idle_lock:
            if len(_idle[kind]) < MAX_IDLE:  # more are dropped: a solver's table takes up to 256 MiB
                _idle[kind].append(lent)


def _new_searcher(kind: str) -> Any:
    if kind == PLACEMENT:
        from negamax.search.compiled.placement import CompiledSolver  # imports numba

        return CompiledSolver()
    from negamax.search.compiled.move_list import CompiledSearcher  # imports numba

    return CompiledSearcher(hash_mib=LENT_TABLE_MIB)
