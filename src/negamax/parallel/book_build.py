"""Building a book the way opening books of solved games are made: solve every distinct
position a fixed number of plies below a root, then back the values up by negamax over
the book, level by level, to every shallower position and the root itself.

The solving goes through the batch machinery, so it runs on any pool and resumes after a
kill (the book is the record of what is done); the back-up is quick and runs here.
"""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from negamax.core.errors import InvalidOptionError
from negamax.core.game import Position
from negamax.core.ranges import BOOK_PLIES, MAX_BOOK_POSITIONS
from negamax.core.rules import Game
from negamax.core.score import INF, from_child, to_child_bounds
from negamax.parallel.batch import BatchProgress, BatchSummary, run_batch
from negamax.parallel.book import Book, BookReader, BookRow, BookSink
from negamax.parallel.cases import Case
from negamax.parallel.pools import WorkerPool
from negamax.parallel.worker import BatchJob

ESTIMATE_SAMPLE = 4
"""Positions per worker solved first, to estimate how long a build takes."""
READ_BACK_SAMPLE = 100
"""The first positions of each level whose texts are read back at once (each position of
a level above the last is read back anyway, to be expanded)."""


@dataclasses.dataclass(frozen=True)
class Level:
    """The distinct unfinished positions some plies below the roots: book key -> the
    position's text (texts, not positions: a level of a million positions must fit)."""

    plies: int
    positions: dict[str, str]


@dataclasses.dataclass
class BuildSummary:
    levels: list[int]
    """Distinct positions at each ply below the roots (0 = the roots)."""
    solve: BatchSummary
    backed_up: int
    backup_seconds: float
    root_values: list[tuple[str, int]]
    """(root text, exact value in the game's convention), for the roots now known."""
    unsolved: int = 0
    """Positions of the last ply whose solve stopped at its limit (``--time``, ``--nodes``)."""
    unknown: int = 0
    """Positions above them that cannot be backed up until they are solved."""

    @property
    def complete(self) -> bool:
        return not self.solve.stopped and not self.solve.errors and self.unsolved == 0 and self.unknown == 0


def enumerate_levels(game: Game, roots: list[str], plies: int) -> list[Level]:
    """Every distinct (up to symmetry) unfinished position 0..``plies`` plies below the roots.

    :raises InvalidOptionError: when the levels would hold more than ``MAX_BOOK_POSITIONS``
        positions (counted as they are found, so the refusal comes before the memory runs
        out), or a root is finished.
    """
    BOOK_PLIES.check(plies)
    # Only texts are held, a level's positions made again from them one at a time to find
    # the next level: a position object takes some kilobytes, and a level of 7x6 Connect 4
    # can hold most of a million positions. The solves read the texts too, so a text must
    # read back as its position: checked for each one expanded, and the first few of a level.
    current: dict[str, str] = {}
    for text in roots:
        position = game.new_position(text)
        if position.is_terminal():
            raise InvalidOptionError(f"root {text!r}: the game is over there")
        current.setdefault(game.book_key(position)[0], text)
    levels = [Level(0, current)]
    total = len(current)
    for ply in range(1, plies + 1):
        following: dict[str, str] = {}
        for parent_key, text in current.items():
            for key, child in _unfinished_children(game, _read_back(game, parent_key, text)):
                if key not in following:
                    following[key] = game.position_text(child)
                    if len(following) <= READ_BACK_SAMPLE:
                        _read_back(game, key, following[key])
                    total += 1
                    if total > MAX_BOOK_POSITIONS:
                        raise InvalidOptionError(
                            f"--plies {plies}: more than {MAX_BOOK_POSITIONS:,} positions by ply {ply} below the"
                            f" root; give fewer --plies (or a deeper --root)"
                        )
        levels.append(Level(ply, following))
        current = following
    return levels


def _unfinished_children(game: Game, position: Position[Any]) -> Iterator[tuple[str, Position[Any]]]:
    """(book key, child) for each move of ``position`` after which the game goes on."""
    for move in position.legal_moves():
        child = position.copy()
        child.play(move)
        if not child.is_terminal():
            yield game.book_key(child)[0], child


def _read_back(game: Game, key: str, text: str) -> Position[Any]:
    """The position ``text`` names, which must be the one whose book key is ``key``.

    :raises InvalidOptionError: when it is not (the game's ``position_text`` leaves out
        something ``new_position`` needs, or cannot be read back at all).
    """
    try:
        position = game.new_position(text)
        same = game.book_key(position)[0] == key
    except Exception:  # any failure to read it back says the same: a book cannot be built
        same = False
    if not same:
        raise InvalidOptionError(
            f"{game.name}: a position's text ({text[:60]!r}) does not read back as that position; a book is"
            f" built from its positions' texts: the game's position_text must give a text new_position reads back"
        )
    return position


