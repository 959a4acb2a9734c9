"""``negamax batch`` and ``negamax book``: the files a user names are never lost, whatever
the arguments; bad lines cost one record; every number is checked before work starts.

Each test reproduces a way a file was lost or a run went wrong, with the command a user
typed, run in this process (``main``) to keep the suite quick."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from negamax.cli.main import main
from negamax.parallel.outputs import read_results

pytestmark = pytest.mark.kernels("connect4", "tictactoe")

INPUT = "44\n4455\nzz\n"
ROOT = "5554224333234511764415"  # a Middle-Easy position (Pons), 3 moves earlier: quick solves


def negamax(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    try:
        status = main(list(arguments))
    except SystemExit as exit:  # argparse refuses an argument this way
        status = int(exit.code or 0)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def cases(tmp_path: Path) -> Path:
    path = tmp_path / "in.txt"
    path.write_text(INPUT)
    return path


def batch(capsys: pytest.CaptureFixture[str], cases: Path, *arguments: str) -> tuple[int, str, str]:
    return negamax(capsys, "batch", "connect4", str(cases), "--depth", "2", "--workers", "1", *arguments)


def test_errors_naming_the_input_is_refused_and_the_input_kept(
    capsys: pytest.CaptureFixture[str], cases: Path, tmp_path: Path
) -> None:
    status, _, error = batch(capsys, cases, "--out", str(tmp_path / "r.jsonl"), "--errors", str(cases))
    assert status == 2 and "same file as the input" in error
    assert cases.read_text() == INPUT
    assert not (tmp_path / "r.jsonl").exists()


def test_errors_naming_the_results_or_the_book_is_refused(
    capsys: pytest.CaptureFixture[str], cases: Path, tmp_path: Path
) -> None:
    results = tmp_path / "r.jsonl"
    assert batch(capsys, cases, "--out", str(results))[0] == 1  # "zz" is an error line
    kept = results.read_bytes()
    status, _, error = batch(capsys, cases, "--out", str(results), "--errors", str(results))
    assert status == 2 and "is the same file as --out" in error
    # the same file written another way
    status, _, error = batch(
        capsys, cases, "--out", str(results), "--errors", f"{tmp_path}/./../{tmp_path.name}/r.jsonl"
    )
    assert status == 2 and "same file" in error
    assert results.read_bytes() == kept
    book = tmp_path / "bk.sqlite"
    status, _, error = negamax(
        capsys, "batch", "connect4", str(cases), "--solve", "--book", str(book), "--errors", str(book)
    )
    assert status == 2 and "same file" in error and not book.exists()


def test_an_errors_file_the_batch_did_not_write_is_kept_unless_overwrite(
    capsys: pytest.CaptureFixture[str], cases: Path, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my data\n")
    status, _, error = batch(capsys, cases, "--out", str(tmp_path / "r.jsonl"), "--errors", str(notes))
    assert status == 2 and "--overwrite" in error and notes.read_text() == "my data\n"
    status, _, _ = batch(capsys, cases, "--out", str(tmp_path / "r.jsonl"), "--errors", str(notes), "--overwrite")
    assert status == 1 and notes.read_text().startswith("line 3: ")
    # its own errors file, from the run before, is rewritten without asking
    status, _, _ = batch(capsys, cases, "--out", str(tmp_path / "r2.jsonl"), "--errors", str(notes))
    assert status == 1 and notes.read_text().count("line 3: ") == 1


def test_special_files_are_refused_as_outputs_and_inputs(
    capsys: pytest.CaptureFixture[str], cases: Path, tmp_path: Path
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for arguments in (
        ("--out", str(tmp_path / "r.jsonl"), "--errors", str(fifo)),
        ("--out", str(tmp_path / "r.jsonl"), "--errors", str(tmp_path)),
    ):
        status, _, error = batch(capsys, cases, *arguments)
        assert status == 2, error
    assert fifo.is_fifo()
    zero = tmp_path / "zero.jsonl"
    os.symlink("/dev/zero", zero)
    status, _, error = batch(capsys, cases, "--out", str(zero))
    assert status == 2 and "not a regular file" in error
    status, _, error = negamax(
        capsys, "batch", "connect4", "/dev/zero", "--depth", "2", "--out", str(tmp_path / "z.jsonl")
    )
    assert status == 2 and "not a regular file" in error


@pytest.mark.parametrize("name", ["notes.csv", "notes.jsonl"])
def test_out_on_a_file_that_is_not_a_batch_output_is_refused_untouched(
    capsys: pytest.CaptureFixture[str], cases: Path, tmp_path: Path, name: str
) -> None:
    notes = tmp_path / name
    for content in ("my data", "my data\nmore", '{"line": 1}\nmy data'):
        notes.write_text(content)
        status, _, error = batch(capsys, cases, "--out", str(notes))
        assert status == 2 and "not" in error, error
        assert notes.read_text() == content


def test_a_result_line_cut_short_is_removed_and_the_run_resumes(
    capsys: pytest.CaptureFixture[str], cases: Path, tmp_path: Path
) -> None:
    results = tmp_path / "r.jsonl"
    batch(capsys, cases, "--out", str(results))
    whole = results.read_text()
    first = whole.splitlines(keepends=True)[0]
    results.write_text(first + whole.splitlines()[1][:20])  # a full disk cut the second record
    batch(capsys, cases, "--out", str(results))
    timeless = sorted(({**record, "cpu_s": 0} for record in read_results(str(results))), key=lambda r: r["line"])
    assert len(results.read_text().splitlines()) == 2
    # two workers finish in either order; a record says its line
    expected = sorted(({**json.loads(line), "cpu_s": 0} for line in whole.splitlines()), key=lambda r: r["line"])
    assert timeless == expected


def test_a_foreign_sqlite_file_is_refused_without_being_changed(
    capsys: pytest.CaptureFixture[str], cases: Path, tmp_path: Path
) -> None:
    foreign = tmp_path / "mine.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
        db.execute("INSERT INTO notes VALUES ('my data')")
    db.close()
    before = foreign.read_bytes()
    status, _, error = batch(capsys, cases, "--out", str(foreign))
    assert status == 2 and "not a batch's output" in error
    status, _, error = negamax(capsys, "batch", "connect4", str(cases), "--solve", "--book", str(foreign))
    assert status == 2 and "not a negamax book" in error
    status, _, error = negamax(capsys, "book", "build", "connect4", "--plies", "1", "--book", str(foreign))
    assert status == 2 and "not a negamax book" in error
    assert foreign.read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.txt", "mine.sqlite"]  # no -wal, no -shm


def test_one_bad_field_is_one_error_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    cases = tmp_path / "in.txt"
    # a superscript two, a score of 5,000 digits, a form feed and a Unicode line separator inside
    # lines (which must not shift the line numbers), and a line too long to be a position
    cases.write_text(
        "444 \u00b2\n" + "4455 " + "9" * 5000 + "\n44\x0c55\n4\u20284\n" + "4" * 70_000 + "\n445 -2\n",
        encoding="utf-8",
    )
    status, _, _ = batch(capsys, cases, "--out", str(tmp_path / "r.jsonl"))
    assert status == 1
    errors = (tmp_path / "r.jsonl.errors").read_text().splitlines()
    assert [line.split(":")[0] for line in errors] == ["line 1", "line 2", "line 3", "line 4", "line 5"]
    assert "longer than" in errors[4]
    assert [row["line"] for row in read_results(str(tmp_path / "r.jsonl"))] == [6]


def test_book_build_refuses_too_many_positions_before_any_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    status, _, error = negamax(capsys, "book", "build", "connect4", "--plies", "100", "--book", str(tmp_path / "b"))
    assert status == 2 and "plies must be a whole number from 0 to 64" in error
    # counted as they are found: the cap (half a million by default) lowered to keep this quick
    monkeypatch.setattr("negamax.parallel.book_build.MAX_BOOK_POSITIONS", 2_000)
    status, _, error = negamax(capsys, "book", "build", "connect4", "--plies", "20", "--book", str(tmp_path / "b"))
    assert status == 2 and "more than 2,000 positions by ply 5" in error
    assert not (tmp_path / "b").exists()


def test_book_build_with_a_short_limit_keeps_what_it_solved_and_says_what_is_left(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    book = tmp_path / "b.sqlite"
    arguments = ("book", "build", "connect4", "--root", ROOT, "--plies", "1", "--book", str(book), "--workers", "1")
    status, out, _ = negamax(capsys, *arguments, "--nodes", "50")
    assert status == 1
    assert "were not solved within --nodes" in out and "run again with a larger --nodes" in out
    solved_before = json.loads(json.dumps(negamax(capsys, "book", "stats", "connect4", "--book", str(book), "--json")))
    status, out, _ = negamax(capsys, *arguments)
    assert status == 0 and f"root {ROOT}:" in out, (out, solved_before)


def test_book_build_seeded_from_a_book_solves_nothing_that_book_knows(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    first, second = tmp_path / "first.sqlite", tmp_path / "second.sqlite"
    arguments = ("book", "build", "connect4", "--root", ROOT, "--plies", "1", "--workers", "1")
    status, out, _ = negamax(capsys, *arguments, "--book", str(first))
    assert status == 0
    status, out, _ = negamax(capsys, *arguments, "--book", str(second), "--seed", str(first))
    stats = [
        json.loads(negamax(capsys, "book", "stats", "connect4", "--book", str(book), "--json")[1])
        for book in (first, second)
    ]
    assert status == 0 and f"copied {stats[0]['positions']:,} positions from {first}" in out
    assert stats[1]["by_method"] == {"seed": stats[0]["positions"]}  # nothing solved again
    status, _, error = negamax(capsys, *arguments, "--book", str(second), "--seed", str(second))
    assert status == 2 and "--seed" in error and "same file" in error
    status, _, error = negamax(capsys, *arguments, "--book", str(tmp_path / "new.sqlite"), "--seed", str(tmp_path))
    assert status == 2 and not (tmp_path / "new.sqlite").exists(), error  # a seed not read: no book left behind


def test_trace_output_is_kept_unless_overwrite(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    target = tmp_path / "t.svg"
    target.write_text("my drawing")
    status, _, error = negamax(capsys, "trace", "tictactoe", "0438", "--format", "svg", "-o", str(target))
    assert status == 2 and "--overwrite" in error and target.read_text() == "my drawing"
    status, _, _ = negamax(capsys, "trace", "tictactoe", "0438", "--format", "svg", "-o", str(target), "--overwrite")
    assert status == 0 and target.read_text().startswith("<svg")
    status, _, error = negamax(capsys, "trace", "connect4", "--max-nodes", "100000000")
    assert status == 2 and "max nodes must be a whole number from 1 to 200000" in error


@pytest.mark.skipif(shutil.which("unshare") is None or os.geteuid() != 0, reason="needs root and unshare(1)")
def test_a_book_on_a_read_only_file_system_is_read(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from negamax.games import get_game
    from negamax.parallel.book import Book, BookRow

    game = get_game("connect4")
    with Book(str(tmp_path / "bk.sqlite"), game) as book:
        book.store([BookRow.of(game, game.new_position("1"), score=-5, best_move="2", method="solve")])
    # a private mount namespace: the folder is read-only for this one command
    script = (
        f"mount --bind -o ro {tmp_path} {tmp_path} && "
        f"{sys.executable} -m negamax book stats connect4 --book {tmp_path / 'bk.sqlite'} --json"
    )
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, timeout=120)
    if "mount" in done.stderr and done.returncode != 0 and "negamax" not in done.stderr:
        pytest.skip(f"no read-only mount here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["positions"] == 1
