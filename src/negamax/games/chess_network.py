"""Chess's learned correction to the evaluation: a small network over the pieces' squares,
shared by the game (``chess``) and its compiled primitives (``chess_compiled``).

Each side sees the board from its own side: a piece is one of 768 features (own or enemy,
its type, its square, mirrored for Black). A feature adds its row of ``hidden`` integers to
that side's accumulator, which the compiled game keeps move by move. The value, in
centipawns for the side to move, is::

    (b2[k] + sum(f(mover's accumulator) * W2[k, :hidden])
        + sum(f(other side's accumulator) * W2[k, hidden:])) * 100 // (QA * QB)

added to the tapered tables and terms of ``chess_evaluation``: the network learns what they
miss. ``f`` clamps a unit to [0, QA] (and, for a network with ``squared`` set, squares it
and divides by QA); ``k`` is the output bucket, the game phase cut into as many equal parts
as the network has rows of output weights (``bucket``). ``benchmarks/train_chess_network.py``
fits it and writes ``NETWORK_FILE``.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import NamedTuple

import chess
import numpy as np

from negamax.core.errors import GameDefinitionError
from negamax.games.chess_tables import FULL_PHASE, PHASE_WEIGHTS

NETWORK_FILE = Path(__file__).with_name("chess_network.npz")
FEATURES = 768
PIECES = 32
ACCUMULATOR_LIMIT = 2**15 - 1
"""The compiled game keeps accumulators in int16 lanes."""
OUTPUT_LIMIT = 2**31 - 1
"""It sums the output's products in int32 lanes."""


class Network(NamedTuple):
    """The quantised weights: ``rows`` (768 x hidden), ``bias`` (hidden), ``output``
    (buckets x 2 hidden: the mover's half first), ``output_bias`` (buckets), the scales
    ``QA`` (an accumulator's clamp) and ``QB`` (the output weights'), and whether the
    clamped units are squared."""

    rows: np.ndarray
    bias: np.ndarray
    output: np.ndarray
    output_bias: np.ndarray
    QA: int
    QB: int
    squared: bool = False


@functools.cache
def network() -> Network:
    """The network in ``NETWORK_FILE`` (read once)."""
    with np.load(NETWORK_FILE) as data:
        rows = data["rows"].astype(np.int64)
        loaded = Network(
            rows,
            data["bias"].astype(np.int64),
            data["output"].astype(np.int64).reshape(-1, 2 * rows.shape[1]),
            data["output_bias"].astype(np.int64).reshape(-1),
            int(data["QA"]),
            int(data["QB"]),
            bool(data["squared"]) if "squared" in data else False,
        )
    if largest_accumulator(loaded) > ACCUMULATOR_LIMIT:
        raise GameDefinitionError(f"{NETWORK_FILE.name}: an accumulator could leave the int16 range")
    if largest_output(loaded) > OUTPUT_LIMIT:
        raise GameDefinitionError(f"{NETWORK_FILE.name}: the output's sum could leave the int32 range")
    return loaded


def largest_accumulator(weights: Network) -> int:
    """A bound on any accumulator unit's magnitude: its bias and its rows' 32 largest."""
    largest_rows = np.sort(np.abs(weights.rows), axis=0)[-PIECES:].sum(axis=0)
    return int((np.abs(weights.bias) + largest_rows).max())


def largest_output(weights: Network) -> int:
    """A bound on the output's sum of products before the bias: every unit at its clamp
    (squared for a squared network) times its weight's magnitude, in the worst bucket."""
    level = weights.QA * weights.QA if weights.squared else weights.QA
    return int(level * np.abs(weights.output).sum(axis=1).max())


def feature(perspective: chess.Color, colour: chess.Color, piece_type: int, square: int) -> int:
    """The row of a ``colour`` piece of ``piece_type`` on ``square`` (a1 = 0) as
    ``perspective`` sees it."""
    own = colour == perspective
    seen = square if perspective == chess.WHITE else square ^ 56
    return ((0 if own else 6) + piece_type - 1) * 64 + seen


def bucket(phase: int, buckets: int) -> int:
    """The output bucket of a position of game ``phase`` (``chess_tables.PHASE_WEIGHTS``
    summed, 24 with every piece on the board; more after promotions counts as 24)."""
    return min(phase, FULL_PHASE) * buckets // (FULL_PHASE + 1)


def board_value(board: chess.Board) -> int:
    """The network's value of ``board`` for the side to move, computed from scratch."""
    weights = network()
    pieces = board.piece_map().items()
    halves = []
    for perspective in (board.turn, not board.turn):
        rows = [feature(perspective, piece.color, piece.piece_type, square) for square, piece in pieces]
        accumulator = weights.bias + weights.rows[rows].sum(axis=0)
        halves.append(np.clip(accumulator, 0, weights.QA))
    levels = np.concatenate(halves)
    if weights.squared:
        levels = levels * levels
    phase = sum(PHASE_WEIGHTS[piece.piece_type - 1] for _, piece in pieces)
    index = bucket(phase, weights.output.shape[0])
    total = int(np.dot(levels, weights.output[index]))
    if weights.squared:
        total //= weights.QA
    return (int(weights.output_bias[index]) + total) * 100 // (weights.QA * weights.QB)
