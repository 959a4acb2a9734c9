"""The whole run shares one warm-up: the compiled kernels of the built-in games, of Connect 4
on other boards and of the example game are compiled (or loaded) first, one game per core,
as ``negamax warmup`` does, so the tests that use them load them from the disk cache instead
of each compiling them in turn."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

EXAMPLE_GAME = Path(__file__).resolve().parents[1] / "examples" / "breakthrough.py"
WARMED = ("connect4", "tictactoe", "chess", "draughts", "connect4:5x4", f"{EXAMPLE_GAME}:Breakthrough")


def pytest_sessionstart() -> None:
    if importlib.util.find_spec("numba") is not None:
        subprocess.run(
            [sys.executable, "-m", "negamax.search.kernel_compiler", "--quiet", *WARMED], check=False, timeout=1800
        )
