"""Multipv inside each backend's one deepening (``negamax.search.lines``): every line is its
move's value at the depth searched, the one a brute-force search of its child gives, the
lines distinct and best first; a limit keeps the last depth whose lines are all done; a
search of one line is the search it always was."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from negamax import Searcher, SearchLimits, search
from negamax.games import get_game
from negamax.search import reference
from negamax.search.params import options_for
from tests.search.test_searcher import assert_lines_are_the_children, child_values

CONNECT4 = ("371175556215615", "15176337473", "3735142213437", "4453")
"""Positions whose moves take three or four values at depth 5, wins among them."""
CHESS = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"  # Rd8 mates; the other moves differ in value
QUIESCENT = dataclasses.replace(options_for("alphabeta"), quiescence=True)


def negamax_below(depth: int) -> Any:
    """A child's value by plain negamax, ``depth - 1`` plies deep."""
    return lambda child: reference.negamax(child, depth - 1)


def quiescent_below(depth: int) -> Any:
    """A child's value by alpha-beta with quiescence, ``depth - 1`` plies deep."""
    return lambda child: search(child, SearchLimits(depth=depth - 1), options=QUIESCENT).score


@pytest.mark.parametrize("algorithm", ["negamax", "alphabeta", "alphabeta-tt", "pvs", "mtdf", "auto"])
@pytest.mark.parametrize(("name", "text", "depth"), [("tictactoe", "", 4), ("tictactoe", "40", 5), ("nim", "2,3,4", 4)])
def test_python_lines_are_the_brute_force_values(name: str, text: str, depth: int, algorithm: str) -> None:
    position = get_game(name).new_position(text or None)
    expected = child_values(position, negamax_below(depth))
    for count in (2, 4, 99):
        result = search(position, SearchLimits(depth=depth), multipv=count, algorithm=algorithm, backend="python")
        assert_lines_are_the_children(result, expected, count)
        assert result.completed and result.depth <= depth  # shallower: every line seen to its end


@pytest.mark.numba
@pytest.mark.parametrize("text", CONNECT4)
def test_connect4_lines_on_both_backends_are_the_brute_force_values(text: str) -> None:
    pytest.importorskip("numba")
    from negamax.search.compiled import move_list_layout as layout
    from negamax.search.compiled.move_list import CompiledSearcher

    position = get_game("connect4").new_position(text)
    # the compiled search without its pruning: the fixed-depth value, which the tests compare
    exact = CompiledSearcher(hash_mib=1, features=layout.RULES_FEATURES | layout.HISTORY_HEURISTIC)
    for depth in (1, 3, 5):
        expected = child_values(position, negamax_below(depth))
        assert_lines_are_the_children(exact.search(position, SearchLimits(depth=depth), multipv=4), expected, 4)
        for backend in ("python", "compiled"):
            result = search(position, SearchLimits(depth=depth), multipv=4, backend=backend)
            assert_lines_are_the_children(result, expected, 4)
            assert result.depth == depth and result.completed


@pytest.mark.numba
def test_chess_lines_on_both_backends_are_each_child_searched_alone() -> None:
    pytest.importorskip("numba")
    from negamax.search.compiled import move_list_layout as layout
    from negamax.search.compiled.move_list import CompiledSearcher

    position = get_game("chess").new_position(CHESS)
    exact = CompiledSearcher(hash_mib=1, features=layout.EXACT_FEATURES | layout.TRANSPOSITION_TABLE)
    for depth in (2, 3):
        expected = child_values(position, quiescent_below(depth))
        python = search(position, SearchLimits(depth=depth), multipv=5, options=QUIESCENT, backend="python")
        assert_lines_are_the_children(python, expected, 5)
        assert_lines_are_the_children(exact.search(position, SearchLimits(depth=depth), multipv=5), expected, 5)
        assert python.lines[0].move.uci() == "d1d8" and python.lines[0].score_text == "win in 1"


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_a_node_limit_keeps_the_last_depth_whose_lines_are_all_done(backend: str) -> None:
    if backend == "compiled":
        pytest.importorskip("numba")
    position = get_game("connect4").new_position("4453")
    seen: list[Any] = []
    cut = search(position, SearchLimits(nodes=3000), multipv=3, backend=backend, on_iteration=seen.append)
    assert not cut.completed and cut.nodes >= 3000 and seen
    assert [report.depth for report in seen] == list(range(1, len(seen) + 1))
    assert all(len(report.lines) == 3 for report in seen)
    # the same searches as one to that depth, which stops where the cut one had its last whole depth
    whole = search(position, SearchLimits(depth=seen[-1].depth), multipv=3, backend=backend)
    assert cut.lines == whole.lines == seen[-1].lines and cut.depth == whole.depth
    assert whole.nodes == seen[-1].nodes and whole.completed


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_a_time_limited_multipv_reports_only_whole_depths(backend: str) -> None:
    if backend == "compiled":
        pytest.importorskip("numba")
    position = get_game("connect4").new_position("4453")
    searcher = Searcher(backend)
    searcher.search(position, SearchLimits(depth=1))  # the kernel loaded before the clock starts
    seen: list[Any] = []
    result = searcher.search(position, SearchLimits(time=0.3), multipv=4, on_iteration=seen.append)
    assert seen and all(len(report.lines) == 4 and report.completed for report in seen)
    assert [report.depth for report in seen] == list(range(1, len(seen) + 1))
    assert result.lines == seen[-1].lines and result.depth == seen[-1].depth and not result.completed
    assert all(len({line.move for line in report.lines}) == 4 for report in seen)


def test_a_multipv_search_stopped_before_its_first_depth_still_has_a_line() -> None:
    position = get_game("connect4").new_position("4453")
    result = search(position, SearchLimits(nodes=5), multipv=3, backend="python")
    assert not result.completed and len(result.lines) == 1 and result.lines[0].move == result.best_move


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_lines_stop_deepening_once_every_one_is_seen_to_the_end(backend: str) -> None:
    if backend == "compiled":
        pytest.importorskip("numba")
    position = get_game("connect4").new_position("4226163156117155424")  # one move wins, the others lose
    result = search(position, SearchLimits(time=600), multipv=3, backend=backend)
    assert result.completed and result.depth <= 3
    assert [line.score_text for line in result.lines] == ["win in 1", "loss in 2", "loss in 2"]


@pytest.mark.parametrize(
    ("backend", "game", "text", "depth", "nodes"),
    [
        ("python", "connect4", "4453", 8, 7841),
        ("compiled", "chess", "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1", 9, 10679),  # BK.02
    ],
)
def test_one_line_searches_the_nodes_it_always_did(backend: str, game: str, text: str, depth: int, nodes: int) -> None:
    # measured before multipv moved into the deepening loops: one line takes the same path
    if backend == "compiled":
        pytest.importorskip("numba")
    position = get_game(game).new_position(text)
    assert search(position, SearchLimits(depth=depth), backend=backend).nodes == nodes
    assert search(position, SearchLimits(depth=depth), backend=backend, multipv=1).nodes == nodes
