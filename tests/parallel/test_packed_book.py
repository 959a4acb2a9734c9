"""The packed book: the same answers as the SQLite book it was packed from, for every
position and its mirror image, in a file a fraction of the size; refused when it is not one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from negamax.games import get_game
from negamax.parallel.book import Book, BookError, open_shipped_book
from negamax.parallel.book_build import enumerate_levels
from negamax.parallel.packed_book import PackedBook, open_book_file, pack_book
from tests.parallel.test_book import lines

GAME = get_game("connect4")


def test_every_position_answers_as_in_the_book_it_was_packed_from(tmp_path: Path) -> None:
    with open_shipped_book(GAME) as shipped:
        assert shipped is not None
        source = Book(str(tmp_path / "copy.sqlite"), GAME)
        from negamax.parallel.book import BookRow

        rows = []
        for level in enumerate_levels(GAME, ["start"], 3):
            for text in level.positions.values():
                position = GAME.new_position(text)
                entry = shipped.lookup(position)
                assert entry is not None
                rows.append(BookRow.of(GAME, position, entry.score, entry.best_move, "solve"))
        source.store(rows)
    packed_path = str(tmp_path / "book.npz")
    assert pack_book(source, packed_path) == len(rows)
    with PackedBook(packed_path, GAME) as packed:
        # every line of up to three moves: each position and its mirror image
        for text in ("", *(a + b + c for a in "1234567" for b in "1234567" for c in ["", *"1234567"])):
            position = GAME.new_position(text)
            expected, found = source.lookup(position), packed.lookup(position)
            assert expected is not None and found is not None
            assert (found.score, found.game_score, found.best_move) == (
                expected.score,
                expected.game_score,
                expected.best_move,
            )
        assert packed.lookup(GAME.new_position("4444")) is None  # ply 4: not in this book
        lines = packed.answer(GAME.new_position("44"), multipv=7)
        assert lines is not None and [line.score for line in lines.lines] == [
            line.score for line in (source.answer(GAME.new_position("44"), multipv=7) or lines).lines
        ]
    source.close()
    assert Path(packed_path).stat().st_size * 10 < (tmp_path / "copy.sqlite").stat().st_size


def test_a_file_that_is_not_a_packed_book_is_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"PK\x03\x04 not really a zip" * 10)
    with pytest.raises(BookError, match="not"):
        open_book_file(str(junk), GAME)
    with pytest.raises(BookError, match="no book"):
        PackedBook(str(tmp_path / "missing.npz"), GAME)


def test_a_book_packed_before_the_keys_were_stored_as_steps_answers_the_same(tmp_path: Path) -> None:
    """Format 1 held the sorted keys themselves; format 2 their steps. A book written in
    either answers alike; keys out of order (a damaged file) are refused."""
    import numpy as np

    with open_shipped_book(GAME) as shipped:
        assert isinstance(shipped, PackedBook)
        with np.load(shipped.path) as data:
            keys = np.cumsum(data["key_steps"], dtype=np.uint64)
            arrays = {name: data[name] for name in ("game", "scores", "moves", "move_texts")}
        old = tmp_path / "old.npz"
        np.savez_compressed(old, format=np.array([1]), keys=keys, **arrays)
        with PackedBook(str(old), GAME) as before:
            assert len(before) == len(shipped) > 100_000
            for text in ("", "4", "44", "4453", "32751", "447654", "123456712"):
                position = GAME.new_position(text)
                assert before.lookup(position) == shipped.lookup(position), text
        damaged = tmp_path / "damaged.npz"
        np.savez_compressed(damaged, format=np.array([1]), keys=keys[::-1].copy(), **arrays)
        with pytest.raises(BookError, match="not in order"):
            PackedBook(str(damaged), GAME)


def test_a_book_of_another_game_knows_nothing_of_this_one() -> None:
    with open_shipped_book(GAME) as shipped:
        assert shipped is not None and isinstance(shipped, PackedBook)
        other = PackedBook(shipped.path, get_game("connect4:6x5"))
        assert len(other) == 0 and other.lookup(get_game("connect4:6x5").new_position("3")) is None


def test_pack_on_the_command_line_then_answer_from_the_packed_book(tmp_path: Path) -> None:
    book = tmp_path / "c4.sqlite"
    with Book(str(book), GAME) as source:
        from negamax.parallel.book import BookRow

        source.store([BookRow.of(GAME, GAME.new_position("4453"), -(100_000 - 37), "2", "solve")])
    packed = tmp_path / "c4.npz"
    done = subprocess.run(
        [sys.executable, "-m", "negamax", "book", "pack", "connect4", "--book", str(book), "-o", str(packed)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and "packed 1 positions" in done.stdout, done.stderr
    answer = subprocess.run(
        [sys.executable, "-m", "negamax", "solve", "connect4", "4453", "--book", str(packed), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert answer.returncode == 0 and '"best_move": "2"' in answer.stdout and "book" in answer.stdout
    refused = subprocess.run(
        [sys.executable, "-m", "negamax", "book", "pack", "connect4", "--book", str(book), "-o", str(tmp_path / "x")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and ".npz" in refused.stderr


def test_the_shipped_book_agrees_with_pons_on_every_opening_position_of_his_sets() -> None:
    """Pons' Begin sets (his solver's scores, an oracle independent of ours) hold some 1,700
    positions of the plies the shipped book covers: every one of plies 0-10 is in the book
    (it holds every position there) with his score."""
    cases = [case for name in ("Test_L1_R1", "Test_L1_R2", "Test_L1_R3") for case in lines(name, 10_000)]
    checked = {ply: 0 for ply in range(11)}
    with open_shipped_book(GAME) as shipped:
        assert shipped is not None
        for moves, score in cases:
            if len(moves) > 10:
                continue
            entry = shipped.lookup(GAME.new_position(moves))
            assert entry is not None, f"{moves}: not in the shipped book"
            assert entry.game_score == score, (moves, entry.game_score, score)
            checked[len(moves)] += 1
    assert all(checked[ply] > 0 for ply in range(2, 11)) and sum(checked.values()) > 1000, checked
