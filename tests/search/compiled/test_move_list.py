"""The compiled deepening kernel on chess: the fixed-depth value of the pure-Python search
when pruning is off, real mates, tactics found, and limits honoured."""

from __future__ import annotations

import dataclasses
import functools
import os
import threading
import time
from pathlib import Path

import chess
import numpy as np
import pytest

from negamax.core.score import WIN, loss_in, win_in
from negamax.core.types import SearchLimits
from negamax.games.chess.rules import ChessGame
from negamax.games.draughts.rules import DraughtsGame
from negamax.search import search
from negamax.search.params import options_for

kernel = pytest.importorskip("negamax.search.compiled.move_list_kernel")

from negamax.search.compiled import move_list_layout as layout  # noqa: E402
from negamax.search.compiled.move_list import CompiledSearcher  # noqa: E402

GAME = ChessGame()
WAC = Path(__file__).resolve().parents[2] / "data" / "chess" / "wac.epd"
POSITIONS = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",  # castling, captures
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",  # promotions
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",  # WAC.001: mate in 2 (Qg6)
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",  # en passant, few pieces
    "6k1/5ppp/8/8/8/8/1q3PPP/6K1 b - - 0 1",  # mate in 1 on the back rank
    "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",  # fool's mate: Qh4#
    "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1",  # stalemate traps
]


@pytest.fixture(scope="module")
def searcher() -> CompiledSearcher:
    return CompiledSearcher(hash_mib=16)


@functools.cache  # both feature sets ask for the same values
def python_value(fen: str, depth: int) -> int:
    options = dataclasses.replace(options_for("alphabeta"), quiescence=True)
    return search(GAME.new_position(fen), SearchLimits(depth=depth), options=options).score


@pytest.mark.parametrize("fen", POSITIONS)
@pytest.mark.parametrize(
    "features",
    [layout.EXACT_FEATURES, layout.EXACT_FEATURES | layout.PVS | layout.KILLER_MOVES | layout.HISTORY_HEURISTIC],
    ids=["plain", "ordered-pvs"],
)
def test_without_pruning_it_computes_the_python_fixed_depth_value(fen: str, features: int) -> None:
    searcher = CompiledSearcher(hash_mib=1, features=features)
    for depth in (1, 2, 3):
        result = searcher.search(GAME.new_position(fen), SearchLimits(depth=depth))
        assert result.score == python_value(fen, depth), (fen, depth)


@pytest.mark.parametrize(
    ("fen", "moves"),
    [
        ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1),
        ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", 2),  # Morphy: 1.Ra6
        ("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", 2),  # WAC.001
        ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 3),  # WAC.003's line
    ],
)
def test_every_feature_on_still_finds_the_shortest_mate(searcher: CompiledSearcher, fen: str, moves: int) -> None:
    result = searcher.search(GAME.new_position(fen), SearchLimits(time=20))
    assert result.score == win_in(2 * moves - 1)
    board = chess.Board(fen)
    for move in result.pv:
        board.push(move)
    assert board.is_checkmate() and len(result.pv) == 2 * moves - 1


def test_a_quiet_sacrifice_that_mates_is_found_a_few_plies_deep(searcher: CompiledSearcher) -> None:
    # WAC.001, 1.Qg6: a shallow search's "Black takes the queen", kept in the table, must not
    # let the pruning skip the node where the mate shows (with it, not found by depth 12)
    result = searcher.search(GAME.new_position(POSITIONS[3]), SearchLimits(depth=6))
    assert result.score == win_in(3) and result.best_move == chess.Move.from_uci("g3g6")


