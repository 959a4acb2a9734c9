"""Chess's compiled primitives: perft, the incremental sums and key against fresh ones, and
moves translated both ways."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import chess
import numpy as np
import pytest

from negamax.core.types import SearchLimits
from negamax.games.chess import network as chess_network
from negamax.games.chess.rules import ChessGame, ChessPosition

chess_compiled = pytest.importorskip("negamax.games.chess.compiled")
from negamax.games.chess.kernel import accumulators, attacks, evaluation, exchange, layout, make_move  # noqa: E402
from negamax.search.compiled.move_list import CompiledSearcher  # noqa: E402  (needs numba)

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


def kept_rows(state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The bitboards and the network's accumulators at the state's ply."""
    ply = int(state[layout.PLY])
    boards = layout.BOARDS + ply * layout.BOARDS_WIDTH
    return state[boards : boards + 6], accumulators.accumulators(state)


def walk(board: chess.Board, state: np.ndarray, depth: int) -> int:
    """Plays every legal line ``depth`` deep on both boards and compares the compiled state,
    kept up to date move by move, with one loaded afresh and with the python evaluation."""
    fresh = chess_compiled.new_state(board)
    checked = 0
    for field in (layout.MIDGAME_SUM, layout.ENDGAME_SUM, layout.PHASE_SUM):
        assert state[field] == fresh[field]
    assert int(evaluation.evaluate(state)) == ChessPosition(board.copy()).evaluate()
    assert (state[:120] == fresh[:120]).all()
    assert (kept_rows(state)[0] == kept_rows(fresh)[0]).all()
    assert (kept_rows(state)[1] == kept_rows(fresh)[1]).all()
    if state[layout.EN_PASSANT] == fresh[layout.EN_PASSANT]:
        # python-chess sets en passant only when the capture is legal, we when a pawn is beside
        assert state[layout.HASH] == fresh[layout.HASH]
        checked += 1
    if depth == 0:
        return checked
    for move in list(board.legal_moves):
        code = chess_compiled.encode(board, move)
        assert make_move.play(state, code)
        board.push(move)
        checked += walk(board, state, depth - 1)
        board.pop()
        make_move.unplay(state, code)
    return checked


# mop-up at every node; where a capture of the last pawn begins it (Kxd2); where a
# capture ends it (Bf4+ Kxf4: a knight and a pawn left)
QUEEN_AGAINST_ROOK = "8/8/2k2r2/8/8/8/8/3QK3 w - - 0 1"
ROOK_AGAINST_PAWN = "8/8/8/4k3/8/8/3p4/R3K3 w - - 0 1"
BISHOP_KNIGHT_AND_PAWN = "8/8/8/4k3/8/8/1P6/2B1KN2 w - - 0 1"
# a lead without pawns scaled down where the bishop takes the last pawn (Bxd2)
ROOK_AND_PAWN_AGAINST_BISHOP = "8/4k3/8/8/1b6/3RK3/3P4/8 b - - 17 40"


@pytest.mark.parametrize(
    "fen",
    [
        KIWIPETE,
        POSITION_3,
        POSITION_4,
        POSITION_5,
        BISHOP_KNIGHT_AND_PAWN,
        QUEEN_AGAINST_ROOK,
        ROOK_AGAINST_PAWN,
        ROOK_AND_PAWN_AGAINST_BISHOP,
    ],
)
def test_incremental_state_equals_a_fresh_one_at_every_node(fen: str) -> None:
    board = chess.Board(fen)
    state = chess_compiled.new_state(board)
    before = state.copy()
    assert walk(board, state, 2) > 50  # nodes whose keys were compared (the smallest ending has 58)
    kept = layout.KEYS + int(state[layout.PLY]) + 1  # the rest is scratch
    assert (state[:kept] == before[:kept]).all()  # everything taken back


