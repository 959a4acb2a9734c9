"""One place decides between the pure-Python search and a compiled kernel: what it picks,
what it refuses, and that both give the same values."""

from __future__ import annotations

import subprocess
import sys

import pytest

import negamax
from negamax import InvalidOptionError, SearchLimits, search, solve
from negamax.games.chess.rules import ChessGame
from negamax.games.connect4.rules import Connect4Game
from negamax.games.nim import NimGame
from negamax.games.tictactoe.rules import TicTacToeGame
from negamax.search import choose_backend
from negamax.search.trace import SearchTrace

pytestmark = pytest.mark.kernels("chess", "connect4")


@pytest.mark.parametrize(
    "moves",
    [
        "52753311433677442422121",  # Pons' Middle-Easy set: 19 empty cells
        pytest.param("4453", marks=pytest.mark.slow),  # minutes in pure Python
    ],
)
def test_solve_runs_connect4_on_the_compiled_solver_by_default(moves: str) -> None:
    pytest.importorskip("numba")
    position = Connect4Game().new_position(moves)
    compiled = negamax.solve(position)
    python = negamax.solve(position, backend="python")
    assert compiled.algorithm == "compiled" and python.algorithm == "auto"
    assert compiled.score == python.score and compiled.completed and python.completed


def test_the_choice() -> None:
    connect4 = Connect4Game().new_position("44")
    chess = ChessGame().new_position("startpos")
    nim = NimGame().new_position("3,4")
    assert choose_backend(connect4, solving=True) == "compiled"
    assert choose_backend(connect4, solving=False) == "compiled"  # Connect 4 has rules for the move-list kernel
    tictactoe = TicTacToeGame().new_position()
    assert choose_backend(tictactoe, solving=False) == "python"  # its placement solver only solves
    assert choose_backend(chess, solving=False) == "compiled"
    assert choose_backend(chess, solving=False, python_only="a trace") == "python"
    assert choose_backend(nim, solving=True) == "python"
    assert choose_backend(connect4, "python", solving=True) == "python"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: solve(NimGame().new_position("3,4"), backend="compiled"), "no compiled backend to solve"),
        (
            lambda: search(TicTacToeGame().new_position(), SearchLimits(depth=2), backend="compiled"),
            "to search to a limit",
        ),
        (
            lambda: solve(TicTacToeGame().new_position(), backend="compiled", algorithm="mtdf"),
            "'mtdf' needs the python",
        ),
        (lambda: solve(TicTacToeGame().new_position(), backend="compiled", trace=SearchTrace()), "a trace needs"),
        (lambda: solve(TicTacToeGame().new_position(), backend="gpu"), "unknown backend 'gpu'"),
    ],
)
def test_what_the_compiled_backend_cannot_do_is_refused(call: object, message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        call()  # type: ignore[operator]


def test_extras_of_the_python_search_choose_it() -> None:
    position = TicTacToeGame().new_position("04")
    traced = solve(position, trace=SearchTrace())
    assert traced.algorithm == "auto"
    assert solve(position, algorithm="negamax").algorithm == "negamax"


def test_a_finished_game_is_answered_without_a_search_on_either_backend() -> None:
    position = TicTacToeGame().new_position("0314")
    position.play(2)  # X completes the top row
    for backend in ("auto", "python"):
        result = solve(position, backend=backend)
        assert (result.best_move, result.score_text, result.nodes) == (None, "loss in 0", 0)


def test_a_library_call_starts_from_clean_tables_every_time() -> None:
    pytest.importorskip("numba")
    position = ChessGame().new_position("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    first, second = (search(position, SearchLimits(depth=5)) for _ in range(2))
    assert first.algorithm == second.algorithm == "compiled"
    assert (first.nodes, first.score, first.best_move) == (second.nodes, second.score, second.best_move)


def test_importing_the_library_or_its_command_line_does_not_import_numba() -> None:
    code = (
        "import sys, negamax; from negamax.cli.main import build_parser; build_parser().format_help();"
        " print('numba' in sys.modules, 'numpy' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["False", "False"], done.stderr


def test_a_quick_solve_is_chosen_by_the_position_and_loads_no_kernel() -> None:
    code = (
        "import sys, negamax; from negamax.games.connect4.rules import Connect4Game;"
        " result = negamax.solve(Connect4Game().new_position('2252576253462244111563365343671351441'));"
        " print(result.score_text, result.algorithm, 'numba' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["loss", "in", "4", "auto", "False"], done.stderr


@pytest.mark.parametrize("moves", ["44455554221", "2252576253462244111563365343671351441"])
def test_the_same_solve_gives_the_same_answer_whatever_ran_before(moves: str) -> None:
    pytest.importorskip("numba")
    code = (
        "import sys, negamax; from negamax.games.connect4.rules import Connect4Game; from negamax import SearchLimits;"
        " game = Connect4Game();"
        " sys.argv[1] == 'after' and negamax.search(game.new_position('4453'), SearchLimits(depth=6));"
        f" result = negamax.solve(game.new_position('{moves}'));"
        " print(result.algorithm, result.nodes, result.score, result.best_move)"
    )
    fresh, after = (
        subprocess.run([sys.executable, "-c", code, when], capture_output=True, text=True, timeout=120)
        for when in ("fresh", "after")
    )
    assert fresh.returncode == 0 and after.returncode == 0, fresh.stderr + after.stderr
    assert fresh.stdout == after.stdout


def test_solve_refuses_a_game_that_cannot_be_solved_unless_limited() -> None:
    from negamax.core.errors import InvalidOptionError
    from negamax.games import get_game

    start = get_game("chess").new_position(None)
    with pytest.raises(InvalidOptionError, match="cannot be solved exactly here"):
        solve(start)
    with pytest.raises(InvalidOptionError, match="cannot be solved exactly here"):
        solve(start, backend="python")
