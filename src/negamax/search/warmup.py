"""Getting a compiled kernel ready without making anyone wait on it unknowingly.

A kernel on numba's disk cache loads in a fraction of a second. One that is not (the first
run after installing, or after an upgrade) takes numba 10-30 seconds to compile, and does
so holding the interpreter lock in long stretches. So it is compiled in a separate
process, ``negamax warmup GAME``, while this process keeps its lock (an engine goes on
answering with the pure-Python search), and then loaded from the cache it wrote. A game
that another process cannot find by name (a class defined in a notebook) is compiled here.

Whether a game's kernels are on disk is first read from a marker that ``negamax warmup``
(or a first load) leaves in negamax's cache directory, stamped with the package's sources,
numba's version and numba's cache directory: reading it costs milliseconds and imports
nothing, so an engine knows at once whether to wait for the kernel or answer without it.
The marker can be wrong (the cache deleted since); the load then finds out, and compiles.

Nothing here imports numba: the searchers do, when they are made.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import subprocess
import sys
import threading
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from negamax.core import numba_cache
from negamax.core.game import Position
from negamax.core.rules import Game

COMPILE_SECONDS = {"placement": 20, "move list": 15}
"""About how long the first compilation of each kind of kernel takes on one core of a
laptop-class machine (measured: 15-20 s and 9-14 s), for the message that announces it."""
CACHE_DIRECTORY_VARIABLE = "NEGAMAX_CACHE_DIR"

Announce = Callable[[str], None]


def cache_root() -> Path:
    """negamax's own cache directory: ``$NEGAMAX_CACHE_DIR``, else beside numba's cache when
    ``NUMBA_CACHE_DIR`` is set, else the user's cache directory."""
    chosen = os.environ.get(CACHE_DIRECTORY_VARIABLE)
    if chosen:
        return Path(chosen)
    numba_directory = os.environ.get("NUMBA_CACHE_DIR")
    if numba_directory:
        return Path(numba_directory) / "negamax"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "negamax"


@cache
def _stamp() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        numba_version = version("numba")
    except PackageNotFoundError:
        numba_version = "none"
    parts = (
        numba_cache.package_digest(),
        numba_version,
        sys.version,
        os.environ.get("NUMBA_CACHE_DIR", ""),
        str(numba_cache.PACKAGE_ROOT),
    )
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:20]


def kernel_name(game: Game) -> str:
    """The name ``game``'s kernels are cached under: its own, unless it shares them."""
    return getattr(game, "kernel_name", "") or game.name


def marker(name: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:60]
    return cache_root() / "ready" / f"{safe}-{_stamp()}"


def kernels_on_disk(game: Game) -> bool:
    """Whether ``game``'s kernels were compiled into the disk cache (by the marker)."""
    return marker(kernel_name(game)).exists()


def mark_on_disk(game: Game) -> None:
    """Leave the marker that ``game``'s kernels are in the disk cache (if it can)."""
    path = marker(kernel_name(game))
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()


def warmup_command(names: list[str]) -> list[str]:
    """The command that compiles the kernels of the games ``names`` into the disk cache (at
    the usual priority: on a busy machine a lower one starved it for minutes)."""
    return [sys.executable, "-m", "negamax", "warmup", "--quiet", *names]


def compile_elsewhere(game_name: str, stop: threading.Event | None = None) -> bool:
    """Have ``negamax warmup game_name`` compile the game's kernels in another process and
    wait for it (``stop`` abandons it). Returns whether it succeeded."""
    # a session of its own: Ctrl-C at the terminal is for this process, which stops it
    process = subprocess.Popen(
        warmup_command([game_name]),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        while process.poll() is None:
            if stop is not None and stop.is_set():
                return False
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(0.05)
    finally:
        if process.poll() is None:  # stopped, or interrupted: no compiler left behind
            process.kill()
            process.wait()
    return process.returncode == 0


def prepare(
    searcher: Any,
    position: Position[Any],
    game: Game | None,
    announce: Announce | None = None,
    stop: threading.Event | None = None,
    compile_here: bool = True,
    command_name: str | None = None,
) -> bool:
    """Load ``searcher``'s kernel for ``position``'s game: from the disk cache if it is there,
    else compiled first by ``negamax warmup GAME`` in another process (told to
    ``announce`` first), else (if that failed and ``compile_here``) here. Returns whether
    the kernel is loaded. ``stop`` abandons the wait (and the compilation). ``command_name``
    is how ``negamax warmup`` is to name the game, if not by ``game.name`` (a game from a
    file, ``path/to/game.py:MyGame``)."""
    if game is None or kernels_on_disk(game):
        cached = searcher.cached(position)
        if cached is not False:
            searcher.warm_up(position)
            if game is not None:
                mark_on_disk(game)
            return True
    if announce is not None:
        seconds = COMPILE_SECONDS[searcher.kind]
        shown = game.name if game is not None else "the game"
        announce(f"compiling {shown}'s kernel, first run only, about {seconds} s")
    compiled = game is not None and compile_elsewhere(command_name or game.name, stop)
    if stop is not None and stop.is_set():
        return False
    if compiled:
        assert game is not None
        mark_on_disk(game)
    elif not compile_here:
        return False
    searcher.warm_up(position)
    return True
