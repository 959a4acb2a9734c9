"""A book of solved positions: exact values in SQLite, shared by every tool that solves.

Positions are keyed by the game's symmetry-canonical key, so a position and its mirror
image share one row; best moves are stored in the canonical orientation and turned back
on the way out. The database runs in WAL mode: readers are never blocked, and writers
(several processes may write at once) wait their turn, each committing a batch of rows
in one transaction.

>>> import tempfile, os
>>> from negamax.games import get_game
>>> game = get_game("connect4")
>>> path = os.path.join(tempfile.mkdtemp(), "book.sqlite")
>>> with Book(path, game) as book:
...     added = book.store([BookRow.of(game, game.new_position("1"), score=-5, best_move="2", method="solve")])
...     entry = book.lookup(game.new_position("7"))  # the mirror image of "1"
>>> entry.score, entry.best_move, entry.method
(-5, '6', 'solve')
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.resources
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator
from typing import Any

from negamax.core.errors import InvalidOptionError
from negamax.core.game import Position
from negamax.core.rules import Game
from negamax.core.score import Bound, from_child
from negamax.core.types import Line, SearchResult
from negamax.parallel.cases import Case
from negamax.parallel.files import foreign_sqlite, read_only_sqlite, refuse_special_input, refuse_special_output

FORMAT_VERSION = "1"
BUSY_SECONDS = 120.0
"""How long a writer waits for another writer's transaction before giving up."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS positions (
    game TEXT NOT NULL,
    key TEXT NOT NULL,          -- Game.book_key: equal for symmetric positions
    score INTEGER NOT NULL,     -- exact value for the side to move, in plies to the end (core.score)
    game_score INTEGER NOT NULL,-- the same value in the game's own convention (Pons' for Connect 4)
    best_move TEXT,             -- in the orientation of the key (symmetry 0)
    method TEXT NOT NULL,       -- how the value was obtained: solve, backup
    nodes INTEGER NOT NULL,     -- nodes the solve searched (0 for a back-up)
    position TEXT NOT NULL,     -- a position with this key, as the game writes it
    symmetry INTEGER NOT NULL,  -- the symmetry that turns that position into the key's orientation
    PRIMARY KEY (game, key)
) WITHOUT ROWID;
"""


BOOK_TABLES = {
    "meta": ("name", "value"),
    "positions": ("game", "key", "score", "game_score", "best_move", "method", "nodes", "position", "symmetry"),
}
"""The tables a book holds, with their columns: a file holding anything else is not one."""


class BookError(InvalidOptionError):
    """A book file cannot be opened or is not a book."""


@dataclasses.dataclass(frozen=True)
class BookRow:
    """One solved position, ready to store."""

    key: str
    score: int
    game_score: int
    best_move: str | None
    method: str
    nodes: int
    position: str
    symmetry: int

    @classmethod
    def of(
        cls,
        game: Game,
        position: Position[Any],
        score: int,
        best_move: str | None,
        method: str,
        nodes: int = 0,
        text: str | None = None,
    ) -> BookRow:
        """The row for ``position`` (written ``text``) whose exact value is ``score`` (a
        distance score for the side to move) and best move ``best_move`` (as written in
        ``position``)."""
        key, symmetry = game.book_key(position)
        canonical_move = None if best_move is None else game.symmetric_move_text(best_move, symmetry)
        text = game.position_text(position) if text is None else text
        return cls(key, score, game.game_score(position, score), canonical_move, method, nodes, text, symmetry)


@dataclasses.dataclass(frozen=True)
class BookEntry:
    """What the book knows of a position, in that position's orientation."""

    score: int
    game_score: int
    best_move: str | None
    method: str
    nodes: int


