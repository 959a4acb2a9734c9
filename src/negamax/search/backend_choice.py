"""Which search runs a call: the backends, which compiled search can take a position, the
refusal of a solve that would never end, and the ``Plan`` that says it all for one call.
``planned_kind`` decides from the position and the request alone; ``Searcher.plan`` adds
what is loaded, once per call."""

from __future__ import annotations

import dataclasses
from typing import Any, Final

from negamax.core.errors import InvalidOptionError
from negamax.core.game import HasLength, MoveListPosition, PlacementPosition, Position, has_evaluation
from negamax.core.ranges import Range
from negamax.core.types import SearchLimits
from negamax.search import mcts
from negamax.search.mcts_tree import MCTSTrace
from negamax.search.params import SearchOptions
from negamax.search.trace import SearchTrace
from negamax.search.tt import TranspositionTable

BACKENDS = ("auto", "python", "compiled")
"""Which search runs a call: ``auto`` the compiled kernel where the game has one and the
call asks for nothing only the pure-Python search does, ``compiled`` insists on the
kernel, ``python`` on the pure-Python search."""
PLACEMENT: Final = "placement"
"""The compiled exact solver of placement games (``CompiledSolver.kind``)."""
MOVE_LIST: Final = "move list"
"""The compiled search of move-list games (``CompiledSearcher.kind``)."""
MCTS: Final = "mcts"
"""The compiled Monte Carlo tree search of games written as rules (``CompiledMCTS.kind``)."""
PYTHON: Final = "python"
"""The pure-Python search (alpha-beta's drivers, or ``negamax.search.mcts``)."""
MULTIPV = Range("multipv", 1, 256, unit="moves")
"""How many root moves a call may score (``multipv``)."""

QUICK_PLIES = 10
"""A solve with at most this many plies left (``HasLength``) runs on the pure-Python search
when the backend is ``auto``: it takes a few thousand nodes at most, less than loading a
kernel costs. Decided by the position, so the answer never depends on what is loaded."""
QUICK_NODES = 20_000
"""The most nodes a call whose kernel is neither loaded nor on disk spends in the pure-Python
search before it waits for a compiler (``Searcher.answer_without_compiling``): a position
settled within them (Connect 4 in Python: about 0.2 s) is answered at once, where compiling
costs 20 to 60 CPU-s. The value is the game's either way; among moves of equal value, the
one named may differ from the kernel's."""


@dataclasses.dataclass(frozen=True)
class Request:
    """What a call asks of the pure-Python search, passed through unchanged."""

    algorithm: str = "auto"
    options: SearchOptions | None = None
    table: TranspositionTable | None = None
    trace: SearchTrace | None = None


@dataclasses.dataclass(frozen=True)
class Plan:
    """What one call of a ``Searcher`` runs on, decided once (``Searcher.plan``) and followed
    by the call; a front end that must know it first (the command line: which workers it may
    give, whether to compile before its clock starts) asks for it and hands it to the call."""

    kind: str
    """``PYTHON``, or the compiled searcher lent to the call: ``PLACEMENT``, ``MOVE_LIST``
    or ``MCTS``."""
    solving: bool
    """A solve (to the end of the game), not a search to a limit."""
    monte_carlo: bool
    """Monte Carlo tree search (in Python or compiled), not alpha-beta."""
    quick: bool
    """The kernel would have to be compiled first (neither loaded nor on disk) and the call
    may be settled without it: one line of a solve, or of a search to a depth, gets the
    pure-Python search's ``QUICK_NODES`` nodes before any compiler starts."""
    limits: SearchLimits
    """The call's limits, less the time it waited for its kernel to load from disk (a
    searcher made with ``load_wait``)."""

    @property
    def backend(self) -> str:
        """``"python"`` or ``"compiled"``."""
        return PYTHON if self.kind == PYTHON else "compiled"


def compiled_kind(position: Position[Any], solving: bool) -> str | None:
    """Which compiled search can take ``position`` (``PLACEMENT`` or ``MOVE_LIST``), or ``None``."""
    if solving and isinstance(position, PlacementPosition):
        return PLACEMENT
    if isinstance(position, MoveListPosition):
        return MOVE_LIST
    return None


def compiled_kinds(position: Position[Any], algorithm: str = "auto") -> list[str]:
    """The compiled searches a game's calls may run on: its solver and its search, and the
    Monte Carlo one where asked for or run by default (a game without an evaluation)."""
    kinds = [kind for solving in (True, False) if (kind := compiled_kind(position, solving))]
    if (algorithm == mcts.ALGORITHM or not has_evaluation(position)) and mcts.runs_compiled(position):
        kinds.append(MCTS)
    return list(dict.fromkeys(kinds))


def alpha_beta_trace(trace: SearchTrace | MCTSTrace | None) -> SearchTrace | None:
    """:raises InvalidOptionError: for an ``MCTSTrace`` given to an alpha-beta search."""
    if isinstance(trace, MCTSTrace):
        raise InvalidOptionError("an MCTSTrace traces a Monte Carlo search (algorithm='mcts')")
    return trace


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


