"""Won endings without pawns, converted against Stockfish's defence: KQK, KRK, KBBK, KBNK
and KQKR from random positions (the same ones for every build, by seed), negamax-uci
playing the winning side at a fixed time per move and full-strength Stockfish the other,
until mate or a draw by the rules (the fifty-move rule ends what the engine cannot win).
Prints the wins and mean moves to mate per ending; ``--engine`` runs another build of
negamax-uci on the same positions.

    python benchmarks/chess_endgames.py --positions 6 --time 0.1
    python benchmarks/chess_endgames.py --positions 6 --time 0.1 --engine /path/to/old/negamax-uci
"""

from __future__ import annotations

import argparse
import random
import shlex
import sys

import chess
import chess.engine

from chess_ladder import find_stockfish
from vs_sunfish import negamax_command

ENDINGS = {"KQK": "Q", "KRK": "R", "KBBK": "BB", "KBNK": "BN", "KQKR": "Q/r"}
"""Each ending's pieces besides the kings: the winning side's, then after ``/`` the other's."""


def square_colour(square: chess.Square) -> int:
    return (chess.square_file(square) + chess.square_rank(square)) & 1


def random_position(pieces: str, generator: random.Random) -> chess.Board:
    """A legal position of the ending with the winning side (White, upper case) to move, not
    in check, with no capture on the board for either side (so it begins as that ending
    and no piece hangs), bishops on squares of both colours when there are two."""
    strong, _, weak = pieces.partition("/")
    while True:
        board = chess.Board(None)
        squares = generator.sample(chess.SQUARES, 2 + len(strong) + len(weak))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square, symbol in zip(squares[2:], strong.upper() + weak.lower(), strict=True):
            board.set_piece_at(square, chess.Piece.from_symbol(symbol))
        bishops = list(board.pieces(chess.BISHOP, chess.WHITE))
        if len(bishops) == 2 and square_colour(bishops[0]) == square_colour(bishops[1]):
            continue
        if not board.is_valid() or board.is_check() or not any(board.legal_moves):
            continue
        if any(board.is_capture(move) for move in board.legal_moves):
            continue
        board.turn = chess.BLACK
        if board.is_valid() and not any(board.is_capture(move) for move in board.legal_moves):
            board.turn = chess.WHITE
            return board


def convert(
    engine: chess.engine.SimpleEngine,
    defender: chess.engine.SimpleEngine,
    board: chess.Board,
    seconds: float,
    game: object,
) -> int:
    """The winning side's moves to mate, or 0 when the game ends otherwise. ``game`` names
    the game: a new one makes each engine start afresh (``ucinewgame``)."""
    board = board.copy()
    limit = chess.engine.Limit(time=seconds)
    while not board.is_game_over(claim_draw=True):
        player = engine if board.turn == chess.WHITE else defender
        move = player.play(board, limit, game=game).move
        assert move is not None
        board.push(move)
    return (len(board.move_stack) + 1) // 2 if board.is_checkmate() and board.turn == chess.BLACK else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=6, help="random positions per ending")
    parser.add_argument("--time", type=float, default=0.1, help="seconds per move, both sides")
    parser.add_argument("--seed", type=int, default=1, help="for the random positions")
    parser.add_argument("--endings", nargs="+", choices=list(ENDINGS), default=list(ENDINGS), help="which endings")
    parser.add_argument("--engine", help="the negamax-uci command (default: this checkout's)")
    parser.add_argument("--stockfish", help="the Stockfish command (default: stockfish on the PATH or /usr/games)")
    arguments = parser.parse_args()
    stockfish = find_stockfish(arguments.stockfish)
    if stockfish is None:
        sys.exit("Stockfish is needed (Debian: apt-get install stockfish); not found")
    command = shlex.split(arguments.engine) if arguments.engine else negamax_command()
    generator = random.Random(arguments.seed)
    total_wins = total_games = 0
    with (
        chess.engine.SimpleEngine.popen_uci(command) as engine,
        chess.engine.SimpleEngine.popen_uci(stockfish) as defender,
    ):
        for name, pieces in ENDINGS.items():
            lengths = []
            for number in range(arguments.positions):
                board = random_position(pieces, generator)  # drawn for every ending: the same positions
                if name not in arguments.endings:
                    continue
                moves = convert(engine, defender, board, arguments.time, (name, number))
                lengths.append(moves)
                print(f"{name} {board.fen()}: {f'mate in {moves} moves' if moves else 'not won'}", flush=True)
            if not lengths:
                continue
            wins = [moves for moves in lengths if moves]
            total_wins += len(wins)
            total_games += len(lengths)
            mean = f", mate after {sum(wins) / len(wins):.1f} moves on average" if wins else ""
            print(f"{name}: won {len(wins)} of {len(lengths)}{mean}", flush=True)
    print(f"all endings: won {total_wins} of {total_games}")


if __name__ == "__main__":
    main()
