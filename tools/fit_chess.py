"""Fits every weight of chess's evaluation the Texel way: quiet positions, each scored by a
deeper search (Stockfish at a fixed depth), and the weights that make a sigmoid of our
evaluation closest to the sigmoid of that score. The weights are the tapered piece-square
values, the structure terms and the tempo bonus (``negamax.games.chess.evaluation``).
The fit starts from PeSTO's tables (the other weights at zero) and a ridge term pulls it
towards them, so squares the positions rarely show keep PeSTO's value.

Two steps, both resumable. Scoring appends ``FEN;score`` lines (White's view, centipawns)
to a positions file: quiet positions from PGN files (the ladder's games: ``chess_ladder.py
--pgn``) and from games Stockfish plays against itself at mixed ``UCI_Elo`` settings from the
ladder's openings and a few random moves. A position is quiet when its side to move is not
in check and Stockfish's best move there is no capture or promotion. Fitting reads the file,
holds out every tenth block of 500 positions (so neighbours from one game do not land on both
sides), and prints the held-out error before and after; ``--write`` writes the fitted weights
as ``negamax/games/chess/weights.py``. Stockfish is a system package (Debian: ``apt-get
install stockfish``).

    python tools/fit_chess.py positions.txt --pgn chess_ladder.pgn --games 2000 --depth 8
    python tools/fit_chess.py positions.txt --write
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import chess
import chess.engine
import chess.pgn
import numpy as np
import scipy.sparse as sparse

import benchmark_path  # noqa: F401  (the benchmarks' modules below)
from chess_ladder import find_stockfish
from ladder_elo import LOG_SCALE
from negamax.games.chess import evaluation as chess_evaluation
from negamax.games.chess import weights as chess_weights
from negamax.games.chess.rules import ChessPosition
from negamax.games.chess.tables import (
    ENDGAME_TABLES,
    ENDGAME_VALUES,
    FULL_PHASE,
    MIDGAME_TABLES,
    MIDGAME_VALUES,
    PHASE_WEIGHTS,
)
from vs_sunfish import MAX_PLIES, OPENINGS

MATE_SCORE = 2000
FIRST_PLY = 8
BLOCK = 500
SQUARES = 6 * 64
STRUCTURE = SQUARES
TERMS = STRUCTURE + len(chess_evaluation.STRUCTURE_TERMS)
"""Each term has a midgame weight (column ``t``) and an endgame weight (``TERMS + t``);
the tempo bonus is the last column."""
COLUMNS = 2 * TERMS + 1
STEPS = 10
WEIGHTS_MODULE = Path(chess_weights.__file__)


def quiet_boards(games: Iterator[chess.pgn.Game]) -> Iterator[chess.Board]:
    """Positions from the 8th ply on where the move played was no capture or promotion."""
    for game in games:
        board = game.board()
        for move in game.mainline_moves():
            if board.ply() >= FIRST_PLY and not board.is_capture(move) and move.promotion is None:
                yield board.copy(stack=False)
            board.push(move)


def pgn_games(paths: list[Path]) -> Iterator[chess.pgn.Game]:
    for path in paths:
        with path.open() as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                yield game


def self_play(stockfish: str, games: int, seed: int) -> Iterator[chess.pgn.Game]:
    """Stockfish against itself, 4000 nodes a move at a ``UCI_Elo`` drawn for each game,
    each game from a ladder opening plus two to six random moves."""
    generator = random.Random(seed)
    with chess.engine.SimpleEngine.popen_uci([stockfish]) as engine:
        engine.configure({"Threads": 1, "Hash": 16, "UCI_LimitStrength": True})
        for number in range(games):
            engine.configure({"UCI_Elo": generator.choice((1350, 1600, 1900, 2200, 2500, 2850))})
            board = chess.Board()
            for text in OPENINGS[number % len(OPENINGS)].split():
                board.push_uci(text)
            for _ in range(generator.randint(2, 6)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(generator.choice(moves))
            while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
                board.push(engine.play(board, chess.engine.Limit(nodes=4000)).move)
            yield chess.pgn.Game.from_board(board)


def append_to(path: Path) -> tuple[set[str], TextIO]:
    """The FENs already in the positions file ``path``, and the file opened for adding to;
    a line that a stopped run cut short is ended first, so that it stays alone (reading
    skips it)."""
    seen = {line.rsplit(";", 1)[0] for line in path.open()} if path.exists() else set()
    cut_short = path.exists() and path.stat().st_size > 0 and not path.read_bytes().endswith(b"\n")
    out = path.open("a")
    if cut_short:
        print(file=out)
    return seen, out


def score_positions(stockfish: str, boards: Iterator[chess.Board], path: Path, depth: int) -> int:
    """Appends each new quiet position with Stockfish's score to ``path``; returns how many."""
    seen, out = append_to(path)
    added = 0
    with chess.engine.SimpleEngine.popen_uci([stockfish]) as engine, out:
        engine.configure({"Threads": 1, "Hash": 64})
        for board in boards:
            fen = board.fen()
            if fen in seen or board.is_check():
                continue
            seen.add(fen)
            info = engine.analyse(board, chess.engine.Limit(depth=depth))
            line = info.get("pv") or []
            if line and (board.is_capture(line[0]) or line[0].promotion is not None):
                continue
            print(f"{fen};{info['score'].white().score(mate_score=MATE_SCORE)}", file=out)
            added += 1
            if added % 1000 == 0:
                out.flush()
                print(f"  {added} positions scored", flush=True)
    return added


