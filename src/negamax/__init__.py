"""negamax: negamax search and its enhancements for two-player, zero-sum games.

``import negamax`` is cheap: NumPy and numba are imported when a compiled game or search is
first used (``CompiledGame`` is loaded on first access).
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
    Line,
    NegamaxError,
    Position,
    SearchLimits,
    SearchResult,
    UnknownGameError,
)
from negamax.games import available_games, get_game
from negamax.search import ALGORITHMS, BACKENDS, Searcher, SearchOptions, TranspositionTable, search, solve

if TYPE_CHECKING:
    from negamax.games.compiled_game import CompiledGame

__version__ = "0.1.0"

_LAZY = {"CompiledGame": "negamax.games.compiled_game"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'negamax' has no attribute {name!r}")


__all__ = [
    "ALGORITHMS",
    "BACKENDS",
    "DRAW",
    "ONGOING",
    "WIN",
    "Bound",
    "CompiledGame",
    "GameDefinitionError",
    "IllegalMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "Line",
    "NegamaxError",
    "Position",
    "SearchLimits",
    "SearchOptions",
    "SearchResult",
    "Searcher",
    "TranspositionTable",
    "UnknownGameError",
    "available_games",
    "get_game",
    "search",
    "solve",
]
