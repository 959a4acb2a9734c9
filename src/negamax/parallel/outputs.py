"""Where batch results go: JSON Lines, CSV or SQLite, chosen by the file's extension.

Every output is resumable and safe against a kill at any moment:

* JSON Lines and CSV get each chunk's records in a single ``write`` to a file opened for
  appending, so a kill leaves whole chunks. A line cut short anyway (a full disk, a crash
  of the machine) is removed when the file is opened again.
* SQLite commits each chunk in one transaction (WAL journal), keyed by line number.

``done()`` tells which input lines already have a result, so a re-run skips them.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import sqlite3
from collections.abc import Iterable
from typing import Any, Protocol

from negamax.core.errors import InvalidOptionError
from negamax.parallel.cases import Case
from negamax.parallel.worker import RECORD_FIELDS


class OutputError(InvalidOptionError):
    """An output file cannot be used: unreadable, or not one a batch wrote."""


class Output(Protocol):
    path: str

    def done(self) -> dict[int, str]:
        """Input line -> position text, for every result already stored."""
        ...

    def pending(self, cases: list[Case]) -> list[Case]:
        """The cases without a result yet.

        :raises OutputError: if a stored result is for another position on that line.
        """
        ...

    def write(self, records: list[dict[str, Any]]) -> None:
        """Store ``records`` durably before returning."""
        ...

    def close(self) -> None: ...


EXTENSIONS = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".csv": "csv",
    ".sqlite": "sqlite",
    ".sqlite3": "sqlite",
    ".db": "sqlite",
}


def open_output(path: str) -> Output:
    """The output ``path`` names, by extension (``.jsonl``, ``.csv``, ``.sqlite``/``.db``).

    :raises OutputError: for another extension, or a file that is not a batch's output.
    """
    kind = EXTENSIONS.get(os.path.splitext(path)[1].lower())
    if kind == "jsonl":
        return JsonLinesOutput(path)
    if kind == "csv":
        return CsvOutput(path)
    if kind == "sqlite":
        return SqliteOutput(path)
    raise OutputError(f"--out {path}: the extension must be one of {', '.join(EXTENSIONS)}")


def _pending(path: str, done: dict[int, str], cases: list[Case]) -> list[Case]:
    for case in cases:
        stored = done.get(case.line)
        if stored is not None and stored != case.text:
            raise OutputError(
                f"{path} has a result for {stored!r} on line {case.line}, where the input now has {case.text!r}:"
                " it was made from another input; give another --out"
            )
    return [case for case in cases if case.line not in done]


class _AppendedLines:
    """A text file of one record a line, appended to whole chunks at a time."""

    def __init__(self, path: str) -> None:
        self.path = path
        lines = self._complete_lines()
        self._done = self._parse(lines)
        try:
            self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as error:
            raise OutputError(f"cannot write {path}: {error.strerror}") from None
        if not lines:
            self._append(self._header())

    def _complete_lines(self) -> list[str]:
        """The file's whole lines; a trailing partial line is cut off the file."""
        try:
            with open(self.path, "rb") as handle:
                data = handle.read()
        except FileNotFoundError:
            return []
        except OSError as error:
            raise OutputError(f"cannot read {self.path}: {error.strerror}") from None
        end = data.rfind(b"\n") + 1
        if end < len(data):
            os.truncate(self.path, end)
        try:
            return data[:end].decode("utf-8").splitlines()
        except UnicodeDecodeError:
            raise OutputError(f"{self.path} is not a batch's output (not UTF-8 text)") from None

    def _header(self) -> str:
        return ""

    def _parse(self, lines: list[str]) -> dict[int, str]:
        raise NotImplementedError

    def _format(self, records: list[dict[str, Any]]) -> str:
        raise NotImplementedError

    def done(self) -> dict[int, str]:
        return dict(self._done)

    def pending(self, cases: list[Case]) -> list[Case]:
        return _pending(self.path, self._done, cases)

    def _append(self, text: str) -> None:
        data = text.encode("utf-8")
        while data:
            written = os.write(self._fd, data)
            data = data[written:]

    def write(self, records: list[dict[str, Any]]) -> None:
        fresh = [record for record in records if record["line"] not in self._done]
        if fresh:
            self._append(self._format(fresh))
            for record in fresh:
                self._done[record["line"]] = record["position"]

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.fsync(self._fd)
        os.close(self._fd)


