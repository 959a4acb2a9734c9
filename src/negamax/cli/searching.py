"""The searcher a command searches with, asked of ``negamax.search.Searcher`` (backend,
table, threads, readiness announced), the book that answers before any search, and the
pure-Python search options the command line's flags select."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

from negamax.cli.progress import announcer, stop_on_interrupt
from negamax.core.errors import InvalidOptionError
from negamax.core.game import PlacementPosition, Position
from negamax.core.rules import Game
from negamax.core.types import SearchLimits, SearchResult
from negamax.search import Searcher, search, solve
from negamax.search.backend_choice import refuse_unbounded_solve
from negamax.search.params import SearchOptions, options_for
from negamax.search.textbook import TEXTBOOK, textbook_search

DEFAULT_ANALYSIS_SECONDS = 1.0

_SEARCHER: Searcher | None = None
"""The command's searcher: one command runs per process, and ``play`` searches with it move
after move, its tables carrying over."""


def search_options(arguments: argparse.Namespace) -> SearchOptions:
    options = options_for(arguments.algorithm)
    if getattr(arguments, "hash", None) is not None:
        if arguments.hash <= 0:
            raise InvalidOptionError(f"--hash must be a positive number of MiB, not {arguments.hash}")
        options = dataclasses.replace(options, tt_mib=arguments.hash)
    return options


@contextlib.contextmanager
def open_book(arguments: argparse.Namespace, game: Game) -> Iterator[Any]:
    """The book ``--book`` names (it must exist), else the one the package ships for
    ``game`` unless ``--no-book`` or a search of its own was asked for (``--algorithm``,
    ``--backend``: to see that search run), or ``None``."""
    from negamax.parallel.book import open_shipped_book
    from negamax.parallel.packed_book import open_book_file

    path = getattr(arguments, "book", None)
    own_search = getattr(arguments, "algorithm", "auto") != "auto" or getattr(arguments, "backend", None) not in (
        None,
        "auto",
    )
    if path is None:
        if getattr(arguments, "no_book", False) or own_search:
            yield None
        else:
            with open_shipped_book(game) as shipped:
                yield shipped
        return
    with open_book_file(path, game) as book:
        yield book


def book_answer(book: Any, position: Position[Any], multipv: int = 1) -> SearchResult[Any] | None:
    """The book's answer for ``position`` (``Book.answer``), or ``None`` (no book, or the
    book does not know)."""
    return None if book is None else book.answer(position, multipv)


def command_searcher(arguments: argparse.Namespace, game: Game) -> Searcher:
    """The searcher the command line's options describe, made once."""
    global _SEARCHER
    if _SEARCHER is None:
        threads = getattr(arguments, "threads", None)
        solving = getattr(arguments, "command", None) == "solve"
        cores = os.cpu_count() or 1
        if threads is not None and threads > cores and solving:
            print(f"note: {cores} workers, one per core (not {threads})", file=sys.stderr)
            threads = cores
        _SEARCHER = Searcher(
            getattr(arguments, "backend", None) or "auto",
            hash_mib=getattr(arguments, "hash", None),
            threads=threads if threads is not None else (cores if solving else 1),
            processes=bool(getattr(arguments, "processes", False)),
            keep_tables=getattr(arguments, "command", None) == "play",
            game=game,
        )
    return _SEARCHER


