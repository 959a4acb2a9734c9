"""``Searcher``: several root moves scored (``multipv``) with the values a search of each
child gives, on both backends and every kind of game; tables kept or not; readiness."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from negamax import Searcher, SearchLimits, search, solve
from negamax.core.errors import InvalidOptionError
from negamax.core.score import INF, from_node, pons_to_distance
from negamax.games import get_game
from negamax.games.connect4.rules import Connect4Game
from negamax.games.nim import NimGame
from negamax.games.tictactoe.rules import TicTacToeGame
from negamax.search import reference

pytestmark = pytest.mark.kernels("chess", "draughts", "connect4", "connect4:5x4", "breakthrough")

DATA = Path(__file__).resolve().parents[1] / "data"
ROOT = Path(__file__).resolve().parents[2]
CONNECT4 = Connect4Game()


def child_values(position: Any, value_of: Any) -> dict[Any, int]:
    """Each legal move's value for the side to move, from its child's value."""
    values = {}
    for move in position.legal_moves():
        child = position.copy()
        child.play(move)
        child_value = from_node(child.terminal_value(), 0) if child.is_terminal() else value_of(child)
        values[move] = from_node(-child_value, 1)
    return values


def assert_lines_are_the_children(result: Any, expected: dict[Any, int], count: int) -> None:
    lines = result.lines
    assert len(lines) == min(count, len(expected))
    assert len({line.move for line in lines}) == len(lines)  # distinct moves
    assert [line.score for line in lines] == sorted(expected.values(), reverse=True)[: len(lines)]
    for line in lines:
        assert line.score == expected[line.move] and line.pv[0] == line.move
    assert result.best_move == lines[0].move and result.score == lines[0].score


def pons_cases(name: str, count: int) -> list[tuple[str, int]]:
    cases = []
    for line in DATA.joinpath(name).read_text().splitlines()[:count]:
        moves, score = line.split()
        cases.append((moves, int(score)))
    return cases


@pytest.mark.parametrize(
    ("name", "count"),
    [("Test_L3_R1", 4), ("Test_L2_R1", 4), ("Test_L2_R2", 2), pytest.param("Test_L1_R1", 2, marks=pytest.mark.slow)],
)
def test_every_connect4_column_scored_as_pons_and_as_each_child_solved(name: str, count: int) -> None:
    pytest.importorskip("numba")
    for moves, score in pons_cases(name, count):
        parent = CONNECT4.new_position(moves[:-1])
        result = solve(parent, multipv=7)
        assert result.completed and result.algorithm in ("compiled", "auto")
        # the column that led to Pons' position scores minus his score (his convention)
        played = CONNECT4.parse_move(parent, moves[-1])
        line = next(line for line in result.lines if line.move == played)
        assert CONNECT4.game_score(parent, line.score) == -score
        assert_lines_are_the_children(result, child_values(parent, lambda child: solve(child).score), 7)


def test_two_workers_score_every_column_side_by_side_as_one_does(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("numba")
    from negamax.search.compiled.placement import CompiledSolver

    side_by_side_solves = []
    solve_each = CompiledSolver.solve_each

    def counted(self: CompiledSolver, *arguments: Any) -> bool:
        side_by_side_solves.append(solve_each(self, *arguments))
        return side_by_side_solves[-1]

    monkeypatch.setattr(CompiledSolver, "solve_each", counted)
    two = Searcher(threads=2, keep_tables=False)
    one = Searcher(threads=1, keep_tables=False)
    for moves, _ in pons_cases("Test_L2_R2", 3):
        parent = CONNECT4.new_position(moves[:-1])
        alone, side_by_side = one.solve(parent, multipv=7), two.solve(parent, multipv=7)
        assert side_by_side.completed
        # the same lines in the same order (moves of equal value in the game's order), each
        # with its principal variation
        assert [(line.move, line.score, len(line.pv) > 1) for line in side_by_side.lines] == [
            (line.move, line.score, len(line.pv) > 1) for line in alone.lines
        ]
        assert side_by_side.best_move == alone.best_move
        assert_lines_are_the_children(side_by_side, child_values(parent, lambda child: solve(child).score), 7)
    assert side_by_side_solves == [False, True] * 3  # one worker: in turn; two: side by side
    limited = two.solve(CONNECT4.new_position("4433"), SearchLimits(nodes=20_000), multipv=7)
    assert not limited.completed and limited.nodes <= 7 * 21_000  # each child its nodes, once


@pytest.mark.parametrize("threads", [1, 2])
def test_a_known_value_bounds_every_column_and_changes_no_score(threads: int) -> None:
    """Pons' value of a position, given as its bounds (as the page gives the book's), leaves
    every column's score as it is and saves probes: side by side (two workers) and in turn."""
    pytest.importorskip("numba")
    searcher = Searcher(threads=threads, keep_tables=False)
    nodes = {"known": 0, "unknown": 0}
    for moves, score in pons_cases("Test_L2_R2", 3):
        position = CONNECT4.new_position(moves)
        value = pons_to_distance(score, 42, len(moves))
        unknown = searcher.solve(position, multipv=7)
        known = searcher.solve(position, multipv=7, bounds=(value, value))
        assert known.completed and known.score == unknown.score == value
        assert [(line.move, line.score) for line in known.lines] == [(line.move, line.score) for line in unknown.lines]
        nodes["known"] += known.nodes
        nodes["unknown"] += unknown.nodes
    assert nodes["known"] < nodes["unknown"], nodes
    alone = searcher.solve(position, bounds=(value, INF))  # one line: the position's own solve
    assert alone.completed and alone.lower == alone.upper == value
    with pytest.raises(InvalidOptionError, match="lower one is above"):
        searcher.solve(position, bounds=(1, -1))
    with pytest.raises(InvalidOptionError, match="no value"):
        searcher.solve(position, bounds=(INF, INF))