@pytest.mark.parametrize(
    ("fen", "moves"),
    [
        ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", 2),  # Morphy: 1.Ra6
        ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 3),  # WAC.003's line
    ],
)
def test_helper_threads_share_the_table_and_find_the_same_mate(fen: str, moves: int) -> None:
    searcher = CompiledSearcher(hash_mib=4, threads=2)  # small: the threads write the same slots
    helper_nodes = 0
    for _ in range(3):
        searcher.clear()
        # two plies more than one thread needs: the helper's entries change the main thread's
        # order and history, and with them how far a quiet mating move is reduced (four plies
        # more missed the Morphy mate in 2 of 3,000 searches with both cores busy, six none)
        result = searcher.search(GAME.new_position(fen), SearchLimits(depth=2 * moves + 6))
        assert result.score == win_in(2 * moves - 1)
        assert 0 < searcher.work[layout.W_NODES] <= result.nodes
        helper_nodes += result.nodes - int(searcher.work[layout.W_NODES])
    # a search of a few hundred nodes can end before a busy machine starts the helper: a
    # longer one shows it searched, whatever the load (it ends only when the main thread has
    # finished its depth, long after the helper was started)
    searcher.clear()
    longer = searcher.search(
        GAME.new_position(POSITIONS[0]), SearchLimits(depth=8)
    )  # no node limit: it keeps to one thread
    helper_nodes += longer.nodes - int(searcher.work[layout.W_NODES])
    assert helper_nodes > 0


def test_a_node_limit_keeps_the_search_to_one_thread() -> None:
    searcher = CompiledSearcher(hash_mib=4, threads=2)
    position = GAME.new_position(POSITIONS[0])
    first = searcher.search(position, SearchLimits(nodes=50_000))
    searcher.clear()
    again = searcher.search(position, SearchLimits(nodes=50_000))
    assert first.nodes == again.nodes == 50_000 and first.pv == again.pv  # repeatable


def test_a_bad_thread_count_is_refused() -> None:
    with pytest.raises(ValueError, match="threads must be 1-64, not 0"):
        CompiledSearcher(threads=0)


def test_a_lost_position_reports_its_loss(searcher: CompiledSearcher) -> None:
    # Black to move is mated at once (Qh5xf7 has happened): no move, score -WIN
    mated = searcher.search(GAME.new_position("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"))
    assert (mated.best_move, mated.score) == (None, -WIN)
    # whatever White plays, ...Rc1 mates
    result = searcher.search(GAME.new_position("2r5/8/8/8/P7/6k1/8/7K w - - 0 1"), SearchLimits(depth=6))
    assert result.score == loss_in(2)


def test_it_solves_the_first_wac_positions_at_a_fixed_node_budget(searcher: CompiledSearcher) -> None:
    solved = []
    lines = [line for line in WAC.read_text().splitlines() if line and not line.startswith("#")]
    for line in lines[:20]:
        board, operations = chess.Board.from_epd(line)
        searcher.clear()
        result = searcher.search(GAME.new_position(board.fen()), SearchLimits(nodes=400_000))
        if result.best_move in operations["bm"]:
            solved.append(operations["id"])
    assert len(solved) >= 18, solved  # measured: 19 of 20 (not WAC.002, a pawn ending)


def null_window_value(searcher: CompiledSearcher, fen: str, depth: int, alpha: int, ply: int) -> tuple[int, int]:
    """The kernel's value of ``fen`` on the null window ``(alpha, alpha + 1)`` as a node
    ``ply`` plies from the root (where forward pruning applies), and the moves it pruned."""
    bound = searcher._bind(GAME.new_position(fen))
    searcher._prepare(SearchLimits(), layout.ALL_FEATURES)
    searcher.work[layout.W_NEXT_CHECK] = searcher.work[layout.W_NODE_LIMIT]
    value = bound.kernels.search(bound.spec, bound.state, searcher.table, searcher.work, depth, alpha, alpha + 1, ply)
    return int(value), int(searcher.work[layout.W_PRUNED])


@pytest.mark.parametrize("depth", [4, 5])
@pytest.mark.parametrize("alpha", [0, 133, 300, 500])
def test_a_node_that_prunes_moves_claims_no_more_than_it_searched(depth: int, alpha: int) -> None:
    # After WAC.001's 1.Qg6 every Black move is mated at once. The node once raised its
    # value to the futility margin (static 75 + 100 per ply) for the moves late-move pruning
    # left out, failed high on the root's window (133) and hid the mate; it must fail low.
    after_queen_move = "2rr3k/pp3pp1/1nnqbNQp/3pN3/2pP4/2P5/PPB4P/R4RK1 b - - 1 1"
    value, pruned = null_window_value(CompiledSearcher(hash_mib=1), after_queen_move, depth, alpha, ply=1)
    assert value <= alpha
    assert pruned > 0  # the test goes through the pruning it is about


