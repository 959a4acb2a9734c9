"""Chess on python-chess: perft through the search's protocol, the incremental evaluation,
the draws the search must see, and mates found and checked by brute force."""

from __future__ import annotations

import chess
import pytest

from negamax.core.errors import IllegalMoveError, InvalidPositionError
from negamax.core.score import win_in
from negamax.core.types import SearchLimits
from negamax.games import chess_network
from negamax.games.chess import ChessGame, ChessPosition
from negamax.games.chess_evaluation import STRUCTURE_TERMS, board_counts, board_pawnless_scaled
from negamax.search import search

GAME = ChessGame()

# The Chess Programming Wiki's "Perft Results" positions and counts.
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POSITION_6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"


def perft(position: ChessPosition, depth: int, check_evaluation: bool = False) -> int:
    if check_evaluation:
        fresh = ChessPosition(position.board.copy())
        assert (position.midgame, position.endgame, position.phase) == (fresh.midgame, fresh.endgame, fresh.phase)
    if depth == 0:
        return 1
    total = 0
    for move in position.legal_moves():
        position.play(move)
        total += perft(position, depth - 1, check_evaluation)
        position.undo(move)
    return total


@pytest.mark.parametrize(
    ("fen", "depth", "count"),
    [
        (START, 3, 8902),
        (KIWIPETE, 2, 2039),
        (POSITION_3, 3, 2812),
        (POSITION_4, 2, 264),
        (POSITION_5, 2, 1486),
        (POSITION_6, 2, 2079),
    ],
)
def test_perft(fen: str, depth: int, count: int) -> None:
    assert perft(GAME.new_position(fen), depth) == count


@pytest.mark.slow
@pytest.mark.parametrize(
    ("fen", "depth", "count"),
    [(START, 4, 197281), (KIWIPETE, 3, 97862), (POSITION_3, 4, 43238), (POSITION_4, 3, 9467), (POSITION_5, 3, 62379)],
)
def test_deeper_perft(fen: str, depth: int, count: int) -> None:
    assert perft(GAME.new_position(fen), depth) == count


@pytest.mark.parametrize("fen", [KIWIPETE, POSITION_3, POSITION_4, POSITION_5])
def test_the_incremental_evaluation_equals_a_fresh_one_everywhere(fen: str) -> None:
    # castling, en passant, promotions (with captures) and captures all appear two plies down
    perft(GAME.new_position(fen), 2, check_evaluation=True)


def test_the_evaluation_is_symmetric() -> None:
    position = GAME.new_position(KIWIPETE)
    mirrored = GAME.new_position(chess.Board(KIWIPETE).mirror().fen())
    assert position.evaluate() == mirrored.evaluate()


def test_the_evaluation_shrinks_as_the_fifty_move_rule_nears() -> None:
    # a queen up for White (both sides with pawns), no capture or pawn move for 0, 60, 100 plies
    fen = "4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - {} 40"
    values = [GAME.new_position(fen.format(clock)).evaluate() for clock in (0, 60, 100)]
    assert values[0] > 500
    assert values[1:] == [values[0] * 140 // 200, values[0] // 2]


def structure(fen: str, colour: chess.Color) -> tuple[int, ...]:
    white, black = board_counts(chess.Board(fen))
    return white if colour == chess.WHITE else black


@pytest.mark.parametrize(
    ("fen", "white", "black"),
    [
        # White: f2 g2 h2 passed (rank 2), d5 passed (rank 5), a2 behind a3, a2 a3 d5 isolated,
        # f2 before the king; Black: a7 isolated
        ("4k3/p7/8/3P4/8/P7/P4PPP/3RK2R w - - 0 1", (3, 0, 0, 1, 0, 0, 1, 3, 0, 0, 0, 1), (0,) * 7 + (1,) + (0,) * 4),
        # White: the bishop pair, a rook on the open c-file, one on the half-open e-file; both
        # kings behind three pawns; Black: a rook on the open b-file
        ("1r4k1/5ppp/4p3/8/8/8/5PPP/2R1RBKB w - - 0 1", (0,) * 8 + (1, 1, 1, 3), (0,) * 9 + (1, 0, 3)),
    ],
)
def test_the_structure_terms_count_what_they_name(fen: str, white: tuple[int, ...], black: tuple[int, ...]) -> None:
    assert len(white) == len(STRUCTURE_TERMS)
    assert structure(fen, chess.WHITE) == white
    assert structure(fen, chess.BLACK) == black


def test_draws_the_search_must_see() -> None:
    repeated = GAME.new_position("startpos")
    for text in ("g1f3", "g8f6", "f3g1", "f6g8"):
        repeated.play(GAME.parse_move(repeated, text))
    assert repeated.is_terminal() and repeated.terminal_value() == 0
    # the same repetition before the search began is not a draw yet
    assert not GAME.new_position("startpos moves g1f3 g8f6 f3g1 f6g8").is_terminal()
    fifty = GAME.new_position("8/8/4k3/8/8/3K4/3R4/8 w - - 100 80")
    assert fifty.is_terminal() and fifty.terminal_value() == 0
    bare = GAME.new_position("8/8/4k3/8/8/3K4/3B4/8 w - - 0 1")
    assert bare.is_terminal()
    stalemate = GAME.new_position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.is_terminal() and stalemate.terminal_value() == 0


def forced_mate(board: chess.Board, moves: int) -> bool:
    """Brute force, python-chess only: can the side to move mate within ``moves`` moves?"""
    for move in list(board.legal_moves):
        board.push(move)
        try:
            if board.is_checkmate():
                return True
            if (
                moves > 1
                and not board.is_game_over()
                and all(_mates_after(board, reply, moves - 1) for reply in list(board.legal_moves))
            ):
                return True
        finally:
            board.pop()
    return False


def _mates_after(board: chess.Board, reply: chess.Move, moves: int) -> bool:
    board.push(reply)
    try:
        return forced_mate(board, moves)
    finally:
        board.pop()


@pytest.mark.parametrize(
    ("fen", "moves"),
    [
        ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1),  # scholar's mate
        ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", 2),  # Morphy: 1.Ra6
        ("6k1/5ppp/8/8/8/8/1q3PPP/6K1 b - - 0 1", 1),  # back rank, Black to move
    ],
)
def test_mates_are_found_and_are_real(fen: str, moves: int) -> None:
    position = GAME.new_position(fen)
    result = search(position, SearchLimits(depth=2 * moves + 1, time=60), engine="python")
    assert result.score == win_in(2 * moves - 1)
    board = chess.Board(fen)
    board.push(result.best_move)
    assert board.is_checkmate() or all(_mates_after(board, reply, moves - 1) for reply in list(board.legal_moves))
    assert not forced_mate(chess.Board(fen), moves - 1) if moves > 1 else True


