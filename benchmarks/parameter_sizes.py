"""The sizes of a game with parameters on one compiled kernel: what a second size costs.

The guide's ``TakeAway(stones, most)`` (``docs/your-own-game.md``, section 6), its
parameters in the state, in empty kernel caches of the run's own:

* the first size compiles the kernel;
* a second size, in the same process, runs on it (nothing compiled);
* the same second size with a kernel of its own (the process's families forgotten and
  another empty cache: what every size cost when the sizes were compiled into the kernel);
* a new size in a new process, loading the shared kernel from the disk cache.

    nice -n 10 python benchmarks/parameter_sizes.py

CPU seconds of the first exact solve of each (``time.process_time``; the new process's
from ``resource.getrusage``).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from negamax import solve
from your_game import guide_module

LOAD = """
import sys, time
sys.path.insert(0, sys.argv[1])
import your_own_game
from negamax import solve
print(solve(your_own_game.TakeAway(40, 8).new_position()).score_text)
"""


def first_solve(game: Any) -> tuple[str, float]:
    started = time.process_time()
    result = solve(game.new_position())
    assert result.algorithm == "compiled", result.algorithm
    return result.score_text, time.process_time() - started


def main() -> int:
    from negamax.search.compiled import families

    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        os.environ["NEGAMAX_CACHE_DIR"] = str(directory / "shared")
        module = guide_module(directory)
        rows = []
        value, seconds = first_solve(module.TakeAway(21, 3))
        rows.append(("first size, TakeAway(21, 3): compiles the kernel", value, seconds))
        value, seconds = first_solve(module.TakeAway(20, 4))
        assert families.family_count() == 1
        rows.append(("second size, TakeAway(20, 4): the same kernel", value, seconds))

        os.environ["NEGAMAX_CACHE_DIR"] = str(directory / "own")
        families._families.clear()
        families._rules_keys.clear()
        value, seconds = first_solve(module.TakeAway(20, 4))
        rows.append(("second size with a kernel of its own", value, seconds))

        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        environment = {**os.environ, "NEGAMAX_CACHE_DIR": str(directory / "shared")}
        loaded = subprocess.run(
            [sys.executable, "-c", LOAD, str(directory)], capture_output=True, text=True, env=environment, check=True
        )
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        title = "new size in a new process, TakeAway(40, 8): from the disk cache"
        rows.append((title, loaded.stdout.strip(), seconds))

    print(f"{'first exact solve':<66}{'value':>12}{'CPU s':>8}")
    for title, value, seconds in rows:
        print(f"{title:<66}{value:>12}{seconds:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
