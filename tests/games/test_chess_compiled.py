"""Chess's compiled primitives: perft, the incremental sums and key against fresh ones, and
moves translated both ways."""

from __future__ import annotations

import chess
import numpy as np
import pytest

from negamax.games.chess import ChessGame, ChessPosition

chess_compiled = pytest.importorskip("negamax.games.chess_compiled")

GAME = ChessGame()
# The Chess Programming Wiki's "Perft Results" positions and counts.
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POSITION_6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"


def compiled_perft(fen: str, depth: int) -> int:
    state = chess_compiled.new_state(chess.Board(fen))
    buffer = np.zeros(256 * (depth + 1), dtype=np.int64)
    return int(chess_compiled.perft(state, depth, buffer, 0))


@pytest.mark.parametrize(
    ("fen", "depth", "count"),
    [
        (chess.STARTING_FEN, 4, 197281),
        (KIWIPETE, 3, 97862),
        (POSITION_3, 5, 674624),
        (POSITION_4, 4, 422333),
        (POSITION_5, 3, 62379),
        (POSITION_6, 3, 89890),
    ],
)
def test_perft(fen: str, depth: int, count: int) -> None:
    assert compiled_perft(fen, depth) == count


@pytest.mark.slow
@pytest.mark.parametrize(
    ("fen", "depth", "count"),
    [(chess.STARTING_FEN, 5, 4865609), (KIWIPETE, 4, 4085603), (POSITION_5, 4, 2103487), (POSITION_6, 4, 3894594)],
)
def test_deeper_perft(fen: str, depth: int, count: int) -> None:
    assert compiled_perft(fen, depth) == count


def walk(board: chess.Board, state: np.ndarray, depth: int) -> int:
    """Plays every legal line ``depth`` deep on both boards and compares the compiled state,
    kept up to date move by move, with one loaded afresh and with the python evaluation."""
    fresh = chess_compiled.new_state(board)
    checked = 0
    for field in (chess_compiled.MIDGAME_SUM, chess_compiled.ENDGAME_SUM, chess_compiled.PHASE_SUM):
        assert state[field] == fresh[field]
    assert int(chess_compiled.evaluate(state)) == ChessPosition(board.copy()).evaluate()
    assert (state[:120] == fresh[:120]).all()
    if state[chess_compiled.EN_PASSANT] == fresh[chess_compiled.EN_PASSANT]:
        # python-chess sets en passant only when the capture is legal, we when a pawn is beside
        assert state[chess_compiled.HASH] == fresh[chess_compiled.HASH]
        checked += 1
    if depth == 0:
        return checked
    for move in list(board.legal_moves):
        code = chess_compiled.encode(board, move)
        assert chess_compiled.play(state, code)
        board.push(move)
        checked += walk(board, state, depth - 1)
        board.pop()
        chess_compiled.unplay(state, code)
    return checked


@pytest.mark.parametrize("fen", [KIWIPETE, POSITION_3, POSITION_4, POSITION_5])
def test_incremental_state_equals_a_fresh_one_at_every_node(fen: str) -> None:
    board = chess.Board(fen)
    state = chess_compiled.new_state(board)
    before = state.copy()
    assert walk(board, state, 2) > 100
    kept = chess_compiled.KEYS + int(state[chess_compiled.PLY]) + 1  # the rest is scratch
    assert (state[:kept] == before[:kept]).all()  # everything taken back


def test_moves_translate_both_ways() -> None:
    position = GAME.new_position(POSITION_4)
    board = position.board
    for move in board.legal_moves:
        assert position.moves_from_codes([chess_compiled.encode(board, move)]) == [move]


def test_repetitions_in_the_game_history_are_seen() -> None:
    # knights out and back twice: the start position now occurs for the third time
    board = chess.Board()
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] * 2:
        board.push_uci(uci)
    state = chess_compiled.new_state(board)
    assert not chess_compiled.drawn(state)  # the root itself is never a draw by repetition
    for uci in ["g1f3", "g8f6", "f3g1"]:
        assert chess_compiled.play(state, chess_compiled.encode(board, chess.Move.from_uci(uci)))
        board.push_uci(uci)
    assert chess_compiled.drawn(state)  # Black to move after Ng1: seen before the search began
