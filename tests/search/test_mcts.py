"""Monte Carlo tree search in Python (``negamax.search.mcts``): MCTS-Solver's exact values
equal to the alpha-beta solver's and to the max/min oracle (where a player moves twice),
results counted for the right player, limits, seeds, lines, and how ``search()`` picks it."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path
from typing import Any

import pytest

from negamax import InvalidOptionError, Searcher, SearchLimits, SearchOptions, search, solve
from negamax.core.errors import GameDefinitionError
from negamax.core.score import WIN, WIN_THRESHOLD, Bound, from_child, from_node
from negamax.games import get_game
from negamax.games.random_tree import RandomTree, TreeShape
from negamax.search.mcts_tree import SCORE_SCALE, MCTSTrace
from negamax.search.trace import SearchTrace
from tests import oracle

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PYTHON = Searcher("python")


def hex_game(size: int, compiled: bool = False) -> Any:
    return get_game(f"{EXAMPLES / 'hex.py'}:{'CompiledHex' if compiled else 'Hex'}({size})")


def mcts_solve(position: Any, **keywords: Any) -> Any:
    return PYTHON.solve(position, algorithm="mcts", **keywords)


@pytest.mark.parametrize("seed", range(8))
def test_random_trees_where_players_move_twice_are_solved_to_the_oracles_value(seed: int) -> None:
    tree = RandomTree(TreeShape(branching=3, depth=6, seed=seed, again=30, leaves=10, low=-9, high=9))
    result = mcts_solve(tree)
    assert result.completed and result.bound == Bound.EXACT
    assert result.score == oracle.minimax(tree)


def test_random_trees_with_transpositions_are_solved_to_the_oracles_value() -> None:
    for seed in range(4):
        tree = RandomTree(TreeShape(branching=4, depth=7, seed=seed, transpositions=6, again=30))
        assert mcts_solve(tree).score == oracle.minimax(tree), seed


@pytest.mark.parametrize(("pits", "seeds"), oracle.SIZES)
def test_kalah_is_solved_to_the_oracles_value(pits: int, seeds: int) -> None:
    position = oracle.kalah(pits, seeds)
    result = mcts_solve(position)
    assert result.completed and result.score == oracle.minimax(position) == oracle.FIRST_PLAYER_VALUES[pits, seeds]


def test_kalah_positions_are_solved_to_the_oracles_value() -> None:
    for pits, seeds, moves in oracle.positions():
        position = oracle.kalah(pits, seeds, moves)
        assert mcts_solve(position).score == oracle.minimax(position), (pits, seeds, moves)


@pytest.mark.parametrize("size", [2, 3])
def test_hex_is_solved_to_the_alpha_beta_solvers_value_with_its_distance(size: int) -> None:
    position = hex_game(size).new_position()
    expected = solve(position, backend="python")
    found = mcts_solve(position)
    assert found.completed and found.score == expected.score and found.score_text == expected.score_text
    assert found.score >= WIN_THRESHOLD  # the first player wins Hex
    assert exact_value(position, found.best_move) == found.score  # its move wins as fast


def exact_value(position: Any, move: Any) -> int:
    """The alpha-beta solver's value of ``move`` for the side to move at ``position``."""
    child = position.copy()
    child.play(move)
    value = from_node(child.terminal_value(), 0) if child.is_terminal() else solve(child, backend="python").score
    return from_child(value, child.player() == position.player())


def test_every_first_move_of_3x3_hex_has_the_alpha_beta_value() -> None:
    position = hex_game(3).new_position()
    expected = {line.move: line.score for line in solve(position, backend="python", multipv=9).lines}
    for move, value in expected.items():
        assert mcts_solve(position, root_moves=[move]).score == value, move


def test_tictactoe_is_a_draw_and_symmetric_positions_share_no_moves() -> None:
    # the tree's graph joins positions by their exact key: a symmetric position's moves
    # are other cells (a canonical key there proved a win for the first player)
    assert mcts_solve(get_game("tictactoe").new_position()).score == 0