def test_forward_pruning_needs_the_game_to_name_its_unit() -> None:
    pytest.importorskip("draughts")
    from negamax.games.connect4.rules import Connect4Game
    from negamax.games.draughts.rules import DraughtsGame

    for position, depth in ((GAME.new_position("startpos"), 6), (DraughtsGame("draughts").new_position(None), 8)):
        pruning = CompiledSearcher(hash_mib=1)
        pruning.search(position, SearchLimits(depth=depth))
        assert pruning.work[layout.W_PRUNED] > 0
    connect4 = CompiledSearcher(hash_mib=1)
    connect4.search(Connect4Game().new_position(None), SearchLimits(depth=10))
    assert connect4.work[layout.W_PRUNED] == 0  # written as rules: no unit, nothing pruned by margins


def test_limits_are_honoured(searcher: CompiledSearcher) -> None:
    position = GAME.new_position("startpos")
    timed = searcher.search(position, SearchLimits(time=0.3))
    assert not timed.completed and timed.best_move is not None
    counted = searcher.search(position, SearchLimits(nodes=50_000))
    assert counted.nodes == 50_000 and not counted.completed
    stop = threading.Event()
    threading.Timer(0.2, stop.set).start()
    stopped = searcher.search(position, SearchLimits(stop=stop))
    assert not stopped.completed
    # a fresh table: the timed search's entries, as deep as the machine allowed, would cut it short
    deep = CompiledSearcher(hash_mib=1).search(position, SearchLimits(depth=5))
    assert deep.completed and deep.depth == 5 and len(deep.stats.iterations_nodes) == 5
    assert deep.stats.seldepth > 5 and chess.Board().is_legal(deep.best_move)


@pytest.mark.parametrize(
    ("variant", "text"),
    [
        ("draughts", "start"),
        ("draughts", "start moves 32-28 18-23 35-30 23x32"),
        ("draughts", "W:W27,28,32,33,37,38:B8,12,13,17,18"),
        ("draughts", "W:W15:B10,9,19"),
        ("draughts", "B:W23,24,31,34,35,36,37,39,40,41,42,44,46,48,49:B1,4,5,6,7,9,11,13,16,17,20,21,25"),
        ("frisian", "start moves 32-28 17-22 28x17 11x22"),
        ("frisian", "W:W27,28,32,33,37,38,K46:B8,12,13,17,18,K4"),
        ("frisian", "W:W37,K21:B43,41,28,19,9"),
    ],
)
def test_draughts_without_pruning_computes_the_python_fixed_depth_value(variant: str, text: str) -> None:
    pytest.importorskip("draughts")
    from negamax.games.draughts.rules import DraughtsGame

    game = DraughtsGame(variant)
    searcher = CompiledSearcher(hash_mib=1, features=layout.EXACT_FEATURES)
    options = dataclasses.replace(options_for("alphabeta"), quiescence=True)
    for depth in (1, 2, 3):
        compiled = searcher.search(game.new_position(text), SearchLimits(depth=depth)).score
        assert compiled == search(game.new_position(text), SearchLimits(depth=depth), options=options).score


def test_draughts_every_feature_on_avoids_the_losing_recapture() -> None:
    pytest.importorskip("draughts")
    from negamax.games.draughts.rules import DraughtsGame

    # 37x28 lets Black shoot 19-23 28x19 13x24x35 and win a man; 38x27 holds
    position = DraughtsGame("draughts").new_position("start moves 32-28 18-23 35-30 23x32")
    result = CompiledSearcher(hash_mib=16).search(position, SearchLimits(depth=8))
    assert result.best_move == "38x27" and abs(result.score) < 50


@pytest.mark.timing
def test_a_time_or_a_stop_ends_the_search_promptly(searcher: CompiledSearcher) -> None:
    position = GAME.new_position("startpos")
    start = time.perf_counter()
    searcher.search(position, SearchLimits(time=0.3))
    assert time.perf_counter() - start < 0.45
    stop = threading.Event()
    threading.Timer(0.2, stop.set).start()
    start = time.perf_counter()
    searcher.search(position, SearchLimits(stop=stop))
    assert time.perf_counter() - start < 0.4


