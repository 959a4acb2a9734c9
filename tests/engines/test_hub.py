"""``negamax-hub`` driven by py-draughts' own HUB client, as a draughts GUI would."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

draughts = pytest.importorskip("draughts")
from draughts import StandardBoard  # noqa: E402
from draughts.engines.hub import HubEngine  # noqa: E402
from loguru import logger  # noqa: E402

from negamax.engines.hub import hub_to_fen  # noqa: E402


def hub_path() -> str:
    installed = Path(sys.executable).with_name("negamax-hub")
    if installed.exists():
        return str(installed)
    found = shutil.which("negamax-hub")
    assert found, "negamax-hub is not installed"
    return found


@pytest.fixture(autouse=True)
def quiet_client() -> None:
    logger.disable("draughts")


@pytest.fixture(scope="module", autouse=True)
def compiled_kernel_on_disk() -> None:
    """Compile the draughts kernel once here, so each engine below loads it from numba's
    cache within its ``init``."""
    from negamax.games.draughts import DraughtsGame
    from negamax.search.compiled.move_list import CompiledSearcher

    CompiledSearcher(hash_mib=1).warm_up(DraughtsGame("draughts").new_position(None))
    from negamax.search import warmup

    warmup.mark_on_disk(DraughtsGame("draughts"))  # as negamax warmup would: the engine loads it, no compile


def test_the_client_plays_complete_games_with_it() -> None:
    # the engine plays both sides; every move it sends must be legal on py-draughts' board
    openings = ["W:W27,28,32,33,37,38:B8,12,13,17,18", "W:W31,32,33,34,35:B16,17,18,19,20", "B:WK46,47:B5,6"]
    with HubEngine(hub_path(), depth_limit=4, init_timeout=30) as engine:
        assert engine.info.name == "negamax" and {"variant", "hash"} <= set(engine.params)
        for fen in openings:
            engine.new_game()
            board = StandardBoard.from_fen(fen)
            plies = 0
            while not board.game_over and plies < 150:
                move = engine.get_best_move(board)
                assert move in board.legal_moves
                board.push(move)
                plies += 1
            assert board.game_over, fen


@pytest.mark.timing
def test_a_time_limit_is_kept_and_pings_are_answered() -> None:
    import time

    with HubEngine(hub_path(), time_limit=0.3, init_timeout=30) as engine:
        board = StandardBoard()
        started = time.perf_counter()
        move = engine.get_best_move(board)
        assert move in board.legal_moves and time.perf_counter() - started < 0.5
        assert engine.ping()


def hub_session(lines: str) -> list[str]:
    done = subprocess.run([hub_path()], input=lines, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and not done.stderr
    return done.stdout.splitlines()


def test_two_threads_play_and_a_bad_count_gets_an_error() -> None:
    start = "W" + "b" * 20 + "e" * 10 + "w" * 20
    output = hub_session(
        f"hub\ninit\nset-param name=threads value=0\nset-param name=threads value=2\npos pos={start}\n"
        "level depth=6\ngo think\nping\nquit\n"
    )
    assert "param name=threads value=1 type=int min=1 max=64" in output
    errors = [line for line in output if line.startswith("error")]
    assert len(errors) == 1 and "threads" in errors[0], output
    done = [line for line in output if line.startswith("done")]
    assert len(done) == 1 and "pong" in output
    assert done[0].removeprefix("done move=") in {str(move) for move in StandardBoard().legal_moves}


def test_bad_lines_get_an_error_and_the_engine_goes_on() -> None:
    start = "W" + "b" * 20 + "e" * 10 + "w" * 20
    output = hub_session(
        "hub\ninit\nhello\npos pos=Wxyz\nset-param name=colour value=blue\nset-param name=variant value=killer\n"
        f'level depth=two\ngo\npos pos={start} moves="32-27 99-98"\n'
        f'pos pos={start} moves="32-28 19-23"\nlevel depth=3\ngo think\nping\nquit\n'
    )
    errors = [line for line in output if line.startswith("error")]
    assert len(errors) == 7, output
    assert "hello" in errors[0] and "50" in errors[1] and "colour" in errors[2] and "killer" in errors[3]
    assert "two" in errors[4] and "think" in errors[5] and "99-98" in errors[6]
    assert output[:4] == [line for line in output if line.split()[0] in ("id", "param", "wait")][:4]
    assert "ready" in output and "pong" in output
    done = [line for line in output if line.startswith("done")]
    assert hub_to_fen(start) == StandardBoard().fen.removeprefix('[FEN "').removesuffix('"]')
    assert done == ["done move=28x19x23"]  # the capture is forced: from 28 to 19, taking 23
