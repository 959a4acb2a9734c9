"""Trains chess's network (``negamax.games.chess_network``): a correction added to the
tapered tables and terms, fitted so that a sigmoid of the sum comes closest to the sigmoid
of Stockfish's score over many quiet positions.

Two steps. ``--games N`` appends quiet positions to the first positions file (``FEN;score``
lines, White's view, centipawns, the format of ``fit_chess.py``; a stopped run resumes):
Stockfish plays itself at a fixed node count a move, seven games in ten from a ladder
opening, each after up to eight random moves and with random moves mixed in (12 % of moves
before ply 30, 3 % after) so the games stray from its own best lines; a position whose side
to move is not in check and whose chosen move is no capture or promotion is kept with the
score of that search. Training reads every file given, holds out every twentieth block of
500 positions (``--mirror`` adds the training positions without castling rights mirrored
left to right), and fits by Adam on mini-batches with weight decay on the first layer, the
learning rate halved every three passes; it prints the held-out error of the tables and
terms alone and with the network now in use, after each pass, and of the new integer network
as the engine would run it. ``--write`` stores that network as
``chess_network.NETWORK_FILE``. Stockfish is a system package
(Debian: ``apt-get install stockfish``).

    python benchmarks/train_chess_network.py positions.txt --games 20000 --seed 1
    python benchmarks/train_chess_network.py positions.txt --write
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import sys
import time
from pathlib import Path

import chess
import chess.engine
import numpy as np
from numba import njit

from chess_ladder import find_stockfish
from fit_chess import BLOCK, append_to, read_positions, sigmoid
from ladder_elo import LOG_SCALE
from negamax.games import chess as chess_game
from negamax.games import chess_evaluation, chess_network, chess_tables
from negamax.games.chess import ChessPosition
from vs_sunfish import MAX_PLIES, OPENINGS

HELD_OUT = 20
BATCH = 4096
QA, QB = 127, 64
"""An accumulator unit is clamped to [0, QA] (1.0 in training); output weights are
multiplied by QB."""
PIECES = chess_network.PIECES
EVALUATION_SOURCES = [Path(module.__file__ or "") for module in (chess_game, chess_evaluation, chess_tables)]
"""What the tables and terms' values (``encode``'s bases) depend on."""
ENCODED = ("rows", "sides", "bases", "scores")
DECIDED = 1200
"""A game stops once the score has been past this many centipawns for six moves."""
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


def play_positions(stockfish: str, games: int, nodes: int, seed: int, path: Path) -> int:
    """Appends the quiet positions of ``games`` self-play games to ``path``; returns how many."""
    generator = random.Random(seed)
    seen, out = append_to(path)
    added = 0
    with chess.engine.SimpleEngine.popen_uci([stockfish]) as engine, out:
        engine.configure({"Threads": 1, "Hash": 16})
        for number in range(games):
            board = chess.Board()
            if generator.random() < 0.7:
                for text in OPENINGS[generator.randrange(len(OPENINGS))].split():
                    board.push_uci(text)
            for _ in range(generator.randint(0, 8)):
                if board.is_game_over():
                    break
                board.push(generator.choice(list(board.legal_moves)))
            decided = 0
            while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES and decided <= 6:
                result = engine.play(board, chess.engine.Limit(nodes=nodes), info=chess.engine.INFO_SCORE, game=number)
                move, score = result.move, result.info.get("score")
                assert move is not None
                if score is not None and (score.is_mate() or abs(score.relative.score() or 0) > DECIDED):
                    decided += 1
                fen = board.fen()
                quiet = not board.is_check() and not board.is_capture(move) and move.promotion is None
                if score is not None and not score.is_mate() and quiet and fen not in seen:
                    seen.add(fen)
                    print(f"{fen};{score.white().score()}", file=out)
                    added += 1
                if generator.random() < (0.12 if board.ply() < 30 else 0.03):
                    move = generator.choice(list(board.legal_moves))
                board.push(move)
            if (number + 1) % 100 == 0:
                out.flush()
                print(f"  {number + 1} games, {added} positions", flush=True)
    return added


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
        bases[index] = ChessPosition(board).evaluate() - chess_network.board_value(board)
        if (index + 1) % 100_000 == 0:
            print(f"  {index + 1:,} positions encoded", flush=True)
    return rows, sides, bases


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
                return {name: kept[name] for name in kept.files if name != "stamp"}
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
    return arrays


@njit(cache=True)
def _forward(
    first: np.ndarray, bias: np.ndarray, output: np.ndarray, rows: np.ndarray, side: int, hidden: np.ndarray
) -> float:
    """The float network's output (pawns) for one position; ``hidden`` gets the two
    accumulators, the mover's first."""
    units = bias.shape[0]
    for half in range(2):
        black = (side + half) % 2
        hidden[half, :] = bias
        for piece in rows:
            if piece < 0:
                break
            hidden[half, :] += first[MIRROR[piece] if black else piece]
    value = output[2 * units]
    for half in range(2):
        for unit in range(units):
            value += output[half * units + unit] * min(max(hidden[half, unit], 0.0), 1.0)
    return value


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
    bias: np.ndarray,
    output: np.ndarray,
    moments: tuple[np.ndarray, np.ndarray, np.ndarray],
    rows: np.ndarray,
    sides: np.ndarray,
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
    first_gradient, bias_gradient, output_gradient = np.zeros_like(first), np.zeros_like(bias), np.zeros_like(output)
    slope = LOG_SCALE * scale
    total = 0.0
    for start in range(0, order.size, BATCH):
        first_gradient[:] = 0.0
        bias_gradient[:] = 0.0
        output_gradient[:] = 0.0
        stop = min(start + BATCH, order.size)
        for position in order[start:stop]:
            value = _forward(first, bias, output, rows[position], sides[position], hidden)
            predicted = 1 / (1 + math.exp(-slope * (bases[position] + 100 * value)))
            miss = predicted - wanted[position]
            total += miss * miss
            pull = 2 * miss * predicted * (1 - predicted) * slope * 100 / (stop - start)
            output_gradient[2 * units] += pull
            for half in range(2):
                black = (sides[position] + half) % 2
                for unit in range(units):
                    level = hidden[half, unit]
                    output_gradient[half * units + unit] += pull * min(max(level, 0.0), 1.0)
                    hidden[half, unit] = pull * output[half * units + unit] if 0.0 < level < 1.0 else 0.0
                bias_gradient += hidden[half]
                for piece in rows[position]:
                    if piece < 0:
                        break
                    first_gradient[MIRROR[piece] if black else piece] += hidden[half]
        step += 1
        _adam(first, first_gradient, moments[0], step, rate, decay)
        _adam(bias, bias_gradient, moments[1], step, rate, 0.0)
        _adam(output, output_gradient, moments[2], step, rate, 0.0)
    return total / order.size, step


