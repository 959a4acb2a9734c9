"""The policies both searches share are one definition each, and give the same answers:
mate-distance bounds, the ply shifts of mate scores, aspiration windows, limits and Pons'
score conversion."""

from __future__ import annotations

import dataclasses
import itertools
import threading

import pytest

from negamax.core import score
from negamax.core.score import INF, WIN, loss_in, win_in
from negamax.core.types import SearchLimits
from negamax.games.chess.rules import ChessGame
from negamax.search import search
from negamax.search.params import options_for
from negamax.search.windows import ASPIRATION_GIVE_UP, aspiration_window, widened

SCORES = [-INF, -WIN, loss_in(3), -WIN + 10_000, -500, 0, 7, 500, WIN - 10_000, win_in(5), WIN, INF]


def test_the_kernels_compile_the_python_definitions() -> None:
    pytest.importorskip("numba")
    from negamax.search.compiled import move_list_layout as layout

    for value, ply in itertools.product(SCORES[1:-1], (0, 1, 7, 40)):
        assert layout.from_node(value, ply) == score.from_node(value, ply)
        assert layout.to_node(value, ply) == score.to_node(value, ply)
    for alpha, beta, ply, has_a_move in itertools.product(SCORES, SCORES, (1, 3), (False, True)):
        if alpha < beta:
            expected = score.mate_distance_window(alpha, beta, ply, has_a_move)
            assert layout.mate_distance_window(alpha, beta, ply, has_a_move) == expected


def test_mate_distance_window() -> None:
    # a node at ply 3 is worth at most a win with its next move, and at least a loss here
    assert score.mate_distance_window(-INF, INF, 3, False) == (loss_in(3), win_in(4))
    assert score.mate_distance_window(-INF, INF, 3, True) == (loss_in(4), win_in(4))
    assert score.mate_distance_window(-5, 5, 3, True) == (-5, 5)  # a narrow window is left alone
    alpha, beta = score.mate_distance_window(win_in(4), INF, 3, True)
    assert alpha >= beta  # nothing better than a win next move can exist: the node is answered


def test_aspiration_windows_grow_then_give_up() -> None:
    alpha, beta = aspiration_window(10, 25)
    assert (alpha, beta) == (-15, 35)
    assert widened(alpha, beta, 0, 25) is None  # inside: done
    assert widened(alpha, beta, -40, 25) == (-140, 35, 100)  # failed low: four times wider below
    assert widened(-140, 35, 200, 100) == (-140, 600, 400)
    assert widened(-140, 600, 900, 400) == (-INF, INF, 1600)  # past ASPIRATION_GIVE_UP: full window
    assert 400 < ASPIRATION_GIVE_UP < 1600


def test_limits_are_read_the_same_way_everywhere() -> None:
    stop = threading.Event()
    limits = SearchLimits(time=1.0, stop=stop)
    assert not limits.reached(10.0, 10.5) and limits.reached(10.0, 11.0)
    stop.set()
    assert limits.reached(10.0, 10.0)
    assert not SearchLimits(depth=3).reached(0.0, 1e9)


def test_pons_scores_round_trip() -> None:
    for cells, played in ((42, 0), (42, 11), (42, 37), (9, 4), (16, 3)):
        for pons in range(-(cells // 2), cells // 2 + 1):
            distance = score.pons_to_distance(pons, cells, played)
            if pons and not 0 < abs(score.WIN) - abs(distance) <= cells - played:
                continue  # a score no game from here can reach
            assert score.distance_to_pons(distance, cells, played) == pons, (cells, played, pons)


MATES = [
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",  # mate in 1
    "6k1/5ppp/8/8/8/8/1q3PPP/6K1 b - - 0 1",  # mate in 1, Black
    "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1",  # mate in 2
    "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",  # mated
]


@pytest.mark.parametrize("fen", MATES)
def test_both_searches_prune_mate_distances_to_the_same_values(fen: str) -> None:
    pytest.importorskip("numba")
    from negamax.search.compiled import move_list_layout as layout
    from negamax.search.compiled.move_list import CompiledSearcher

    options = dataclasses.replace(options_for("alphabeta"), quiescence=True, mate_distance_pruning=True)
    compiled = CompiledSearcher(hash_mib=1, features=layout.EXACT_FEATURES)
    for depth in (1, 2, 3):
        position = ChessGame().new_position(fen)
        python = search(position, SearchLimits(depth=depth), backend="python", options=options).score
        assert compiled.search(position, SearchLimits(depth=depth)).score == python, (fen, depth)
