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
import re
import sqlite3
from collections.abc import Iterable
from typing import Any, Protocol

from negamax.core.errors import InvalidOptionError
from negamax.parallel.cases import Case
from negamax.parallel.files import foreign_sqlite, refuse_special_output
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


MAX_RECORD_BYTES = 1 << 20
"""No record a batch writes comes near this: a longer line is not one of ours."""


class _AppendedLines:
    """A text file of one record a line, appended to whole chunks at a time.

    An existing file is read line by line and every line checked before anything is
    written: a file that is not this kind of output is refused untouched. Only then is a
    last line cut short (a full disk, a crash) removed, and only if it begins as a
    record would."""

    def __init__(self, path: str) -> None:
        self.path = path
        refuse_special_output("--out", path)
        self._done: dict[int, str] = {}
        whole_lines, cut_at = self._read_existing()
        if cut_at is not None:
            os.truncate(path, cut_at)
        try:
            self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as error:
            raise OutputError(f"cannot write {path}: {error.strerror}") from None
        if whole_lines == 0:
            self._append(self._header())

    def _read_existing(self) -> tuple[int, int | None]:
        """Check and load the records already there: (whole lines, where to cut a last
        partial line or ``None``)."""
        try:
            handle = open(self.path, "rb")  # noqa: SIM115 (closed below; a missing file is normal)
        except FileNotFoundError:
            return 0, None
        except OSError as error:
            raise OutputError(f"cannot read {self.path}: {error.strerror}") from None
        with handle:
            number, offset = 0, 0
            while raw := handle.readline(MAX_RECORD_BYTES + 1):
                if not raw.endswith(b"\n"):
                    if len(raw) > MAX_RECORD_BYTES or not self._starts_a_record(number, raw):
                        raise OutputError(f"{self.path}, line {number + 1}: not a batch result; not resuming into it")
                    return number, offset
                number += 1
                try:
                    text = raw[:-1].decode("utf-8")
                except UnicodeDecodeError:
                    raise OutputError(f"{self.path} is not a batch's output (not UTF-8 text)") from None
                self._parse_line(number, text)
                offset += len(raw)
        return number, None

    def _header(self) -> str:
        return ""

    def _parse_line(self, number: int, text: str) -> None:
        """Record the result line ``number`` holds in ``_done``.

        :raises OutputError: if it is not a line of this kind of output."""
        raise NotImplementedError

    def _starts_a_record(self, number: int, raw: bytes) -> bool:
        """Whether ``raw``, a last line cut short after ``number`` whole lines, begins as
        this output's next line would."""
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
    _RECORD_START = b'{"line": '

    def _parse_line(self, number: int, text: str) -> None:
        try:
            record = json.loads(text)
            self._done[int(record["line"])] = str(record["position"])
        except (ValueError, KeyError, TypeError):
            raise OutputError(f"{self.path}, line {number}: not a batch result; not resuming into it") from None

    def _starts_a_record(self, number: int, raw: bytes) -> bool:
        return raw.startswith(self._RECORD_START) or self._RECORD_START.startswith(raw)

    def _format(self, records: list[dict[str, Any]]) -> str:
        return "".join(json.dumps(record) + "\n" for record in records)


class CsvOutput(_AppendedLines):
    def _header(self) -> str:
        return ",".join(RECORD_FIELDS) + "\n"

    def _parse_line(self, number: int, text: str) -> None:
        if number == 1:
            if text != self._header().rstrip("\n"):
                raise OutputError(f"{self.path}: not a batch's CSV (the header differs); not resuming into it")
            return
        try:
            row = next(csv.reader([text]))
            self._done[int(row[0])] = row[1]
        except (ValueError, IndexError, StopIteration, csv.Error):
            raise OutputError(f"{self.path}, line {number}: not a batch result; not resuming into it") from None

    def _starts_a_record(self, number: int, raw: bytes) -> bool:
        if number == 0:
            return self._header().encode().startswith(raw)
        return re.fullmatch(rb"\d+(,.*)?", raw, re.DOTALL) is not None

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
    """A ``results`` table, one row per input line; each chunk is one transaction.

    An existing file is inspected read-only first: an SQLite database holding anything but
    a batch's ``results`` table, or a file that is not SQLite at all, is refused untouched
    (it is not switched to WAL, and no table is added to it)."""

    def __init__(self, path: str) -> None:
        self.path = path
        refuse_special_output("--out", path)
        foreign = foreign_sqlite(path, {"results": RECORD_FIELDS})
        if foreign:
            raise OutputError(f"{path} {foreign}: not a batch's output; give another --out")
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