@pytest.mark.parametrize("fen", [KIWIPETE, POSITION_5])  # neither side in check
def test_a_null_move_and_the_moves_after_it_evaluate_as_the_python_game_does(fen: str) -> None:
    board = chess.Board(fen)
    state = chess_compiled.new_state(board)
    make_move.play_null(state)
    board.push(chess.Move.null())
    assert int(evaluation.evaluate(state)) == ChessPosition(board.copy()).evaluate()
    for move in list(board.legal_moves):
        code = chess_compiled.encode(board, move)
        make_move.play(state, code)
        board.push(move)
        assert int(evaluation.evaluate(state)) == ChessPosition(board.copy()).evaluate()
        board.pop()
        make_move.unplay(state, code)
    make_move.unplay_null(state)
    board.pop()
    assert int(evaluation.evaluate(state)) == ChessPosition(board.copy()).evaluate()


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
    assert not evaluation.drawn(state)  # the root itself is never a draw by repetition
    for uci in ["g1f3", "g8f6", "f3g1"]:
        assert make_move.play(state, chess_compiled.encode(board, chess.Move.from_uci(uci)))
        board.push_uci(uci)
    assert evaluation.drawn(state)  # Black to move after Ng1: seen before the search began


VALUES = {chess.PAWN: 100, chess.KNIGHT: 320, chess.BISHOP: 330, chess.ROOK: 500, chess.QUEEN: 900, chess.KING: 20000}


def exchange_value(board: chess.Board, square: chess.Square) -> int:
    """What the side to move wins by going on capturing on ``square`` with its least
    valuable piece, free to stop (0) at each turn; moves made on a copy, pins ignored."""
    attackers = board.attackers(board.turn, square)
    if not attackers:
        return 0
    origin = min(attackers, key=lambda attacker: VALUES[board.piece_type_at(attacker) or 0])
    taken = VALUES[board.piece_type_at(square) or chess.PAWN]
    after = board.copy(stack=False)
    after.push(chess.Move(origin, square))
    return max(0, taken - exchange_value(after, square))


def reference_loses(board: chess.Board, move: chess.Move) -> bool:
    taken = VALUES[chess.PAWN] if board.is_en_passant(move) else VALUES[board.piece_type_at(move.to_square) or 0]
    after = board.copy(stack=False)
    after.push(move)
    return taken - exchange_value(after, move.to_square) < 0