class BookReader:
    """What every book answers from its ``lookup``: a position's exact value and best move,
    and every move's value from its children's entries. A context manager."""

    game: Game

    def __enter__(self) -> BookReader:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        raise NotImplementedError

    def lookup(self, position: Position[Any]) -> BookEntry | None:
        """The book's entry for ``position`` (or a symmetric image of it), or ``None``."""
        raise NotImplementedError

    def answer(self, position: Position[Any], multipv: int = 1) -> SearchResult[Any] | None:
        """What the book knows of ``position`` as a search result (exact value and best
        move, ``algorithm`` ``book (...)``), or ``None``; with ``multipv`` above 1, the best
        moves' values too (``None`` unless the book knows every move's child)."""
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        entry = self.lookup(position)
        if entry is None:
            return None
        lines: tuple[Line[Any], ...] = ()
        if multipv > 1:
            known = self._lines(position)
            if known is None:
                return None
            lines = known[:multipv]
        move = self.game.parse_move(position, entry.best_move) if entry.best_move is not None else None
        if lines:
            move = lines[0].move  # among equals, the move the lines start with
        return SearchResult(
            best_move=move,
            score=entry.score,
            bound=Bound.EXACT,
            pv=() if move is None else (move,),
            depth=0,
            nodes=0,
            cpu_time=time.process_time() - start_cpu,
            wall_time=time.perf_counter() - start_wall,
            algorithm=f"book ({entry.method})",
            lower=entry.score,
            upper=entry.score,
            lines=lines,
        )

    def _lines(self, position: Position[Any]) -> tuple[Line[Any], ...] | None:
        """Every move's exact value from the book's entries for the children, best first
        (``None`` if one of them is not in the book)."""
        lines = []
        mover = position.player()
        for move in position.legal_moves():
            child = position.copy()
            child.play(move)
            if child.is_terminal():
                value = child.terminal_value()
            else:
                entry = self.lookup(child)
                if entry is None:
                    return None
                value = entry.score
            score = from_child(value, child.player() == mover)
            lines.append(Line(move, score, Bound.EXACT, (move,), score, score))
        lines.sort(key=lambda line: -line.score)
        return tuple(lines)


class Book(BookReader):
    """One SQLite book file for one game. Use as a context manager, or call ``close``."""

    def __init__(self, path: str, game: Game, create: bool = True) -> None:
        """Open the book at ``path`` for ``game``: for reading and writing, created if
        missing (``create``), or for reading only, as a read-only file can be.

        :raises BookError: if the file is missing (``create=False``), is not a book (an
            SQLite file holding other tables is refused without being changed), or cannot
            be opened.
        """
        self.path, self.game = path, game
        try:
            if create:
                refuse_special_output("--book", path)
                foreign = foreign_sqlite(path, BOOK_TABLES)
                if foreign:
                    raise BookError(f"{path} {foreign}: it is not a negamax book; give another file")
                # IMMEDIATE: a writer takes the write lock when its transaction starts, so two
                # writers queue up instead of deadlocking on a lock upgrade.
                self._db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level="IMMEDIATE")
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable at each checkpoint, never corrupt
                with self._db:
                    self._db.executescript(_SCHEMA)
                    self._db.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?)", (FORMAT_VERSION,))
            else:
                if not os.path.exists(path):
                    raise BookError(f"no book at {path}")
                refuse_special_input("--book", path)  # SQLite would wait for ever on a pipe
                self._db = read_only_sqlite(path)
            version = self._db.execute("SELECT value FROM meta WHERE name = 'format'").fetchone()
        except sqlite3.DatabaseError as error:
            raise BookError(f"{path} is not a negamax book ({error})") from None
        if version is None or version[0] != FORMAT_VERSION:
            raise BookError(f"{path} is not a negamax book of format {FORMAT_VERSION}")

    def __enter__(self) -> Book:
        return self

    def close(self) -> None:
        self._db.close()

    def lookup(self, position: Position[Any]) -> BookEntry | None:
        """The book's entry for ``position`` (or its mirror image), or ``None``."""
        key, symmetry = self.game.book_key(position)
        row = self._db.execute(
            "SELECT score, game_score, best_move, method, nodes FROM positions WHERE game = ? AND key = ?",
            (self.game.name, key),
        ).fetchone()
        if row is None:
            return None
        score, game_score, best_move, method, nodes = row
        move = None if best_move is None else self.game.symmetric_move_text(best_move, symmetry)
        return BookEntry(score, game_score, move, method, nodes)

    def key_rows(self) -> Iterator[tuple[str, int, str | None]]:
        """(key, score, best move in the key's orientation) of every position of the game."""
        yield from self._db.execute("SELECT key, score, best_move FROM positions WHERE game = ?", (self.game.name,))

    def score_of_key(self, key: str) -> tuple[int, str | None] | None:
        """(score, best move in the key's orientation) for a book key, or ``None``."""
        row = self._db.execute(
            "SELECT score, best_move FROM positions WHERE game = ? AND key = ?", (self.game.name, key)
        ).fetchone()
        return None if row is None else (row[0], row[1])

    def known_keys(self, keys: Iterable[str]) -> set[str]:
        """The keys among ``keys`` that the book holds."""
        wanted = list(dict.fromkeys(keys))
        found: set[str] = set()
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            marks = ", ".join("?" for _ in part)
            rows = self._db.execute(
                f"SELECT key FROM positions WHERE game = ? AND key IN ({marks})", (self.game.name, *part)
            )
            found.update(key for (key,) in rows)
        return found

    def store(self, rows: Iterable[BookRow]) -> int:
        """Add ``rows`` in one transaction; a key already in the book keeps its row.
        Returns how many rows were new."""
        values = [
            (self.game.name, r.key, r.score, r.game_score, r.best_move, r.method, r.nodes, r.position, r.symmetry)
            for r in rows
        ]
        with self._db:
            before = self._db.total_changes
            self._db.executemany(
                "INSERT INTO positions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game, key) DO NOTHING", values
            )
            return self._db.total_changes - before

    def stats(self) -> dict[str, Any]:
        """Rows by method, and the spread of values."""
        by_method = dict(
            self._db.execute("SELECT method, COUNT(*) FROM positions WHERE game = ? GROUP BY method", (self.game.name,))
        )
        wins, draws, losses = self._db.execute(
            "SELECT COALESCE(SUM(score > 0), 0), COALESCE(SUM(score = 0), 0), COALESCE(SUM(score < 0), 0)"
            " FROM positions WHERE game = ?",
            (self.game.name,),
        ).fetchone()
        total = sum(by_method.values())
        size = os.path.getsize(self.path) if os.path.exists(self.path) else 0
        return {
            "game": self.game.name,
            "positions": total,
            "by_method": by_method,
            "wins": wins,
            "draws": draws,
            "losses": losses,
            "file_bytes": size,
        }

    def rows(self) -> Iterator[dict[str, Any]]:
        """Every position of this game, with its best move written for its stored position."""
        cursor = self._db.execute(
            "SELECT position, symmetry, game_score, score, best_move, method, nodes FROM positions"
            " WHERE game = ? ORDER BY key",
            (self.game.name,),
        )
        for position, symmetry, game_score, score, best_move, method, nodes in cursor:
            move = None if best_move is None else self.game.symmetric_move_text(best_move, symmetry)
            yield {
                "position": position,
                "score": game_score,
                "engine_score": score,
                "best_move": move,
                "method": method,
                "nodes": nodes,
            }


