"""negamax: negamax search and its enhancements for two-player, zero-sum games.

``import negamax`` is cheap: NumPy and numba are imported when a compiled game or search is
first used (``CompiledGame``, ``CompiledSolver`` and ``CompiledSearcher`` are loaded on
first access).
"""

from typing import TYPE_CHECKING, Any

from negamax.core import (
    DRAW,
    ONGOING,
    WIN,
    Bound,
    GameDefinitionError,
    IllegalMoveError,
    InvalidOptionError,
    InvalidPositionError,
    NegamaxError,
    Position,
    SearchLimits,
    SearchResult,
    UnknownGameError,
)
from negamax.games import available_games, get_game
from negamax.search import ALGORITHMS, ENGINES, SearchOptions, TranspositionTable, search, solve

if TYPE_CHECKING:
    from negamax.games.compiled_game import CompiledGame
    from negamax.search.compiled.move_list import CompiledSearcher
    from negamax.search.compiled.placement import CompiledSolver

__version__ = "0.1.0"

_LAZY = {
    "CompiledGame": "negamax.games.compiled_game",
    "CompiledSearcher": "negamax.search.compiled.move_list",
    "CompiledSolver": "negamax.search.compiled.placement",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'negamax' has no attribute {name!r}")


__all__ = [
    "ALGORITHMS",
    "DRAW",
    "ENGINES",
    "ONGOING",
    "WIN",
    "Bound",
    "CompiledGame",
    "CompiledSearcher",
    "CompiledSolver",
    "GameDefinitionError",
    "IllegalMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "NegamaxError",
    "Position",
    "SearchLimits",
    "SearchOptions",
    "SearchResult",
    "TranspositionTable",
    "UnknownGameError",
    "available_games",
    "get_game",
    "search",
    "solve",
]