def test_a_quiet_cutoff_rewards_its_move_and_penalises_the_quiet_moves_before_it() -> None:
    from negamax.games.chess.compiled import SQUARE_OF, encode

    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    board = chess.Board(fen)
    searcher = CompiledSearcher(hash_mib=1)
    bound = searcher._bind(GAME.new_position(fen))
    searcher._prepare(SearchLimits(), layout.ALL_FEATURES)
    work, ply, depth = searcher.work, 2, 5
    start = layout.MOVES + ply * layout.MAX_MOVES
    tried = [encode(board, chess.Move.from_uci(uci)) for uci in ("a2a3", "f3e5", "f1c4")]
    work[start : start + 3] = tried
    a3, capture, bishop = tried
    work[layout.PLAYED_PIECES + ply - 1] = 77  # the opponent's last move; none before it
    work[layout.PLAYED_PIECES + ply - 2] = -1

    def history(move: int) -> int:
        return int(work[layout.HISTORY + (move & 127) * 120 + ((move >> 7) & 127)])  # White's slots

    def after_77(move: int, piece: int) -> int:
        slot = piece * 64 + SQUARE_OF[(move >> 7) & 127]
        return int(work[layout.CONTINUATION :].view(np.int16)[77 * layout.CONTINUATION_SLOTS + slot])

    bonus = min(32 * depth * depth, layout.GRAVITY_BONUS_CAP)
    bound.kernels._reward_quiet_cutoff(bound.spec, bound.state, work, bishop, start, start + 2, depth, ply, 77)
    assert work[layout.KILLERS + 2 * ply] == bishop and work[layout.COUNTERS + 77] == bishop
    assert (history(bishop), history(a3), history(capture)) == (bonus, -bonus, 0)
    assert (after_77(bishop, chess.BISHOP), after_77(a3, chess.PAWN)) == (bonus, -bonus)
    # a capture that cuts off is no quiet move: nothing is recorded
    bound.kernels._reward_quiet_cutoff(bound.spec, bound.state, work, capture, start, start + 1, depth, ply, 78)
    assert work[layout.KILLERS + 2 * ply] == bishop and work[layout.COUNTERS + 78] == 0
    assert (history(bishop), history(a3), history(capture)) == (bonus, -bonus, 0)
    # gravity: a second success moves the value only part of the way towards the cap
    bound.kernels._reward_quiet_cutoff(bound.spec, bound.state, work, bishop, start + 2, start + 2, depth, ply, 77)
    assert history(bishop) == 2 * bonus - bonus * bonus // layout.GRAVITY_HISTORY_CAP
    for _ in range(200):
        bound.kernels._reward_quiet_cutoff(bound.spec, bound.state, work, bishop, start + 2, start + 2, depth, ply, 77)
    assert layout.GRAVITY_HISTORY_CAP - bonus < history(bishop) <= layout.GRAVITY_HISTORY_CAP
    # the side's own move before last (four plies up) counts too; the third ply up does not
    ply, lanes = 4, work[layout.CONTINUATION :].view(np.int16)
    work[layout.PLAYED_PIECES + ply - 4 : layout.PLAYED_PIECES + ply] = [88, 99, -1, -1]
    start = layout.MOVES + ply * layout.MAX_MOVES
    work[start] = bishop
    bound.kernels._reward_quiet_cutoff(bound.spec, bound.state, work, bishop, start, start, depth, ply, -1)
    slot = chess.BISHOP * 64 + SQUARE_OF[(bishop >> 7) & 127]
    assert (lanes[88 * layout.CONTINUATION_SLOTS + slot], lanes[99 * layout.CONTINUATION_SLOTS + slot]) == (bonus, 0)
    # and the one before that (six plies up); the fifth ply up does not
    ply = 6
    work[layout.PLAYED_PIECES : layout.PLAYED_PIECES + ply] = [66, 55, -1, -1, -1, -1]
    start = layout.MOVES + ply * layout.MAX_MOVES
    work[start] = bishop
    bound.kernels._reward_quiet_cutoff(bound.spec, bound.state, work, bishop, start, start, depth, ply, -1)
    assert (lanes[66 * layout.CONTINUATION_SLOTS + slot], lanes[55 * layout.CONTINUATION_SLOTS + slot]) == (bonus, 0)