def test_losing_captures_are_those_a_full_exchange_calls_losing() -> None:
    wac = (Path(__file__).resolve().parents[2] / "data" / "chess" / "wac.epd").read_text().splitlines()
    boards = [chess.Board.from_epd(line)[0] for line in wac[:120] if line and not line.startswith("#")]
    boards += [chess.Board(fen) for fen in (KIWIPETE, POSITION_6, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")]
    losing = kept = 0
    for board in boards:
        state = chess_compiled.new_state(board)
        for move in board.legal_moves:
            if not board.is_capture(move) or move.promotion:
                continue
            expected = reference_loses(board, move)
            code = chess_compiled.encode(board, move)
            assert exchange.losing_capture(state, code) == expected, (board.fen(), move)
            losing += expected
            kept += not expected
    assert losing > 50 and kept > 50  # both answers are tested often


def test_gives_check_agrees_with_python_chess_before_the_move_is_played() -> None:
    wac = (Path(__file__).resolve().parents[2] / "data" / "chess" / "wac.epd").read_text().splitlines()
    boards = [chess.Board.from_epd(line)[0] for line in wac if line and not line.startswith("#")]
    boards += [
        chess.Board(fen)
        for fen in (
            KIWIPETE,
            POSITION_3,
            POSITION_4,
            POSITION_5,
            "5k2/8/8/8/8/8/8/4K2R w K - 0 1",  # O-O: the rook checks on the f-file
            "8/8/8/8/8/8/8/R3K2k w Q - 0 1",  # O-O-O: the rook checks along the rank the king left
            "8/8/8/8/8/2k5/8/R3K3 w Q - 0 1",  # O-O-O beside the other king: no check
        )
    ]
    generator = random.Random(20261127)
    for start in list(boards[:60]):
        board = start.copy(stack=False)
        for _ in range(40):  # playouts reach open lines, promotions and discovered checks
            moves = list(board.legal_moves)
            if not moves or board.is_insufficient_material():
                break
            board.push(generator.choice(moves))
            boards.append(board.copy(stack=False))
    direct = discovered = castling = quiet = 0
    for board in boards:
        state = chess_compiled.new_state(board)
        for move in board.legal_moves:
            expected = board.gives_check(move)
            answer = attacks.gives_check(state, chess_compiled.encode(board, move))
            if board.is_en_passant(move):
                assert answer, (board.fen(), move)  # the safe answer, always
                continue
            assert answer == expected, (board.fen(), move)
            if expected:
                after = board.copy(stack=False)
                after.push(move)
                checkers = after.checkers()
                direct += move.to_square in checkers
                discovered += any(square != move.to_square for square in checkers)
                castling += board.is_castling(move)
                quiet += not board.is_capture(move)
    assert direct > 500 and discovered > 20 and castling >= 2 and quiet > 300, (direct, discovered, castling, quiet)


def test_a_defended_pawn_taken_by_the_queen_loses_and_a_hanging_one_does_not() -> None:
    board = chess.Board("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1")
    state = chess_compiled.new_state(board)
    assert exchange.losing_capture(state, chess_compiled.encode(board, chess.Move.from_uci("d2d5")))
    board = chess.Board("4k3/8/8/3p4/8/8/3Q4/4K3 w - - 0 1")
    state = chess_compiled.new_state(board)
    assert not exchange.losing_capture(state, chess_compiled.encode(board, chess.Move.from_uci("d2d5")))


KING_BUCKET_WALK = """
import sys
from pathlib import Path

import chess
import numpy as np

from negamax.games.chess import network as chess_network

chess_network.NETWORK_FILE = Path(sys.argv[1])
from negamax.games.chess import compiled as chess_compiled  # noqa: E402  (reads the network above)
from negamax.games.chess.kernel import accumulators, evaluation, layout, make_move  # noqa: E402
from negamax.games.chess.rules import ChessPosition  # noqa: E402


def pair(state):
    return accumulators.accumulators(state).copy()


def walk(board, state, depth):
    # loaded from the FEN alone: new_state(board) would replay the moves through play()
    assert (pair(state) == pair(chess_compiled.new_state(chess.Board(board.fen())))).all(), board.fen()
    assert int(evaluation.evaluate(state)) == ChessPosition(board.copy()).evaluate(), board.fen()
    if depth == 0:
        return 1
    count = 1
    for move in list(board.legal_moves):
        code = chess_compiled.encode(board, move)
        make_move.play(state, code)
        board.push(move)
        count += walk(board, state, depth - 1)
        board.pop()
        make_move.unplay(state, code)
    return count


nodes = 0
for fen in sys.argv[2:]:
    board = chess.Board(fen)
    nodes += walk(board, chess_compiled.new_state(board), 2)
print(len(layout.ROW_ARRAYS), nodes)
"""


@pytest.mark.compiles
@pytest.mark.parametrize("wide", [False, True], ids=["shipped-width", "rows-in-two-arrays"])
def test_a_king_crossing_into_another_bucket_or_half_of_the_board_keeps_the_accumulators_exact(
    tmp_path: Path, wide: bool
) -> None:
    # a network of three king buckets (the king on its first rank reads the last block, on
    # its second the first, further up the second) that turns a side's board while its
    # king is on files e-h, its rows random: compiled in a process of its own, with a cache
    # of its own, since the game freezes its network; 256 units wide, its three blocks pass
    # what one frozen array holds, and a king's first step crosses from one array to another
    with np.load(chess_network.NETWORK_FILE) as data:
        weights = {name: data[name] for name in data.files}
    generator = np.random.default_rng(7)
    if wide:
        weights["bias"] = generator.integers(-30, 31, size=256).astype(np.int16)
        weights["output"] = generator.integers(-20, 21, size=(weights["output"].shape[0], 512)).astype(np.int16)
    units = weights["bias"].shape[0]
    weights["rows"] = generator.integers(-30, 31, size=(3 * chess_network.FEATURES, units))
    weights["king_buckets"] = np.array([2] * 8 + [0] * 8 + [1] * 48)
    weights["mirrored"] = np.array(True)
    path = tmp_path / "kings.npz"
    np.savez(path, **weights)
    script = tmp_path / "walk.py"
    script.write_text(KING_BUCKET_WALK)
    # the kings castle, step up a rank and cross from file d to e in these
    fens = [KIWIPETE, "4k3/8/8/8/3pP3/8/8/3K4 w - - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"]
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "NEGAMAX_CACHE_DIR": str(tmp_path)}
    finished = subprocess.run(
        [sys.executable, str(script), str(path), *fens], capture_output=True, text=True, env=environment, timeout=600
    )
    assert finished.returncode == 0, finished.stderr[-2000:]
    arrays, nodes = (int(word) for word in finished.stdout.split()[-2:])
    assert (arrays, nodes > 2000) == (2 if wide else 1, True)
    # numba keeps the kernels it could freeze the rows into (it only warns when it cannot)
    assert any(path.name.startswith("accumulators._refresh_up_to") for path in tmp_path.rglob("*.nbi"))


def _play_out(fen: str) -> chess.Board:
    # both sides played by the compiled search at 20,000 nodes a move from an empty table:
    # the same game every run
    searcher = CompiledSearcher(hash_mib=16)
    board = chess.Board(fen)
    while not board.is_game_over(claim_draw=True):
        result = searcher.search(ChessPosition(board.copy()), SearchLimits(nodes=20_000))
        board.push(result.best_move)
    return board


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/4k3/8/8/8/1BN1K3 w - - 0 1",  # mate in at most 33 moves
        "7k/8/5K2/8/8/8/8/1BN5 w - - 0 1",  # the lone king in a corner where they cannot mate
    ],
)
def test_the_search_mates_with_bishop_and_knight(fen: str) -> None:
    board = _play_out(fen)
    assert board.is_checkmate() and board.turn == chess.BLACK


