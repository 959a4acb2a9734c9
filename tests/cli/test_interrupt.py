"""Ctrl-C while a game's own method runs (issue 72, finding 2): the first one stops the
search and prints the best so far (or names the method that did not return), the second
one ends the process at once, whatever the game's code does."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

BROKEN = Path(__file__).resolve().parents[1] / "data" / "broken_games.py"
ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="POSIX signals")


def started(*arguments: str) -> subprocess.Popen[str]:
    """The command running, once the game's method has begun to loop (it says so through
    ``BROKEN_GAMES_LOOPING``): a fixed wait would send Ctrl-C too early on a loaded machine."""
    with tempfile.TemporaryDirectory() as folder:
        marker = Path(folder) / "looping"
        environment = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "BROKEN_GAMES_LOOPING": str(marker)}
        process = subprocess.Popen(
            [sys.executable, "-m", "negamax", *arguments],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
        )
        deadline = time.monotonic() + 120
        while not marker.exists():
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                out, err = process.communicate()
                pytest.fail(f"the game's method never began to loop: {out} {err}")
            time.sleep(0.05)
    time.sleep(0.2)  # into the loop itself
    return process


def interrupted(process: subprocess.Popen[str], times: int = 1) -> tuple[int, str, str, float]:
    for _ in range(times):
        process.send_signal(signal.SIGINT)
        time.sleep(0.3)
    start = time.monotonic()
    try:
        out, err = process.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        pytest.fail(f"still running 10 s after Ctrl-C: {err}")
    return process.returncode, out, err, time.monotonic() - start


@pytest.mark.parametrize(
    ("arguments", "method"),
    [
        (["analyze", f"{BROKEN}:LoopsForever", "--depth", "4"], "LoopsForever.evaluate"),
        (["solve", f"{BROKEN}:LoopsMoves"], "LoopsMoves.legal_moves"),
    ],
)
def test_the_first_ctrl_c_ends_a_method_that_loops_and_names_it(arguments: list[str], method: str) -> None:
    status, _, err, _ = interrupted(started(*arguments))
    assert status == 130, err
    line = next(number for number, text in enumerate(BROKEN.read_text().splitlines(), 1) if "while True" in text)
    assert err.strip().splitlines()[-1].startswith(f"negamax: interrupted: {method} did not return (broken_games.py:")
    assert "Traceback" not in err and line > 0


def test_the_first_ctrl_c_prints_the_best_so_far() -> None:
    status, out, err, _ = interrupted(started("analyze", f"{BROKEN}:LoopsDeep", "--depth", "30"))
    assert status == 130, err
    assert "LoopsDeep.evaluate did not return" in err and "the best so far" in err
    assert "best move  1" in out or "best move  2" in out, out
    assert int(out.split("depth")[1].split()[0]) >= 2, out


@pytest.mark.parametrize("command", ["analyze", "compare"])
def test_a_second_ctrl_c_ends_the_process_whatever_the_game_does(command: str) -> None:
    process = started(command, f"{BROKEN}:SwallowsInterrupts", "--depth", "4")
    process.send_signal(signal.SIGINT)
    time.sleep(1.5)  # the method was interrupted, and swallowed it
    assert process.poll() is None
    status, _, err, seconds = interrupted(process)
    assert status == -signal.SIGINT and seconds < 2, (status, err)
