"""The SQLite file under a book, and what can go wrong with it, each told apart in one line:

* **locked**: another process holds a write transaction. A writer waits for it in short
  steps (each at most ``LOCK_STEP_SECONDS`` inside SQLite, so Ctrl-C is honoured), tells
  ``on_wait`` how long it has waited, and gives up after ``LOCK_SECONDS`` with
  ``BookLockedError``, never with "not a book";
* **damaged**: SQLite's integrity check fails, or a row reads back as something the book
  never writes (a method other than ``solve``/``backup``, a negative node count, text that
  is not UTF-8): ``BookDamagedError``, saying how to recover, before anything trusts it;
* **not writable**: a full disk or a limit on a file's size (``disk I/O error``):
  ``BookError`` naming the cause; the transaction is rolled back, the book stays as it was.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from typing import Any, TypeVar

from negamax.core.errors import InvalidOptionError
from negamax.core.score import INF

T = TypeVar("T")

LOCK_SECONDS = 120.0
"""How long a writer waits for another process's transaction before giving up."""
LOCK_STEP_SECONDS = 0.2
"""How long one attempt waits inside SQLite (Ctrl-C is seen between two)."""
METHODS = ("solve", "backup", "seed")
"""How a book's values are obtained: every row names one (``seed``: copied from another
book at the start of a build, ``book build --seed``)."""

OnWait = Callable[[float], None]
"""Told the seconds waited so far, while a book is locked by another process."""


class BookError(InvalidOptionError):
    """A book file cannot be opened or is not a book."""


class BookLockedError(BookError):
    """Another process held the book's write lock for longer than we would wait."""


class BookDamagedError(BookError):
    """The book's file is damaged: what it holds cannot be trusted."""


def damaged(path: str, detail: str) -> BookDamagedError:
    """The error for a damaged book, with how to recover."""
    return BookDamagedError(
        f"{path} is damaged ({detail}): its values cannot be trusted; save what is readable with"
        f" 'negamax book export GAME --book {path} --output saved.jsonl', then move it aside and build it again"
    )


def looks_like_sqlite(path: str) -> bool:
    """Whether the file at ``path`` starts as an SQLite database does (a file that does and
    cannot be read is a damaged database, not another kind of file)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def is_locked(error: sqlite3.Error) -> bool:
    text = str(error).lower()
    return isinstance(error, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def is_write_failure(error: sqlite3.Error) -> bool:
    text = str(error).lower()
    return isinstance(error, sqlite3.OperationalError) and ("disk i/o" in text or "full" in text)


def waiting(path: str, operation: Callable[[], T], on_wait: OnWait | None = None) -> T:
    """``operation()``, tried again while another process holds the book's lock (see the
    module); a damaged file or a failed write said as such.

    :raises BookLockedError: after ``LOCK_SECONDS``, or at Ctrl-C while waiting.
    :raises BookDamagedError: for a file SQLite finds malformed, or text that is not UTF-8.
    :raises BookError: for a write the disk refused.
    """
    started = time.monotonic()
    locked = False
    try:
        while True:
            try:
                return operation()
            except sqlite3.Error as error:
                if is_write_failure(error):
                    raise BookError(
                        f"cannot write {path} ({error}: is the disk full, or the file at a size limit?);"
                        " the book keeps what it held before"
                    ) from None
                if not is_locked(error):
                    if type(error) is sqlite3.DatabaseError:  # "malformed", "not a database"
                        raise damaged(path, str(error)) from None
                    raise
            except UnicodeDecodeError:
                raise damaged(path, "text that is not UTF-8") from None
            waited = time.monotonic() - started
            if waited >= LOCK_SECONDS:
                raise BookLockedError(
                    f"{path} is locked by another process (a book build or batch writing to it?);"
                    f" gave up after {waited:.0f} s: try again once it is done"
                )
            locked = True  # before it is said: a Ctrl-C from now on gives up the wait
            if on_wait is not None:
                on_wait(waited)
            time.sleep(LOCK_STEP_SECONDS / 2)
    except KeyboardInterrupt:
        if not locked:
            raise
        raise BookLockedError(
            f"{path} is locked by another process; gave up waiting after {time.monotonic() - started:.0f} s (Ctrl-C)"
        ) from None


_CHECKED: set[tuple[str, int, int]] = set()
"""The files (path, size, modification time) found sound in this process."""


def check_integrity(path: str, db: sqlite3.Connection) -> None:
    """SQLite's integrity check of the book at ``path``, once per version of the file in
    this process.

    :raises BookDamagedError: naming what SQLite found.
    """
    try:
        status = os.stat(path)
        version = (os.path.realpath(path), status.st_size, status.st_mtime_ns)
    except OSError:
        version = None
    if version is not None and version in _CHECKED:
        return
    try:
        found = [row[0] for row in db.execute("PRAGMA integrity_check(5)")]
    except sqlite3.DatabaseError as error:
        if is_locked(error):
            raise
        raise damaged(path, str(error)) from None
    except UnicodeDecodeError:
        raise damaged(path, "text that is not UTF-8") from None
    if found != ["ok"]:
        problems = [part for row in found for part in str(row).splitlines() if part and not part.startswith("***")]
        raise damaged(path, f"SQLite's integrity check: {(problems or ['failed'])[0][:80]}")
    if version is not None:
        _CHECKED.add(version)


def checked_row(path: str, row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A ``(score, game_score, best_move, method, nodes)`` row as the book writes them.

    :raises BookDamagedError: for anything else.
    """
    score, game_score, best_move, method, nodes = row
    if (
        type(score) is not int
        or not -INF < score < INF
        or type(game_score) is not int
        or not (best_move is None or isinstance(best_move, str))
        or method not in METHODS
        or type(nodes) is not int
        or nodes < 0
    ):
        raise damaged(path, f"a row reads {_short(row)}")
    return row


def _short(row: tuple[Any, ...]) -> str:
    shown = repr(row)
    return shown if len(shown) <= 80 else shown[:77] + "..."
