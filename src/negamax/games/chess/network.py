"""Chess's learned correction to the evaluation: a small network over the pieces' squares,
shared by the game (``chess``) and its compiled primitives (``compiled``).

Each side sees the board from its own side: a piece is one of 768 features (own or enemy,
its type, its square, mirrored for Black). Where that side's own king stands picks which
rows the features read: its square's ``king_buckets`` entry chooses one of the network's
blocks of 768 rows, and in a ``mirrored`` network a king on files e-h turns the board left
to right for that side first (so a block is only ever read with the king on files a-d, and
the value of a position and of its mirror image agree). A feature adds its row of
``hidden`` integers to that side's accumulator, which the compiled game keeps move by move
(and computes afresh when a king's move changes its side's block or turning). The value,
in centipawns for the side to move, is::

    (b2[k] + sum(f(mover's accumulator) * W2[k, :hidden])
        + sum(f(other side's accumulator) * W2[k, hidden:])) * 100 // (QA * QB)

added to the tapered tables and terms of ``evaluation``: the network learns what they
miss. ``f`` clamps a unit to [0, QA] (and, for a network with ``squared`` set, squares it
and divides by QA); ``k`` is the output bucket, the game phase cut into as many equal parts
as the network has rows of output weights (``bucket``). ``tools/train_chess_network.py``
fits it and writes ``NETWORK_FILE``.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import NamedTuple

import chess
import numpy as np

from negamax.core.errors import GameDefinitionError, InvalidPositionError
from negamax.games.chess.tables import FULL_PHASE, PHASE_WEIGHTS

NETWORK_FILE = Path(__file__).with_name("network.npz")
FEATURES = 768
PIECES = 32
ACCUMULATOR_LIMIT = 2**15 - 1
"""The compiled game keeps accumulators in int16 lanes."""
OUTPUT_LIMIT = 2**31 - 1
"""It sums the output's products in int32 lanes, of int16 weights and int16 units (a squared
unit too: its square stays under ``ACCUMULATOR_LIMIT``)."""
FROZEN_LIMIT = 10**6
"""The most bytes of a global array numba freezes into machine code it keeps on disk: it
will not cache a function that reads a larger one, so every run would compile the search
again. The compiled game cuts the network's rows into arrays no larger."""
BLOCKS_LIMIT = 32
"""The most blocks of rows (king buckets) a network may have: the compiled game's table of
each piece's row in each block, turned or not, then stays under ``FROZEN_LIMIT`` too."""
ROWS_LIMIT = 4 * 2**20
"""The most bytes of int16 rows a network may have: the compiled game's machine code holds
them, on disk and in each process that plays."""


class Network(NamedTuple):
    """The quantised weights: ``rows`` (a block of 768 x hidden for each king bucket), ``bias``
    (hidden), ``output`` (output buckets x 2 hidden: the mover's half first), ``output_bias``
    (output buckets), the scales ``QA`` (an accumulator's clamp) and ``QB`` (the output
    weights'), whether the clamped units are squared, each square's king bucket (the block a
    side reads with its own king there, as that side sees the board after any turning) and
    whether a king on files e-h turns its side's board."""

    rows: np.ndarray
    bias: np.ndarray
    output: np.ndarray
    output_bias: np.ndarray
    QA: int
    QB: int
    squared: bool = False
    king_buckets: np.ndarray = np.zeros(64, dtype=np.int64)
    mirrored: bool = False


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
            data["king_buckets"].astype(np.int64) if "king_buckets" in data else np.zeros(64, dtype=np.int64),
            bool(data["mirrored"]) if "mirrored" in data else False,
        )
    problem = fault(loaded)
    if problem is not None:
        raise GameDefinitionError(f"{NETWORK_FILE.name}: {problem}")
    return loaded


def fault(weights: Network) -> str | None:
    """What keeps the compiled game from running ``weights`` exactly (in its int16 and int32
    lanes, its rows frozen into code it caches), or None."""
    if weights.QA < 1 or weights.QB < 1:
        return "its scales QA and QB must be at least 1"
    blocks = weights.rows.shape[0] // FEATURES
    if weights.rows.shape[0] % FEATURES or blocks > BLOCKS_LIMIT:
        return f"its rows are not 1 to {BLOCKS_LIMIT} blocks of {FEATURES}"
    if weights.king_buckets.shape != (64,) or not (
        weights.king_buckets.min() >= 0 and weights.king_buckets.max() < blocks
    ):
        return "its king buckets do not match its blocks of rows"
    if weights.rows.shape[1] * 2 * (FEATURES + 1) > FROZEN_LIMIT:
        return f"a block of its rows passes {FROZEN_LIMIT:,} bytes as int16"
    if (weights.rows.shape[0] + 1) * weights.rows.shape[1] * 2 > ROWS_LIMIT:
        return f"its rows pass {ROWS_LIMIT:,} bytes as int16"
    if largest_accumulator(weights) > ACCUMULATOR_LIMIT:
        return "an accumulator could leave the int16 range"
    if np.abs(weights.output).max(initial=0) > ACCUMULATOR_LIMIT:
        return "its output weights leave the int16 range"
    if weights.squared and weights.QA * weights.QA > ACCUMULATOR_LIMIT:
        return "a squared unit's clamp QA must be at most 181"
    if largest_output(weights) > OUTPUT_LIMIT:
        return "the output's sum could leave the int32 range"
    return None


def largest_accumulator(weights: Network) -> int:
    """A bound on any accumulator unit's magnitude: its bias and the 32 largest of its rows
    in any one king bucket (a side's features all read the same bucket)."""
    blocks = np.abs(weights.rows).reshape(-1, FEATURES, weights.rows.shape[1])
    largest_rows = np.sort(blocks, axis=1)[:, -PIECES:].sum(axis=1).max(axis=0)
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


def king_view(king_buckets: np.ndarray, mirrored: bool, king_square: int) -> tuple[int, int]:
    """For a side whose own king stands on ``king_square`` as that side sees it, in a
    network of ``king_buckets`` (``Network.king_buckets``) that turns the board or not: the
    first row of its king bucket's block, and what its squares are XORed with (7 turns the
    board left to right, 0 leaves it)."""
    turn = 7 if mirrored and king_square & 7 >= 4 else 0
    return int(king_buckets[king_square ^ turn]) * FEATURES, turn


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
        king = board.king(perspective)
        if king is None:
            raise InvalidPositionError("the chess network needs both kings on the board")
        seen = king if perspective == chess.WHITE else king ^ 56
        first, turn = king_view(weights.king_buckets, weights.mirrored, seen)
        rows = [
            first + (feature(perspective, piece.color, piece.piece_type, square) ^ turn) for square, piece in pieces
        ]
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