def test_a_result_counts_for_the_player_who_moved_again() -> None:
    # every child is a finished game; where the same player is to move there, its value is
    # that player's (won: the root's player won), else the opponent's
    for seed in range(6):
        tree = RandomTree(TreeShape(branching=6, depth=1, seed=seed, again=100, low=-5, high=5))
        root_player = tree.player()
        result = PYTHON.search(tree, SearchLimits(nodes=60), algorithm="mcts", multipv=6)
        for line in result.lines:
            child = tree.copy()
            child.play(line.move)
            value = child.terminal_value() if child.player() == root_player else -child.terminal_value()
            assert line.win_rate == (1.0 if value > 0 else 0.0 if value < 0 else 0.5)
            assert line.score == line.lower == line.upper == value  # proven: a finished game


def test_the_solver_says_win_in_n_only_once_proven() -> None:
    position = hex_game(3).new_position("b2")
    claims = 0
    for playouts in (30, 100, 300):
        result = PYTHON.search(position, SearchLimits(nodes=playouts), algorithm="mcts", multipv=8)
        for line in result.lines:
            if abs(line.score) >= WIN_THRESHOLD:  # a win or loss: proven, and the bounds hold
                claims += 1
                assert line.bound == Bound.EXACT or line.lower < line.upper
                assert line.lower <= exact_value(position, line.move) <= line.upper
    assert claims > 0


def test_a_playout_limit_is_the_number_of_playouts_and_a_seed_repeats_the_search() -> None:
    position = hex_game(4).new_position()
    options = SearchOptions(driver="mcts", seed=5)
    first = PYTHON.search(position, SearchLimits(nodes=700), options=options, multipv=4)
    again = PYTHON.search(position, SearchLimits(nodes=700), options=options, multipv=4)
    other = PYTHON.search(position, SearchLimits(nodes=700), options=dataclasses.replace(options, seed=6), multipv=4)
    assert first.nodes == 700 and sum(line.visits or 0 for line in first.lines) <= 700
    assert [(line.move, line.visits, line.win_rate) for line in first.lines] == [
        (line.move, line.visits, line.win_rate) for line in again.lines
    ]
    assert [line.visits for line in first.lines] != [line.visits for line in other.lines]


def test_lines_are_ranked_by_visits_with_their_win_rates_and_scores() -> None:
    position = hex_game(5).new_position()
    result = PYTHON.search(position, SearchLimits(nodes=1500), algorithm="mcts", multipv=25)
    assert result.algorithm == "mcts" and len(result.lines) == 25
    visits = [line.visits for line in result.lines]
    assert visits == sorted(visits, reverse=True) and sum(visits) == 1500
    for line in result.lines:
        assert line.win_rate is not None and 0 <= line.win_rate <= 1 and line.pv[0] == line.move
        assert line.score == round(SCORE_SCALE * (2 * line.win_rate - 1))
    assert result.best_move == result.lines[0].move and result.score == result.lines[0].score


def test_both_playouts_and_a_game_without_its_own_playout_are_searched() -> None:
    for playouts in ("game", "random"):
        options = SearchOptions(driver="mcts", playouts=playouts)
        assert mcts_solve(hex_game(3).new_position(), options=options).score == WIN - 5
    assert mcts_solve(oracle.kalah(2, 2), options=SearchOptions(driver="mcts", playouts="game")).score == -2


def test_the_stop_event_and_a_time_limit_end_the_search() -> None:
    stop = threading.Event()
    stop.set()
    stopped = PYTHON.search(hex_game(5).new_position(), SearchLimits(time=60, stop=stop), algorithm="mcts")
    assert not stopped.completed and stopped.best_move is not None
    timed = PYTHON.search(hex_game(5).new_position(), SearchLimits(time=0.05), algorithm="mcts")
    assert timed.completed and timed.nodes > 0
    unfinished = PYTHON.solve(hex_game(5).new_position(), SearchLimits(nodes=200), algorithm="mcts")
    assert not unfinished.completed and unfinished.unresolved and unfinished.bound == Bound.LOWER


def test_progress_is_reported_and_the_last_report_is_the_result() -> None:
    reports: list[Any] = []
    position = hex_game(4).new_position()
    result = PYTHON.search(position, SearchLimits(nodes=5000), algorithm="mcts", on_iteration=reports.append)
    assert len(reports) >= 3 and reports[-1] == result
    assert [report.nodes for report in reports] == sorted(report.nodes for report in reports)


