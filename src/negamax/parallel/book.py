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

from negamax.core.game import Position
from negamax.core.rules import Game
from negamax.core.score import Bound, from_child
from negamax.core.types import Line, SearchResult
from negamax.parallel.book_file import (
    LOCK_STEP_SECONDS,
    METHODS,
    OnWait,
    check_integrity,
    checked_row,
    damaged,
    looks_like_sqlite,
    waiting,
)
from negamax.parallel.book_file import (
    BookError as BookError,  # where every reader of books has long found it
)
from negamax.parallel.cases import Case
from negamax.parallel.files import foreign_sqlite, read_only_sqlite, refuse_special_input, refuse_special_output

FORMAT_VERSION = "1"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS positions (
    game TEXT NOT NULL,
    key TEXT NOT NULL,          -- Game.book_key: equal for symmetric positions
    score INTEGER NOT NULL,     -- exact value for the side to move, in plies to the end (core.score)
    game_score INTEGER NOT NULL,-- the same value in the game's own convention (Pons' for Connect 4)
    best_move TEXT,             -- in the orientation of the key (symmetry 0)
    method TEXT NOT NULL,       -- how the value was obtained: solve, backup, seed (copied from another book)
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

    def __init__(
        self, path: str, game: Game, create: bool = True, on_wait: OnWait | None = None, check: bool = True
    ) -> None:
        """Open the book at ``path`` for ``game``: for reading and writing, created if
        missing (``create``), or for reading only, as a read-only file can be. A writer
        blocked by another process's transaction waits (``negamax.parallel.book_file``),
        telling ``on_wait`` the seconds so far. With ``check`` (the default) SQLite's
        integrity check runs first; without, a damaged book opens for what can be read
        of it (``rows``, to save it).

        :raises BookError: if the file is missing (``create=False``), is not a book (an
            SQLite file holding other tables is refused without being changed), or cannot
            be opened; ``BookLockedError`` if another process holds it too long,
            ``BookDamagedError`` if it is damaged.
        """
        self.path, self.game = path, game
        self.on_wait = on_wait
        self.skipped = 0
        """Rows ``rows`` left out as unreadable (a damaged book)."""
        try:
            if create:
                refuse_special_output("--book", path)
                foreign = foreign_sqlite(path, BOOK_TABLES)
                if foreign and looks_like_sqlite(path) and "not an SQLite database" in foreign:
                    raise damaged(path, "SQLite cannot read its tables")
                if foreign:
                    raise BookError(f"{path} {foreign}: it is not a negamax book; give another file")
                # IMMEDIATE: a writer takes the write lock when its transaction starts, so two
                # writers queue up instead of deadlocking on a lock upgrade. A short timeout:
                # the waiting is ours, in steps Ctrl-C can end, and said (book_file.waiting).
                self._db = sqlite3.connect(path, timeout=LOCK_STEP_SECONDS, isolation_level="IMMEDIATE")
                waiting(path, self._set_up, on_wait)
            else:
                if not os.path.exists(path):
                    raise BookError(f"no book at {path}")
                refuse_special_input("--book", path)  # SQLite would wait for ever on a pipe
                self._db = read_only_sqlite(path)
            if check:
                waiting(path, lambda: check_integrity(path, self._db), on_wait)
            version = waiting(
                path, lambda: self._db.execute("SELECT value FROM meta WHERE name = 'format'").fetchone(), on_wait
            )
        except sqlite3.DatabaseError as error:
            if looks_like_sqlite(path) and "malformed" in str(error):
                raise damaged(path, str(error)) from None
            raise BookError(f"{path} is not a negamax book ({error})") from None
        if version is None or version[0] != FORMAT_VERSION:
            raise BookError(f"{path} is not a negamax book of format {FORMAT_VERSION}")

    def _set_up(self) -> None:
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable at each checkpoint, never corrupt
        with self._db:
            self._db.executescript(_SCHEMA)
            self._db.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?)", (FORMAT_VERSION,))

    def _read(self, query: str, parameters: tuple[Any, ...] = ()) -> list[Any]:
        """Every row of ``query``, read while no other process holds the book too long."""
        return waiting(self.path, lambda: self._db.execute(query, parameters).fetchall(), self.on_wait)

    def __enter__(self) -> Book:
        return self

    def close(self) -> None:
        self._db.close()

    def lookup(self, position: Position[Any]) -> BookEntry | None:
        """The book's entry for ``position`` (or its mirror image), or ``None``."""
        key, symmetry = self.game.book_key(position)
        found = self._read(
            "SELECT score, game_score, best_move, method, nodes FROM positions WHERE game = ? AND key = ?",
            (self.game.name, key),
        )
        if not found:
            return None
        score, game_score, best_move, method, nodes = checked_row(self.path, found[0])
        move = None if best_move is None else self.game.symmetric_move_text(best_move, symmetry)
        return BookEntry(score, game_score, move, method, nodes)

    def key_rows(self) -> Iterator[tuple[str, int, str | None]]:
        """(key, score, best move in the key's orientation) of every position of the game."""
        yield from self._db.execute("SELECT key, score, best_move FROM positions WHERE game = ?", (self.game.name,))

    def score_of_key(self, key: str) -> tuple[int, str | None] | None:
        """(score, best move in the key's orientation) for a book key, or ``None``."""
        found = self._read(
            "SELECT score, game_score, best_move, method, nodes FROM positions WHERE game = ? AND key = ?",
            (self.game.name, key),
        )
        if not found:
            return None
        row = checked_row(self.path, found[0])
        return row[0], row[2]

    def known_keys(self, keys: Iterable[str]) -> set[str]:
        """The keys among ``keys`` that the book holds."""
        wanted = list(dict.fromkeys(keys))
        found: set[str] = set()
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            marks = ", ".join("?" for _ in part)
            rows = self._read(f"SELECT key FROM positions WHERE game = ? AND key IN ({marks})", (self.game.name, *part))
            found.update(key for (key,) in rows)
        return found & set(wanted)  # a damaged index answers nothing it was not asked

    def store(self, rows: Iterable[BookRow]) -> int:
        """Add ``rows`` in one transaction; a key already in the book keeps its row.
        Returns how many rows were new."""
        values = [
            (self.game.name, r.key, r.score, r.game_score, r.best_move, r.method, r.nodes, r.position, r.symmetry)
            for r in rows
        ]

        def insert() -> int:
            with self._db:
                before = self._db.total_changes
                self._db.executemany(
                    "INSERT INTO positions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game, key) DO NOTHING",
                    values,
                )
                return self._db.total_changes - before

        return waiting(self.path, insert, self.on_wait)

    def stats(self) -> dict[str, Any]:
        """Rows by method, and the spread of values."""
        by_method = dict(
            self._read("SELECT method, COUNT(*) FROM positions WHERE game = ? GROUP BY method", (self.game.name,))
        )
        if any(method not in METHODS for method in by_method):
            raise damaged(self.path, f"rows by an unknown method, {sorted(set(by_method) - set(METHODS))[0]!r}")
        wins, draws, losses = self._read(
            "SELECT COALESCE(SUM(score > 0), 0), COALESCE(SUM(score = 0), 0), COALESCE(SUM(score < 0), 0)"
            " FROM positions WHERE game = ?",
            (self.game.name,),
        )[0]
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
        """Every position of this game, with its best move written for its stored position.
        A row that does not read back as the book writes it is left out (counted in
        ``skipped``); where the file cannot be read in one pass, the rest is read a key at a
        time: a damaged book gives what is still readable of it."""
        self.skipped = 0
        columns = "key, position, symmetry, game_score, score, best_move, method, nodes"
        last = ""
        try:
            cursor = self._db.execute(f"SELECT {columns} FROM positions WHERE game = ? ORDER BY key", (self.game.name,))
            for row in cursor:
                last = row[0]
                found = self._readable(row)
                if found is not None:
                    yield found
            return
        except (sqlite3.DatabaseError, UnicodeDecodeError):
            pass
        keys: list[str] = []
        try:  # past the damage: the keys still listed, each row read on its own
            for (key,) in self._db.execute(
                "SELECT key FROM positions WHERE game = ? AND key > ? ORDER BY key", (self.game.name, last)
            ):
                keys.append(key)
        except (sqlite3.DatabaseError, UnicodeDecodeError):
            self.skipped += 1
        for key in keys:
            try:
                row = self._db.execute(
                    f"SELECT {columns} FROM positions WHERE game = ? AND key = ?", (self.game.name, key)
                ).fetchone()
            except (sqlite3.DatabaseError, UnicodeDecodeError):
                self.skipped += 1
                continue
            found = None if row is None else self._readable(row)
            if found is not None:
                yield found

    def _readable(self, row: tuple[Any, ...]) -> dict[str, Any] | None:
        """A row of ``rows`` as it is exported, or ``None`` (counted) if it is garbled."""
        _, position, symmetry, game_score, score, best_move, method, nodes = row
        try:
            checked_row(self.path, (score, game_score, best_move, method, nodes))
            if not isinstance(position, str) or type(symmetry) is not int:
                raise damaged(self.path, "a position that is not text")
            move = None if best_move is None else self.game.symmetric_move_text(best_move, symmetry)
        except Exception:  # a garbled row (its move text too): left out, the rest saved
            self.skipped += 1
            return None
        return {
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
(``packed_book``). Connect 4's holds every position of plies 0-10 (1,208,493), built
by ``negamax book build connect4 --plies 10`` and ``negamax book pack`` (the recipe and
what it holds are in ``docs/web-app.md``)."""


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
