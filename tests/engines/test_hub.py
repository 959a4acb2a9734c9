"""``negamax-hub`` driven by py-draughts' own HUB client, as a draughts GUI would."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.kernels("draughts")

draughts = pytest.importorskip("draughts")
from draughts import StandardBoard  # noqa: E402
from draughts.engines.hub import HubEngine  # noqa: E402
from loguru import logger  # noqa: E402

from negamax.core.ranges import max_hash_mib  # noqa: E402
from negamax.engines.hub import HubProtocolError, hub_move_text, hub_to_fen, split_words  # noqa: E402
from negamax.games.draughts.rules import DraughtsGame  # noqa: E402
from negamax.search.strength import Strength  # noqa: E402


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
    from negamax.games.draughts.rules import DraughtsGame
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
    assert len(errors) == 8, output
    assert "hello" in errors[0] and "50" in errors[1] and "colour" in errors[2] and "killer" in errors[3]
    assert "two" in errors[4] and "a second a move" in errors[5] and "think" in errors[6] and "99-98" in errors[7]
    assert output[:4] == [line for line in output if line.split()[0] in ("id", "param", "wait")][:4]
    assert "ready" in output and "pong" in output
    done = [line for line in output if line.startswith("done")]
    assert hub_to_fen(start) == StandardBoard().fen.removeprefix('[FEN "').removesuffix('"]')
    assert done == ["done move=28x19x23"]  # the capture is forced: from 28 to 19, taking 23


def test_the_strength_param_sets_the_pages_levels() -> None:
    import io

    from negamax.engines.hub import HubSession

    with HubEngine(hub_path(), depth_limit=2, init_timeout=30) as engine:
        declared = engine.params["strength"]  # as the ecosystem's client reads the declaration
        assert (declared.min_val, declared.max_val, declared.value) == ("1", "8", "8")
    output = io.StringIO()
    session = HubSession(output)
    try:
        assert session.engine.strength == Strength.of_level(8) and session.engine.strength.full
        session.handle("set-param name=strength value=1")
        assert session.engine.strength == Strength.of_level(1) and session.engine.strength.depth == 2
        session.handle("set-param name=strength value=9")
        session.handle("set-param name=strength value=two")
        assert session.engine.strength == Strength.of_level(1)  # a refused value changes nothing
    finally:
        session.halt()
    errors = [line for line in output.getvalue().splitlines() if line.startswith("error")]
    assert len(errors) == 2 and all("strength" in line and "1 to 8" in line for line in errors), errors


START = "W" + "b" * 20 + "e" * 10 + "w" * 20
OPENING_MOVES = {str(move) for move in StandardBoard().legal_moves}


def test_the_largest_hash_is_what_this_machine_holds() -> None:
    with HubEngine(hub_path(), depth_limit=2, init_timeout=30) as engine:
        assert engine.params["hash"].max_val == str(max_hash_mib())


def test_every_go_think_gets_one_done_whatever_its_level() -> None:
    # (py-draughts' client takes any error for a failed search: these are sent as lines)
    levels = {
        "level depth=0 move-time=0.05": ["level depth", "not 0"],
        "level depth=abc": ["not abc", "playing a second a move"],
        "level move-time=nan nodes=500": ["level move-time", "not nan"],
        "level time=-1 depth=2": ["level time", "not -1"],
        "level time=5 inc=x moves=0": ["level inc", "not x", "level moves", "not 0"],
        "level sideways=1 depth=2": ["unknown parameter 'sideways'"],
        "level": ["needs depth="],
    }
    lines = "".join(f"{level}\ngo think\n" for level in levels)
    output = hub_session(f"hub\ninit\npos pos={START}\n{lines}go\ngo analyze\nstop\nping\nquit\n")
    done = [line.removeprefix("done move=") for line in output if line.startswith("done")]
    assert len(done) == len(levels) + 1 and set(done) <= OPENING_MOVES, output  # "go" alone is no search
    errors = " ".join(line for line in output if line.startswith("error"))
    assert all(word in errors for words in levels.values() for word in words), errors
    assert "go needs think, ponder or analyze" in errors and "pong" in output


def hub_process() -> subprocess.Popen[bytes]:
    return subprocess.Popen([hub_path()], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def overlong_line_then_ping() -> tuple[list[str], float]:
    """What a 5 MB line then ``ping`` get, and how long the ``pong`` took (1 MB once took
    16 s to be read)."""
    process = hub_process()
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"hub\ninit\n")
    process.stdin.flush()
    while process.stdout.readline().strip() != b"ready":
        pass
    started = time.perf_counter()
    process.stdin.write(b'pos pos="' + b"e" * 5_000_000 + b"\nping\n")
    process.stdin.flush()
    replies = [process.stdout.readline().decode().strip() for _ in range(2)]
    waited = time.perf_counter() - started
    _, errors = process.communicate(b"quit\n", timeout=30)
    assert process.returncode == 0 and not errors
    return replies, waited


def test_an_overlong_line_gets_one_error_and_the_next_line_is_answered() -> None:
    replies, _ = overlong_line_then_ping()
    assert replies[0] == 'error message="a line of 5000009 bytes is over the limit of 65536; it was not read"'
    assert replies[1] == "pong"


@pytest.mark.timing
def test_an_overlong_line_does_not_hold_the_engine_up() -> None:
    _, waited = overlong_line_then_ping()
    assert waited < 1.0


def test_a_long_valid_line_is_read() -> None:
    # two kings going back and forth: 14,800 moves, 59 kB (the game is drawn long before)
    kings = "WWB" + "e" * 48
    moves = " ".join(["1-6", "2-7", "6-1", "7-2"] * 3700)
    output = hub_session(f'hub\ninit\npos pos={kings} moves="{moves}"\nlevel depth=1\ngo think\nping\nquit\n')
    assert not [line for line in output if line.startswith("error")] and "pong" in output
    # drawn by the rules, but a move is owed while there is one (the kings are back where they began)
    position = DraughtsGame("draughts").new_position(hub_to_fen(kings))
    legal = {f"done move={hub_move_text(position, move)}" for move in position.legal_moves()}
    done = [line for line in output if line.startswith("done")]
    assert len(done) == 1 and done[0] in legal, done


def test_lines_split_into_words_as_the_protocol_quotes_them() -> None:
    assert split_words('pos pos=W moves="32-28 19-23"  x=""') == ["pos", "pos=W", "moves=32-28 19-23", "x="]
    assert split_words(' a"b c"d\te ') == ["ab cd", "e"]
    with pytest.raises(HubProtocolError, match="a quote is not closed"):
        split_words('pos moves="32-28')
