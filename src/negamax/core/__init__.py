"""The game protocol, the score domain, value objects and errors; imports nothing else."""

from negamax.core.errors import (
    GameDefinitionError,
    IllegalMoveError,
    InvalidOptionError,
    InvalidPositionError,
    NegamaxError,
    UnknownGameError,
)
from negamax.core.game import (
    CompiledRules,
    HasCanonicalKey,
    HasGameEnd,
    HasLength,
    HasNoisyMoves,
    HasSafeMoves,
    MoveListPosition,
    PlacementPosition,
    Position,
)
from negamax.core.score import DRAW, INF, ONGOING, WIN, Bound, describe, loss_in, win_in
from negamax.core.types import Line, OnIteration, SearchLimits, SearchResult, SearchStats

__all__ = [
    "DRAW",
    "INF",
    "ONGOING",
    "WIN",
    "Bound",
    "CompiledRules",
    "GameDefinitionError",
    "HasCanonicalKey",
    "HasGameEnd",
    "HasLength",
    "HasNoisyMoves",
    "HasSafeMoves",
    "IllegalMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "Line",
    "MoveListPosition",
    "NegamaxError",
    "OnIteration",
    "PlacementPosition",
    "Position",
    "SearchLimits",
    "SearchResult",
    "SearchStats",
    "UnknownGameError",
    "describe",
    "loss_in",
    "win_in",
]
