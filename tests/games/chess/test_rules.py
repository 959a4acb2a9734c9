"""Chess on python-chess: perft through the search's protocol, the incremental evaluation,
the draws the search must see, the end of a played game by FIDE's Laws (checked against
python-chess on random games), and mates found and checked by brute force."""

from __future__ import annotations

import random

import chess
import pytest

from negamax.core.errors import IllegalMoveError, InvalidPositionError
from negamax.core.rules import game_end
from negamax.core.score import WIN, win_in
from negamax.core.types import SearchLimits
from negamax.games.chess import network as chess_network
from negamax.games.chess.evaluation import STRUCTURE_TERMS, board_counts, board_pawnless_scaled
from negamax.games.chess.rules import ChessGame, ChessPosition
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


ENDINGS = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    chess.Termination.SEVENTYFIVE_MOVES: "seventy-five-move rule",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold repetition",
    chess.Termination.FIFTY_MOVES: "fifty-move rule",
    chess.Termination.THREEFOLD_REPETITION: "threefold repetition",
}
SHUFFLES = "g1f3 g8f6 f3g1 f6g8"
RANDOM_GAME_STARTS = [
    "startpos",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "8/5k2/8/3n4/8/2N5/5K2/3R4 w - - 80 120",  # the fifty-move rule within reach
    "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1",  # castling rights and en passant in the keys
    "8/8/4k3/8/8/3K4/3R4/8 w - - 150 140",  # past the 75-move rule already
    f"startpos moves {SHUFFLES} {SHUFFLES} {SHUFFLES} {SHUFFLES}",  # a fivefold repetition
    f"startpos moves {SHUFFLES} {SHUFFLES}",  # a threefold repetition already
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  # stalemate
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",  # a back-rank mate within reach
    "8/8/4k3/3n4/8/3B4/4K3/8 w - - 0 1",  # one capture from no mate possible
]


def fide_end(board: chess.Board) -> tuple[int, str] | None:
    """python-chess's own tests of each rule: what ends a game by itself (``outcome()``), and
    the draws a player may claim in the position as it stands, with no move to make first
    (a claim made with a move is the next position's)."""
    outcome = board.outcome()
    if outcome is None:
        if board.is_fifty_moves():
            return 0, ENDINGS[chess.Termination.FIFTY_MOVES]
        if board.is_repetition(3):
            return 0, ENDINGS[chess.Termination.THREEFOLD_REPETITION]
        return None
    value = 0 if outcome.winner is None else -WIN if outcome.winner != board.turn else WIN
    return value, ENDINGS[outcome.termination]


def random_move(board: chess.Board, rng: random.Random, shuffling: float) -> chess.Move:
    """A random legal move: with odds ``shuffling`` one that takes back the mover's previous
    piece move (knight shuffles and the like), else most often another quiet move, so that
    positions repeat and the fifty-move count runs."""
    moves = list(board.legal_moves)
    if len(board.move_stack) >= 2 and rng.random() < shuffling:
        previous = board.move_stack[-2]
        back = chess.Move(previous.to_square, previous.from_square)
        if back in moves:
            return back
    quiet = [move for move in moves if not board.is_zeroing(move)]
    return rng.choice(quiet if quiet and rng.random() < 0.8 else moves)


def test_a_played_game_ends_as_fides_laws_say_on_random_games() -> None:
    """At every ply of 200 seeded random games, the end our game reports (and its value and
    reason) is python-chess's; every end we report is one python-chess lets a player claim,
    every draw it lets a player claim that we play on through needs a move first, and
    wherever the game goes on, a search from there does not take its root for an end."""
    rng = random.Random(62)
    ends: dict[str, int] = {}
    for number in range(200):
        start = RANDOM_GAME_STARTS[number % len(RANDOM_GAME_STARTS)]
        position = GAME.new_position(start)
        board = position.board.copy()
        shuffling = rng.choice([0.0, 0.02, 0.2, 0.6])
        for _ in range(400):
            ours = game_end(position)
            assert ours == fide_end(board), (start, board.fen(), [move.uci() for move in board.move_stack])
            if ours is not None:
                assert board.outcome(claim_draw=True) is not None
                ends[ours[1]] = ends.get(ours[1], 0) + 1
                break
            assert not board.is_repetition(3) and not board.is_fifty_moves()
            # a search started here has a move to give: its root is no end of the game (the
            # root as a copy would set it, without copying the board at every ply)
            played, position.root_length = position.root_length, len(position.keys)
            assert not position.is_terminal()
            position.root_length = played
            move = random_move(board, rng, shuffling)
            position.play(move)
            board.push(move)
    assert set(ends) == set(ENDINGS.values()), ends  # every rule ended some game
    assert ends["threefold repetition"] >= 50, ends


def test_a_repetition_ends_the_game_at_its_third_occurrence_and_the_search_still_moves() -> None:
    position = GAME.new_position("startpos")
    for text in SHUFFLES.split():
        position.play(GAME.parse_move(position, text))
    assert game_end(position) is None and position.occurrences() == 2
    # the search scores the second occurrence inside it as a draw, but it starts afresh here
    assert search(position.copy(), SearchLimits(depth=2), backend="python").best_move is not None
    for text in SHUFFLES.split():
        position.play(GAME.parse_move(position, text))
    assert game_end(position) == (0, "threefold repetition") and position.occurrences() == 3
    mate = GAME.new_position("startpos moves f2f3 e7e5 g2g4 d8h4")
    assert game_end(mate) == (-WIN, "checkmate")
    assert game_end(GAME.new_position("8/8/4k3/8/8/3K4/3R4/8 w - - 99 80")) is None
    assert game_end(GAME.new_position("8/8/4k3/8/8/3K4/3R4/8 w - - 100 80")) == (0, "fifty-move rule")
    # mate on the move that completes the fifty moves stands (FIDE 9.3)
    assert game_end(GAME.new_position("7k/8/6K1/8/8/8/8/R7 w - - 99 80 moves a1a8")) == (-WIN, "checkmate")


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
    result = search(position, SearchLimits(depth=2 * moves + 1, time=60), backend="python")
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


def test_a_null_move_is_not_a_move() -> None:
    """python-chess reads '0000' and '--' as its null move (a pass): chess has none."""
    assert chess.Board().parse_uci("0000") == chess.Move.null() == chess.Board().parse_san("--")
    for text in ("0000", "--"):
        with pytest.raises(IllegalMoveError, match="not a legal move"):
            GAME.parse_move(GAME.new_position(), text)
    with pytest.raises(InvalidPositionError, match="0000"):
        GAME.new_position("startpos moves e2e4 0000")
