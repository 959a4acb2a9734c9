"""Chess's learned correction to the evaluation: a small network over the pieces' squares,
shared by the game (``chess``) and its compiled primitives (``chess_compiled``).

Each side sees the board from its own side: a piece is one of 768 features (own or enemy,
its type, its square, mirrored for Black). A feature adds its row of ``hidden`` integers to
that side's accumulator, which the compiled game keeps move by move. The value, in
centipawns for the side to move, is::

    (b2 + sum(clamp(mover's accumulator, 0, QA) * W2[:hidden])
        + sum(clamp(other side's accumulator, 0, QA) * W2[hidden:])) * 100 // (QA * QB)

added to the tapered tables and terms of ``chess_evaluation``: the network learns what they
miss. ``benchmarks/train_chess_network.py`` fits it and writes ``NETWORK_FILE``.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import NamedTuple

import chess
import numpy as np

from negamax.core.errors import GameDefinitionError

NETWORK_FILE = Path(__file__).with_name("chess_network.npz")
FEATURES = 768
PIECES = 32
ACCUMULATOR_LIMIT = 2**15 - 1
"""The compiled game keeps accumulators in int16 lanes."""


class Network(NamedTuple):
    """The quantised weights: ``rows`` (768 x hidden), ``bias`` (hidden), ``output`` (2 x
    hidden: the mover's half first), ``output_bias``, and the scales ``QA`` (an
    accumulator's clamp) and ``QB`` (the output weights')."""

    rows: np.ndarray
    bias: np.ndarray
    output: np.ndarray
    output_bias: int
    QA: int
    QB: int


@functools.cache
def network() -> Network:
    """The network in ``NETWORK_FILE`` (read once)."""
    with np.load(NETWORK_FILE) as data:
        loaded = Network(
            data["rows"].astype(np.int64),
            data["bias"].astype(np.int64),
            data["output"].astype(np.int64),
            int(data["output_bias"]),
            int(data["QA"]),
            int(data["QB"]),
        )
    if largest_accumulator(loaded) > ACCUMULATOR_LIMIT:
        raise GameDefinitionError(f"{NETWORK_FILE.name}: an accumulator could leave the int16 range")
    return loaded


def largest_accumulator(weights: Network) -> int:
    """A bound on any accumulator unit's magnitude: its bias and its rows' 32 largest."""
    largest_rows = np.sort(np.abs(weights.rows), axis=0)[-PIECES:].sum(axis=0)
    return int((np.abs(weights.bias) + largest_rows).max())


def feature(perspective: chess.Color, colour: chess.Color, piece_type: int, square: int) -> int:
    """The row of a ``colour`` piece of ``piece_type`` on ``square`` (a1 = 0) as
    ``perspective`` sees it."""
    own = colour == perspective
    seen = square if perspective == chess.WHITE else square ^ 56
    return ((0 if own else 6) + piece_type - 1) * 64 + seen


def board_value(board: chess.Board) -> int:
    """The network's value of ``board`` for the side to move, computed from scratch."""
    weights = network()
    pieces = board.piece_map().items()
    halves = []
    for perspective in (board.turn, not board.turn):
        rows = [feature(perspective, piece.color, piece.piece_type, square) for square, piece in pieces]
        accumulator = weights.bias + weights.rows[rows].sum(axis=0)
        halves.append(np.clip(accumulator, 0, weights.QA))
    total = weights.output_bias + int(np.dot(np.concatenate(halves), weights.output))
    return total * 100 // (weights.QA * weights.QB)
