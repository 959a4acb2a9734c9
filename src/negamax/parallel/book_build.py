"""Building a book the way opening books of solved games are made: solve every distinct
position a fixed number of plies below a root, then back the values up by negamax over
the book, level by level, to every shallower position and the root itself.

The solving goes through the batch machinery, so it runs on any pool and resumes after a
kill (the book is the record of what is done); the back-up is quick and runs here.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from typing import Any

from negamax.core.errors import InvalidOptionError, NegamaxError
from negamax.core.game import Position
from negamax.core.rules import Game
from negamax.core.score import from_node
from negamax.parallel.batch import BatchProgress, BatchSummary, run_batch
from negamax.parallel.book import Book, BookRow, BookSink
from negamax.parallel.cases import Case
from negamax.parallel.pools import WorkerPool
from negamax.parallel.worker import BatchJob

ESTIMATE_SAMPLE = 4
"""Positions per worker solved first, to estimate how long a build takes."""
MAX_LEVEL_POSITIONS = 5_000_000
"""A level larger than this would not fit in memory comfortably: refuse it."""


class IncompleteBookError(NegamaxError):
    """A position to back up has a child the book does not hold (a solve was cut short)."""


@dataclasses.dataclass(frozen=True)
class Level:
    """The distinct unfinished positions some plies below the roots: book key -> (text, position)."""

    plies: int
    positions: dict[str, tuple[str, Position[Any]]]


@dataclasses.dataclass
class BuildSummary:
    levels: list[int]
    """Distinct positions at each ply below the roots (0 = the roots)."""
    solve: BatchSummary
    backed_up: int
    backup_seconds: float
    root_values: list[tuple[str, int]]
    """(root text, exact value in the game's convention)."""


def enumerate_levels(game: Game, roots: list[str], plies: int) -> list[Level]:
    """Every distinct (up to symmetry) unfinished position 0..``plies`` plies below the roots."""
    if plies < 0:
        raise InvalidOptionError(f"--plies must be at least 0, not {plies}")
    current: dict[str, tuple[str, Position[Any]]] = {}
    for text in roots:
        position = game.new_position(text)
        if position.is_terminal():
            raise InvalidOptionError(f"root {text!r}: the game is over there")
        current.setdefault(game.book_key(position)[0], (text, position))
    levels = [Level(0, current)]
    for ply in range(1, plies + 1):
        following: dict[str, tuple[str, Position[Any]]] = {}
        for _, position in current.values():
            for move in position.legal_moves():
                child = position.copy()
                child.play(move)
                if child.is_terminal():
                    continue
                key = game.book_key(child)[0]
                if key not in following:
                    following[key] = (game.position_text(child), child)
        if len(following) > MAX_LEVEL_POSITIONS:
            raise InvalidOptionError(f"{len(following):,} positions {ply} plies down: too many; use fewer --plies")
        levels.append(Level(ply, following))
        current = following
    return levels


def back_up(game: Game, book: Book, level: Level) -> int:
    """Store the negamax value of every position of ``level`` not yet in the book, from
    its children's values in the book (or the rules, for a finished game)."""
    known = book.known_keys(level.positions)
    rows = []
    for key, (text, position) in level.positions.items():
        if key in known:
            continue
        best_value, best_move = None, None
        for move in position.legal_moves():
            child = position.copy()
            child.play(move)
            if child.is_terminal():
                child_value = child.terminal_value()
            else:
                stored = book.score_of_key(game.book_key(child)[0])
                if stored is None:
                    raise IncompleteBookError(
                        f"{text}: the book has no value after {game.move_text(position, move)}; re-run to finish"
                    )
                child_value = stored[0]
            value = from_node(-child_value, 1)  # one ply further from the child's mover
            if best_value is None or value > best_value:
                best_value, best_move = value, game.move_text(position, move)
        assert best_value is not None, "an unfinished position has a move"
        rows.append(BookRow.of(game, position, best_value, best_move, "backup", 0, text))
    book.store(rows)
    return len(rows)


def build_book(
    game: Game,
    book: Book,
    roots: list[str],
    plies: int,
    pool: WorkerPool,
    job: BatchJob,
    chunk_size: int | None = None,
    on_progress: Callable[[BatchProgress], None] | None = None,
    on_error: Callable[[int, str], None] | None = None,
    on_stage: Callable[[str], None] | None = None,
    stop: threading.Event | None = None,
) -> BuildSummary:
    """Solve the level ``plies`` below ``roots`` on ``pool`` into ``book``, then back up."""
    levels = enumerate_levels(game, roots, plies)
    sizes = [len(level.positions) for level in levels]
    if on_stage is not None:
        on_stage(f"positions per ply below the root{'s' if len(roots) > 1 else ''}: {sizes}")
    leaves = [Case(number, text) for number, (text, _) in enumerate(levels[-1].positions.values(), start=1)]
    sample = leaves[: ESTIMATE_SAMPLE * pool.workers]
    if on_stage is not None and len(leaves) > len(sample):
        # a first few solves (kept in the book) say roughly how long the rest will take
        timed = run_batch(job, sample, [BookSink(book)], pool, chunk_size, None, on_error, stop)
        if timed.completed and not timed.stopped:
            seconds = timed.elapsed / timed.completed * (len(leaves) - len(sample))
            on_stage(
                f"{len(leaves):,} positions to solve; the first {timed.completed} took {timed.elapsed:.1f} s,"
                f" so the rest should take roughly {_duration(seconds)} (progress follows)"
            )
    solved = run_batch(job, leaves, [BookSink(book)], pool, chunk_size, on_progress, on_error, stop)
    if solved.stopped or solved.errors:
        return BuildSummary(sizes, solved, 0, 0.0, [])
    start = time.perf_counter()
    backed = 0
    for level in reversed(levels[:-1]):
        backed += back_up(game, book, level)
    values = []
    for text in roots:
        entry = book.lookup(game.new_position(text))
        assert entry is not None, "every root is backed up"
        values.append((text, entry.game_score))
    return BuildSummary(sizes, solved, backed, time.perf_counter() - start, values)


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
