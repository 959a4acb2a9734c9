"""Fits the weights of chess's structure terms (``negamax.games.chess_evaluation``) the Texel
way: quiet positions from games, each scored by a deeper search (Stockfish at a fixed
depth), and the weights that make a sigmoid of our evaluation closest to the sigmoid of
that score. PeSTO's tables stay as they are; only the terms on top of them are fitted.

Positions come from PGN files (the ladder's and match games: ``chess_ladder.py --pgn``)
and from games Stockfish plays against itself at a weak setting (``--games``, from the
ladder's openings, a few random moves in: varied and unbalanced positions), from the 8th
ply on, skipping positions in check and positions whose next move was a
capture or a promotion (not quiet). Stockfish is a system package (Debian: ``apt-get
install stockfish``).

    python benchmarks/fit_chess.py chess_ladder.pgn --games 400 --depth 8

A tenth of the positions is held out, and the fit judged on them: it prints their error
with PeSTO alone, with the weights now and with the fitted ones, then the fitted weights as
``STRUCTURE_MIDGAME`` / ``STRUCTURE_ENDGAME`` tuples.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

import chess
import chess.engine
import chess.pgn
import numpy as np
from scipy.optimize import least_squares

from chess_ladder import find_stockfish
from negamax.games.chess import ChessPosition
from negamax.games.chess_evaluation import STRUCTURE_ENDGAME, STRUCTURE_MIDGAME, STRUCTURE_TERMS, TEMPO, board_counts
from negamax.games.chess_tables import FULL_PHASE
from vs_sunfish import MAX_PLIES, OPENINGS

SCALE = math.log(10) / 400
"""A score of 400 is ten to one: the logistic scale Elo ratings use."""
MATE_SCORE = 2000
FIRST_PLY = 8
RIDGE = 1e-4


def read_games(paths: list[Path]) -> list[chess.pgn.Game]:
    games = []
    for path in paths:
        with path.open() as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                games.append(game)
    return games


def quiet_positions(games: list[chess.pgn.Game]) -> list[chess.Board]:
    seen: set[str] = set()
    boards = []
    for game in games:
        board = game.board()
        for move in game.mainline_moves():
            quiet = not board.is_check() and not board.is_capture(move) and move.promotion is None
            if quiet and board.ply() >= FIRST_PLY:
                key = board.epd()
                if key not in seen:
                    seen.add(key)
                    boards.append(board.copy(stack=False))
            board.push(move)
    return boards


def self_play(stockfish: str, games: int, seed: int) -> list[chess.pgn.Game]:
    """Stockfish against itself at ``UCI_Elo`` 1350, 2000 nodes a move, each game from a
    ladder opening plus four random moves."""
    generator = random.Random(seed)
    played = []
    with chess.engine.SimpleEngine.popen_uci([stockfish]) as engine:
        engine.configure({"Threads": 1, "Hash": 16, "UCI_LimitStrength": True, "UCI_Elo": 1350})
        for number in range(games):
            board = chess.Board()
            for text in OPENINGS[number % len(OPENINGS)].split():
                board.push_uci(text)
            for _ in range(4):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(generator.choice(moves))
            while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
                board.push(engine.play(board, chess.engine.Limit(nodes=2000)).move)
            played.append(chess.pgn.Game.from_board(board))
            if (number + 1) % 50 == 0:
                print(f"  {number + 1} games played", flush=True)
    return played


def counts(board: chess.Board) -> np.ndarray:
    """The terms' counts, White's minus Black's."""
    white, black = board_counts(board)
    return np.array(white, dtype=float) - np.array(black, dtype=float)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", type=Path, nargs="*", help="games to take positions from")
    parser.add_argument("--games", type=int, default=0, help="games of Stockfish against itself to add")
    parser.add_argument("--seed", type=int, default=1, help="for the random moves of those games")
    parser.add_argument("--depth", type=int, default=8, help="Stockfish's depth for the target scores")
    parser.add_argument("--stockfish", help="the Stockfish command (default: stockfish on the PATH or /usr/games)")
    parser.add_argument("--limit", type=int, default=30_000, help="at most this many positions")
    arguments = parser.parse_args()
    stockfish = find_stockfish(arguments.stockfish)
    if stockfish is None:
        sys.exit("fit_chess: Stockfish not found; install it (Debian: apt-get install stockfish) or pass --stockfish")
    games = read_games(arguments.pgn)
    if arguments.games:
        print(f"Stockfish plays {arguments.games} games against itself", flush=True)
        games += self_play(stockfish, arguments.games, arguments.seed)
    boards = quiet_positions(games)
    random.Random(arguments.seed).shuffle(boards)
    boards = boards[: arguments.limit]
    if len(boards) < 10 * 2 * len(STRUCTURE_TERMS):
        sys.exit(f"fit_chess: {len(boards)} quiet positions are too few to fit {2 * len(STRUCTURE_TERMS)} weights")
    print(f"{len(boards)} quiet positions; scoring them with Stockfish at depth {arguments.depth}", flush=True)
    targets = []
    with chess.engine.SimpleEngine.popen_uci([stockfish]) as engine:
        engine.configure({"Threads": 1, "Hash": 64})
        for number, board in enumerate(boards, start=1):
            info = engine.analyse(board, chess.engine.Limit(depth=arguments.depth))
            targets.append(info["score"].white().score(mate_score=MATE_SCORE))
            if number % 1000 == 0:
                print(f"  {number} scored", flush=True)
    target = np.clip(np.array(targets, dtype=float), -MATE_SCORE, MATE_SCORE)
    positions = [ChessPosition(board) for board in boards]
    phase = np.array([min(position.phase, FULL_PHASE) for position in positions], dtype=float) / FULL_PHASE
    midgame = np.array([position.midgame for position in positions], dtype=float)
    endgame = np.array([position.endgame for position in positions], dtype=float)
    tempo = np.array([TEMPO if board.turn == chess.WHITE else -TEMPO for board in boards], dtype=float)
    features = np.array([counts(board) for board in boards])
    terms = len(STRUCTURE_TERMS)
    held_out = np.arange(len(boards)) % 10 == 0

    def evaluation(weights: np.ndarray) -> np.ndarray:
        middle = midgame + features @ weights[:terms]
        end = endgame + features @ weights[terms : 2 * terms]
        return middle * phase + end * (1 - phase) + tempo

    def errors(parameters: np.ndarray) -> np.ndarray:
        # the last parameter scales our score to Stockfish's (its pawn is not ours)
        predicted = 1 / (1 + np.exp(-SCALE * parameters[-1] * evaluation(parameters[:-1])))
        return predicted - 1 / (1 + np.exp(-SCALE * target))

    def residuals(parameters: np.ndarray) -> np.ndarray:
        # a small pull towards zero keeps rare terms (a pawn on the 7th) from wild values
        return np.concatenate([errors(parameters)[~held_out], RIDGE * parameters[:-1]])

    def held_out_error(weights: np.ndarray, scale: float) -> float:
        return float(np.mean(errors(np.array([*weights, scale]))[held_out] ** 2))

    current = np.array([*STRUCTURE_MIDGAME, *STRUCTURE_ENDGAME], dtype=float)
    zero = np.zeros_like(current)
    pesto_scale = least_squares(lambda k: errors(np.array([*zero, k[0]]))[~held_out], [1.0]).x[0]
    fitted = least_squares(residuals, np.array([*zero, 1.0]))
    print(
        f"held-out mean squared error: PeSTO alone {held_out_error(zero, pesto_scale):.6f},"
        f" the weights now {held_out_error(current, pesto_scale):.6f},"
        f" fitted {held_out_error(fitted.x[:-1], fitted.x[-1]):.6f}"
    )
    print(f"scale of our score to Stockfish's: {fitted.x[-1]:.3f}")
    weights = np.rint(fitted.x[:-1]).astype(int)
    for index, name in enumerate(STRUCTURE_TERMS):
        print(f"  {name:28} midgame {weights[index]:5d}  endgame {weights[terms + index]:5d}")
    print(f"STRUCTURE_MIDGAME = {tuple(int(value) for value in weights[:terms])}")
    print(f"STRUCTURE_ENDGAME = {tuple(int(value) for value in weights[terms:])}")


if __name__ == "__main__":
    main()