def back_up(game: Game, book: Book, level: Level) -> tuple[int, int]:
    """Store the negamax value of every position of ``level`` not yet in the book, from
    its children's values in the book (or the rules, for a finished game). Returns (rows
    stored, positions left out because a child's value is not known yet)."""
    known = book.known_keys(level.positions)
    rows = []
    unknown = 0
    for key, text in level.positions.items():
        if key in known:
            continue
        position = game.new_position(text)
        best_value, best_move = None, None
        mover = position.player()
        for move in position.legal_moves():
            child = position.copy()
            child.play(move)
            if child.is_terminal():
                child_value = child.terminal_value()
            else:
                stored = book.score_of_key(game.book_key(child)[0])
                if stored is None:
                    best_value = None
                    break
                child_value = stored[0]
            value = from_child(child_value, child.player() == mover)
            if best_value is None or value > best_value:
                best_value, best_move = value, game.move_text(position, move)
        if best_value is None:
            unknown += 1
            continue
        rows.append(BookRow.of(game, position, best_value, best_move, "backup", 0, text))
    book.store(rows)
    return len(rows), unknown


def leaf_bounds(game: Game, book: Book, levels: list[Level]) -> dict[str, tuple[int, int]]:
    """What the book's exact values of the level above the last prove of each position of
    the last not yet in the book (book key -> ``(lower, upper)``, the bounds
    ``to_child_bounds`` draws from each parent's value: no move is worth more than the
    position it is played in), the tightest over its parents. A solve starts from them and
    skips the probes outside (the compiled solver of placement games; the others ignore
    them); the values are the same, as the book's values are exact."""
    if len(levels) < 2:
        return {}
    leaves = set(levels[-1].positions) - book.known_keys(levels[-1].positions)
    if not leaves:  # a build run again once its solves are done
        return {}
    bounds: dict[str, tuple[int, int]] = {}
    for key, text in levels[-2].positions.items():
        stored = book.score_of_key(key)
        if stored is None:
            continue
        parent = game.new_position(text)
        mover = parent.player()
        for child_key, child in _unfinished_children(game, parent):
            if child_key not in leaves:
                continue
            lower, upper = to_child_bounds(stored[0], stored[0], child.player() == mover)
            known_lower, known_upper = bounds.get(child_key, (-INF, INF))
            bounds[child_key] = max(lower, known_lower), min(upper, known_upper)
    return bounds


def seed_book(game: Game, book: Book, levels: list[Level], seed: BookReader) -> int:
    """Copy into ``book`` every position of ``levels`` that ``seed`` knows and ``book`` does
    not (method ``seed``): a build that goes on from another book, a packed one included
    (a packed book keeps no texts, so the levels say which positions to ask it for).
    Returns how many rows were new."""
    stored = 0
    for level in levels:
        known = book.known_keys(level.positions)
        rows = []
        for key, text in level.positions.items():
            if key in known:
                continue
            position = game.new_position(text)
            entry = seed.lookup(position)
            if entry is not None:
                rows.append(BookRow.of(game, position, entry.score, entry.best_move, "seed", entry.nodes, text))
        stored += book.store(rows)
    return stored


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
    levels: list[Level] | None = None,
) -> BuildSummary:
    """Solve the level ``plies`` below ``roots`` on ``pool`` into ``book``, then back up
    every position whose children are all known: a build whose solves hit their limits
    keeps what it solved and says what is left (``unsolved``, ``unknown``). ``levels``:
    what ``enumerate_levels`` gave for these roots and plies, if the caller has it."""
    if levels is None:
        levels = enumerate_levels(game, roots, plies)
    sizes = [len(level.positions) for level in levels]
    if on_stage is not None:
        on_stage(f"positions per ply below the root{'s' if len(roots) > 1 else ''}: {sizes}")
    bounds = leaf_bounds(game, book, levels)
    if on_stage is not None and bounds:
        on_stage(f"{len(bounds):,} positions to solve start from their parents' values in the book")
    leaves = [
        Case(number, text, bounds=bounds.get(key))
        for number, (key, text) in enumerate(levels[-1].positions.items(), start=1)
    ]
    # The estimate solves a sample drawn from the whole level (the first positions found
    # are alike: one corner of the tree), seeded, so a rerun samples the same ones.
    sample = random.Random(len(leaves)).sample(leaves, min(len(leaves), ESTIMATE_SAMPLE * pool.workers))
    if on_stage is not None and len(leaves) > len(sample):
        # a first few solves (kept in the book) say roughly how long the rest will take
        timed = run_batch(job, sample, [BookSink(book)], pool, chunk_size, None, on_error, stop)
        if timed.completed and not timed.stopped:
            seconds = timed.busy_seconds / timed.completed * (len(leaves) - len(sample)) / pool.workers
            on_stage(
                f"{len(leaves):,} positions to solve; {timed.completed} of them took {timed.elapsed:.1f} s,"
                f" so the rest should take roughly {_duration(seconds)} (progress follows)"
            )
    solved = run_batch(job, leaves, [BookSink(book)], pool, chunk_size, on_progress, on_error, stop)
    if solved.stopped:
        return BuildSummary(sizes, solved, 0, 0.0, [])
    unsolved = max(0, len(leaves) - len(book.known_keys(levels[-1].positions)))
    start = time.perf_counter()
    backed = unknown = 0
    for level in reversed(levels[:-1]):
        stored, missing = back_up(game, book, level)
        backed += stored
        unknown += missing
    values = []
    for text in roots:
        entry = book.lookup(game.new_position(text))
        if entry is not None:
            values.append((text, entry.game_score))
    return BuildSummary(sizes, solved, backed, time.perf_counter() - start, values, unsolved, unknown)


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
