"""Getting a compiled kernel ready without making anyone wait on it unknowingly.

A kernel on numba's disk cache loads in a fraction of a second. One that is not (the first
run after installing, or after an upgrade) takes numba 10-30 seconds to compile, and does
so holding the interpreter lock in long stretches. So it is compiled in a separate
process, ``python -m negamax.search.kernel_compiler GAME`` (what ``negamax warmup`` runs too), while
this process keeps its lock (an engine goes on answering with the pure-Python search), and
then loaded from the cache it wrote. A game that another process cannot find by name (a
class defined in a notebook) is compiled here.

How long a compilation takes is measured, not guessed: each one is timed and the time kept
beside the markers, per game, so the next announcement on this machine says what it took.

Whether a game's kernels are on disk is first read from a marker that ``negamax warmup``
(or a first load) leaves in negamax's cache directory, stamped with the package's sources,
numba's version and numba's cache directory: reading it costs milliseconds and imports
nothing, so an engine knows at once whether to wait for the kernel or answer without it.
The marker can be wrong (the cache deleted since); the load then finds out, and compiles.

Nothing here imports numba: the searchers do, when they are made. Turning a game's name
into a game needs the registry (``negamax.games``), which only ``warm_up_names`` imports,
in the process that compiles.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

from negamax.core import numba_cache
from negamax.core.errors import NegamaxError
from negamax.core.game import MoveListPosition, PlacementPosition, Position, has_evaluation
from negamax.core.ranges import WARM_UP_HASH_MIB
from negamax.core.rules import Game
from negamax.search import mcts
from negamax.search.compiled_protocols import CompiledSearch

COMPILE_SECONDS = {"placement": 50, "move list": 25, "mcts": 20}
"""How long a first compilation of each kind of kernel takes where none was measured yet
(measured here on one core of a shared 2-core machine: Connect 4's 51.5 CPU-s, a user's
Othello 21-23 CPU-s, Hex's Monte Carlo search 15-23 s); the time measured on this machine
replaces it (``compile_seconds``)."""
CACHE_DIRECTORY_VARIABLE = numba_cache.CACHE_DIRECTORY_VARIABLE
COMPILER_MODULE = "negamax.search.kernel_compiler"
"""The module a process that compiles kernels runs (``python -m``)."""
BUILT_IN_GAMES = ("connect4", "tictactoe", "chess", "draughts")
"""The built-in games with compiled kernels, which a warm-up prepares by default."""

Announce = Callable[[str], None]
log = logging.getLogger("negamax")
"""Where a first compilation is announced when no one asked to be told (a script's search)."""


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


_PREPARING: dict[str, threading.Lock] = {}
"""One lock per game's kernels: two searchers preparing the same game wait for each other
instead of both compiling it."""
_PREPARING_LOCK = threading.Lock()


def preparing_lock(name: str) -> threading.Lock:
    """The lock a searcher holds while it prepares the kernels cached under ``name``."""
    with _PREPARING_LOCK:
        return _PREPARING.setdefault(name, threading.Lock())


def kernel_name(game: Game) -> str:
    """The name ``game``'s kernels are cached under: its own, unless it shares them."""
    return getattr(game, "kernel_name", "") or game.name


def marker(name: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:60]
    return numba_cache.cache_root() / "ready" / f"{safe}-{_stamp()}"


def kernels_on_disk(game: Game) -> bool:
    """Whether ``game``'s kernels were compiled into the disk cache (by the marker)."""
    return marker(kernel_name(game)).exists()


def mark_on_disk(game: Game) -> None:
    """Leave the marker that ``game``'s kernels are in the disk cache (if it can)."""
    path = marker(kernel_name(game))
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()


def _times_file() -> Path:
    return numba_cache.cache_root() / "ready" / f"compile-seconds-{_stamp()}.json"


def compile_seconds(game: Game, kind: str) -> float:
    """How long compiling ``game``'s kernel took the last time on this machine (for this
    version of the package), else the usual time for its kind."""
    with contextlib.suppress(OSError, ValueError):
        times = json.loads(_times_file().read_text())
        measured = times.get(kernel_name(game)) if isinstance(times, dict) else None
        if isinstance(measured, int | float) and measured > 0:
            return float(measured)
    return float(COMPILE_SECONDS[kind])


def record_compile_seconds(game: Game, seconds: float) -> None:
    """Keep how long compiling ``game``'s kernels took, for the next announcement."""
    path = _times_file()
    with contextlib.suppress(OSError, ValueError):
        times: dict[str, float] = json.loads(path.read_text()) if path.exists() else {}
        times[kernel_name(game)] = round(seconds, 1)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}")
        temporary.write_text(json.dumps(times))
        temporary.replace(path)


def warmup_command(names: list[str]) -> list[str]:
    """The command that compiles the kernels of the games ``names`` into the disk cache for
    this process (at the usual priority: on a busy machine a lower one starved it for
    minutes), ending if this process ends first."""
    return [sys.executable, "-m", COMPILER_MODULE, "--quiet", "--parent", str(os.getpid()), *names]


_COMPILING_ELSEWHERE = threading.Lock()
"""Held while a process compiles for this one: one at a time (in about the order asked for). Five
at once (a page opening every game of ``serve``) took both cores from the searches that
answer meanwhile, which then ended 1.5 s past their time."""


def compile_elsewhere(game_name: str, stop: threading.Event | None = None) -> bool:
    """Have ``negamax warmup game_name`` compile the game's kernels in another process and
    wait for it (``stop`` abandons it), after any other compilation this process asked for
    first. Returns whether it succeeded."""
    while not _COMPILING_ELSEWHERE.acquire(timeout=0.05):
        if stop is not None and stop.is_set():
            return False
    _COMPILING_SINCE[game_name] = time.monotonic()
    try:
        with _compiling_on_this_machine(game_name, stop) as turn:
            return turn and _compile_in_child(game_name, stop)
    finally:
        _COMPILING_SINCE.pop(game_name, None)
        _COMPILING_ELSEWHERE.release()


@contextlib.contextmanager
def _compiling_on_this_machine(game_name: str, stop: threading.Event | None) -> Iterator[bool]:
    """Wait for any other process compiling ``game_name`` into this cache (a web server's
    workers of one game start together): the compiler started after it loads what it left,
    in a second, instead of compiling it again on another core. Gives whether it is this
    process's turn (``False``: stopped while waiting)."""
    found = marker(game_name)
    path = found.parent / f"{found.name}.lock"
    if fcntl is None:  # Windows: no advisory locks here
        yield True
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = path.open("a")
    except OSError:  # a cache that cannot be written: nothing to share
        yield True
        return
    with handle:
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if stop is not None and stop.wait(0.1):
                    yield False
                    return
                if stop is None:
                    time.sleep(0.1)
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


_COMPILING_SINCE: dict[str, float] = {}


def compiling_since(game_name: str) -> float | None:
    """When (``time.monotonic()``) another process began compiling ``game_name``'s kernels
    for this one, if it is compiling them now (``None`` while it waits its turn)."""
    return _COMPILING_SINCE.get(game_name)


def _compile_in_child(game_name: str, stop: threading.Event | None) -> bool:
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


def announce_compiling(game: Game | None, kind: str, announce: Announce | None = None) -> None:
    """Say that ``game``'s kernel of ``kind`` is being compiled, with the time it took last
    on this machine: to ``announce``, else as a warning of the ``negamax`` logger (which
    Python prints to stderr where no logging is set up: a script's first search would
    otherwise wait in silence)."""
    seconds = compile_seconds(game, kind) if game is not None else COMPILE_SECONDS[kind]
    shown = game.name if game is not None else "the game"
    (announce or log.warning)(f"compiling {shown}'s kernel, first run only, about {seconds:.0f} s")


def prepare(
    searcher: CompiledSearch,
    position: Position[Any],
    game: Game | None,
    announce: Announce | None = None,
    stop: threading.Event | None = None,
    compile_here: bool = True,
    command_name: str | None = None,
    on_compiling: Callable[[], None] | None = None,
) -> bool:
    """Load ``searcher``'s kernel for ``position``'s game: from the disk cache if it is there,
    else compiled first by another process (told to ``announce`` first, with the time it
    took last on this machine; ``on_compiling`` is called as it starts), else (if that
    failed and ``compile_here``) here. Returns whether the kernel is loaded. ``stop``
    abandons the wait (and the compilation). ``command_name`` is how the other process is
    to name the game, if not by ``game.name`` (a game from a file,
    ``path/to/game.py:MyGame``)."""
    if game is None or kernels_on_disk(game):
        cached = searcher.cached(position)
        if cached is not False:
            searcher.warm_up(position)
            if game is not None:
                mark_on_disk(game)
            return True
    announce_compiling(game, searcher.kind, announce)
    if on_compiling is not None:
        on_compiling()
    started = time.perf_counter()
    compiled = game is not None and compile_elsewhere(command_name or game.name, stop)
    if stop is not None and stop.is_set():
        return False
    if compiled:
        assert game is not None
        mark_on_disk(game)
    elif not compile_here:
        return False
    searcher.warm_up(position)
    if game is not None and not compiled:
        record_compile_seconds(game, time.perf_counter() - started)
    return True


# -- warming games up (``negamax warmup``, and the process that compiles for another) ----


def warm_up_game(game: Game, say: Callable[[str], None]) -> bool:
    """Compile (or load) every kernel ``game`` has, into the disk cache, saying what it did;
    returns whether it worked (a game without a kernel has nothing to do)."""
    from negamax.search.compiled.move_list import CompiledSearcher  # imports numba
    from negamax.search.compiled.placement import CompiledSolver

    position = game.new_position(None)
    if not isinstance(position, PlacementPosition | MoveListPosition):
        say(f"{game.name}: no compiled kernel (it runs on the python backend)")
        return True
    started = time.perf_counter()
    compiled_any = False
    try:
        if isinstance(position, PlacementPosition):
            start = time.perf_counter()
            with CompiledSolver(threads=2) as solver:  # its helper's kernel too
                cached = solver.cached(position)
                solver.warm_up(position, wait_for_helpers=True)
            compiled_any |= not cached
            say(f"{game.name}: solver {_loaded(cached)} in {time.perf_counter() - start:.1f} s")
        if isinstance(position, MoveListPosition):
            start = time.perf_counter()
            searcher = CompiledSearcher(hash_mib=WARM_UP_HASH_MIB)
            cached = searcher.cached(position)
            searcher.warm_up(position)
            compiled_any |= not cached
            say(f"{game.name}: search {_loaded(cached)} in {time.perf_counter() - start:.1f} s")
        if isinstance(position, MoveListPosition) and not has_evaluation(position) and mcts.runs_compiled(position):
            from negamax.search.compiled.mcts import CompiledMCTS  # imports numba

            start = time.perf_counter()
            monte_carlo = CompiledMCTS(tree_mib=1)
            cached = monte_carlo.cached(position)
            monte_carlo.warm_up(position)
            compiled_any |= not cached
            say(f"{game.name}: Monte Carlo search {_loaded(cached)} in {time.perf_counter() - start:.1f} s")
    except NegamaxError as error:
        print(f"{game.name}: {error}", file=sys.stderr)
        return False
    mark_on_disk(game)
    if compiled_any:
        record_compile_seconds(game, time.perf_counter() - started)
    return True


def _loaded(cached: bool | None) -> str:
    return "loaded from the cache" if cached else "compiled"


def warm_up_names(names: Sequence[str], jobs: int, quiet: bool, optional: Sequence[str] = ()) -> int:
    """Warm up the games ``names`` (as ``negamax.games.get_game`` reads them), each in a
    process of its own, ``jobs`` at a time; their reports in order. A game of ``optional``
    whose package is missing (draughts needs py-draughts) is skipped. Returns how many
    failed."""
    if jobs > 1 and len(names) > 1:
        return _in_parallel(names, jobs, quiet, optional)
    from negamax.games import get_game  # the registry: only in the process that compiles

    def say(text: str) -> None:
        if not quiet:
            print(text, flush=True)

    failed = 0
    for name in names:
        try:
            game = get_game(name)
        except (NegamaxError, ModuleNotFoundError) as error:
            if name in optional:
                say(f"{name}: skipped ({error})")
                continue
            print(f"{name}: {error}", file=sys.stderr)
            failed += 1
            continue
        failed += not warm_up_game(game, say)
    return failed


def _in_parallel(names: Sequence[str], jobs: int, quiet: bool, optional: Sequence[str]) -> int:
    running: list[tuple[str, subprocess.Popen[str]]] = []
    waiting = list(names)
    failed = 0
    extra = ["--quiet"] if quiet else []
    while waiting or running:
        while waiting and len(running) < jobs:
            name = waiting.pop(0)
            command = [sys.executable, "-m", COMPILER_MODULE, "--jobs", "1", *extra, name]
            if name in optional:
                command.insert(-1, "--optional")
            running.append((name, subprocess.Popen(command, stdout=subprocess.PIPE, text=True)))
        name, process = running.pop(0)
        output, _ = process.communicate()
        sys.stdout.write(output)
        sys.stdout.flush()
        failed += process.returncode != 0
    return failed


def numba_available() -> bool:
    """Whether numba is installed (without importing it)."""
    import importlib.util

    return importlib.util.find_spec("numba") is not None


def compiled_rules(rules: Any) -> dict[str, Any]:
    """A game's rules (``CompiledGame().rules``) compiled on their own, in memory, for
    ``negamax check`` to compare with the same rules run in Python (imports numba).

    :raises GameDefinitionError: for a rule numba cannot compile, with numba's reason.
    """
    from negamax.search.compiled.families import compile_rules

    return compile_rules(rules.name, rules.rule_functions(), None)