def features(board: chess.Board) -> tuple[list[int], list[float], float]:
    """The terms' columns and counts (White's minus Black's) and the game phase (1 with
    every piece on the board)."""
    columns, counts = [], []
    phase = 0
    for square, piece in board.piece_map().items():
        own_square = square if piece.color == chess.WHITE else square ^ 56
        columns.append((piece.piece_type - 1) * 64 + own_square)
        counts.append(1.0 if piece.color == chess.WHITE else -1.0)
        phase += PHASE_WEIGHTS[piece.piece_type - 1]
    white, black = chess_evaluation.board_counts(board)
    for index, (mine, theirs) in enumerate(zip(white, black, strict=True)):
        if mine != theirs:
            columns.append(STRUCTURE + index)
            counts.append(float(mine - theirs))
    return columns, counts, min(phase, FULL_PHASE) / FULL_PHASE


def read_positions(path: Path) -> tuple[list[chess.Board], np.ndarray]:
    """The positions file's boards and Stockfish's scores (clipped to the mate score); a
    line that does not parse (a scoring run stopped mid-write) is skipped."""
    boards, scores = [], []
    with path.open() as handle:
        for line in handle:
            fen, _, score = line.rpartition(";")
            if not score.strip().lstrip("-").isdigit():
                continue
            try:
                board = chess.Board(fen)
            except ValueError:
                continue
            boards.append(board)
            scores.append(float(score))
    return boards, np.clip(np.array(scores), -MATE_SCORE, MATE_SCORE)


def design(boards: list[chess.Board]) -> sparse.csr_matrix:
    """Each position's row of tapered term counts."""
    rows, columns, values = [], [], []
    for row, board in enumerate(boards):
        term_columns, counts, phase = features(board)
        for column, count in zip(term_columns, counts, strict=True):
            rows += [row, row]
            columns += [column, TERMS + column]
            values += [count * phase, count * (1 - phase)]
        rows.append(row)
        columns.append(2 * TERMS)
        values.append(1.0 if board.turn == chess.WHITE else -1.0)
    return sparse.csr_matrix((values, (rows, columns)), shape=(len(boards), COLUMNS))


def pesto_weights() -> np.ndarray:
    """PeSTO's tables alone: the fit's start and prior."""
    weights = np.zeros(COLUMNS)
    for piece in range(6):
        for square in range(64):
            weights[piece * 64 + square] = MIDGAME_VALUES[piece] + MIDGAME_TABLES[piece][square ^ 56]
            weights[TERMS + piece * 64 + square] = ENDGAME_VALUES[piece] + ENDGAME_TABLES[piece][square ^ 56]
    return weights


def shipped_scores(boards: list[chess.Board]) -> np.ndarray:
    """The evaluation as shipped (``ChessPosition.evaluate``), from White's side."""
    scores = []
    for board in boards:
        value = ChessPosition(board).evaluate()
        scores.append(value if board.turn == chess.WHITE else -value)
    return np.array(scores, dtype=float)


def sigmoid(values: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-values))


def fit(matrix: sparse.csr_matrix, wanted: np.ndarray, prior: np.ndarray, scale: float, ridge: float) -> np.ndarray:
    """Gauss-Newton steps from ``prior`` on the squared error between ``sigmoid(LOG_SCALE *
    scale * Xw)`` and ``wanted``, plus ``ridge`` per position times the squared distance
    from ``prior``."""
    weights = prior.copy()
    pull = ridge * matrix.shape[0]
    for _ in range(STEPS):
        predicted = sigmoid(LOG_SCALE * scale * (matrix @ weights))
        slope = sparse.diags(predicted * (1 - predicted) * LOG_SCALE * scale) @ matrix
        normal = (slope.T @ slope).toarray() + pull * np.eye(COLUMNS)
        gradient = slope.T @ (predicted - wanted) + pull * (weights - prior)
        weights -= np.linalg.solve(normal, gradient)
    return weights


def tuple_text(values: np.ndarray, indent: str) -> str:
    numbers = [str(int(value)) for value in np.rint(values)]
    lines = [", ".join(numbers[start : start + 8]) for start in range(0, len(numbers), 8)]
    return "(\n" + "".join(f"{indent}    {line},\n" for line in lines) + f"{indent})"