def test_a_quiet_move_its_reply_could_not_answer_gains_continuation_history() -> None:
    searcher = CompiledSearcher(hash_mib=1)
    bound = searcher._bind(GAME.new_position())
    searcher._prepare(SearchLimits(), layout.ALL_FEATURES)
    work, lanes, depth = searcher.work, searcher.work[layout.CONTINUATION :].view(np.int16), 6
    # the move at ply 7 (slot 500) gains after those one, two, four and six plies before it
    work[layout.PLAYED_PIECES : layout.PLAYED_PIECES + 8] = [50, 40, 30, 20, 15, 10, 5, 500]
    bonus = min(32 * depth * depth, layout.GRAVITY_BONUS_CAP)

    def after(earlier: int) -> int:
        return int(lanes[earlier * layout.CONTINUATION_SLOTS + 500])

    bound.kernels._reward_prior_move(work, depth, 7, False)
    assert [after(slot) for slot in (5, 10, 20, 30, 40, 15, 50)] == [bonus, bonus, bonus, 0, bonus, 0, 0]
    bound.kernels._reward_prior_move(work, depth, 7, True)  # twice the bonus, with gravity
    assert after(5) == bonus + 2 * bonus - bonus * 2 * bonus // layout.GRAVITY_HISTORY_CAP


@pytest.mark.parametrize(
    "feature",
    [
        "COUNTER_MOVES",
        "INTERNAL_REDUCTION",
        "ADAPTIVE_NULL_MOVE",
        "SINGULAR_EXTENSION",
        "TABLE_EVALUATION",
        "QUIESCENCE_EVASIONS",
        "HISTORY_PRUNING",
    ],
)
def test_each_new_selectivity_feature_changes_the_search(feature: str) -> None:
    # a feature that never fires would leave the tree as it was
    # (ten plies: history pruning needs a history, which a fresh search builds on the way)
    full = CompiledSearcher(hash_mib=4).search(GAME.new_position(POSITIONS[0]), SearchLimits(depth=10))
    without = CompiledSearcher(hash_mib=4, features=layout.ALL_FEATURES & ~getattr(kernel, feature))
    assert without.search(GAME.new_position(POSITIONS[0]), SearchLimits(depth=10)).nodes != full.nodes


@pytest.mark.parametrize("variant", ["chess", "draughts"])
def test_prefetching_the_childrens_entries_changes_nothing_but_time(variant: str) -> None:
    game = GAME if variant == "chess" else DraughtsGame("draughts")
    position = game.new_position(POSITIONS[0] if variant == "chess" else None)
    results = [
        CompiledSearcher(hash_mib=4, features=features).search(position.copy(), SearchLimits(depth=9))
        for features in (layout.ALL_FEATURES, layout.ALL_FEATURES & ~layout.TABLE_PREFETCH)
    ]
    assert results[0].nodes == results[1].nodes and results[0].score == results[1].score
    assert results[0].pv == results[1].pv


@pytest.mark.parametrize(("evasions", "mate_seen"), [(True, True), (False, False)])
def test_quiescence_in_check_searches_the_way_out_and_sees_a_mate(evasions: bool, mate_seen: bool) -> None:
    # Scholar's mate: Qxf7 is a capture that mates. A one-ply search without the check
    # extension meets the mated king in quiescence: only the evasions see there is none.
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    features = layout.QUIESCENCE | (layout.QUIESCENCE_EVASIONS if evasions else 0)
    result = CompiledSearcher(hash_mib=1, features=features).search(GAME.new_position(fen), SearchLimits(depth=1))
    assert (result.score == win_in(1)) == mate_seen
    if mate_seen:
        assert result.best_move == chess.Move.from_uci("h5f7")


def resident_mib() -> float:
    """This process's resident memory (Linux)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="reads /proc/self/statm")
def test_a_large_table_is_neither_touched_when_made_nor_when_cleared() -> None:
    # Writing zeros over a table maps every page of it: 17 s for 8 GiB, before the search
    # could look at its stop flag. The system hands out zeroed pages on first use instead.
    position = ChessGame().new_position(None)
    before = resident_mib()
    searcher = CompiledSearcher(hash_mib=1024)
    searcher.search(position, SearchLimits(depth=2))
    searcher.clear()
    searcher.search(position, SearchLimits(depth=2))
    assert searcher.entries == 1024 * 2**20 // 16
    assert resident_mib() - before < 256