def test_the_search_mates_with_queen_against_rook() -> None:
    # the queen wins the rook by a fork or a skewer that a search of 5 to 8 plies finds in
    # some lines and not others, so a change of move order alone turns any one game from a
    # mate into a draw by the fifty-move rule (as it does a change of the node budget):
    # four starts, three mates at least (the search without mop-up mated in one of six)
    starts = [
        "8/8/2k2r2/8/8/8/8/3QK3 w - - 0 1",
        "8/3k4/8/8/3r4/8/8/3QK3 w - - 0 1",
        "4k3/8/8/8/8/8/r7/3QK3 w - - 0 1",
        "8/8/8/4k3/8/2r5/8/4K2Q w - - 0 1",
    ]
    mated = [board.is_checkmate() and board.turn == chess.BLACK for board in map(_play_out, starts)]
    assert sum(mated) >= 3, mated


@pytest.mark.parametrize("seed", range(4))
def test_accumulators_brought_up_to_date_after_lines_never_evaluated_match_fresh_ones(seed: int) -> None:
    # random lines of up to 12 plies with null moves among them, evaluated now and then
    # and at their end: the pending changes of every ply since the last evaluation are
    # applied then, a king's change of bucket on the way among them; three lines from each
    # state, taken back in between, so each bucket's kept accumulator is reused
    generator = random.Random(seed)
    for _ in range(12):
        board = chess.Board(KIWIPETE if generator.random() < 0.5 else chess.STARTING_FEN)
        state = chess_compiled.new_state(board)
        evaluation.evaluate(state)
        for _ in range(3):
            played: list[int] = []
            for _ in range(generator.randint(1, 12)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                if not board.is_check() and generator.random() < 0.15:
                    make_move.play_null(state)
                    board.push(chess.Move.null())
                    played.append(0)
                else:
                    move = generator.choice(moves)
                    code = chess_compiled.encode(board, move)
                    assert make_move.play(state, code)
                    board.push(move)
                    played.append(code)
                if generator.random() < 0.2:
                    evaluation.evaluate(state)
            fresh = chess_compiled.new_state(chess.Board(board.fen()))
            assert (accumulators.accumulators(state) == accumulators.accumulators(fresh)).all(), board.fen()
            assert int(evaluation.evaluate(state)) == ChessPosition(chess.Board(board.fen())).evaluate()
            for code in reversed(played):
                if code == 0:
                    make_move.unplay_null(state)
                else:
                    make_move.unplay(state, code)
                board.pop()