class JsonLinesOutput(_AppendedLines):
    def _parse(self, lines: list[str]) -> dict[int, str]:
        done = {}
        for number, line in enumerate(lines, start=1):
            try:
                record = json.loads(line)
                done[int(record["line"])] = str(record["position"])
            except (ValueError, KeyError, TypeError):
                raise OutputError(f"{self.path}, line {number}: not a batch result; not resuming into it") from None
        return done

    def _format(self, records: list[dict[str, Any]]) -> str:
        return "".join(json.dumps(record) + "\n" for record in records)


class CsvOutput(_AppendedLines):
    def _header(self) -> str:
        return ",".join(RECORD_FIELDS) + "\n"

    def _parse(self, lines: list[str]) -> dict[int, str]:
        if not lines:
            return {}
        rows = csv.reader(lines)
        if next(rows) != list(RECORD_FIELDS):
            raise OutputError(f"{self.path}: not a batch's CSV (the header differs); not resuming into it")
        done = {}
        for number, row in enumerate(rows, start=2):
            try:
                done[int(row[0])] = row[1]
            except (ValueError, IndexError):
                raise OutputError(f"{self.path}, line {number}: not a batch result; not resuming into it") from None
        return done

    def _format(self, records: list[dict[str, Any]]) -> str:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        for record in records:
            writer.writerow(["" if record[field] is None else record[field] for field in RECORD_FIELDS])
        return buffer.getvalue()


_SQL_TYPES = {
    "line": "INTEGER PRIMARY KEY",
    "position": "TEXT NOT NULL",
    "score": "INTEGER",
    "engine_score": "INTEGER",
    "score_text": "TEXT",
    "bound": "TEXT",
    "best_move": "TEXT",
    "pv": "TEXT",
    "depth": "INTEGER",
    "nodes": "INTEGER",
    "cpu_s": "REAL",
    "expected": "INTEGER",
    "correct": "INTEGER",
}


class SqliteOutput:
    """A ``results`` table, one row per input line; each chunk is one transaction."""

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            self._db = sqlite3.connect(path, timeout=60)
            self._db.execute("PRAGMA journal_mode=WAL")
            columns = ", ".join(f"{field} {_SQL_TYPES[field]}" for field in RECORD_FIELDS)
            self._db.execute(f"CREATE TABLE IF NOT EXISTS results ({columns})")
            self._done = dict(self._db.execute("SELECT line, position FROM results"))
        except sqlite3.DatabaseError as error:
            raise OutputError(f"{path}: {error}") from None

    def done(self) -> dict[int, str]:
        return dict(self._done)

    def pending(self, cases: list[Case]) -> list[Case]:
        return _pending(self.path, self._done, cases)

    def write(self, records: list[dict[str, Any]]) -> None:
        marks = ", ".join("?" for _ in RECORD_FIELDS)
        rows = [tuple(record[field] for field in RECORD_FIELDS) for record in records]
        with self._db:
            self._db.executemany(f"INSERT OR IGNORE INTO results VALUES ({marks})", rows)
        for record in records:
            self._done[record["line"]] = record["position"]

    def close(self) -> None:
        self._db.close()


def read_results(path: str) -> list[dict[str, Any]]:
    """Every record of an output file, in line order (for tests and tools)."""
    kind = EXTENSIONS.get(os.path.splitext(path)[1].lower())
    if kind == "sqlite":
        with contextlib.closing(sqlite3.connect(path)) as db:
            db.row_factory = sqlite3.Row
            return [dict(row) for row in db.execute("SELECT * FROM results ORDER BY line")]
    with open(path, encoding="utf-8") as handle:
        if kind == "csv":
            rows: Iterable[dict[str, Any]] = csv.DictReader(handle)
        else:
            rows = (json.loads(line) for line in handle)
        return sorted(rows, key=lambda row: int(row["line"]))
