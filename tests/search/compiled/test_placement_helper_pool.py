"""The solver's helper processes belong to it: killed with ``kill -9`` in the middle of a
solve, it leaves no helper running a few seconds later."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SOLVE = (
    "from negamax.search.compiled.placement import CompiledSolver;"
    "from negamax.games.connect4.rules import Connect4Game;"
    "solver = CompiledSolver(threads=2, processes=True, hash_mib=16);"
    "print('helpers', solver.processes, flush=True);"
    "solver.solve(Connect4Game().new_position(''))"  # minutes: it is killed long before
)


def helpers_of(parent: int) -> list[int]:
    """The helper processes serving ``parent`` (their command line names it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            words = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"negamax.search.compiled.placement_helper_pool" in words and str(parent).encode() in words:
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_helpers_end_soon_after_their_solver_is_killed() -> None:
    pytest.importorskip("numba")
    process = subprocess.Popen([sys.executable, "-c", SOLVE], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if line.split() != ["helpers", "True"]:
            pytest.skip(f"no helper processes here ({line.strip()}): shared memory too small")
        deadline = time.monotonic() + 60
        while not helpers_of(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        helpers = helpers_of(process.pid)
        assert helpers, "the helper process did not start"
        time.sleep(1.0)  # the solve is under way, the helper searching
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
        deadline = time.monotonic() + 5
        while helpers_of(process.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert helpers_of(process.pid) == []
    finally:
        if process.poll() is None:
            process.kill()
        for helper in helpers_of(process.pid):
            os.kill(helper, signal.SIGKILL)
