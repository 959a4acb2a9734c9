"""The policies both searches share are one definition each, and give the same answers:
mate-distance bounds, the ply shifts of mate scores, aspiration windows, limits and Pons'
score conversion."""

from __future__ import annotations

import dataclasses
import itertools
import threading
from collections.abc import Callable
from typing import Any

import pytest

from negamax.core import score
from negamax.core.score import INF, WIN, Bound, loss_in, win_in
from negamax.core.types import SearchLimits, SearchResult
from negamax.games.chess.rules import ChessGame
from negamax.games.connect4.rules import Connect4Game
from negamax.search import search, solve
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


LOSS_IN_14 = "1233722555341451114725221333"
"""Pons' -1 in his Middle-Easy set (tests/data/Test_L2_R1): five probes to prove on each
backend, a few thousand nodes."""
SOLVERS = ["python", "move list", "placement"]


def solver(kind: str) -> Callable[..., SearchResult[Any]]:
    """A fresh solver of ``kind`` (so each call starts from an empty table), called as
    ``solve(position, limits, on_iteration)``."""
    if kind == "python":
        return lambda position, limits=None, on_iteration=None: solve(
            position, limits, backend="python", on_iteration=on_iteration
        )
    pytest.importorskip("numba")
    if kind == "move list":
        from negamax.search.compiled.move_list import CompiledSearcher

        return CompiledSearcher(hash_mib=1).solve
    from negamax.search.compiled.placement import CompiledSolver

    return CompiledSolver().solve


@pytest.mark.parametrize("kind", SOLVERS)
def test_a_solve_stopped_before_any_probe_ends_claims_nothing(kind: str) -> None:
    position = Connect4Game().new_position("4")  # minutes to solve on any backend
    result = solver(kind)(position, SearchLimits(nodes=1_000))
    assert not result.completed and result.unresolved
    assert (result.lower, result.upper, result.score, result.bound) == (-INF, INF, -INF, Bound.LOWER)
    assert result.score_text == "not proven: no bound yet"
    assert result.best_move in position.legal_moves()


@pytest.mark.parametrize("kind", SOLVERS)
def test_a_solve_stopped_by_a_limit_keeps_what_its_probes_proved(kind: str) -> None:
    game = Connect4Game()
    position = game.new_position(LOSS_IN_14)
    full = solver(kind)(position)
    assert full.completed and game.game_score(position, full.score) == -1
    probes = full.stats.iterations_nodes
    # stopped in the second probe: the first one's bound stands, the other side is open
    second = solver(kind)(position, SearchLimits(nodes=probes[0] + 1))
    assert not second.completed and second.unresolved and second.bound == Bound.LOWER
    assert second.score == second.lower and second.lower <= full.score <= second.upper
    assert (second.lower > -INF) != (second.upper < INF)  # one probe: one side proven
    assert second.score_text.startswith("not proven: at ") and "inf" not in second.score_text
    # stopped once the probes have met, looking for the line: the value is proven
    reports: list[SearchResult[Any]] = []
    line = solver(kind)(position, SearchLimits(nodes=sum(probes) + 1), reports.append)
    assert line.completed and line.bound == Bound.EXACT and line.score == full.score
    assert reports[-1].completed and reports[-1].score == full.score
    assert line.score_text == full.score_text and line.best_move in position.legal_moves()


@pytest.mark.parametrize("kind", SOLVERS)
def test_a_solve_reports_its_bounds_as_they_narrow_then_its_result(kind: str) -> None:
    position = Connect4Game().new_position(LOSS_IN_14)
    seen: list[SearchResult[Any]] = []
    result = solver(kind)(position, None, seen.append)
    assert seen and seen[-1].completed and seen[-1].score == result.score and seen[-1].bound == Bound.EXACT
    lower, upper = -INF, INF
    for report in seen[:-1]:
        assert report.unresolved and report.score == report.lower and not report.completed
        assert lower <= report.lower <= result.score <= report.upper <= upper  # never widens
        lower, upper = report.lower, report.upper
    if kind != "placement":  # its kernel runs all its probes in one call: it reports as they stand, timed
        assert len(seen) == len(result.stats.iterations_nodes)  # each probe but the last, then the result
        assert seen[0].lower == -INF and seen[0].upper <= 0  # the first asked "is it a win?": no
