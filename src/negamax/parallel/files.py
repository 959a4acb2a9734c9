"""The files a command names (inputs, outputs, error logs, books), checked before any of
them is opened, so that a slip on the command line never costs the user a file.

* Two arguments that name the same file are refused (``--errors in.txt`` beside the input
  ``in.txt``, ``--out r.sqlite --book r.sqlite``), however the paths are written.
* An output must be a regular file or not exist yet: a device, a FIFO or a directory is
  refused.
* A file the command would replace is replaced only when it is empty, when it is one this
  command wrote before (the caller says how to recognise it), or when the user asked for it
  with ``--overwrite``.
* What is written whole is written to a temporary file beside it and moved into place, so
  an interrupted write leaves the old file or the new one, never half of either.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import sqlite3
import stat
import tempfile
from collections.abc import Callable, Iterator
from typing import TextIO

from negamax.core.errors import InvalidOptionError


class NamedFileError(InvalidOptionError):
    """A file named on the command line cannot be used as asked."""


def _identity(path: str) -> tuple[int, int] | str:
    """What tells two paths apart: the device and inode of an existing file, else the
    absolute path with its links resolved."""
    with contextlib.suppress(OSError):
        status = os.stat(path)
        return (status.st_dev, status.st_ino)
    return os.path.realpath(os.path.abspath(path))


def refuse_same_files(named: dict[str, str | None]) -> None:
    """Refuse when two of ``named`` (what each is, e.g. ``"--errors"``, -> its path; ``None``
    for an argument not given) are the same file.

    :raises NamedFileError: naming both arguments.
    """
    seen: dict[tuple[int, int] | str, str] = {}
    for what, path in named.items():
        if path is None:
            continue
        identity = _identity(path)
        if identity in seen:
            raise NamedFileError(f"{what} {path} is the same file as {seen[identity]}: give another file")
        seen[identity] = f"{what} {path}"


def refuse_special_output(what: str, path: str) -> None:
    """Refuse an output that exists and is not a regular file (a device, a FIFO, a
    directory, a socket): writing there would not make the file the user expects.

    :raises NamedFileError:
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise NamedFileError(f"{what} {path}: {error.strerror}") from None
    if not stat.S_ISREG(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
        raise NamedFileError(f"{what} {path} is {kind}: give a file to write")


def refuse_special_input(what: str, path: str) -> None:
    """Refuse an input that is not a regular file: a device (``/dev/zero`` never ends), a
    directory, or a pipe (a batch counts its positions before it starts, and opening a
    pipe nobody writes to would wait for ever).

    :raises NamedFileError:
    """
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        raise NamedFileError(f"cannot read {path}: {error.strerror}") from None
    if stat.S_ISDIR(mode):
        raise NamedFileError(f"{what} {path} is a directory: give a file")
    if not stat.S_ISREG(mode):
        raise NamedFileError(f"{what} {path} is not a regular file: give a file")


def refuse_replacing(what: str, path: str, overwrite: bool, ours: Callable[[str], bool] | None = None) -> None:
    """Refuse to replace an existing non-empty file unless ``overwrite`` or ``ours(path)``
    says this command wrote it.

    :raises NamedFileError:
    """
    refuse_special_output(what, path)
    try:
        size = os.path.getsize(path)
    except OSError:
        return  # nothing there to lose
    if size == 0 or overwrite or (ours is not None and ours(path)):
        return
    raise NamedFileError(f"{what} {path} exists and was not written by this command: add --overwrite to replace it")


def first_line(path: str, limit: int = 4096) -> str:
    """The first line of a file (at most ``limit`` bytes of it), or ``""``."""
    try:
        with open(path, "rb") as handle:
            return handle.readline(limit).decode("utf-8", errors="replace").rstrip("\n")
    except OSError:
        return ""


@contextlib.contextmanager
def replaced_whole(path: str) -> Iterator[TextIO]:
    """A text stream whose content replaces ``path`` when the block ends without an error
    (written beside it, then moved into place); on an error ``path`` is left as it was."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        descriptor, temporary = tempfile.mkstemp(prefix=".negamax-", dir=directory)
    except OSError as error:
        raise NamedFileError(f"cannot write {path}: {error.strerror}") from None
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            yield stream
        mode = 0o644  # mkstemp's 0o600 would hide a report from the user's other tools
        with contextlib.suppress(OSError):
            mode = stat.S_IMODE(os.stat(path).st_mode)
        with contextlib.suppress(OSError):
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise


def read_only_sqlite(path: str) -> sqlite3.Connection:
    """``path`` opened for reading only: never created, changed, or switched to another
    journal mode. A database whose directory cannot be written (where SQLite would keep
    the shared-memory index of a WAL file) is opened as immutable.

    :raises sqlite3.Error: if it cannot be read as SQLite.
    """
    location = pathlib.Path(os.path.abspath(path)).as_uri()
    try:
        db = sqlite3.connect(f"{location}?mode=ro", uri=True)
        db.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
        return db
    except sqlite3.OperationalError:
        if not os.path.exists(path):
            raise
        db = sqlite3.connect(f"{location}?immutable=1", uri=True)
        db.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
        return db


def foreign_sqlite(path: str, tables: dict[str, tuple[str, ...]]) -> str:
    """Why the file at ``path`` is not one that holds only ``tables`` (name -> its columns,
    in order), in words (``"holds the tables notes, users"``); ``""`` when it is one, is
    empty, or does not exist. Only reads the file."""
    try:
        if os.path.getsize(path) == 0:
            return ""
    except OSError:
        return ""
    try:
        with contextlib.closing(read_only_sqlite(path)) as db:
            present = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            others = sorted(set(present) - set(tables))
            if others:
                return f"holds other tables ({', '.join(others[:5])})"
            for name in present:
                columns = tuple(row[1] for row in db.execute(f"PRAGMA table_info({name})"))
                if columns != tables[name]:
                    return f"has a table {name} with other columns"
    except sqlite3.Error:
        return "is not an SQLite database"
    return ""
