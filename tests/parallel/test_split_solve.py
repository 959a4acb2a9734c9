"""One solve split over a pool (``negamax.parallel.split_solve``): the value of one process,
on local processes and on a Dask cluster, a worker killed on the way, and the command line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from negamax.core.errors import InvalidOptionError
from negamax.core.score import WIN_THRESHOLD
from negamax.games import get_game
from negamax.parallel.pools import make_pool, serial_pool
from negamax.parallel.split_solve import SplitProgress, split_solve
from negamax.parallel.worker import BatchJob
from negamax.search.compiled.placement import CompiledSolver
from tests import oracle

pytestmark = pytest.mark.kernels("connect4")

DATA = Path(__file__).resolve().parents[1] / "data"
GAME = get_game("connect4")


def middle_medium(count: int) -> list[tuple[str, int]]:
    pairs = [line.split() for line in DATA.joinpath("Test_L2_R2").read_text().splitlines()[:count]]
    return [(text, int(score)) for text, score in pairs]


@pytest.mark.parametrize("plies", [1, 2, 3])
def test_a_split_solve_gives_the_value_of_one_process(plies: int) -> None:
    job = BatchJob("connect4", solve=True)
    pool = serial_pool(job)
    try:
        for text, expected in middle_medium(6):
            result = split_solve(GAME, GAME.new_position(text), pool, plies)
            assert result.value == expected, text
            assert result.levels[0] == 1 and len(result.levels) == plies + 1
    finally:
        pool.close()


def test_a_split_solve_on_two_processes_of_another_board_gives_the_direct_value() -> None:
    game = get_game("connect4:6x5")
    position = game.new_position("")
    direct, _ = CompiledSolver().solve_value(position)
    reports: list[SplitProgress] = []
    pool = make_pool(BatchJob(game.name, solve=True), 2, None)
    try:
        result = split_solve(game, position, pool, 3, reports.append)
    finally:
        pool.close()
    assert result.value == direct == 0 and result.score == 0  # 6x5 is a draw (Tromp)
    thresholds = [report.threshold for report in reports]
    assert thresholds[0] == 1 and thresholds[-1] == 0  # a win? then a draw or a loss? (probe_point)
    assert result.questions > 0 and result.levels == [1, 3, 18, 78]  # distinct up to the mirror


@pytest.mark.parametrize("plies", [1, 2, 3])
def test_a_split_solve_of_tictactoe_gives_the_solve_score(plies: int) -> None:
    """Another placement game, whose finished games' values come from the solver's own
    scores, not the game's (tic-tac-toe's game score is the distance score)."""
    from negamax.search import solve

    game = get_game("tictactoe")
    pool = serial_pool(BatchJob("tictactoe", solve=True))
    for text in ("", "4", "40", "0123", "048", "4015"):
        position = game.new_position(text)
        assert split_solve(game, position, pool, plies).score == solve(position).score, text


def test_a_finished_position_or_another_game_is_refused() -> None:
    pool = serial_pool(BatchJob("connect4", solve=True))
    won = GAME.new_position("445566")
    won.play(won.column_move(6))  # four in the bottom row (a text with it is refused)
    with pytest.raises(InvalidOptionError, match="the game is over"):
        split_solve(GAME, won, pool)
    with pytest.raises(InvalidOptionError, match="split must be a whole number from 1 to 6"):
        split_solve(GAME, GAME.new_position(""), pool, 7)
    chess = get_game("chess")
    with pytest.raises(InvalidOptionError, match="cannot be solved exactly"):
        split_solve(chess, chess.new_position(None), pool)


KALAH = f"{oracle.EXAMPLE}:Kalah(3, 3)"


def test_a_split_solve_of_a_game_whose_player_moves_twice_gets_the_oracles_values() -> None:
    """Kalah in plain Python on two processes, each loading the game by the reference
    given (its name with parameters is no name a worker could load it by)."""
    game = get_game(KALAH)
    pool = make_pool(BatchJob(KALAH, solve=True), 2, None)
    try:
        start = split_solve(game, game.new_position(None), pool, 2, reference=KALAH)
        assert start.value == start.score == oracle.FIRST_PLAYER_VALUES[(3, 3)]
        assert start.levels[0] == 1 and start.questions > 0
        # moves that let the same player move again, near the root and at the split depth
        for moves in ((1,), (3,), (1, 2), (2, 3, 1)):
            expected = oracle.minimax(oracle.kalah(3, 3, moves))
            position = game.new_position(" ".join(map(str, moves)))
            assert split_solve(game, position, pool, 2, reference=KALAH).value == expected, moves
    finally:
        pool.close()


@pytest.mark.parametrize("plies", [1, 3])
def test_a_split_solve_of_kalah_is_the_same_at_every_depth(plies: int) -> None:
    game = get_game(KALAH)
    pool = serial_pool(BatchJob(KALAH, solve=True))
    for pits, seeds, moves in oracle.positions():
        if (pits, seeds) == (3, 3):
            position = game.new_position(" ".join(map(str, moves)) or None)
            expected = oracle.minimax(oracle.kalah(3, 3, moves))
            assert split_solve(game, position, pool, plies, reference=KALAH).value == expected, moves


def test_a_split_solve_of_random_trees_whose_player_may_move_twice_gets_the_oracles_values() -> None:
    """Trees with transpositions in which half the nodes draw their player to move, on one
    pool: each solve starts on clean worker tables (two trees of the game share keys)."""
    game = get_game("random")
    pool = serial_pool(BatchJob("random", solve=True))
    for seed in range(8):
        position = game.new_position(f"branching=3,depth=6,seed={seed},transpositions={seed % 2 * 4},again=50")
        expected = oracle.minimax(position)
        for plies in (1, 2, 3):
            assert split_solve(game, position, pool, plies).value == expected, (seed, plies)


def test_a_split_solve_of_a_game_won_at_a_distance_gets_the_solves_score() -> None:
    """Nim's wins and losses carry their distance: the questions near the win thresholds."""
    from negamax.search import solve

    game = get_game("nim")
    pool = serial_pool(BatchJob("nim", solve=True))
    for text in (None, "1,2,3", "2,4,5"):
        position = game.new_position(text)
        expected = solve(position).score
        assert abs(expected) >= WIN_THRESHOLD, text
        for plies in (1, 2):
            assert split_solve(game, position, pool, plies).score == expected, (text, plies)


