"""negamax: negamax search and its enhancements for two-player, zero-sum games."""

from negamax.core import (
    Bound,
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
from negamax.search import ALGORITHMS, SearchOptions, TranspositionTable, search, solve

__version__ = "0.1.0"

__all__ = [
    "ALGORITHMS",
    "Bound",
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
