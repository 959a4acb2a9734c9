"""Which search runs a call: the backends, which compiled search can take a position, and
the refusal of a solve that would never end. Decided from the position and the request
alone (``Searcher._kind`` adds what is loaded)."""

from __future__ import annotations

from typing import Any, Final

from negamax.core.errors import InvalidOptionError
from negamax.core.game import MoveListPosition, PlacementPosition, Position
from negamax.core.types import SearchLimits
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


def compiled_kind(position: Position[Any], solving: bool) -> str | None:
    """Which compiled search can take ``position`` (``PLACEMENT`` or ``MOVE_LIST``), or ``None``."""
    if solving and isinstance(position, PlacementPosition):
        return PLACEMENT
    if isinstance(position, MoveListPosition):
        return MOVE_LIST
    return None


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
