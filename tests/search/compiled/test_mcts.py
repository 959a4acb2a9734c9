"""The compiled Monte Carlo tree search (``negamax.search.compiled.mcts``): the same tree as
the pure-Python search from the same seed, node for node; MCTS-Solver's exact values equal
to the alpha-beta solver's (Hex 3x3 and 4x4) and to the oracle's (Kalah, where a player
moves twice); limits; and ``search()`` running it on a game without an evaluation."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from negamax import Searcher, SearchLimits, SearchOptions
from negamax.games import get_game
from negamax.search import mcts
from tests import oracle

pytest.importorskip("numba")
pytestmark = pytest.mark.compiles  # Hex's and Kalah's Monte Carlo kernels: about 20 CPU-s each

from negamax.search.compiled.mcts import CompiledMCTS  # noqa: E402

HEX = Path(__file__).resolve().parents[3] / "examples" / "hex.py"


def hex_position(size: int, moves: str = "") -> Any:
    return get_game(f"{HEX}:CompiledHex({size})").new_position(moves or None)


def kalah_position(pits: int, seeds: int) -> Any:
    return get_game(f"{oracle.EXAMPLE}:CompiledKalah({pits}, {seeds})").new_position()


def tree_of(result: Any) -> list[tuple[Any, int | None, float | None, int, int]]:
    return [(line.move, line.visits, line.win_rate, line.lower, line.upper) for line in result.lines]


@pytest.mark.parametrize(
    ("position", "playouts", "seed", "tree_mib"),
    [
        (lambda: hex_position(4), "game", 1, 64),
        (lambda: hex_position(4), "random", 2, 64),
        (lambda: hex_position(5, "c3 b3"), "game", 3, 64),
        (lambda: hex_position(4), "game", 4, 0.01),  # a tree that fills: the same nodes left out
        (lambda: kalah_position(3, 3), "random", 5, 64),
        (lambda: kalah_position(4, 3), "random", 6, 64),
    ],
)
def test_the_compiled_search_grows_the_python_searchs_tree(
    position: Any, playouts: str, seed: int, tree_mib: float
) -> None:
    start = position()
    options = SearchOptions(driver="mcts", seed=seed, playouts=playouts, exploration=0.9)
    limits = SearchLimits(nodes=3000)
    python = mcts.search(start, limits, options, lines=64, tree_mib=tree_mib)
    compiled = CompiledMCTS(tree_mib).search(start, limits, options, lines=64)
    assert compiled.algorithm == "compiled mcts" and compiled.nodes == python.nodes
    assert tree_of(compiled) == tree_of(python)
    assert compiled.pv == python.pv and compiled.score == python.score and compiled.lower == python.lower


@pytest.mark.parametrize("size", [3, 4])
def test_hex_is_solved_to_the_alpha_beta_solvers_value(size: int) -> None:
    position = hex_position(size)
    expected = Searcher("compiled").solve(position)
    found = Searcher("compiled").solve(position, algorithm="mcts")
    assert found.algorithm == "compiled mcts" and found.completed
    assert found.score == expected.score
    assert found.score_text == expected.score_text == ("win in 5", "win in 9")[size - 3]


def test_every_first_move_of_3x3_hex_has_the_alpha_beta_value() -> None:
    position = hex_position(3)
    expected = Searcher("compiled").solve(position, multipv=9)
    searcher = Searcher("compiled")
    for line in expected.lines:
        assert searcher.solve(position, algorithm="mcts", root_moves=[line.move]).score == line.score, line.move


@pytest.mark.parametrize(("pits", "seeds"), oracle.SIZES)
def test_kalah_is_solved_to_the_oracles_value(pits: int, seeds: int) -> None:
    found = Searcher("compiled").solve(kalah_position(pits, seeds), algorithm="mcts")
    assert found.completed and found.score == oracle.minimax(oracle.kalah(pits, seeds))


def test_search_runs_it_on_a_game_without_an_evaluation() -> None:
    searcher = Searcher()
    position = hex_position(5)
    assert searcher.backend_for(position, solving=False) == "compiled"
    reports: list[Any] = []
    timed = searcher.search(position, SearchLimits(time=0.2), multipv=3, on_iteration=reports.append)
    assert timed.algorithm == "compiled mcts" and timed.completed and timed.nodes > 1000
    assert len(reports) >= 2 and reports[-1] == timed and reports[0].nodes >= 1024
    assert len(timed.lines) == 3 and timed.lines[0].visits >= timed.lines[1].visits >= timed.lines[2].visits
    assert searcher.search(position, SearchLimits(depth=2)).algorithm == "compiled"  # a depth: alpha-beta
    stop = threading.Event()
    stop.set()
    stopped = searcher.search(position, SearchLimits(time=30, stop=stop))
    assert not stopped.completed and stopped.best_move is not None


def test_a_finished_game_is_found_by_the_playouts_through_a_win_in_one() -> None:
    # x to move joins its sides with d2 or b4... any winning move is proven at once
    position = hex_position(4, "b1 a1 b2 a2 b3 a3")
    result = Searcher("compiled").search(position, SearchLimits(nodes=2000), algorithm="mcts")
    assert result.score_text == "win in 1" and result.completed


def test_a_game_without_an_evaluation_has_its_monte_carlo_kernel_prepared() -> None:
    game = get_game(f"{HEX}:CompiledHex(5)")
    searcher = Searcher(game=game, wait_for_kernel=False)
    assert searcher.prepare()
    assert searcher.ready() and not searcher.compiling
    # once ready, a search of the game runs on the compiled Monte Carlo search at once
    result = searcher.search(game.new_position(), SearchLimits(nodes=500))
    assert result.algorithm == "compiled mcts" and result.nodes == 500
