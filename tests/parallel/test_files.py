"""The checks on the files a command names: the same file however it is written, special
files, replacing only what may be replaced, and whole writes that never leave half a file."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from negamax.parallel.files import (
    NamedFileError,
    foreign_sqlite,
    refuse_replacing,
    refuse_same_files,
    refuse_special_input,
    refuse_special_output,
    replaced_whole,
)


def test_the_same_file_is_found_through_links_and_dots(tmp_path: Path) -> None:
    target = tmp_path / "data.txt"
    target.write_text("x")
    os.symlink(target, tmp_path / "soft")
    os.link(target, tmp_path / "hard")
    for other in (tmp_path / "soft", tmp_path / "hard", tmp_path / "." / "data.txt"):
        with pytest.raises(NamedFileError, match="same file as the input"):
            refuse_same_files({"the input": str(target), "--errors": str(other)})
    # not there yet: told apart by the path, links resolved
    with pytest.raises(NamedFileError, match="same file"):
        refuse_same_files({"--out": str(tmp_path / "new"), "--errors": str(tmp_path / "x" / ".." / "new")})
    refuse_same_files({"--out": str(tmp_path / "a"), "--errors": str(tmp_path / "b"), "--book": None})


def test_special_files_are_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    for path in (tmp_path, tmp_path / "fifo", Path("/dev/null")):
        with pytest.raises(NamedFileError):
            refuse_special_output("--out", str(path))
    with pytest.raises(NamedFileError, match="not a regular file"):
        refuse_special_input("the input", "/dev/zero")
    with pytest.raises(NamedFileError, match="not a regular file"):
        refuse_special_input("the input", str(tmp_path / "fifo"))  # no writer: opening it would wait for ever
    refuse_special_output("--out", str(tmp_path / "missing"))


def test_replacing_needs_an_empty_file_our_own_or_overwrite(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_text("")
    refuse_replacing("--out", str(path), overwrite=False)
    path.write_text("mine")
    with pytest.raises(NamedFileError, match="--overwrite"):
        refuse_replacing("--out", str(path), overwrite=False)
    refuse_replacing("--out", str(path), overwrite=True)
    refuse_replacing("--out", str(path), overwrite=False, ours=lambda _: True)


def test_a_whole_write_that_fails_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    path.write_text("old")
    with pytest.raises(RuntimeError), replaced_whole(str(path)) as stream:
        stream.write("half")
        raise RuntimeError
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]
    with replaced_whole(str(path)) as stream:
        stream.write("new")
    assert path.read_text() == "new"


def test_foreign_sqlite_is_named_without_changing_it(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    assert foreign_sqlite(str(path), {"results": ("line",)}) == ""
    path.write_text("plain text, not SQLite")
    assert foreign_sqlite(str(path), {"results": ("line",)}) == "is not an SQLite database"
    path.unlink()
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE results (line INTEGER, other TEXT)")
    db.close()
    before = path.read_bytes()
    assert "other columns" in foreign_sqlite(str(path), {"results": ("line",)})
    assert "other tables (results)" in foreign_sqlite(str(path), {"meta": ("name",)})
    assert foreign_sqlite(str(path), {"results": ("line", "other")}) == ""
    assert path.read_bytes() == before
