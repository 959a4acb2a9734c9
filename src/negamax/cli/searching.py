"""The searcher a command searches with (``presets.for_command``: backend, table, threads),
the one plan of each of its calls (``Searcher.plan``), its kernel loaded before any clock
starts (announced), the book that answers before any search, and the pure-Python search
options the command line's flags select. Everything reads the command as a
``SearchCommand``."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

from negamax.cli.progress import announcer, stop_on_interrupt
from negamax.cli.search_command import SearchCommand
from negamax.core.errors import InvalidOptionError
from negamax.core.game import Position
from negamax.core.rules import Game
from negamax.core.types import SearchLimits, SearchResult
from negamax.search import Searcher, presets, search, solve
from negamax.search.backend_choice import PLACEMENT, Plan
from negamax.search.params import SearchOptions, options_for
from negamax.search.textbook import TEXTBOOK, textbook_search

DEFAULT_ANALYSIS_SECONDS = 1.0

_SEARCHER: Searcher | None = None
"""The command's searcher: one command runs per process, and ``play`` searches with it move
after move, its tables carrying over."""


def search_options(command: SearchCommand) -> SearchOptions:
    options = options_for(command.algorithm)
    if command.hash_mib is not None:
        if command.hash_mib <= 0:
            raise InvalidOptionError(f"--hash must be a positive number of MiB, not {command.hash_mib}")
        options = dataclasses.replace(options, tt_mib=command.hash_mib)
    return options


@contextlib.contextmanager
def open_book(command: SearchCommand, game: Game) -> Iterator[Any]:
    """The book ``--book`` names (it must exist), else the one the package ships for
    ``game`` unless ``--no-book`` or a search of its own was asked for (``--algorithm``,
    ``--backend``: to see that search run), or ``None``."""
    from negamax.parallel.book import open_shipped_book
    from negamax.parallel.packed_book import open_book_file

    own_search = command.algorithm != "auto" or command.backend not in (None, "auto")
    if command.book is None:
        if command.no_book or own_search:
            yield None
        else:
            with open_shipped_book(game) as shipped:
                yield shipped
        return
    with open_book_file(command.book, game) as book:
        yield book


def book_answer(book: Any, position: Position[Any], multipv: int = 1) -> SearchResult[Any] | None:
    """The book's answer for ``position`` (``Book.answer``), or ``None`` (no book, or the
    book does not know)."""
    return None if book is None else book.answer(position, multipv)


def command_searcher(command: SearchCommand, game: Game) -> Searcher:
    """The searcher the command line's options describe, made once (a solve given more
    workers than cores gets one a core, noted with its first plan)."""
    global _SEARCHER
    if _SEARCHER is None:
        threads = command.threads
        cores = os.cpu_count() or 1
        clamped = threads is not None and threads > cores and command.solving
        if clamped:
            threads = cores
        _SEARCHER = presets.for_command(
            game,
            backend=command.backend,
            hash_mib=command.hash_mib,
            threads=threads,
            processes=command.processes,
            solving=command.solving,
            playing=command.playing,
        )
        if clamped:
            _SEARCHER.notes.append(f"{cores} workers, one per core (not {command.threads})")
    return _SEARCHER


def _say_notes(searcher: Searcher) -> None:
    for note in searcher.notes:
        print(f"note: {note}", file=sys.stderr)
    searcher.notes.clear()


def _load_kernel(command: SearchCommand, searcher: Searcher, position: Position[Any], plan: Plan) -> None:
    """The kernel ``plan`` runs on loaded for ``position``, before any clock starts: one not
    on disk yet is compiled by another process first, and said so.

    :raises InvalidOptionError: for workers the backend chosen cannot use.
    """
    threads, processes = command.threads, command.processes
    if plan.backend == "python" and (threads is not None or processes):
        raise InvalidOptionError(
            "--threads and --processes run the compiled backend; the python backend has one worker"
        )
    if plan.backend == "compiled" and plan.kind != PLACEMENT and ((threads is not None and plan.solving) or processes):
        raise InvalidOptionError(
            "--threads and --processes are for the compiled solver of placement games"
            " (move-list games take --threads in analyze)"
        )
    if plan.backend == "compiled":
        with announcer() as announce, stop_on_interrupt() as stop:
            searcher.prepare(
                position, announce=announce, stop=stop, command_name=command.game, algorithm=command.algorithm
            )
        if stop.is_set():
            raise KeyboardInterrupt
        _say_notes(searcher)


def solve_position(
    command: SearchCommand,
    game: Game,
    position: Position[Any],
    limits: SearchLimits,
    progress: Callable[[SearchResult[Any]], None] | None,
    pv_plies: int | None = None,
) -> SearchResult[Any]:
    """Solve on the backend the searcher's plan chooses (``pv_plies`` as for ``Searcher.solve``)."""
    return _run(command, game, position, limits, progress, True, pv_plies)


def heuristic_search(
    command: SearchCommand,
    game: Game,
    position: Position[Any],
    limits: SearchLimits,
    progress: Callable[[SearchResult[Any]], None] | None,
) -> SearchResult[Any]:
    """A depth-, time- or node-limited search, on the backend the searcher's plan chooses."""
    return _run(command, game, position, limits, progress, False)


def _run(
    command: SearchCommand,
    game: Game,
    position: Position[Any],
    limits: SearchLimits,
    progress: Callable[[SearchResult[Any]], None] | None,
    solving: bool,
    pv_plies: int | None = None,
) -> SearchResult[Any]:
    """One call: its plan (a solve that would never end is refused here, before a kernel is
    loaded for nothing), then a position settled in a few thousand nodes answered before any
    compiler starts, else the kernel loaded and the call run on the plan."""
    searcher = command_searcher(command, game)
    algorithm, multipv = command.algorithm, command.multipv
    plan = searcher.plan(position, limits, solving=solving, multipv=multipv, algorithm=algorithm)
    _say_notes(searcher)
    if plan.quick:
        quick = searcher.answer_without_compiling(
            position, algorithm=algorithm, on_iteration=progress, pv_plies=pv_plies, plan=plan
        )
        if quick is not None:
            return quick
    _load_kernel(command, searcher, position, plan)
    # the pure-Python search's options (its algorithm's preset, its table sized by --hash)
    # where it is the backend that runs
    options = search_options(command) if plan.backend == "python" else None
    if solving:
        return searcher.solve(
            position,
            multipv=multipv,
            algorithm=algorithm,
            options=options,
            on_iteration=progress,
            pv_plies=pv_plies,
            plan=plan,
        )
    return searcher.search(
        position, multipv=multipv, algorithm=algorithm, options=options, on_iteration=progress, plan=plan
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
