"""Books damaged at random and locked for random times (issue 72, findings 3 and 4), under
every command that reads or writes one: each ends with a result or one line saying the
book is damaged or locked, never a wrong count, a garbled method, a traceback or an
"internal error", and a lock is waited for as long as it is held (within the limit)."""

from __future__ import annotations

import random
import re
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from negamax.cli.main import main
from negamax.parallel import book_file
from tests.parallel.test_book_file import a_book, damage

pytestmark = pytest.mark.fuzz

COMMANDS = (
    ["book", "stats", "tictactoe"],
    ["book", "export", "tictactoe"],
    ["solve", "tictactoe"],
    ["analyze", "tictactoe", "0", "--depth", "2"],
)


@pytest.mark.parametrize("seed", range(12))
def test_a_book_damaged_at_random_is_told_damaged_by_every_command(
    tmp_path: Path, seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    path = a_book(tmp_path / "random.book")
    generator = random.Random(seed)
    damage(path, generator.choice([1, 5, 40, 300]), seed, past=generator.choice([0, 100, 4096, 8192]))
    for command in COMMANDS:
        status = main([*command, "--book", path])
        out, err = capsys.readouterr()
        assert status in (0, 1, 2), (command, status, err)
        assert "internal error" not in err and "Traceback" not in err, (command, err)
        if status == 2:
            assert err.count("\n") == 1 and (" is damaged" in err or "not a negamax book" in err), (command, err)
        assert not re.search(r"(^|\s)-\d[\d,]* (of|tictactoe|positions)", out), out  # never a negative count
        if command[1] == "stats" and status == 0:
            assert re.search(r"\(([\d,]+ by (solve|backup)(, )?)+\)", out), out  # never a garbled method


@pytest.mark.parametrize("held", [0.3, 1.0, 2.5])
def test_a_lock_held_for_a_while_is_waited_out(tmp_path: Path, held: float, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(book_file, "LOCK_SECONDS", 2.0)
    path = a_book(tmp_path / "held.book")
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    freed = threading.Timer(held, holder.rollback)
    freed.start()
    started = time.monotonic()
    status = main(["book", "build", "tictactoe", "--plies", "1", "--book", path, "--workers", "1"])
    took = time.monotonic() - started
    freed.join()
    holder.close()
    if held < 2.0:
        assert status == 0 and took >= held
    else:
        assert status == 2 and took < held + 2
