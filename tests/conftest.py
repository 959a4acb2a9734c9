"""Kernels compiled for the tests that need them, and only for those.

A test (or a module, through ``pytestmark``) marked ``kernels("chess", ...)`` gets those
games' kernels compiled into the disk cache before it starts, each game once per run, in a
process of its own as ``negamax warmup`` does: the tests that run an engine or the command
line in another process then find them there instead of answering in pure Python while the
kernel compiles. A test that builds a compiled searcher itself needs no mark: it compiles (or
loads) what it uses on the spot. A run that needs no kernel compiles none."""

from __future__ import annotations

import fnmatch
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE_GAME = str(Path(__file__).resolve().parents[1] / "examples" / "breakthrough.py") + ":Breakthrough"
"""The example game of the guide, as the command line names it (``kernels("breakthrough")``)."""

_compiled: set[str] = set()

RUNS_KERNELS = (
    "tests/search/compiled/*",
    "tests/games/test_compiled_game.py",
    "tests/games/*/test_compiled.py",
    "tests/games/connect4/test_board_sizes.py",
    "tests/games/connect4/test_claimeven.py",
    "tests/games/connect4/test_dead_stones.py",
    "tests/games/draughts/test_perft.py",
    "tests/games/draughts/test_bitboards.py",
    "tests/games/test_checker.py",
    "tests/search/test_shared_policy.py",
    "tests/docs/test_examples.py",
    "tests/docs/test_tutorial.py",
)
"""Modules whose tests build compiled searchers themselves. With the tests marked
``kernels`` or ``numba``, those parametrized with the ``"compiled"`` backend and those
served by the web app with its kernels loaded (the ``web`` fixture), they make
the ``numba`` suite: on a fresh machine each game's kernels cost 20-60 CPU-s to compile,
which the default run (about 200 CPU-s in all) cannot afford, so ``.ci/run`` runs them as a
step of their own (``pytest -m numba``)."""


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # tryfirst: the mark must be there before ``-m`` selects
    for item in items:
        module = item.nodeid.split("::")[0]
        callspec = getattr(item, "callspec", None)
        on_compiled = callspec is not None and any(value == "compiled" for value in callspec.params.values())
        serves_kernels = "web" in getattr(item, "fixturenames", ())  # the web app's server, its kernels loaded
        marked = item.get_closest_marker("kernels") is not None
        if on_compiled or serves_kernels or marked or any(fnmatch.fnmatch(module, glob) for glob in RUNS_KERNELS):
            item.add_marker(pytest.mark.numba)


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