def test_a_solve_of_some_moves_scores_the_best_first() -> None:
    position = TicTacToeGame().new_position("04")
    result = Searcher().solve(position, multipv=3)
    expected = child_values(position, lambda child: solve(child, backend="python").score)
    assert_lines_are_the_children(result, expected, 3)
    python = Searcher("python").solve(position, multipv=9)
    assert_lines_are_the_children(python, expected, 9)


@pytest.mark.parametrize("depth", [1, 2, 4])
def test_multipv_at_a_fixed_depth_on_a_plain_python_game(depth: int) -> None:
    position = NimGame().new_position("3,4,5")
    result = search(position, SearchLimits(depth=depth), multipv=20)
    expected = child_values(position, lambda child: reference.negamax(child, depth - 1))
    assert_lines_are_the_children(result, expected, 20)


def test_multipv_on_a_compiled_game_equals_the_plain_game_child_by_child() -> None:
    pytest.importorskip("numba")
    game = get_game(f"{ROOT / 'examples' / 'breakthrough.py'}:Breakthrough")
    module = sys.modules[type(game).__module__]
    compiled, plain = game.new_position(), module.BreakthroughPosition()
    for index in (0, 3, 1, 5):  # the same moves on both: the rules written both ways
        move = compiled.legal_moves()[index]
        compiled.play(move)
        plain.play(move)
    for depth in (1, 3):
        # a game written as rules searches with features that keep fixed-depth values exact
        found = search(compiled, SearchLimits(depth=depth), multipv=5)
        assert found.algorithm == "compiled"
        assert_lines_are_the_children(found, child_values(plain, _alphabeta_to(depth - 1)), 5)
        python = search(plain, SearchLimits(depth=depth), multipv=5, algorithm="alphabeta")
        assert [line.score for line in python.lines] == [line.score for line in found.lines]


def _alphabeta_to(depth: int) -> Any:
    def value(child: Any) -> int:
        return search(child, SearchLimits(depth=depth), algorithm="alphabeta").score if depth else child.evaluate()

    return value


def test_multipv_on_chess_and_draughts_gives_distinct_moves_best_first() -> None:
    pytest.importorskip("numba")
    chess = get_game("chess").new_position("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")  # Rd8 mates
    result = search(chess, SearchLimits(depth=3), multipv=3)
    assert result.lines[0].move.uci() == "d1d8" and result.lines[0].score_text == "win in 1"
    single = search(chess, SearchLimits(depth=3))
    assert single.best_move == result.best_move and single.score == result.score