def _value(fen: str) -> int:
    return ChessPosition(chess.Board(fen)).evaluate()


@pytest.mark.parametrize(
    ("fen", "bonus"),
    [
        # the lone king on h8: 20 for each of 6 steps from the centre; kings 10 apart: 8 x (14 - 10)
        ("7k/8/8/8/8/8/8/R3K3 w - - 0 1", 20 * 6 + 8 * 4),
        # Black winning, to move: the lone king in the centre, kings 5 apart
        ("8/8/8/3K4/8/8/8/r3k3 b - - 0 1", 8 * 9),
        # a light-squared bishop and a knight: 40 a step towards a8 or h1; a8 is one
        ("k7/8/8/8/8/8/8/1BN1K3 w - - 0 1", 40 * 7 + 8 * 3),
        # h8 is 7 steps from both
        ("7k/8/8/8/8/8/8/1BN1K3 w - - 0 1", 8 * 4),
        # the kings in opposite corners: nothing added, and still no network
        ("B6K/8/8/8/8/8/8/k1N5 w - - 0 1", 0),
    ],
)
def test_a_won_ending_without_pawns_takes_mop_up_in_the_networks_place(fen: str, bonus: int) -> None:
    position = ChessPosition(chess.Board(fen))
    assert position.evaluate() - position.tables_and_terms() == bonus


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/3k4/8/8/8/1NN1K3 w - - 0 1",  # two knights do not mate
        "8/8/3b4/3k4/8/8/8/R3K3 w - - 0 1",  # rook against bishop: a lead of two
        "8/8/8/3k4/8/3p4/8/Q3K3 w - - 0 1",  # the lone king keeps a pawn
        "r6k/8/8/3K4/8/8/8/RR2Q3 w - - 0 1",  # too many pieces left to look
    ],
)
def test_endings_that_are_not_mop_up_keep_the_network(fen: str) -> None:
    position = ChessPosition(chess.Board(fen))
    full = position.tables_and_terms() + chess_network.board_value(position.board)
    assert position.evaluate() == board_pawnless_scaled(position.board, position.phase, full)


@pytest.mark.parametrize(
    ("fen", "scale"),
    [
        ("8/8/3bk3/8/8/8/3RK3/8 w - - 0 1", 4),  # rook against bishop
        ("8/8/3nk3/8/8/8/3RK3/8 b - - 0 1", 4),  # rook against knight, the knight's side to move
        ("8/8/3rk3/8/8/8/2BRK3/8 w - - 0 1", 14),  # rook and bishop against rook
        ("8/8/4k3/8/8/2NN4/4K3/8 w - - 0 1", 0),  # two knights
        ("8/8/4k3/4p3/8/2N5/4K3/8 w - - 0 1", 0),  # a knight against a pawn
        ("8/8/4k3/4p3/8/2R5/4K3/8 w - - 0 1", 64),  # a rook against a pawn: kept in full
        ("8/4k3/3b4/8/8/3RK3/3P4/8 w - - 0 1", 64),  # the side ahead has a pawn
    ],
)
def test_a_lead_without_pawns_of_a_minor_piece_or_less_is_mostly_a_draw(fen: str, scale: int) -> None:
    position = ChessPosition(chess.Board(fen))
    full = position.tables_and_terms() + chess_network.board_value(position.board)
    assert position.evaluate() == full * scale // 64


def test_bad_input_gets_clear_errors() -> None:
    with pytest.raises(InvalidPositionError, match="not legal"):
        GAME.new_position("8/8/8/8/8/8/8/8 w - - 0 1")  # no kings
    with pytest.raises(InvalidPositionError):
        GAME.new_position("rnbqkbnr/pppppppp/8 w")
    with pytest.raises(InvalidPositionError, match="e2e5"):
        GAME.new_position("startpos moves e2e4 e2e5")
    with pytest.raises(IllegalMoveError):
        GAME.parse_move(GAME.new_position(), "e2e5")
    assert GAME.parse_move(GAME.new_position(), "Nf3") == chess.Move.from_uci("g1f3")
