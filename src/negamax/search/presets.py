"""The searcher each front end searches with, made in one place: every setting that differs
from ``Searcher``'s defaults is here, with why.

A front end names its preset (``for_engine``, ``for_page_thinking``...) instead of putting
the arguments together itself; the table sizes are ``negamax.core.ranges``' (the one
default, ``DEFAULT_HASH_MIB``, and its named exceptions).
"""

from __future__ import annotations

import dataclasses
import os

from negamax.core.ranges import (
    BATCH_ANALYSIS_HASH_MIB,
    BENCH_HASH_MIB,
    ENGINE_HASH_MIB,
    PAGE_SEARCH_HASH_MIB,
)
from negamax.core.rules import Game
from negamax.search.backend_choice import choose_backend
from negamax.search.params import options_for
from negamax.search.searcher import Searcher

ENGINE_CHECK_EVERY_NODES = 64
"""Slow games (chess on python-chess: a few thousand nodes a second) must look at the
clock often for a stop to be prompt."""
ENGINE_LOAD_WAIT_SECONDS = 1.0
"""Longest wait of an engine's search for a kernel being loaded from disk (it then gets
less time)."""
PAGE_CHECK_EVERY_NODES = 16
"""Nodes between the python search's looks at the clock on the web page: chess there
searches about a thousand nodes a second, and dozens of requests at once share the
interpreter, so a search must notice its time is up within a few milliseconds of its own
work."""
PAGE_TREE_MIB = 64.0
"""Each engine search's Monte Carlo tree on the page, for games without an evaluation
(mapped as it grows: a 5-second search of 5x5 Hex fills about half of it)."""
PAGE_SOLVING_THREADS = max(1, min(2, os.cpu_count() or 1))
"""The page's solution's workers: two share one table where the machine has the cores."""


def for_library(backend: str = "auto", game: Game | None = None) -> Searcher:
    """``negamax.search()``, ``solve()`` and ``prepare()``: every default. Tables of
    ``DEFAULT_HASH_MIB`` cleared for every call, so the same call gives the same answer
    whatever ran before in the process; one thread; a call waits for its kernel (a script
    that asked for a search wants the compiled one).

    :raises InvalidOptionError: for an unknown backend.
    """
    return Searcher(backend, game=game)


def for_command(
    game: Game,
    *,
    backend: str | None = None,
    hash_mib: float | None = None,
    threads: int | None = None,
    processes: bool = False,
    solving: bool = False,
    playing: bool = False,
) -> Searcher:
    """The ``negamax`` command's (one command a process): its flags as given, else a solve on
    every core (the placement solver's helpers share its table) and anything else on one
    thread; ``play`` keeps its tables from one move to the next (a game's positions share
    much), any other command clears them. It waits for its kernel: the command compiles it
    in another process first, and says so."""
    cores = os.cpu_count() or 1
    return Searcher(
        backend or "auto",
        hash_mib=hash_mib,
        threads=threads if threads is not None else (cores if solving else 1),
        processes=processes,
        keep_tables=playing,
        game=game,
    )


def for_engine(game: Game, *, backend: str = "auto", hash_mib: float = ENGINE_HASH_MIB, threads: int = 1) -> Searcher:
    """A UCI or HUB engine's: ``ENGINE_HASH_MIB`` unless the GUI sets ``Hash``, tables kept
    from one move to the next (a GUI says ``ucinewgame`` to clear them), the backend fixed
    once from the game's start (``auto``: compiled where the game has a kernel), and never
    waiting for a kernel being compiled: the pure-Python search answers meanwhile, looking
    at the clock every ``ENGINE_CHECK_EVERY_NODES`` nodes; one loading from disk is waited
    for, up to ``ENGINE_LOAD_WAIT_SECONDS``.

    :raises InvalidOptionError: for an unknown backend, or ``compiled`` for a game without
        a kernel to search it.
    """
    return Searcher(
        choose_backend(game.new_position(None), backend, solving=False),
        hash_mib=hash_mib,
        threads=threads,
        keep_tables=True,
        game=game,
        wait_for_kernel=False,
        python_options=dataclasses.replace(options_for("auto"), check_every=ENGINE_CHECK_EVERY_NODES),
        load_wait=ENGINE_LOAD_WAIT_SECONDS,
    )


def for_page_thinking(game: Game, backend: str = "auto") -> Searcher:
    """The web page's engine moves and analyses: dozens run at once, each for a fraction of
    a second, so each gets a small table of its own (``PAGE_SEARCH_HASH_MIB``, cleared for
    it) and a compiled searcher per core is kept; Monte Carlo trees of ``PAGE_TREE_MIB``; the
    pure-Python search answers until the kernel is ready, looking at the clock every
    ``PAGE_CHECK_EVERY_NODES`` nodes."""
    return Searcher(
        backend,
        hash_mib=PAGE_SEARCH_HASH_MIB,
        game=game,
        wait_for_kernel=False,
        python_options=dataclasses.replace(options_for("auto"), check_every=PAGE_CHECK_EVERY_NODES),
        idle=os.cpu_count() or 1,
        tree_mib=PAGE_TREE_MIB,
    )


def for_page_solving(game: Game, backend: str = "auto") -> Searcher:
    """The web page's exact solves (a move's value, every column's): the default table, kept
    from one position to the next (exact bounds, true whatever the root: a game's next
    position finds much of its tree there), ``PAGE_SOLVING_THREADS`` workers, only the first
    move of a line (the page shows values), and the pure-Python search until the kernel is
    ready, as ``for_page_thinking``."""
    return Searcher(
        backend,
        game=game,
        wait_for_kernel=False,
        python_options=dataclasses.replace(options_for("auto"), check_every=PAGE_CHECK_EVERY_NODES),
        pv_plies=1,
        tree_mib=PAGE_TREE_MIB,
        keep_tables=True,
        threads=PAGE_SOLVING_THREADS,
    )


def for_batch(game: Game, *, backend: str | None = None, solving: bool, keep_tables: bool = False) -> Searcher:
    """A batch worker's, for one job: solves on the default table, analyses on a small one
    (``BATCH_ANALYSIS_HASH_MIB``: the positions of a batch share little, and each clears it);
    only the first move of a solve's line (a batch wants values, and the line would cost more
    than some solves); tables kept between a book build's solves (``keep_tables``: the
    positions of one level share much), cleared otherwise so that a record never depends on
    the positions a worker met before."""
    return Searcher(
        backend or "auto",
        hash_mib=None if solving else BATCH_ANALYSIS_HASH_MIB,
        game=game,
        pv_plies=1,
        keep_tables=keep_tables and solving,
    )


def for_split_solve(game: Game) -> Searcher:
    """A split solve's worker thread's: it answers one null-window question after another
    about positions below one root, so it keeps what it proved (exact bounds, true whatever
    the root) until the next solve; the default table."""
    return Searcher(keep_tables=True, game=game)


def for_bench(game: Game) -> Searcher:
    """``negamax bench --compiled``: the compiled backend on a fixed table
    (``BENCH_HASH_MIB``), so that its node counts, a signature of the engine, never depend on
    the default."""
    return Searcher("compiled", hash_mib=BENCH_HASH_MIB, game=game)