def weights_module(weights: np.ndarray, positions: int, errors: str) -> str:
    parts = [
        '"""Chess\'s evaluation weights, written by ``tools/fit_chess.py`` (do not edit by hand):\n'
        f"fitted to {positions:,} quiet positions scored by Stockfish, starting from and pulled towards\n"
        "PeSTO's tables. Held-out mean squared error (fitted without the tenth held out):\n"
        f"{errors}.\n\n"
        "``*_SQUARES[piece type - 1][square]``: a piece's value on ``square`` (a1 = 0) as its own side sees\n"
        "the board (Black's squares mirrored), its material included. ``STRUCTURE_*`` are in the\n"
        'order of ``chess_evaluation.STRUCTURE_TERMS``.\n"""\n\n'
        "# fmt: off\n"
    ]
    for name, offset in (("MIDGAME", 0), ("ENDGAME", TERMS)):
        squares = weights[offset : offset + SQUARES].reshape(6, 64)
        rows = "".join(f"    {tuple_text(row, '    ')},\n" for row in squares)
        parts.append(f"{name}_SQUARES = (\n{rows})\n")
        parts.append(f"STRUCTURE_{name} = {tuple_text(weights[offset + STRUCTURE : offset + TERMS], '')}\n")
    parts.append(f"TEMPO = {int(np.rint(weights[2 * TERMS]))}\n# fmt: on\n")
    return "".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", type=Path, help="the scored positions file (FEN;score lines), added to")
    parser.add_argument("--pgn", type=Path, nargs="*", default=[], help="games to take positions from")
    parser.add_argument("--games", type=int, default=0, help="games of Stockfish against itself to take positions from")
    parser.add_argument("--seed", type=int, default=1, help="for the random moves of those games")
    parser.add_argument("--depth", type=int, default=8, help="Stockfish's depth for the scores")
    parser.add_argument("--stockfish", help="the Stockfish command (default: stockfish on the PATH or /usr/games)")
    parser.add_argument("--ridge", type=float, default=3e-9, help="the pull towards PeSTO, per position")
    parser.add_argument("--write", action="store_true", help=f"write the fitted weights to {WEIGHTS_MODULE}")
    arguments = parser.parse_args()
    missing = [str(path) for path in arguments.pgn if not path.is_file()]
    if missing:
        sys.exit(f"fit_chess: no such PGN file: {', '.join(missing)}")
    if arguments.pgn or arguments.games:
        stockfish = find_stockfish(arguments.stockfish)
        if stockfish is None:
            sys.exit("fit_chess: Stockfish not found; install it (Debian: apt-get install stockfish) or --stockfish")
        games: Iterator[chess.pgn.Game] = pgn_games(arguments.pgn)
        added = score_positions(stockfish, quiet_boards(games), arguments.positions, arguments.depth)
        if arguments.games:
            played = self_play(stockfish, arguments.games, arguments.seed)
            added += score_positions(stockfish, quiet_boards(played), arguments.positions, arguments.depth)
        print(f"{added} positions added to {arguments.positions}")
    if not arguments.positions.exists():
        sys.exit(f"fit_chess: no positions file {arguments.positions}; score some first (--pgn, --games)")
    boards, scores = read_positions(arguments.positions)
    matrix = design(boards)
    if matrix.shape[0] < 10 * COLUMNS:
        sys.exit(f"fit_chess: {matrix.shape[0]} positions are too few to fit {COLUMNS} weights")
    held_out = (np.arange(matrix.shape[0]) // BLOCK) % 10 == 0
    wanted = sigmoid(LOG_SCALE * scores)
    prior = pesto_weights()
    pesto = matrix @ prior
    # Stockfish's pawn is not ours: the scale that maps PeSTO's scores to its, kept for the fit
    scale = min(
        np.arange(0.5, 2.0, 0.01), key=lambda s: np.mean((sigmoid(LOG_SCALE * s * pesto) - wanted)[~held_out] ** 2)
    )

    def error(weights: np.ndarray) -> float:
        return float(np.mean((sigmoid(LOG_SCALE * scale * (matrix[held_out] @ weights)) - wanted[held_out]) ** 2))

    fitted = fit(matrix[~held_out], wanted[~held_out], prior, scale, arguments.ridge)
    errors = f"PeSTO {error(prior):.6f}, fitted {error(fitted):.6f}"
    print(f"{matrix.shape[0]} positions, scale {scale:.2f}; held-out mean squared error: {errors},")
    shipped = shipped_scores([board for board, held in zip(boards, held_out, strict=True) if held])
    print(f"  the evaluation now {np.mean((sigmoid(LOG_SCALE * scale * shipped) - wanted[held_out]) ** 2):.6f}")
    if arguments.write:
        everything = fit(matrix, wanted, prior, scale, arguments.ridge)  # the held-out tenth too
        WEIGHTS_MODULE.write_text(weights_module(everything, matrix.shape[0], errors))
        print(f"written to {WEIGHTS_MODULE}")


if __name__ == "__main__":
    main()
