"""The game protocol, the score domain, value objects and errors; imports nothing else."""

from negamax.core.errors import (
    IllegalMoveError,
    InvalidOptionError,
    InvalidPositionError,
    NegamaxError,
    UnknownGameError,
)
from negamax.core.game import HasCanonicalKey, HasNoisyMoves, HasSafeMoves, Position
from negamax.core.score import DRAW, INF, WIN, Bound, describe, loss_in, win_in
from negamax.core.types import SearchLimits, SearchResult, SearchStats

__all__ = [
    "DRAW",
    "INF",
    "WIN",
    "Bound",
    "HasCanonicalKey",
    "HasNoisyMoves",
    "HasSafeMoves",
    "IllegalMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "NegamaxError",
    "Position",
    "SearchLimits",
    "SearchResult",
    "SearchStats",
    "UnknownGameError",
    "describe",
    "loss_in",
    "win_in",
]