def choose_backend(position: Position[Any], backend: str = "auto", *, solving: bool, python_only: str = "") -> str:
    """``"python"`` or ``"compiled"``: the backend a search of ``position`` runs on.

    ``python_only`` names what the caller asked for that only the pure-Python search does
    (``"the algorithm 'mtdf'"``, ``"a trace"``), or is empty.

    :raises InvalidOptionError: for an unknown backend, or ``"compiled"`` where it cannot run.
    """
    if backend not in BACKENDS:
        raise InvalidOptionError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if backend == "python":
        return "python"
    available = compiled_kind(position, solving) is not None
    if backend == "compiled":
        if not available:
            job = "solve" if solving else "search to a limit"
            raise InvalidOptionError(f"there is no compiled backend to {job} this game; use the python backend")
        if python_only:
            raise InvalidOptionError(f"{python_only} needs the python backend; the compiled one has a single algorithm")
        return "compiled"
    return "compiled" if available and not python_only else "python"


def checked_call(
    position: Position[Any],
    limits: SearchLimits | None,
    solving: bool,
    multipv: int,
    request: Request,
    trace: SearchTrace | MCTSTrace | None,
) -> tuple[SearchLimits, bool, str]:
    """What the arguments of a ``solve`` (``solving``) or ``search`` decide alone: its limits
    (none: ``SearchLimits()``), whether it runs Monte Carlo tree search, and what in it only
    the pure-Python search does (``python_only_request``).

    :raises InvalidOptionError: for limits the call cannot take, a solve that would never
        end, or a request Monte Carlo tree search cannot take.
    """
    limits = limits or SearchLimits()
    if solving and limits.depth is not None:
        raise InvalidOptionError("solve() searches to the end of the game; use search() for a depth limit")
    if not solving and limits.depth is None and limits.nodes is None and limits.time is None:
        raise InvalidOptionError("give a depth, node or time limit (or call solve() to search to the end)")
    MULTIPV.check(multipv)
    algorithm, options = request.algorithm, request.options
    if solving:
        refuse_unbounded_solve(position, limits)
        monte_carlo = algorithm == mcts.ALGORITHM or (options is not None and options.driver == mcts.ALGORITHM)
    else:
        monte_carlo = mcts.wanted(position, limits, algorithm, options)
    if not monte_carlo:
        return limits, False, python_only_request(algorithm, options, request.table, alpha_beta_trace(trace))
    if request.table is not None:
        raise InvalidOptionError("a transposition table is alpha-beta's: Monte Carlo tree search keeps its own")
    if isinstance(trace, SearchTrace):
        raise InvalidOptionError("a Monte Carlo search is traced with an MCTSTrace (negamax.search.mcts_tree)")
    mcts.check_limits(limits, solving)
    return limits, True, ""


def planned_kind(position: Position[Any], backend: str, *, solving: bool, python_only: str = "") -> str:
    """The kind an alpha-beta call runs on, from the position and the request alone
    (``PYTHON``, ``PLACEMENT`` or ``MOVE_LIST``; ``Searcher.plan`` adds whether the kernel is
    loaded yet): ``choose_backend``'s, except that ``auto`` solves a position with at most
    ``QUICK_PLIES`` plies left in Python.

    :raises InvalidOptionError: as ``choose_backend``.
    """
    if choose_backend(position, backend, solving=solving, python_only=python_only) == "python":
        return PYTHON
    if backend == "auto" and solving and isinstance(position, HasLength) and position.plies_left() <= QUICK_PLIES:
        return PYTHON  # a few thousand nodes: less than loading a kernel costs
    kind = compiled_kind(position, solving)
    assert kind is not None
    return kind


def monte_carlo_kind(position: Position[Any], backend: str) -> str:
    """``MCTS`` (compiled) or ``PYTHON``: what runs a Monte Carlo search of ``position``,
    before whether its kernel is loaded.

    :raises InvalidOptionError: for the compiled backend, on a game it cannot run.
    """
    if backend == "python":
        return PYTHON
    if not mcts.runs_compiled(position):
        if backend == "compiled":
            raise InvalidOptionError(
                "the compiled Monte Carlo search runs games written as rules (negamax.CompiledGame);"
                " use the python backend"
            )
        return PYTHON
    return MCTS


def refuse_unbounded_solve(position: Position[Any], limits: SearchLimits) -> None:
    """Refuse to solve, without a node or time limit, a position whose game says it
    cannot be solved exactly (its ``solvable`` is false: chess, draughts, large OpenSpiel
    games): such a solve would never end (a stop event is no limit: nobody may set it).

    :raises InvalidOptionError:
    """
    if getattr(position, "solvable", True) or limits.nodes is not None or limits.time is not None:
        return
    raise InvalidOptionError(
        "this game cannot be solved exactly here (its game tree is far too large): give solve() a node or"
        " time limit, or search() to a depth"
    )
