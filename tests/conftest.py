"""Kernels compiled for the tests that need them, and only for those.

A test (or a module, through ``pytestmark``) marked ``kernels("chess", ...)`` gets those
games' kernels compiled into the disk cache before it starts, each game once per run, in a
process of its own as ``negamax warmup`` does: the tests that run an engine or the command
line in another process then find them there instead of answering in pure Python while the
kernel compiles. A test that builds a compiled searcher itself needs no mark: it compiles (or
loads) what it uses on the spot. A run that needs no kernel compiles none."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE_GAME = str(Path(__file__).resolve().parents[1] / "examples" / "breakthrough.py") + ":Breakthrough"
"""The example game of the guide, as the command line names it (``kernels("breakthrough")``)."""

_compiled: set[str] = set()


def pytest_runtest_setup(item: pytest.Item) -> None:
    wanted = [
        EXAMPLE_GAME if game == "breakthrough" else game for mark in item.iter_markers("kernels") for game in mark.args
    ]
    missing = list(dict.fromkeys(game for game in wanted if game not in _compiled))
    if not missing or importlib.util.find_spec("numba") is None:
        return
    finished = subprocess.run(
        [sys.executable, "-m", "negamax.search.kernel_compiler", "--quiet", *missing],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if finished.returncode != 0:
        pytest.fail(f"compiling the kernels of {', '.join(missing)} failed:\n{finished.stderr[-3000:]}")
    _compiled.update(missing)