def ready_searcher(arguments: argparse.Namespace, game: Game, position: Position[Any], solving: bool) -> Searcher:
    """The command's searcher with its kernel loaded for ``position``, before any clock
    starts: a kernel not on disk yet is compiled by another process first, and said so.

    :raises InvalidOptionError: for workers the backend chosen cannot use.
    """
    searcher = command_searcher(arguments, game)
    threads = getattr(arguments, "threads", None)
    processes = bool(getattr(arguments, "processes", False))
    backend = searcher.backend_for(position, solving, arguments.algorithm)
    if backend == "python" and (threads is not None or processes):
        raise InvalidOptionError(
            "--threads and --processes run the compiled backend; the python backend has one worker"
        )
    placement = solving and isinstance(position, PlacementPosition)
    if backend == "compiled" and not placement and ((threads is not None and solving) or processes):
        raise InvalidOptionError(
            "--threads and --processes are for the compiled solver of placement games"
            " (move-list games take --threads in analyze)"
        )
    if backend == "compiled":
        with announcer() as announce, stop_on_interrupt() as stop:
            searcher.prepare(
                position, announce=announce, stop=stop, command_name=arguments.game, algorithm=arguments.algorithm
            )
        if stop.is_set():
            raise KeyboardInterrupt
        for note in searcher.notes:
            print(f"note: {note}", file=sys.stderr)
        searcher.notes.clear()
    return searcher


def solve_position(
    arguments: argparse.Namespace,
    game: Game,
    position: Position[Any],
    limits: SearchLimits,
    progress: Callable[[SearchResult[Any]], None] | None,
    pv_plies: int | None = None,
) -> SearchResult[Any]:
    """Solve on the backend the searcher chooses (``pv_plies`` as for ``Searcher.solve``)."""
    refuse_unbounded_solve(position, limits)  # before a kernel is loaded for nothing
    if getattr(arguments, "multipv", 1) == 1:
        # a position settled in a few thousand nodes is answered before any compiler starts
        quick = command_searcher(arguments, game).answer_without_compiling(
            position, limits, solving=True, algorithm=arguments.algorithm, on_iteration=progress, pv_plies=pv_plies
        )
        if quick is not None:
            return quick
    searcher = ready_searcher(arguments, game, position, solving=True)
    return searcher.solve(
        position,
        limits,
        multipv=getattr(arguments, "multipv", 1),
        algorithm=arguments.algorithm,
        options=python_options(arguments, searcher, position, True),
        on_iteration=progress,
        pv_plies=pv_plies,
    )


def python_options(
    arguments: argparse.Namespace, searcher: Searcher, position: Position[Any], solving: bool
) -> SearchOptions | None:
    """The pure-Python search's options (its algorithm's preset, its table sized by
    ``--hash``) when it is the backend that runs; ``None`` for the compiled one."""
    if searcher.backend_for(position, solving, arguments.algorithm) == "compiled":
        return None
    return search_options(arguments)


def heuristic_search(
    arguments: argparse.Namespace,
    game: Game,
    position: Position[Any],
    limits: SearchLimits,
    progress: Callable[[SearchResult[Any]], None] | None,
) -> SearchResult[Any]:
    """A depth-, time- or node-limited search, on the backend the searcher chooses."""
    if getattr(arguments, "multipv", 1) == 1:
        quick = command_searcher(arguments, game).answer_without_compiling(
            position, limits, solving=False, algorithm=arguments.algorithm, on_iteration=progress
        )
        if quick is not None:
            return quick
    searcher = ready_searcher(arguments, game, position, solving=False)
    return searcher.search(
        position,
        limits,
        multipv=getattr(arguments, "multipv", 1),
        algorithm=arguments.algorithm,
        options=python_options(arguments, searcher, position, False),
        on_iteration=progress,
    )


def search_or_solve(
    position: Position[Any], algorithm: str, depth: int | None, trace: Any = None, nodes: int | None = None
) -> SearchResult[Any]:
    """A search to ``depth``, or to the end of the game without one, of at most about
    ``nodes`` nodes if given (``completed`` false where it stopped there)."""
    if algorithm == TEXTBOOK:
        return textbook_search(position, SearchLimits(depth=depth, nodes=nodes), trace)
    if depth is None:
        return solve(position, SearchLimits(nodes=nodes), algorithm=algorithm, trace=trace)
    return search(position, SearchLimits(depth=depth, nodes=nodes), algorithm=algorithm, trace=trace)
