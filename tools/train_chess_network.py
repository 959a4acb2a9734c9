"""Trains chess's network (``negamax.games.chess.network``): a correction added to the
tapered tables and terms, fitted so that a sigmoid of the sum comes closest to the sigmoid
of Stockfish's score over many quiet positions.

The positions files (``FEN;score`` lines, White's view, centipawns) come from
``chess_positions.py``. Training reads every file given, holds out every twentieth block of
500 positions (``--mirror`` adds the training positions without castling rights mirrored
left to right), and fits by Adam on mini-batches with weight decay on the first layer, the
learning rate halved every three passes (``--halve-every``); it prints the held-out error of
the tables and terms alone and with the network now in use, after each pass, and of the new
integer network as the engine would run it, and the same on the ``--test`` files, positions
kept out of training (a deeper search's scores, say). ``--write`` stores that network as
``chess_network.NETWORK_FILE`` (or in the file given).

    python tools/chess_positions.py positions.txt --games 40000 --seed 1
    python tools/train_chess_network.py positions.txt --hidden 128 --buckets 4 --squared --write

``--kings 5`` gives each side five blocks of rows chosen by where its own king stands
(``chess_network.king_view``); while training, a feature's weights are its block's row plus
a row all blocks share, so that what the blocks have in common learns from every position.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import sys
import time
from pathlib import Path

import chess
import numpy as np
from numba import njit

import benchmark_path  # noqa: F401  (the benchmarks' modules below)
from fit_chess import BLOCK, read_positions, sigmoid
from ladder_elo import LOG_SCALE
from negamax.games.chess import evaluation as chess_evaluation
from negamax.games.chess import network as chess_network
from negamax.games.chess import rules as chess_game
from negamax.games.chess import tables as chess_tables
from negamax.games.chess.rules import ChessPosition

HELD_OUT = 20
BATCH = 4096
QA, QB = 127, 64
"""An accumulator unit is clamped to [0, QA] (1.0 in training); output weights are
multiplied by QB."""
PIECES = chess_network.PIECES
EVALUATION_SOURCES = [Path(module.__file__ or "") for module in (chess_game, chess_evaluation, chess_tables)]
"""What the tables and terms' values (``encode``'s bases) depend on."""
ENCODED = ("rows", "sides", "bases", "scores")
WHITE_ROWS = np.array(
    [
        [chess_network.feature(chess.WHITE, colour, kind, square) for square in range(64)]
        for colour in (chess.WHITE, chess.BLACK)
        for kind in range(1, 7)
    ]
)
MIRROR = np.zeros(chess_network.FEATURES, dtype=np.int64)
"""Each of White's rows as Black sees the same piece."""
for _colour in (chess.WHITE, chess.BLACK):
    for _kind in range(1, 7):
        for _square in range(64):
            MIRROR[chess_network.feature(chess.WHITE, _colour, _kind, _square)] = chess_network.feature(
                chess.BLACK, _colour, _kind, _square
            )
OWN_KING = chess_network.feature(chess.WHITE, chess.WHITE, chess.KING, chess.A1)
"""The row of a side's own king on a1 as it sees the board; on square s, ``OWN_KING + s``."""
FEATURES = chess_network.FEATURES


def king_layout(name: str) -> tuple[np.ndarray, bool]:
    """The king buckets (one per square a side's own king can stand on, as it sees the
    board) and whether a king on files e-h turns its side's board, of a ``--kings``
    choice: ``none`` (one block, never turned), ``mirrored`` (one block, turned), ``4``
    (turned, and four blocks: the king on its first rank on files a-c, on d1, on its
    second rank, further up) or ``5`` (never turned; five blocks: the king on its first
    rank on files a-c, d-e or f-h, on its second rank, further up)."""
    buckets = np.zeros(64, dtype=np.int64)
    for square in range(64):
        rank, file = square >> 3, square & 7
        if name == "4":
            file = min(file, 7 - file)
            buckets[square] = (0 if file < 3 else 1) if rank == 0 else 2 if rank == 1 else 3
        elif name == "5":
            buckets[square] = (0 if file < 3 else 1 if file < 5 else 2) if rank == 0 else min(rank, 2) + 2
    return buckets, name in ("mirrored", "4")


def king_views(king_buckets: np.ndarray, mirrored: bool) -> np.ndarray:
    """``chess_network.king_view`` for a side's own king on each square (as it sees the
    board): its block's first row and its turn, a row each."""
    return np.array([chess_network.king_view(king_buckets, mirrored, square) for square in range(64)])


