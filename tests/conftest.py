"""The whole run shares one warm-up: the built-in games' compiled kernels are compiled
(or loaded) first, one game per core, as ``negamax warmup`` does, so the tests that use
them load them from the disk cache instead of each compiling them in turn."""

from __future__ import annotations

import importlib.util
import subprocess
import sys


def pytest_sessionstart() -> None:
    if importlib.util.find_spec("numba") is not None:
        subprocess.run([sys.executable, "-m", "negamax", "warmup", "--quiet"], check=False, timeout=1800)