def test_auto_runs_mcts_on_a_game_without_an_evaluation_searched_to_a_time_or_playouts() -> None:
    position = hex_game(4).new_position()
    assert PYTHON.search(position, SearchLimits(nodes=300)).algorithm == "mcts"
    assert PYTHON.search(position, SearchLimits(depth=2)).algorithm == "auto"  # a depth: alpha-beta
    assert PYTHON.search(position, SearchLimits(nodes=300), algorithm="pvs").algorithm == "pvs"
    kalah = oracle.kalah(3, 3)  # it has an evaluation
    assert PYTHON.search(kalah, SearchLimits(nodes=300)).algorithm == "auto"
    assert search(get_game("openspiel:hex(board_size=3)").new_position(), SearchLimits(nodes=200)).algorithm == "mcts"


def test_what_mcts_cannot_do_is_refused() -> None:
    position = hex_game(3).new_position()
    with pytest.raises(InvalidOptionError, match="no depth"):
        PYTHON.search(position, SearchLimits(depth=3), algorithm="mcts")
    with pytest.raises(InvalidOptionError, match="transposition table"):
        from negamax import TranspositionTable

        PYTHON.search(position, SearchLimits(nodes=10), algorithm="mcts", table=TranspositionTable(entries=64))
    with pytest.raises(InvalidOptionError, match="MCTSTrace"):
        PYTHON.search(position, SearchLimits(depth=2), algorithm="pvs", trace=MCTSTrace())
    with pytest.raises(InvalidOptionError, match="traced with an MCTSTrace"):
        PYTHON.search(position, SearchLimits(nodes=10), algorithm="mcts", trace=SearchTrace())
    with pytest.raises(InvalidOptionError, match="exploration"):
        SearchOptions(driver="mcts", exploration=-1)
    with pytest.raises(InvalidOptionError, match="compiled Monte Carlo"):
        Searcher("compiled").search(oracle.kalah(2, 2), SearchLimits(nodes=10), algorithm="mcts")


def test_a_finished_game_and_root_moves() -> None:
    position = hex_game(2).new_position("a1 b1 a2")
    over = PYTHON.search(position, SearchLimits(nodes=10), algorithm="mcts")
    assert over.best_move is None and over.score == -WIN
    start = hex_game(3).new_position()
    only = PYTHON.search(start, SearchLimits(nodes=50), algorithm="mcts", root_moves=[0, 8], multipv=9)
    assert {line.move for line in only.lines} == {0, 8}


def test_the_tree_picture_holds_the_busiest_nodes_and_the_chosen_line() -> None:
    trace = MCTSTrace(max_nodes=40)
    result = PYTHON.search(hex_game(4).new_position(), SearchLimits(nodes=2000), algorithm="mcts", trace=trace)
    nodes = trace.nodes
    assert len(nodes) == 40 and nodes[0].visits == 2000 and trace.playouts == 2000
    for node in nodes[1:]:
        parent = nodes[node.parent]
        assert node.index in parent.children and node.path[:-1] == parent.path and node.path[-1] == node.move
        assert node.visits <= parent.visits
    assert [nodes[index].move for index in trace.pv[1:]] == list(result.pv[: len(trace.pv) - 1])


def test_a_playout_that_returns_no_result_is_named() -> None:
    class Broken(RandomTree):
        def playout(self, seed: int) -> int:
            return 10**9

        def copy(self) -> Broken:
            twin = Broken(self.shape)
            twin.stack = list(self.stack)
            return twin

    with pytest.raises(GameDefinitionError, match="playout"):
        PYTHON.search(Broken(TreeShape(depth=4)), SearchLimits(nodes=20), algorithm="mcts")


def test_the_random_numbers_are_the_kernels_stream() -> None:
    from negamax.core.random_numbers import RandomNumbers, playout_numbers

    stream = RandomNumbers(123)
    numbers = [stream.next() for _ in range(1000)]
    assert all(0 <= number < 1 << 62 for number in numbers) and len(set(numbers)) == 1000
    assert playout_numbers(123, 1000) == numbers