@njit(cache=True)
def _integer_values(
    network: tuple[np.ndarray, np.ndarray, np.ndarray, int], rows: np.ndarray, sides: np.ndarray
) -> np.ndarray:
    """The integer network's values (centipawns), computed as the engine computes them."""
    first, bias, output, output_bias = network
    units = bias.shape[0]
    values = np.zeros(rows.shape[0], dtype=np.int64)
    for position in range(rows.shape[0]):
        total = output_bias
        for half in range(2):
            black = (sides[position] + half) % 2
            hidden = bias.copy()
            for piece in rows[position]:
                if piece < 0:
                    break
                hidden += first[MIRROR[piece] if black else piece]
            for unit in range(units):
                total += min(max(hidden[unit], 0), QA) * output[half * units + unit]
        values[position] = total * 100 // (QA * QB)
    return values


def error(bases: np.ndarray, wanted: np.ndarray, scale: float) -> float:
    return float(np.mean((sigmoid(LOG_SCALE * scale * bases) - wanted) ** 2))


def _start_from(network: chess_network.Network, first: np.ndarray, bias: np.ndarray, output: np.ndarray) -> None:
    """Makes the float network compute ``network``'s value: its units first, the rest
    silent (their output weights zero), so that training carries on from it."""
    units, kept = bias.shape[0], network.bias.shape[0]
    if kept > units:
        sys.exit(f"train_chess_network: --grow needs at least the network's {kept} units, not {units}")
    first[:, :kept] = network.rows / QA
    bias[:kept] = network.bias / QA
    output[:kept] = network.output[:kept] / QB
    output[units : units + kept] = network.output[kept:] / QB
    output[2 * units] = network.output_bias / (QA * QB)