@pytest.mark.compiles
def test_a_split_solve_of_compiled_kalah_gets_the_known_values() -> None:
    """The compiled version (one kernel for every size), its workers asking the move-list
    kernel."""
    for pits, seeds, moves in ((4, 3, ()), (3, 3, (1,)), (3, 3, (2, 3, 1))):
        reference = f"{oracle.EXAMPLE}:CompiledKalah({pits}, {seeds})"
        game = get_game(reference)
        position = game.new_position(" ".join(map(str, moves)) or None)
        expected = oracle.FIRST_PLAYER_VALUES[(pits, seeds)] if not moves else oracle.minimax(oracle.kalah(3, 3, moves))
        pool = make_pool(BatchJob(reference, solve=True), 2, None)
        try:
            assert split_solve(game, position, pool, 3, reference=reference).value == expected, (pits, seeds, moves)
        finally:
            pool.close()


@pytest.mark.fuzz
def test_a_split_solve_on_a_dask_cluster_survives_a_worker_killed_mid_way() -> None:
    """A LocalCluster of two workers; one is killed with SIGKILL at the first progress
    report: its questions go to the other worker (and a new one), and the value is right."""
    pytest.importorskip("distributed")
    text, expected = middle_medium(20)[-1]
    pool = make_pool(BatchJob("connect4", solve=True), 2, "local")
    killed: list[int] = []

    def kill_one_worker(progress: SplitProgress) -> None:
        if not killed and progress.answered < progress.asked:
            pids = sorted(pool.client.run(os.getpid).values())
            killed.append(pids[0])
            os.kill(pids[0], signal.SIGKILL)

    try:
        result = split_solve(GAME, GAME.new_position(text), pool, 4, kill_one_worker)
        assert killed, "no worker was killed while questions were out"
        assert result.value == expected
    finally:
        pool.close()


def test_the_command_line_splits_a_solve_over_a_local_dask_cluster() -> None:
    pytest.importorskip("distributed")
    command = [sys.executable, "-m", "negamax", "solve", "connect4:5x4", "--scheduler", "local", "--workers", "2"]
    finished = subprocess.run([*command, "--split", "3"], capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.splitlines()[0].split()[:2] == ["score", "0"]  # 5x4 is a draw
    refused = subprocess.run(
        [sys.executable, "-m", "negamax", "solve", "connect4", "--split", "3"], capture_output=True, text=True
    )
    assert refused.returncode == 2 and "give --scheduler" in refused.stderr
    unused = subprocess.run([*command, "--hash", "8"], capture_output=True, text=True)
    assert unused.returncode == 2 and "takes no --hash" in unused.stderr


def test_the_command_line_splits_a_game_from_a_file_with_its_parameters(tmp_path: Path) -> None:
    """The workers load the game by the reference given on the command line, with its
    parameters (the game's own name, ``little kalah(pits=3,seeds=3)``, names no file); a
    game that cannot be solved exactly is refused before any cluster starts."""
    pytest.importorskip("distributed")
    plugin = tmp_path / "little.py"
    plugin.write_text(
        f"import sys\nsys.path.insert(0, {str(oracle.EXAMPLE.parent)!r})\nfrom kalah import Kalah\n\n\n"
        "class LittleKalah(Kalah):\n    name = 'little kalah'\n"
    )
    reference = f"{plugin}:LittleKalah(3, 3)"
    command = [sys.executable, "-m", "negamax", "solve", reference, "1", "--scheduler", "local", "--workers", "1"]
    finished = subprocess.run([*command, "--split", "2", "--json"], capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr
    record = json.loads(finished.stdout)
    assert record["game"] == "little kalah(pits=3,seeds=3)"
    assert record["score"] == oracle.minimax(oracle.kalah(3, 3, (1,))) and record["positions_per_ply"][0] == 1
    refused = subprocess.run(
        [sys.executable, "-m", "negamax", "solve", "chess", "--scheduler", "local"], capture_output=True, text=True
    )
    assert refused.returncode == 2 and "chess cannot be solved exactly" in refused.stderr
