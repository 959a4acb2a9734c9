import threading
from typing import Any

import pytest

from negamax.core.errors import GameDefinitionError, InvalidOptionError
from negamax.core.score import WIN, WIN_THRESHOLD, Bound, describe
from negamax.core.types import SearchLimits, SearchResult
from negamax.games.chess.rules import ChessGame
from negamax.games.connect4.rules import Connect4Game
from negamax.games.random_tree import RandomTree, TreeShape
from negamax.games.tictactoe.rules import TicTacToeGame
from negamax.search import TranspositionTable, search, solve
from negamax.search.driver import solve as solve_here
from tests.core.test_keys import Partisan, value

GAME = Connect4Game()


def test_search_needs_a_limit_and_solve_refuses_a_depth() -> None:
    with pytest.raises(InvalidOptionError, match="limit"):
        search(GAME.new_position(""))
    with pytest.raises(InvalidOptionError, match="depth"):
        solve(GAME.new_position(""), SearchLimits(depth=3))
    with pytest.raises(InvalidOptionError, match="unknown algorithm"):
        solve(GAME.new_position(""), algorithm="minimax")


def test_iterations_reach_the_callback_and_the_position_is_untouched() -> None:
    position = GAME.new_position("4453")
    key = position.key()
    seen: list[SearchResult[Any]] = []
    result = search(position, SearchLimits(depth=6), on_iteration=seen.append, backend="python")
    assert [item.depth for item in seen] == [1, 2, 3, 4, 5, 6]
    assert seen[-1].score == result.score and result.completed
    assert position.key() == key and position.moves == 4
    assert len(result.stats.iterations_nodes) == 6
    assert result.effective_branching_factor > 1
    assert result.pv[0] == result.best_move


def test_node_limit_returns_the_last_completed_iteration() -> None:
    position = GAME.new_position("")
    result = search(position, SearchLimits(depth=30, nodes=5_000), backend="python")
    assert not result.completed
    assert result.nodes <= 5_000 + 1
    assert 1 <= result.depth < 30
    assert result.best_move in position.legal_moves()


def test_stop_event_and_time_limit() -> None:
    stop = threading.Event()
    stop.set()
    result = search(GAME.new_position(""), SearchLimits(depth=30, stop=stop), backend="python")
    assert not result.completed and result.best_move is not None
    timed = search(GAME.new_position(""), SearchLimits(time=0.2), backend="python")
    assert not timed.completed and timed.depth >= 1


def test_interrupted_solve_reports_proven_bounds() -> None:
    # a win in 23 (a Middle-Medium position of Pons' sets), which pure Python solves in
    # about 100k nodes: a quarter of that proves it a win, not yet how long
    position = GAME.new_position("2531276566711153")
    exact = solve(position, backend="python")
    assert exact.score_text == "win in 23"
    result = solve(position, SearchLimits(nodes=25_000), backend="python")
    assert not result.completed
    assert WIN_THRESHOLD <= result.lower <= exact.score <= result.upper < WIN  # a proven win, its distance open
    assert result.lower < result.upper
    # what it states is what it proved: a win, at least this quick (no sentinel read as a distance)
    assert result.bound == Bound.LOWER and result.score == result.lower
    assert result.score_text == f"not proven: at least {describe(result.lower)}, at most {describe(result.upper)}"


def test_game_over_position() -> None:
    position = TicTacToeGame().new_position("0314")
    position.play(2)  # X completes the top row
    result = solve(position, backend="python")
    assert result.best_move is None and result.score_text == "loss in 0" and result.nodes == 0


def test_deepening_stops_when_the_tree_is_exhausted() -> None:
    result = search(TicTacToeGame().new_position(""), SearchLimits(time=30), backend="python")
    assert result.completed and result.depth == 9 and result.score == 0


def test_a_shared_table_serves_later_searches() -> None:
    table = TranspositionTable(entries=100_003)
    position = GAME.new_position("4453")
    first = search(position, SearchLimits(depth=7), table=table)
    second = search(position, SearchLimits(depth=7), table=table)
    assert second.score == first.score and second.nodes < first.nodes


def test_mtdf_and_bisection_return_exact_results_with_a_pv() -> None:
    tree = RandomTree(TreeShape(branching=3, depth=6, seed=3, transpositions=40))
    for algorithm in ("mtdf", "auto"):
        result = solve(tree, algorithm=algorithm)
        assert result.bound == Bound.EXACT and len(result.pv) == 6


def test_a_search_stopped_inside_its_first_iteration_plays_a_move_of_the_root() -> None:
    # the abort unwinds the tree without taking its moves back, so the fallback move must
    # come from the root, not from the copy the search was walking (a UCI engine played
    # the opponent's moves so, given 30 ms while busy)
    position = ChessGame().new_position("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    for nodes in (2, 3, 5, 8):
        result = search(position, SearchLimits(nodes=nodes), backend="python")
        assert result.depth == 0 and not result.completed
        assert result.best_move in position.legal_moves()


@pytest.mark.parametrize("algorithm", ["auto", "mtdf"])
def test_a_search_that_meets_a_confused_key_raises_naming_the_key(algorithm: str) -> None:
    # the driver itself, without the searcher's check of the keys first: two searches of
    # the root that contradict each other are an error naming the key (some solves meet
    # none and return a wrong value: what the searcher's check is for)
    refused = 0
    for stones in range(3, 14):
        try:
            solve_here(Partisan(stones), algorithm=algorithm)
        except GameDefinitionError as error:
            assert "two searches of the same position contradict each other" in str(error)
            assert "key()" in str(error) and "transposition table" in str(error)
            refused += 1
    assert refused >= 3


def test_without_a_table_a_confused_key_is_harmless() -> None:
    for stones in range(3, 14):
        assert solve_here(Partisan(stones), algorithm="alphabeta").score == value(Partisan(stones))
