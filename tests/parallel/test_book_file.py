"""A book locked by another process, damaged, or that the disk refuses to grow (issue 72,
findings 3, 4 and 7): each told apart in one line, Ctrl-C honoured while waiting, never a
wrong count, a garbled method name or an "internal error"."""

from __future__ import annotations

import json
import os
import random
import resource
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from negamax.cli.main import main
from negamax.games import get_game
from negamax.parallel import book_file
from negamax.parallel.book import Book, BookRow
from negamax.parallel.book_file import BookDamagedError, BookLockedError

ROOT = Path(__file__).resolve().parents[2]
GAME = get_game("tictactoe")
ROWS = 3_000


def rows(count: int = ROWS) -> list[BookRow]:
    """Rows enough to fill some pages (their keys need not be positions: a book never
    replays a stored key)."""
    return [
        BookRow(f"key{number:05d}", number % 7 - 3, number % 7 - 3, "4", ("solve", "backup")[number % 2], number, "", 0)
        for number in range(count)
    ]


def a_book(path: Path) -> str:
    with Book(str(path), GAME) as book:
        book.store(rows())
    return str(path)


@pytest.fixture
def locked(tmp_path: Path) -> Iterator[str]:
    """A book another process holds a write transaction on (``BEGIN IMMEDIATE``)."""
    path = a_book(tmp_path / "lock3.book")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        yield path
    finally:
        holder.close()


def test_a_locked_book_is_waited_for_with_the_wait_shown_then_refused_as_locked(
    locked: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 3: 120 s of silence, then "not a negamax book (database is locked)"."""
    monkeypatch.setattr(book_file, "LOCK_SECONDS", 1.0)
    waits: list[float] = []
    started = time.monotonic()
    with pytest.raises(BookLockedError, match="is locked by another process") as refused:
        Book(locked, GAME, on_wait=waits.append)
    assert time.monotonic() - started < 3
    assert "not a negamax book" not in str(refused.value)
    assert waits and waits == sorted(waits) and waits[-1] < 1.0


def test_a_book_freed_while_waiting_is_written(tmp_path: Path) -> None:
    path = a_book(tmp_path / "book.sqlite")
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    waits: list[float] = []
    freed = threading.Timer(0.5, holder.rollback)
    freed.start()
    with Book(path, GAME, on_wait=waits.append) as book:
        assert book.store([BookRow("new", 1, 1, None, "solve", 0, "", 0)]) == 1
    freed.join()
    holder.close()
    assert waits and waits[-1] < 1.5


@pytest.mark.skipif(not hasattr(signal, "SIGINT"), reason="POSIX signals")
def test_ctrl_c_while_a_book_build_waits_for_the_lock_ends_it_in_one_line(locked: str) -> None:
    command = [sys.executable, "-m", "negamax", "book", "build", "tictactoe", "--plies", "2", "--book", locked]
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
    assert process.stderr is not None
    first = process.stderr.readline()  # once it waits
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=10)
    assert process.returncode == 2, err
    lines = [first.strip(), *err.strip().splitlines()]
    assert lines[0] == f"negamax: {locked} is locked by another process; waiting (Ctrl-C to give up): 0 s", err
    assert lines[-1].startswith(f"negamax: error: {locked} is locked by another process; gave up waiting after")
    assert "Traceback" not in err and "not a negamax book" not in err


def damage(path: str, flips: int, seed: int, past: int = 8192) -> None:
    data = bytearray(Path(path).read_bytes())
    generator = random.Random(seed)
    for _ in range(flips):
        data[generator.randrange(past, len(data))] ^= 1 << generator.randrange(8)
    Path(path).write_bytes(data)


@pytest.mark.parametrize(("flips", "past"), [(40, 8192), (300, 0)])
def test_a_damaged_book_is_refused_by_every_command_and_exported_as_far_as_readable(
    tmp_path: Path, flips: int, past: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """Finding 4: wrong counts and garbled method names without a warning, "-3 positions
    not solved", "internal error DatabaseError" or "UnicodeDecodeError"."""
    path = a_book(tmp_path / "damaged.book")
    damage(path, flips, seed=4, past=past)
    for command in (
        ["book", "stats", "tictactoe", "--book", path],
        ["book", "build", "tictactoe", "--plies", "2", "--book", path],
        ["solve", "tictactoe", "--book", path],
    ):
        assert main(command) == 2, command
        err = capsys.readouterr().err
        assert err.startswith("negamax: error: ") and " is damaged (" in err and "build it again" in err, err
        assert err.count("\n") == 1
    saved = tmp_path / "saved.jsonl"
    status = main(["book", "export", "tictactoe", "--book", path, "--output", str(saved)])
    err = capsys.readouterr().err
    assert " is damaged" in err and "internal error" not in err, err
    if status == 2:  # nothing readable: not even its tables
        assert "SQLite cannot read its tables" in err or "malformed" in err
        return
    assert status == 1 and "is damaged: exported the" in err
    exported = [json.loads(line) for line in saved.read_text().splitlines()]
    assert len(exported) < ROWS
    assert all(row["method"] in ("solve", "backup") and row["nodes"] >= 0 for row in exported)


def test_a_row_sqlite_finds_sound_but_the_book_never_writes_is_damage(tmp_path: Path) -> None:
    path = a_book(tmp_path / "book.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE positions SET method = '1solv' WHERE key = 'key00001'")
        db.execute("UPDATE positions SET nodes = -3 WHERE key = 'key00002'")
    with Book(path, GAME, create=False) as book, pytest.raises(BookDamagedError, match="unknown method, '1solv'"):
        book.stats()
    with Book(path, GAME, create=False) as book:
        assert book.score_of_key("key00003") == (0, "4")
        with pytest.raises(BookDamagedError, match="a row reads"):
            book.score_of_key("key00002")
        assert len(list(book.rows())) == ROWS - 2 and book.skipped == 2


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="POSIX limits")
def test_a_file_size_limit_during_a_build_is_one_line_and_the_book_stays_sound(tmp_path: Path) -> None:
    """Finding 7: "internal error OperationalError: disk I/O error"."""
    path = str(tmp_path / "small.book")
    command = [sys.executable, "-m", "negamax", "book", "build", "tictactoe", "--plies", "6", "--book", path]
    command += ["--workers", "1", "--backend", "python"]  # the book's writes, not a kernel's cache, hit the limit
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src")}

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (100 * 1024, 100 * 1024))

    done = subprocess.run(command, capture_output=True, text=True, env=environment, preexec_fn=limited, timeout=600)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith(f"negamax: error: cannot write {path} (disk I/O error")
    with Book(path, GAME, create=False) as book:
        assert book.stats()["positions"] > 0