def train(
    paths: list[Path], units: int, passes: int, rate: float, decay: float, grow: bool = False, mirror: bool = False
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
    scale = min(np.arange(0.5, 2.0, 0.01), key=lambda value: error(bases[~held], wanted[~held], value))
    print(f"{len(wanted):,} positions read in {time.perf_counter() - started:.0f} s; scale {scale:.2f}")
    print(f"held-out error: the tables and terms alone {error(bases[held], wanted[held], scale):.6f}", flush=True)
    shipped = _integer_values(chess_network.network()[:4], rows[held], sides[held])
    in_use = error(bases[held] + shipped, wanted[held], scale)
    print(f"  and with the network in {chess_network.NETWORK_FILE.name}: {in_use:.6f}", flush=True)
    generator = np.random.default_rng(1)
    first = generator.normal(0, 0.05, (chess_network.FEATURES, units))
    bias = np.full(units, 0.5)
    output = np.zeros(2 * units + 1)
    if grow:
        _start_from(chess_network.network(), first, bias, output)
    moments = tuple(np.zeros((2, *weights.shape)) for weights in (first, bias, output))
    step = 0
    training = np.flatnonzero(~held)
    hidden = np.zeros((2, units))
    for number in range(passes):
        pass_rate = rate * 0.5 ** (number // 3)
        order = generator.permutation(training)
        loss, step = _pass(
            first, bias, output, moments, rows, sides, bases, wanted, order, scale, pass_rate, decay, step
        )
        values = np.array(
            [_forward(first, bias, output, rows[index], sides[index], hidden) for index in np.flatnonzero(held)]
        )
        held_error = error(bases[held] + 100 * values, wanted[held], scale)
        print(f"  pass {number + 1}: training {loss:.6f}, held-out {held_error:.6f}", flush=True)
    network = chess_network.Network(
        np.rint(first * QA).astype(np.int64),
        np.rint(bias * QA).astype(np.int64),
        np.rint(output[: 2 * units] * QB).astype(np.int64),
        int(np.rint(output[2 * units] * QA * QB)),
        QA,
        QB,
    )
    values = _integer_values(network[:4], rows[held], sides[held])
    print(f"held-out error of the integer network: {error(bases[held] + values, wanted[held], scale):.6f}")
    print(f"its correction: mean {np.mean(np.abs(values)):.1f} centipawns, largest {np.max(np.abs(values))}")
    return network


def write(network: chess_network.Network) -> None:
    largest = chess_network.largest_accumulator(network)
    if largest > chess_network.ACCUMULATOR_LIMIT:
        sys.exit(f"train_chess_network: an accumulator could reach {largest}, past int16; not written (more --decay)")
    np.savez(
        chess_network.NETWORK_FILE,
        rows=network.rows.astype(np.int16),
        bias=network.bias.astype(np.int16),
        output=network.output.astype(np.int16),
        output_bias=np.array(network.output_bias),
        QA=np.array(network.QA),
        QB=np.array(network.QB),
    )
    print(f"written to {chess_network.NETWORK_FILE}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "positions", type=Path, nargs="+", help="scored positions files (FEN;score lines); the first is added to"
    )
    parser.add_argument("--games", type=int, default=0, help="games of Stockfish against itself to take positions from")
    parser.add_argument("--nodes", type=int, default=3000, help="Stockfish's nodes a move")
    parser.add_argument("--seed", type=int, default=1, help="for the openings and random moves of those games")
    parser.add_argument("--stockfish", help="the Stockfish command (default: stockfish on the PATH or /usr/games)")
    parser.add_argument("--hidden", type=int, default=32, help="units in each side's accumulator")
    parser.add_argument("--passes", type=int, default=12, help="passes over the training positions")
    parser.add_argument("--rate", type=float, default=2e-3, help="Adam's learning rate at first")
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
    parser.add_argument("--write", action="store_true", help=f"write the network to {chess_network.NETWORK_FILE}")
    arguments = parser.parse_args()
    if arguments.games:
        stockfish = find_stockfish(arguments.stockfish)
        if stockfish is None:
            sys.exit("train_chess_network: Stockfish not found (Debian: apt-get install stockfish), or --stockfish")
        added = play_positions(stockfish, arguments.games, arguments.nodes, arguments.seed, arguments.positions[0])
        print(f"{added} positions added to {arguments.positions[0]}")
    missing = [str(path) for path in arguments.positions if not path.is_file()]
    if missing:
        sys.exit(f"train_chess_network: no such positions file: {', '.join(missing)}")
    network = train(
        arguments.positions,
        arguments.hidden,
        arguments.passes,
        arguments.rate,
        arguments.decay,
        arguments.grow,
        arguments.mirror,
    )
    if arguments.write:
        write(network)


if __name__ == "__main__":
    main()
