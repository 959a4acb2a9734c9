"""Steininger's ``c4`` as a peer in the same run: built from its source (not packaged, never
copied into the project) for a board size and thread count, in a scratch folder, then run
on the empty board.

``c4`` takes the board size, threads and table size as constants (``src/solver/settings.h``):
each build is a copy of the source with those lines changed, compiled with its CMake
preset ``optimise`` (needs g++ with C++20, CMake and Ninja). Builds are kept in
``--builds`` (default: a folder under the system's temporary folder) and reused.
"""

from __future__ import annotations

import dataclasses
import re
import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

DEFAULT_BUILDS = Path(tempfile.gettempdir()) / "negamax-c4-builds"


@dataclasses.dataclass(frozen=True)
class C4Run:
    score: int
    """``c4``'s strong score of the empty board (the winner's stones left, as Pons'
    scores, from the first player's side)."""
    nodes: int
    """Its node count: positions with a choice whose children were searched."""
    search_seconds: float
    """The time ``c4`` reports for its search."""
    cpu_seconds: float
    """The whole process's CPU time (user + system), table set-up included."""
    wall_seconds: float


def build(source: Path, width: int, height: int, threads: int, builds: Path = DEFAULT_BUILDS) -> Path:
    """The ``c4`` executable for this board and thread count (0: all cores), built if needed."""
    folder = builds / f"c4-{width}x{height}-t{threads}"
    executable = folder / "out" / "optimise" / "c4"
    if executable.exists():
        return executable
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(source, folder)
    settings = folder / "src" / "solver" / "settings.h"
    text = settings.read_text()
    for name, value in (("BOARD_WIDTH", width), ("BOARD_HEIGHT", height), ("NUM_THREADS", threads)):
        text, count = re.subn(rf"(inline constexpr int {name} = )\d+;", rf"\g<1>{value};", text)
        if count != 1:
            raise RuntimeError(f"{settings}: no line sets {name}")
    settings.write_text(text)
    subprocess.run(["cmake", "--preset", "optimise"], cwd=folder, check=True, capture_output=True)
    subprocess.run(["cmake", "--build", "out/optimise", "--target", "c4"], cwd=folder, check=True, capture_output=True)
    return executable


def solve_empty(executable: Path) -> C4Run:
    """Run ``c4`` on the empty board (it reads one line of moves: an empty one)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    finished = subprocess.run([str(executable)], input="\n\n", capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    output = finished.stdout
    score = re.search(r"Final strong score is (-?\d+)", output)
    nodes = re.search(r"Total\s*=\s*(\d+)", output)
    seconds = re.search(r"Time to solve\s*=\s*([\d.]+) s", output)
    if not (score and nodes and seconds):
        raise RuntimeError(f"{executable}: unexpected output:\n{output[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return C4Run(int(score.group(1)), int(nodes.group(1)), float(seconds.group(1)), cpu, wall)