class BookSink:
    """A batch's results going into a book: exact solves only, keyed by position, so a
    re-run skips every position the book already holds (from any run or input)."""

    def __init__(self, book: Book) -> None:
        self.book = book

    def pending(self, cases: list[Case]) -> list[Case]:
        keys = {}
        for case in cases:
            keys[case.line] = self.book.game.book_key(self.book.game.new_position(case.text))[0]
        known = self.book.known_keys(keys.values())
        return [case for case in cases if keys[case.line] not in known]

    def write(self, records: list[dict[str, Any]]) -> None:
        game = self.book.game
        rows = [
            BookRow.of(
                game,
                game.new_position(record["position"]),
                record["engine_score"],
                record["best_move"],
                "solve",
                record["nodes"],
                record["position"],
            )
            for record in records
            if record["bound"] == "exact"
        ]
        if rows:
            self.book.store(rows)


SHIPPED_BOOKS = {"connect4": ("negamax.games.connect4", "opening.npz")}
"""The books that come with the package, by game name: (package, file), packed
(``packed_book``). Connect 4's holds every position of the first eight plies, built by
``negamax book build connect4 --plies 8`` and ``negamax book pack`` (the recipe is in
``docs/web-app.md``)."""


def shipped_book_path(game: Game) -> str | None:
    """The book the package ships for ``game`` (Connect 4 on its 7x6 board), if any."""
    place = SHIPPED_BOOKS.get(game.name)
    if place is None:
        return None
    path = importlib.resources.files(place[0]) / place[1]
    return str(path) if path.is_file() else None


def open_shipped_book(game: Game) -> contextlib.AbstractContextManager[BookReader | None]:
    """The book the package ships for ``game``, opened for reading (``None`` inside the
    ``with`` for a game without one); read once and kept, as the package's files never change."""
    path = shipped_book_path(game)
    if path is None:
        return contextlib.nullcontext(None)
    return contextlib.nullcontext(_shipped(path, game))


_SHIPPED: dict[tuple[str, str], BookReader] = {}


def _shipped(path: str, game: Game) -> BookReader:
    from negamax.parallel.packed_book import open_book_file

    found = _SHIPPED.get((path, game.name))
    if found is None:
        found = _SHIPPED[(path, game.name)] = open_book_file(path, game)
    return found