@njit(cache=True)
def _view(rows: np.ndarray, black: int, views: np.ndarray, indices: np.ndarray) -> int:
    """One side's features of a position (``rows`` as White sees them): writes their rows
    in the network's blocks (``indices[0]``) and in the block shared by all king buckets
    while training (``indices[1]``), by the view of its king's square (``king_views``);
    returns how many there are."""
    count = 0
    king = 0
    for piece in rows:
        if piece < 0:
            break
        seen = MIRROR[piece] if black else piece
        if OWN_KING <= seen < OWN_KING + 64:
            king = seen - OWN_KING
        indices[1, count] = seen
        count += 1
    block, turn = views[king, 0], views[king, 1]
    for index in range(count):
        indices[1, index] ^= turn
        indices[0, index] = block + indices[1, index]
    return count


def encode(boards: list[chess.Board]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each board's rows as White sees its pieces (-1 after the last), its side to move
    (0 White) and the tables and terms' value for that side (the network left out)."""
    rows = np.full((len(boards), PIECES), -1, dtype=np.int64)
    sides = np.zeros(len(boards), dtype=np.int64)
    bases = np.zeros(len(boards))
    for index, board in enumerate(boards):
        pieces = board.piece_map().items()
        rows[index, : len(pieces)] = [
            WHITE_ROWS[(not piece.color) * 6 + piece.piece_type - 1, square] for square, piece in pieces
        ]
        sides[index] = 0 if board.turn == chess.WHITE else 1
        bases[index] = ChessPosition(board).tables_and_terms()
        if (index + 1) % 100_000 == 0:
            print(f"  {index + 1:,} positions encoded", flush=True)
    return rows, sides, bases


def _compact(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The rows as int16 (a feature is below 768): ten million positions' rows take 640 MB,
    not 2.5 GB."""
    return {name: values.astype(np.int16) if name.endswith("rows") else values for name, values in arrays.items()}


def read_encoded(path: Path) -> dict[str, np.ndarray]:
    """``encode``'s arrays (``rows``, ``sides``, ``bases``) and the ``scores`` of a positions
    file, and the same for each position without castling rights mirrored left to right
    (``mirror_rows``, ``mirror_sides``, ``mirror_bases``; ``mirrored`` holds their
    positions' indices), from the file beside it that keeps them (``NAME.encoded.npz``)
    while neither the positions nor the tables and terms have changed since; parsing a
    million positions takes minutes."""
    cache = path.with_name(path.name + ".encoded.npz")
    digest = hashlib.sha256(f"{path.stat().st_size}:{path.stat().st_mtime_ns}".encode())
    for source in EVALUATION_SOURCES:
        digest.update(source.read_bytes())
    stamp = digest.hexdigest()
    if cache.is_file():
        with np.load(cache) as kept:
            if str(kept["stamp"]) == stamp and "mirrored" in kept:
                return _compact({name: kept[name] for name in kept.files if name != "stamp"})
    boards, scores = read_positions(path)
    rows, sides, bases = encode(boards)
    # without castling rights the rules are the same mirrored, and so should the value be
    mirrored = np.array([index for index, board in enumerate(boards) if not board.castling_rights], dtype=np.int64)
    mirror_rows, mirror_sides, mirror_bases = encode(
        [boards[index].transform(chess.flip_horizontal) for index in mirrored]
    )
    arrays = {
        "rows": rows,
        "sides": sides,
        "bases": bases,
        "scores": scores,
        "mirrored": mirrored,
        "mirror_rows": mirror_rows,
        "mirror_sides": mirror_sides,
        "mirror_bases": mirror_bases,
    }
    np.savez(cache, stamp=np.array(stamp), **arrays)
    return _compact(arrays)


@njit(cache=True, inline="always")
def _activation(level: float, squared: bool) -> float:
    clipped = min(max(level, 0.0), 1.0)
    return clipped * clipped if squared else clipped


@njit(cache=True)
def _forward(
    first: np.ndarray,
    shared: np.ndarray,
    bias: np.ndarray,
    output: np.ndarray,
    rows: np.ndarray,
    side: int,
    bucket: int,
    squared: bool,
    views: np.ndarray,
    hidden: np.ndarray,
    indices: np.ndarray,
) -> float:
    """The float network's output (pawns) for one position; ``hidden`` gets the two
    accumulators, the mover's first, and ``indices`` each side's features (``_view``). A
    feature's weights are its row in its king bucket's block of ``first`` plus its row of
    ``shared``. ``output`` holds a row of weights and a bias for each bucket; ``squared``
    squares the clipped units (SCReLU)."""
    units = bias.shape[0]
    for half in range(2):
        black = (side + half) % 2
        hidden[half, :] = bias
        for index in range(_view(rows, black, views, indices[half])):
            hidden[half, :] += first[indices[half, 0, index]] + shared[indices[half, 1, index]]
    weights = output[bucket]
    value = weights[2 * units]
    for half in range(2):
        for unit in range(units):
            value += weights[half * units + unit] * _activation(hidden[half, unit], squared)
    return value


def phase_buckets(rows: np.ndarray, buckets: int) -> np.ndarray:
    """Each position's output bucket: its game phase (knights and bishops 1, rooks 2,
    queens 4, at most 24) cut into ``buckets`` equal parts."""
    kinds = (rows // 64) % 6
    weights = np.array(chess_tables.PHASE_WEIGHTS)[kinds] * (rows >= 0)
    phase = np.minimum(weights.sum(axis=1), chess_tables.FULL_PHASE)
    return phase * buckets // (chess_tables.FULL_PHASE + 1)


@njit(cache=True)
def _adam(weights: np.ndarray, gradient: np.ndarray, moments: np.ndarray, step: int, rate: float, decay: float) -> None:
    """One Adam step; ``moments`` holds the first and second moments, ``decay`` pulls
    every weight towards zero."""
    first, second = moments[0], moments[1]
    for index in range(weights.size):
        first.flat[index] = 0.9 * first.flat[index] + 0.1 * gradient.flat[index]
        second.flat[index] = 0.999 * second.flat[index] + 0.001 * gradient.flat[index] ** 2
        corrected = first.flat[index] / (1 - 0.9**step)
        spread = math.sqrt(second.flat[index] / (1 - 0.999**step)) + 1e-8
        weights.flat[index] -= rate * (corrected / spread + decay * weights.flat[index])


@njit(cache=True)
def _pass(
    first: np.ndarray,
    shared: np.ndarray,
    bias: np.ndarray,
    output: np.ndarray,
    moments: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    rows: np.ndarray,
    sides: np.ndarray,
    buckets: np.ndarray,
    squared: bool,
    views: np.ndarray,
    bases: np.ndarray,
    wanted: np.ndarray,
    order: np.ndarray,
    scale: float,
    rate: float,
    decay: float,
    step: int,
) -> tuple[float, int]:
    """One pass over ``order`` in mini-batches; returns the mean squared error and the
    step count."""
    units = bias.shape[0]
    hidden = np.zeros((2, units))
    indices = np.zeros((2, 2, PIECES), dtype=np.int64)
    first_gradient, shared_gradient = np.zeros_like(first), np.zeros_like(shared)
    bias_gradient, output_gradient = np.zeros_like(bias), np.zeros_like(output)
    slope = LOG_SCALE * scale
    total = 0.0
    for start in range(0, order.size, BATCH):
        first_gradient[:] = 0.0
        shared_gradient[:] = 0.0
        bias_gradient[:] = 0.0
        output_gradient[:] = 0.0
        stop = min(start + BATCH, order.size)
        for position in order[start:stop]:
            bucket = buckets[position]
            value = _forward(
                first, shared, bias, output, rows[position], sides[position], bucket, squared, views, hidden, indices
            )
            predicted = 1 / (1 + math.exp(-slope * (bases[position] + 100 * value)))
            miss = predicted - wanted[position]
            total += miss * miss
            pull = 2 * miss * predicted * (1 - predicted) * slope * 100 / (stop - start)
            output_gradient[bucket, 2 * units] += pull
            weights = output[bucket]
            for half in range(2):
                for unit in range(units):
                    level = hidden[half, unit]
                    output_gradient[bucket, half * units + unit] += pull * _activation(level, squared)
                    slope_here = (2 * level if squared else 1.0) if 0.0 < level < 1.0 else 0.0
                    hidden[half, unit] = pull * weights[half * units + unit] * slope_here
                bias_gradient += hidden[half]
                black = (sides[position] + half) % 2
                for index in range(_view(rows[position], black, views, indices[half])):
                    first_gradient[indices[half, 0, index]] += hidden[half]
                    shared_gradient[indices[half, 1, index]] += hidden[half]
        step += 1
        _adam(first, first_gradient, moments[0], step, rate, decay)
        _adam(shared, shared_gradient, moments[1], step, rate, decay)
        _adam(bias, bias_gradient, moments[2], step, rate, 0.0)
        _adam(output, output_gradient, moments[3], step, rate, 0.0)
    return total / order.size, step


@njit(cache=True)
def _integer_values(
    network: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    squared: bool,
    views: np.ndarray,
    rows: np.ndarray,
    sides: np.ndarray,
    buckets: np.ndarray,
) -> np.ndarray:
    """The integer network's values (centipawns), computed as the engine computes them
    (``chess_network.board_value``)."""
    first, bias, output, output_bias = network
    units = bias.shape[0]
    values = np.zeros(rows.shape[0], dtype=np.int64)
    indices = np.zeros((2, PIECES), dtype=np.int64)
    for position in range(rows.shape[0]):
        bucket = buckets[position]
        total = 0
        for half in range(2):
            hidden = bias.copy()
            for index in range(_view(rows[position], (sides[position] + half) % 2, views, indices)):
                hidden += first[indices[0, index]]
            for unit in range(units):
                level = min(max(hidden[unit], 0), QA)
                total += (level * level if squared else level) * output[bucket, half * units + unit]
        if squared:
            total //= QA
        values[position] = (total + output_bias[bucket]) * 100 // (QA * QB)
    return values


def error(bases: np.ndarray, wanted: np.ndarray, scale: float) -> float:
    return float(np.mean((sigmoid(LOG_SCALE * scale * bases) - wanted) ** 2))


def _start_from(
    network: chess_network.Network, first: np.ndarray, shared: np.ndarray, bias: np.ndarray, output: np.ndarray
) -> None:
    """Makes the float network compute ``network``'s value (or nearly: a network of one
    block grown into one that turns the board reads a feature's row of the turned square):
    its units first, the rest silent (their output weights zero), each bucket from the
    bucket of the same phase, so that training carries on from it."""
    units, kept = bias.shape[0], network.bias.shape[0]
    if kept > units:
        sys.exit(f"train_chess_network: --grow needs at least the network's {kept} units, not {units}")
    buckets, kept_buckets = output.shape[0], network.output.shape[0]
    first[:, :kept] = 0.0
    shared[:, :kept] = 0.0
    if network.rows.shape[0] == FEATURES:
        shared[:, :kept] = network.rows / QA
    elif network.rows.shape[0] == first.shape[0]:
        first[:, :kept] = network.rows / QA
    else:
        sys.exit("train_chess_network: --grow needs a network of one block of rows or as many as --kings gives")
    bias[:kept] = network.bias / QA
    for index in range(buckets):
        # the old bucket holding this one's middle phase
        phase = (2 * index + 1) * (chess_tables.FULL_PHASE + 1) // (2 * buckets)
        old = chess_network.bucket(phase, kept_buckets)
        output[index, :kept] = network.output[old, :kept] / QB
        output[index, units : units + kept] = network.output[old, kept:] / QB
        output[index, 2 * units] = network.output_bias[old] / (QA * QB)


def train(
    paths: list[Path],
    units: int,
    passes: int,
    rate: float,
    decay: float,
    grow: bool = False,
    mirror: bool = False,
    buckets: int = 1,
    squared: bool = False,
    tests: list[Path] | None = None,
    kings: str = "none",
    halve_every: int = 3,
) -> chess_network.Network:
    """Reads the positions, fits the network and returns it quantised, printing errors."""
    started = time.perf_counter()
    encoded = [read_encoded(path) for path in paths]
    rows, sides, bases, scores = (np.concatenate([part[name] for part in encoded]) for name in ENCODED)
    side_scores = scores * np.where(sides == 0, 1, -1)
    wanted = sigmoid(LOG_SCALE * side_scores)
    held = (np.arange(len(wanted)) // BLOCK) % HELD_OUT == HELD_OUT - 1
    if not held.any():
        sys.exit(f"train_chess_network: {len(wanted):,} positions; training needs at least {BLOCK * HELD_OUT:,}")
    if mirror:
        # the mirror images of the training positions only: the held-out ones stay unseen
        offsets = np.cumsum([0] + [len(part["scores"]) for part in encoded[:-1]])
        mirrored = np.concatenate([part["mirrored"] + offset for part, offset in zip(encoded, offsets, strict=True)])
        keep = ~held[mirrored]
        mirror_rows, mirror_sides, mirror_bases = (
            np.concatenate([part[f"mirror_{name}"] for part in encoded])[keep] for name in ENCODED[:3]
        )
        rows = np.concatenate([rows, mirror_rows])
        sides = np.concatenate([sides, mirror_sides])
        bases = np.concatenate([bases, mirror_bases])
        wanted = np.concatenate([wanted, wanted[mirrored[keep]]])
        held = np.concatenate([held, np.zeros(keep.sum(), dtype=bool)])
        print(f"{keep.sum():,} mirror images added to the training positions")
    phases = phase_buckets(rows, buckets)
    scale = min(np.arange(0.5, 2.0, 0.01), key=lambda value: error(bases[~held], wanted[~held], value))
    print(f"{len(wanted):,} positions read in {time.perf_counter() - started:.0f} s; scale {scale:.2f}")
    print(f"held-out error: the tables and terms alone {error(bases[held], wanted[held], scale):.6f}", flush=True)
    in_file = chess_network.network()
    shipped_buckets = phase_buckets(rows[held], in_file.output.shape[0])
    shipped = _integer_values(
        in_file[:4],
        in_file.squared,
        king_views(in_file.king_buckets, in_file.mirrored),
        rows[held],
        sides[held],
        shipped_buckets,
    )
    in_use = error(bases[held] + shipped, wanted[held], scale)
    print(f"  and with the network in {chess_network.NETWORK_FILE.name}: {in_use:.6f}", flush=True)
    king_buckets, mirrored_kings = king_layout(kings)
    views = king_views(king_buckets, mirrored_kings)
    generator = np.random.default_rng(1)
    # a feature's weights are its row in its king bucket's block plus a row shared by all
    # blocks, which learns from every position: the blocks only learn what differs
    shared = generator.normal(0, 0.05, (FEATURES, units))
    first = np.zeros(((king_buckets.max() + 1) * FEATURES, units))
    bias = np.full(units, 0.5)
    output = np.zeros((buckets, 2 * units + 1))
    if grow:
        _start_from(chess_network.network(), first, shared, bias, output)
    moments = tuple(np.zeros((2, *weights.shape)) for weights in (first, shared, bias, output))
    step = 0
    training = np.flatnonzero(~held)
    hidden = np.zeros((2, units))
    indices = np.zeros((2, 2, PIECES), dtype=np.int64)
    for number in range(passes):
        pass_rate = rate * 0.5 ** (number // halve_every)
        order = generator.permutation(training)
        loss, step = _pass(
            first,
            shared,
            bias,
            output,
            moments,
            rows,
            sides,
            phases,
            squared,
            views,
            bases,
            wanted,
            order,
            scale,
            pass_rate,
            decay,
            step,
        )
        values = np.array(
            [
                _forward(
                    first,
                    shared,
                    bias,
                    output,
                    rows[index],
                    sides[index],
                    phases[index],
                    squared,
                    views,
                    hidden,
                    indices,
                )
                for index in np.flatnonzero(held)
            ]
        )
        held_error = error(bases[held] + 100 * values, wanted[held], scale)
        print(f"  pass {number + 1}: training {loss:.6f}, held-out {held_error:.6f}", flush=True)
    network = chess_network.Network(
        np.rint((first + np.tile(shared, (first.shape[0] // FEATURES, 1))) * QA).astype(np.int64),
        np.rint(bias * QA).astype(np.int64),
        np.rint(output[:, : 2 * units] * QB).astype(np.int64),
        np.rint(output[:, 2 * units] * QA * QB).astype(np.int64),
        QA,
        QB,
        squared,
        king_buckets,
        mirrored_kings,
    )
    values = _integer_values(network[:4], squared, views, rows[held], sides[held], phases[held])
    print(f"held-out error of the integer network: {error(bases[held] + values, wanted[held], scale):.6f}")
    print(f"its correction: mean {np.mean(np.abs(values)):.1f} centipawns, largest {np.max(np.abs(values))}")
    if tests:
        compare(network, in_file, tests)
    return network


def compare(network: chess_network.Network, in_use: chess_network.Network, paths: list[Path]) -> None:
    """Prints, for each file of positions kept out of training altogether (other scores
    than the training positions', a deeper search's, say: the scale is fitted to them
    anew), the error of the tables and terms alone, with the network in use and with
    ``network``."""
    for path in paths:
        encoded = read_encoded(path)
        rows, sides, bases, scores = (encoded[name] for name in ENCODED)
        wanted = sigmoid(LOG_SCALE * scores * np.where(sides == 0, 1, -1))
        scale = min(np.arange(0.5, 2.0, 0.01), key=lambda value: error(bases, wanted, value))
        errors = []
        for weights in (in_use, network):
            buckets = phase_buckets(rows, weights.output.shape[0])
            values = _integer_values(
                weights[:4], weights.squared, king_views(weights.king_buckets, weights.mirrored), rows, sides, buckets
            )
            errors.append(error(bases + values, wanted, scale))
        print(
            f"{path.name}, {len(wanted):,} positions (scale {scale:.2f}): the tables and terms alone "
            f"{error(bases, wanted, scale):.6f}, the network in use {errors[0]:.6f}, the new one {errors[1]:.6f}"
        )


def write(network: chess_network.Network, path: Path) -> None:
    problem = chess_network.fault(network)
    if problem is not None:
        hint = " (more --decay)" if "accumulator" in problem else ""
        sys.exit(f"train_chess_network: {problem}; not written{hint}")
    np.savez(
        path,
        rows=network.rows.astype(np.int16),
        bias=network.bias.astype(np.int16),
        output=network.output.astype(np.int16),
        output_bias=network.output_bias.astype(np.int32),
        QA=np.array(network.QA),
        QB=np.array(network.QB),
        squared=np.array(network.squared),
        king_buckets=network.king_buckets.astype(np.int8),
        mirrored=np.array(network.mirrored),
    )
    print(f"written to {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "positions", type=Path, nargs="+", help="scored positions files (FEN;score lines, chess_positions.py)"
    )
    parser.add_argument("--hidden", type=int, default=32, help="units in each side's accumulator")
    parser.add_argument("--passes", type=int, default=12, help="passes over the training positions")
    parser.add_argument("--rate", type=float, default=2e-3, help="Adam's learning rate at first")
    parser.add_argument("--halve-every", type=int, default=3, help="passes after which the rate halves")
    parser.add_argument("--decay", type=float, default=1.0, help="weight decay on the first layer")
    parser.add_argument(
        "--grow",
        action="store_true",
        help=f"start from the network in {chess_network.NETWORK_FILE.name} (its units, then new silent ones)",
    )
    parser.add_argument(
        "--mirror",
        action="store_true",
        help="also train on the training positions without castling rights mirrored left to right",
    )
    parser.add_argument("--buckets", type=int, default=1, help="output buckets, by game phase")
    parser.add_argument("--squared", action="store_true", help="square the clamped units (SCReLU)")
    parser.add_argument(
        "--kings",
        choices=("none", "mirrored", "4", "5"),
        default="none",
        help="where each side's own king stands: ignored (none), turning the board when on files e-h "
        "(mirrored), or that and four blocks of rows by its rank and file (4), or five blocks without turning (5)",
    )
    parser.add_argument("--test", type=Path, nargs="*", default=[], help="positions files only to measure on")
    parser.add_argument(
        "--write",
        type=Path,
        nargs="?",
        const=chess_network.NETWORK_FILE,
        help=f"write the network (to {chess_network.NETWORK_FILE.name} in the package, or to the file given)",
    )
    arguments = parser.parse_args()
    missing = [str(path) for path in arguments.positions if not path.is_file()]
    if missing:
        sys.exit(f"train_chess_network: no such positions file: {', '.join(missing)}")
    if arguments.halve_every < 1:
        sys.exit("train_chess_network: --halve-every must be at least 1")
    block_bytes = (FEATURES + 1) * arguments.hidden * 2
    if block_bytes > chess_network.FROZEN_LIMIT:
        sys.exit(
            f"train_chess_network: a block of {arguments.hidden} units takes {block_bytes:,} bytes, "
            f"past the {chess_network.FROZEN_LIMIT:,} the compiled game can freeze"
        )
    network = train(
        arguments.positions,
        arguments.hidden,
        arguments.passes,
        arguments.rate,
        arguments.decay,
        arguments.grow,
        arguments.mirror,
        arguments.buckets,
        arguments.squared,
        arguments.test,
        arguments.kings,
        arguments.halve_every,
    )
    if arguments.write:
        write(network, arguments.write)


if __name__ == "__main__":
    main()