@pytest.mark.parametrize("backend", ["python", "compiled"])
@pytest.mark.parametrize(
    ("name", "text"),
    [("chess", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"), ("draughts", None)],
)
def test_each_chess_and_draughts_line_is_its_move_searched_alone(name: str, text: str | None, backend: str) -> None:
    pytest.importorskip("numba")
    if name == "draughts":
        pytest.importorskip("draughts")
    position = get_game(name).new_position(text)
    # The compiled draughts search prunes by margins around its window, and a line's search
    # starts from a table its earlier lines filled: a line's score may then differ a little
    # from its move's searched alone (at depth 3 from the start, 31-27: -1 as the third line,
    # -2 alone and by plain negamax, with the regions' worths of 39da357).
    tolerance = 5 if (name, backend) == ("draughts", "compiled") else 0
    for depth in (1, 3):
        lines = search(position, SearchLimits(depth=depth), multipv=3, backend=backend).lines
        assert len({line.move for line in lines}) == 3
        assert [line.score for line in lines] == sorted((line.score for line in lines), reverse=True)
        for line in lines:
            alone = search(position, SearchLimits(depth=depth), root_moves=[line.move], backend=backend)
            assert alone.best_move == line.move
            assert abs(alone.score - line.score) <= tolerance


def test_at_depth_one_both_backends_score_every_draughts_move_alike() -> None:
    # the backends share the evaluation; deeper, the compiled search's pruning (and in chess
    # its quiescence's exchange pruning) makes fixed-depth values its own
    pytest.importorskip("numba")
    pytest.importorskip("draughts")
    position = get_game("draughts").new_position(None)
    python, compiled = (search(position, SearchLimits(depth=1), multipv=99, backend=b) for b in ("python", "compiled"))
    assert {line.move: line.score for line in python.lines} == {line.move: line.score for line in compiled.lines}
    assert len(python.lines) == len(list(position.legal_moves()))


def test_multipv_to_a_time_reports_whole_depths() -> None:
    pytest.importorskip("numba")
    position = CONNECT4.new_position("4453")
    seen: list[Any] = []
    result = search(position, SearchLimits(time=0.3), multipv=3, on_iteration=seen.append)
    assert seen and all(len(report.lines) == 3 for report in seen)
    assert [report.depth for report in seen] == list(range(1, len(seen) + 1))
    assert result.lines == seen[-1].lines


def test_a_searcher_that_keeps_its_tables_learns_and_clear_forgets() -> None:
    pytest.importorskip("numba")
    position = get_game("chess").new_position("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    keeper = Searcher(hash_mib=4, keep_tables=True)
    first = keeper.search(position, SearchLimits(depth=5))
    second = keeper.search(position, SearchLimits(depth=5))
    assert second.nodes < first.nodes  # the second starts from the first one's table
    keeper.clear()
    assert keeper.search(position, SearchLimits(depth=5)).nodes == first.nodes
    fresh = Searcher(hash_mib=4)
    assert fresh.search(position, SearchLimits(depth=5)).nodes == fresh.search(position, SearchLimits(depth=5)).nodes


def test_a_searcher_that_does_not_wait_answers_in_python_until_its_kernel_is_ready() -> None:
    pytest.importorskip("numba")
    game = get_game("connect4:5x4")
    searcher = Searcher(game=game, wait_for_kernel=False)
    first = searcher.search(game.new_position("33"), SearchLimits(depth=4))
    assert searcher.wait_until_ready(60) and searcher.ready()
    later = searcher.search(game.new_position("33"), SearchLimits(depth=4))
    assert later.algorithm == "compiled" and later.score == first.score
    searcher.close()


KALAH_LINES = (("", ()), ("1", (1,)))


def test_value_at_least_on_the_pure_python_search_brackets_the_exact_value() -> None:
    """Kalah (a player may move twice; plain values: the max/min oracle's) and Nim (wins at
    a distance): at least the value, not at least one more, on a searcher keeping its table
    between the questions and on one that does not; a finished game or chess is refused."""
    from negamax.core.errors import InvalidOptionError
    from negamax.core.score import WIN
    from tests import oracle

    kalah = get_game(f"{oracle.EXAMPLE}:Kalah(3, 3)")
    nim = NimGame()
    cases = [(kalah.new_position(text), oracle.minimax(oracle.kalah(3, 3, moves))) for text, moves in KALAH_LINES]
    cases += [(nim.new_position(text), solve(nim.new_position(text)).score) for text in ("1,2,3", "2,4,5")]
    for searcher in (Searcher(keep_tables=True), Searcher()):
        for position, value in cases:
            assert searcher.value_at_least(position, value) and not searcher.value_at_least(position, value + 1)
            assert searcher.value_at_least(position, -WIN + 1) and not searcher.value_at_least(position, WIN)
    finished = nim.new_position("0,0,1")
    finished.play(next(iter(finished.legal_moves())))
    with pytest.raises(InvalidOptionError, match="the game is over"):
        Searcher().value_at_least(finished, 0)
    with pytest.raises(InvalidOptionError, match="cannot be solved exactly"):
        Searcher().value_at_least(get_game("chess").new_position(None), 0)


ANSWER_FIRST = """
import sys
from negamax import Searcher, SearchLimits
from negamax.games import get_game
game = get_game("connect4")
searcher = Searcher("auto", game=game)
quick = searcher.solve(game.new_position("44455554221"))
chess = get_game("chess")
shallow = Searcher("auto", game=chess).search(chess.new_position(None), SearchLimits(depth=2))
plain = Searcher("python").solve(game.new_position("44455554221"))
unsettled = searcher.answer_without_compiling(game.new_position("4"), SearchLimits(), solving=True)
print(game.game_score(game.new_position("44455554221"), quick.score), quick.score == plain.score, quick.algorithm,
      shallow.depth, shallow.algorithm, unsettled, "numba" in sys.modules)
"""


def test_a_position_settled_in_a_few_nodes_is_answered_without_compiling(tmp_path: Path) -> None:
    # an empty cache: each call would compile its kernel first; these need none
    import os
    import subprocess

    environment = {**os.environ, "NEGAMAX_CACHE_DIR": str(tmp_path), "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    done = subprocess.run(
        [sys.executable, "-c", ANSWER_FIRST], env=environment, capture_output=True, text=True, timeout=120, check=True
    )
    score, equal, algorithm, depth, chess_algorithm, unsettled, numba = done.stdout.split()
    assert (score, equal, depth) == ("-15", "True", "2")  # Pons' score of the README's position
    assert "compiled" not in (algorithm, chess_algorithm)
    assert unsettled == "None"  # a position needing more than QUICK_NODES waits for its kernel
    assert numba == "False" and "compiling" not in done.stderr
