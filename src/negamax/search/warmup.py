"""Getting a compiled kernel ready without making anyone wait on it unknowingly.

A kernel on numba's disk cache loads in a fraction of a second. One that is not (the first
run after installing, or after an upgrade) takes numba 10-30 seconds to compile, and does
so holding the interpreter lock in long stretches. So it is compiled in a separate
process, ``negamax warmup GAME``, while this process keeps its lock (an engine goes on
answering with the pure-Python search), and then loaded from the cache it wrote. A game
that another process cannot find by name (a class defined in a notebook) is compiled here.

Nothing here imports numba: the searchers do, when they are made.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from negamax.core.game import Position

COMPILE_SECONDS = {"placement": 20, "move list": 15}
"""About how long the first compilation of each kind of kernel takes on one core of a
laptop-class machine (measured: 15-20 s and 9-14 s), for the message that announces it."""

Announce = Callable[[str], None]


def kernel_kind(searcher: Any) -> str:
    return "placement" if type(searcher).__name__ == "CompiledSolver" else "move list"


def warmup_command(names: list[str]) -> list[str]:
    """The command that compiles the kernels of the games ``names`` into the disk cache."""
    return [sys.executable, "-m", "negamax", "warmup", "--quiet", *names]


def prepare(
    searcher: Any,
    position: Position[Any],
    game_name: str | None,
    announce: Announce | None = None,
    stop: threading.Event | None = None,
) -> bool:
    """Load ``searcher``'s kernel for ``position``'s game: from the disk cache if it is there,
    else compiled first by ``negamax warmup game_name`` in another process (told to
    ``announce`` first), else here. Returns whether a compilation was needed. ``stop``
    abandons the wait (the kernel then loads later, or compiles here, on first use)."""
    cached = searcher.cached(position)
    if cached is not False:
        searcher.warm_up(position)
        return False
    if announce is not None:
        seconds = COMPILE_SECONDS[kernel_kind(searcher)]
        announce(f"compiling {game_name or 'the game'}'s kernel, first run only, about {seconds} s")
    if game_name is not None:
        process = subprocess.Popen(
            warmup_command([game_name]), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        while process.poll() is None:
            if stop is not None and stop.wait(0.05):
                process.kill()
                process.wait()
                return True
            if stop is None:
                time.sleep(0.05)
    searcher.warm_up(position)
    return True
