"""The book: symmetric keys, concurrent writers, back-up, and answers through the CLI."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from negamax.core.errors import InvalidOptionError
from negamax.core.score import WIN, from_child
from negamax.games import get_game
from negamax.parallel.book import Book, BookRow, BookSink, open_shipped_book
from negamax.parallel.book_build import build_book, enumerate_levels, leaf_bounds, seed_book
from negamax.parallel.cases import Case
from negamax.parallel.packed_book import open_book_file
from negamax.parallel.pools import serial_pool
from negamax.parallel.worker import BatchJob
from negamax.search.compiled.placement import CompiledSolver, pons_to_distance
from tests import oracle

pytestmark = pytest.mark.kernels("connect4")

DATA = Path(__file__).resolve().parents[1] / "data"
GAME = get_game("connect4")


def mirror_text(moves: str) -> str:
    return "".join(str(8 - int(column)) for column in moves)


def lines(name: str, count: int) -> list[tuple[str, int]]:
    pairs = [line.split() for line in DATA.joinpath(name).read_text().splitlines()[:count]]
    return [(text, int(score)) for text, score in pairs]


def test_a_position_and_its_mirror_image_share_one_row(tmp_path: Path) -> None:
    with Book(str(tmp_path / "book.sqlite"), GAME) as book:
        position = GAME.new_position("4452")
        assert book.store([BookRow.of(GAME, position, -(WIN - 9), "3", "solve", 1234)]) == 1
        assert book.store([BookRow.of(GAME, GAME.new_position(mirror_text("4452")), -(WIN - 9), "5", "solve")]) == 0
        same = book.lookup(GAME.new_position("4452"))
        mirrored = book.lookup(GAME.new_position(mirror_text("4452")))
        assert book.lookup(GAME.new_position("4453")) is None
        assert same is not None and mirrored is not None
        assert (same.best_move, mirrored.best_move) == ("3", "5")
        assert same.score == mirrored.score == -(WIN - 9) and same.nodes == 1234
        assert same.game_score == GAME.game_score(position, same.score)
        assert book.stats()["positions"] == 1


def test_the_book_refuses_what_is_not_a_book(tmp_path: Path) -> None:
    from negamax.parallel.book import BookError

    with pytest.raises(BookError, match="no book"):
        Book(str(tmp_path / "missing.sqlite"), GAME, create=False)
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database " * 100)
    with pytest.raises(BookError, match="not a negamax book"):
        Book(str(junk), GAME)


WRITER = """
import os, sys, time
from negamax.games import get_game
from negamax.parallel.book import Book, BookRow
path, start, count, go = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
with Book(path, get_game("connect4")) as book:
    while not os.path.exists(go):
        time.sleep(0.001)
    for batch in range(start, start + count, 50):
        keys = range(batch, min(batch + 50, start + count))
        book.store([BookRow(str(key), key % 97, key % 97, "4", "solve", key, f"p{key}", 0) for key in keys])
"""


def test_two_concurrent_writers_lose_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "book.sqlite")
    Book(path, GAME).close()
    go = tmp_path / "go"
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, path, "0", "3000", str(go)]),
        subprocess.Popen([sys.executable, "-c", WRITER, path, "2000", "3000", str(go)]),  # 1000 keys overlap
    ]
    time.sleep(1.0)  # both are waiting with the book open
    go.touch()
    for writer in writers:
        assert writer.wait(120) == 0
    with Book(path, GAME) as book:
        assert book.stats()["positions"] == 5000
        assert book.known_keys(str(key) for key in range(5000)) == {str(key) for key in range(5000)}
        assert book.score_of_key("4321") == (4321 % 97, "4")


def test_readers_are_not_blocked_by_a_writer(tmp_path: Path) -> None:
    path = str(tmp_path / "book.sqlite")
    with Book(path, GAME) as book:
        book.store([BookRow.of(GAME, GAME.new_position("44"), 5, "4", "solve")])
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO positions VALUES ('connect4', 'x', 0, 0, NULL, 'solve', 0, 'x', 0)")
    try:
        # a reader blocked by the writer would wait here until SQLite gave up, and fail
        with Book(path, GAME, create=False) as reader:
            entry = reader.lookup(GAME.new_position("44"))
        assert entry is not None and entry.score == 5
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_levels_hold_distinct_positions_up_to_symmetry() -> None:
    levels = enumerate_levels(GAME, ["start"], 3)
    # 1, 7, 49 and 238 positions (OEIS A212693); the mirror pairs them up except the
    # symmetric ones: 1 after one ply, 1 after two (both in the centre), 4 after three
    assert [len(level.positions) for level in levels] == [1, (7 - 1) // 2 + 1, (49 - 1) // 2 + 1, (238 - 4) // 2 + 4]


@pytest.mark.parametrize("name", ["tree", "random", f"{DATA / 'broken_games.py'}:Stones"])
def test_a_game_whose_position_texts_do_not_read_back_gets_no_book(name: str) -> None:
    """A book's levels and solves go by the positions' texts: a game whose ``position_text``
    names a position that ``new_position`` does not give back (the textbook tree writes
    its subtree, a position class its ``repr``) is refused, not given wrong levels."""
    game = get_game(name)
    root = "start" if name.endswith(":Stones") else game.position_text(game.new_position(None))
    with pytest.raises(InvalidOptionError, match="does not read back"):
        enumerate_levels(game, [root], 3)


def test_a_book_backed_up_from_two_plies_down_gives_the_direct_solve(tmp_path: Path) -> None:
    # (Begin-Easy's second position, 6146, is easy only at the root: its 49 grandchildren
    # need 39 s. These need about 4 s in all.)
    begin_easy = lines("Test_L1_R1", 3)
    roots = [*lines("Test_L2_R2", 3), begin_easy[0], begin_easy[2]]
    job = BatchJob("connect4", solve=True)
    with Book(str(tmp_path / "book.sqlite"), GAME) as book:
        built = build_book(GAME, book, [text for text, _ in roots], 2, serial_pool(job), job)
        assert [value for _, value in built.root_values] == [score for _, score in roots]
        assert built.backed_up >= len(roots)
        solver = CompiledSolver()
        # every position the back-up valued has the value a direct solve gives
        for level in enumerate_levels(GAME, [text for text, _ in roots], 1):
            for text in level.positions.values():
                position = GAME.new_position(text)
                entry = book.lookup(position)
                assert entry is not None and entry.method == "backup"
                solved = solver.solve(position, pv_plies=0)
                assert entry.score == solved.score, text
                board = position.copy()
                board.play(GAME.parse_move(board, entry.best_move or ""))
                if not board.is_terminal():
                    child = solver.solve(board, pv_plies=0).score
                    assert -child - (1 if -child > 0 else -1 if -child < 0 else 0) == entry.score


def test_batch_into_a_book_then_solve_answers_from_it(tmp_path: Path) -> None:
    cases = lines("Test_L1_R1", 30)
    path = tmp_path / "cases.txt"
    path.write_text("".join(f"{text} {score}\n" for text, score in cases))
    book = tmp_path / "book.sqlite"
    command = [sys.executable, "-m", "negamax", "batch", "connect4", str(path), "--solve", "--book", str(book)]
    done = subprocess.run([*command, "--workers", "2"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "30/30 correct" in done.stdout
    again = subprocess.run([*command, "--json", "--workers", "1"], capture_output=True, text=True, timeout=300)
    assert json.loads(again.stdout)["skipped"] == 30  # the book says what is done
    for text, score in cases[:3]:
        for asked in (text, mirror_text(text)):
            answer = subprocess.run(
                [sys.executable, "-m", "negamax", "solve", "connect4", asked, "--book", str(book), "--json"],
                capture_output=True,
                text=True,
                timeout=60,
            )
            record = json.loads(answer.stdout)
            assert record["algorithm"] == "book (solve)" and record["nodes"] == 0
            assert record["score"] == score
            position = GAME.new_position(asked)
            board = position.copy()
            board.play(GAME.parse_move(position, record["best_move"]))
            if not board.is_terminal():
                assert GAME.game_score(board, CompiledSolver().solve(board, pv_plies=0).score) == -score
    checked = subprocess.run(
        [sys.executable, "-m", "negamax", "solve", "connect4", "--file", str(path), "--check", "--book", str(book)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0 and "30/30 correct, mean nodes 0.0" in checked.stdout, checked.stdout


def test_book_sink_skips_what_the_book_holds(tmp_path: Path) -> None:
    with Book(str(tmp_path / "book.sqlite"), GAME) as book:
        book.store([BookRow.of(GAME, GAME.new_position("4452"), 3, "4", "solve")])
        sink = BookSink(book)
        pending = sink.pending([Case(1, "4452"), Case(2, "4436"), Case(3, "4453")])
        assert [case.line for case in pending] == [3]


def test_book_stats_and_export_on_the_command_line(tmp_path: Path) -> None:
    path = str(tmp_path / "book.sqlite")
    with Book(path, GAME) as book:
        book.store([BookRow.of(GAME, GAME.new_position("4452"), -(WIN - 9), "3", "solve", 10, "4452")])
        book.store([BookRow.of(GAME, GAME.new_position("4453"), 0, "4", "backup", 0, "4453")])
    run = [sys.executable, "-m", "negamax", "book"]
    stats = subprocess.run([*run, "stats", "connect4", "--book", path, "--json"], capture_output=True, text=True)
    assert json.loads(stats.stdout)["by_method"] == {"backup": 1, "solve": 1}
    export = subprocess.run([*run, "export", "connect4", "--book", path], capture_output=True, text=True)
    rows = sorted((json.loads(line) for line in export.stdout.splitlines()), key=lambda row: row["position"])
    assert [(row["position"], row["best_move"], row["method"]) for row in rows] == [
        ("4452", "3", "solve"),
        ("4453", "4", "backup"),
    ]
    missing = subprocess.run(
        [*run, "stats", "connect4", "--book", str(tmp_path / "none")], capture_output=True, text=True
    )
    assert missing.returncode == 2 and "no book" in missing.stderr


def test_a_threaded_reader_sees_rows_as_they_commit(tmp_path: Path) -> None:
    path = str(tmp_path / "book.sqlite")
    Book(path, GAME).close()
    seen: list[int] = []

    def read() -> None:
        with Book(path, GAME, create=False) as reader:
            for _ in range(200):
                seen.append(reader.stats()["positions"])
                time.sleep(0.002)

    reader = threading.Thread(target=read)
    reader.start()
    with Book(path, GAME) as book:
        for start in range(0, 500, 50):
            book.store(BookRow(str(key), 0, 0, None, "solve", 0, "p", 0) for key in range(start, start + 50))
    reader.join()
    assert seen == sorted(seen) and all(count % 50 == 0 for count in seen)


def test_a_killed_book_build_resumes_to_the_right_root_value(tmp_path: Path) -> None:
    import os
    import signal

    root, score = lines("Test_L2_R2", 1)[0]
    book = str(tmp_path / "book.sqlite")
    command = [sys.executable, "-m", "negamax", "book", "build", "connect4", "--root", root, "--plies", "3"]
    command += ["--book", book, "--workers", "2", "--chunk-size", "2"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows = 0
    deadline = time.monotonic() + 120
    while rows < 40 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
        with contextlib.suppress(sqlite3.Error), contextlib.closing(sqlite3.connect(book)) as db:
            rows = db.execute("SELECT COUNT(*) FROM positions").fetchone()[0]
    assert process.poll() is None, "the build finished before it could be killed"
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    with Book(book, GAME, create=False) as partial:
        assert partial.lookup(GAME.new_position(root)) is None
        assert partial.stats()["by_method"].get("backup", 0) == 0
    finished = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert "done before" in finished.stdout and f"root {root}: {score}" in finished.stdout
    with Book(book, GAME, create=False) as complete:
        stats = complete.stats()
        levels = enumerate_levels(GAME, [root], 3)
        assert stats["positions"] == sum(len(level.positions) for level in levels)


@pytest.mark.fuzz
def test_a_book_build_on_a_dask_cluster_survives_a_worker_killed_mid_way(tmp_path: Path) -> None:
    """One solve split over a Dask LocalCluster of two workers (``--scheduler local``):
    one worker is killed with SIGKILL once the first results are in; the scheduler gives
    its tasks to the other (and the nanny starts it again), and the root gets its value."""
    import os
    import signal

    pytest.importorskip("distributed")
    from negamax.parallel.batch import BatchProgress
    from negamax.parallel.pools import make_pool

    root, score = lines("Test_L2_R2", 2)[1]
    job = BatchJob("connect4", solve=True)
    pool = make_pool(job, 2, "local")
    killed: list[int] = []
    left_when_killed: list[int] = []

    def kill_one_worker(progress: BatchProgress) -> None:
        if not killed:
            pids = sorted(pool.client.run(os.getpid).values())
            killed.append(pids[0])
            left_when_killed.append(progress.total - progress.done)
            os.kill(pids[0], signal.SIGKILL)

    try:
        assert pool.kind == "dask" and pool.workers == 2
        with Book(str(tmp_path / "book.sqlite"), GAME) as book:
            built = build_book(GAME, book, [root], 3, pool, job, chunk_size=1, on_progress=kill_one_worker)
            assert killed and left_when_killed[0] > 10, "the worker was not killed mid-way"
            assert built.complete and built.root_values == [(root, score)]
            levels = enumerate_levels(GAME, [root], 3)
            assert book.stats()["positions"] == sum(len(level.positions) for level in levels)
        assert killed[0] not in pool.client.run(os.getpid).values()  # a new worker took its place
    finally:
        pool.close()


def test_a_book_of_a_game_whose_player_moves_twice_backs_up_the_oracles_values(tmp_path: Path) -> None:
    reference = f"{oracle.EXAMPLE}:Kalah(3, 3)"
    game = get_game(reference)
    job = BatchJob(reference, solve=True)
    with Book(str(tmp_path / "kalah.sqlite"), game) as book:
        built = build_book(game, book, ["start"], 3, serial_pool(job), job)
        assert [value for _, value in built.root_values] == [oracle.FIRST_PLAYER_VALUES[(3, 3)]]
        for level in enumerate_levels(game, ["start"], 3):
            for text in level.positions.values():
                entry = book.lookup(game.new_position(text))
                moves = tuple(int(pit) for pit in text.split() if pit != "start")
                assert entry is not None and entry.score == oracle.minimax(oracle.kalah(3, 3, moves)), text
        answer = book.answer(game.new_position("1"), multipv=3)  # pit 1 ends in the store: a move again
        assert answer is not None and len(answer.lines) == 2
        child = oracle.kalah(3, 3, (1,))
        assert child.player() == 0
        for line in answer.lines:
            grandchild = child.copy()
            grandchild.play(line.move)
            value = oracle.minimax(grandchild)
            assert line.score == (value if grandchild.player() == child.player() else -value)


def test_a_build_seeded_from_another_book_solves_only_what_that_book_does_not_know(tmp_path: Path) -> None:
    reference = f"{oracle.EXAMPLE}:Kalah(3, 3)"
    game = get_game(reference)
    job = BatchJob(reference, solve=True)
    with Book(str(tmp_path / "shallow.sqlite"), game) as shallow:
        build_book(game, shallow, ["start"], 2, serial_pool(job), job)
    levels = enumerate_levels(game, ["start"], 3)
    with (
        Book(str(tmp_path / "deeper.sqlite"), game) as deeper,
        open_book_file(str(tmp_path / "shallow.sqlite"), game) as seed,
    ):
        assert seed_book(game, deeper, levels, seed) == sum(len(level.positions) for level in levels[:3])
        # the new positions' bounds from their parents' values: below a move where the same
        # player moves again, an upper bound; below the opponent's, a lower one; each true
        # (at ply 1 as well, from a book of the root alone: pit 1 ends in the store, so its
        # player moves again)
        root_only = Book(str(tmp_path / "root.sqlite"), game)
        seed_book(game, root_only, levels[:1], seed)
        for plies, book in ((1, root_only), (3, deeper)):
            bounds = leaf_bounds(game, book, levels[: plies + 1])
            assert bounds.keys() == levels[plies].positions.keys()
            for key, text in levels[plies].positions.items():
                moves = tuple(int(pit) for pit in text.split() if pit != "start")
                assert bounds[key][0] <= oracle.minimax(oracle.kalah(3, 3, moves)) <= bounds[key][1], text
            if plies == 1:
                assert any(upper < WIN for _, upper in bounds.values())
                assert any(lower > -WIN for lower, _ in bounds.values())
        root_only.close()
        built = build_book(game, deeper, ["start"], 3, serial_pool(job), job, levels=levels)
        assert built.complete and built.backed_up == 0  # every position above the new ply came from the seed
        assert built.solve.completed == len(levels[3].positions)
        assert seed_book(game, deeper, levels, seed) == 0  # what the book holds is never copied again
        for level in levels:
            for text in level.positions.values():
                entry = deeper.lookup(game.new_position(text))
                moves = tuple(int(pit) for pit in text.split() if pit != "start")
                assert entry is not None and entry.score == oracle.minimax(oracle.kalah(3, 3, moves)), text
                assert entry.method == ("solve" if level.plies == 3 else "seed")


def test_a_packed_book_seeds_a_build_with_every_position_it_holds(tmp_path: Path) -> None:
    levels = enumerate_levels(GAME, ["start"], 3)
    with Book(str(tmp_path / "book.sqlite"), GAME) as book, open_shipped_book(GAME) as shipped:
        assert shipped is not None
        assert seed_book(GAME, book, levels, shipped) == sum(len(level.positions) for level in levels)
        for level in levels:
            for text in level.positions.values():
                position = GAME.new_position(text)
                entry, packed = book.lookup(position), shipped.lookup(position)
                assert entry is not None and packed is not None
                assert (entry.score, entry.best_move) == (packed.score, packed.best_move), text


def test_a_seeded_build_solves_each_new_position_from_its_parents_values(tmp_path: Path) -> None:
    """Seeded with the ply above, a build starts each new position's solve from what its
    parents' values prove (no move is worth more than its position): every value and best
    move is still the one an independent minimax gives, in fewer nodes than from scratch."""
    from tests.games.connect4.plain_minimax import PlainConnect4

    name = "connect4:4x4"
    game = get_game(name)
    plain = PlainConnect4(4, 4)

    def plain_value(position: object) -> int:
        _, current, mask, _ = position.placement_form()  # type: ignore[attr-defined]
        return pons_to_distance(position, plain.value(plain.columns(current, mask)))  # type: ignore[arg-type]

    fresh, kept = BatchJob(name, solve=True), BatchJob(name, solve=True, keep_tables=True)
    levels = enumerate_levels(game, ["start"], 5)
    with Book(str(tmp_path / "shallow.sqlite"), game) as shallow:
        build_book(game, shallow, ["start"], 4, serial_pool(fresh), fresh)
    nodes = {}
    # without the parents' level, with it, and with it on tables kept from solve to solve (as
    # the command line builds: the same values and best moves; node counts not comparable)
    for label, seeded, job in (("scratch", 4, fresh), ("bounds", 5, fresh), ("kept", 5, kept)):
        with (
            Book(str(tmp_path / f"{label}.sqlite"), game) as book,
            open_book_file(str(tmp_path / "shallow.sqlite"), game) as seed,
        ):
            assert seed is not None
            seed_book(game, book, levels[:seeded], seed)
            bounds = leaf_bounds(game, book, levels)
            assert len(bounds) == (len(levels[5].positions) if seeded == 5 else 0)
            built = build_book(game, book, ["start"], 5, serial_pool(job), job, levels=levels)
            assert built.complete
            assert leaf_bounds(game, book, levels) == {}  # every position of the level is solved
            nodes[label] = 0
            for key, text in levels[5].positions.items():
                position = game.new_position(text)
                entry = book.lookup(position)
                assert entry is not None and entry.method == "solve"
                value = plain_value(position)
                assert entry.score == value, text
                if key in bounds:
                    assert bounds[key][0] <= value <= bounds[key][1], text
                nodes[label] += entry.nodes or 0
                child = position.copy()
                child.play(game.parse_move(child, entry.best_move or ""))
                child_value = child.terminal_value() if child.is_terminal() else plain_value(child)
                assert from_child(child_value, False) == value, text  # the best move is proven
    assert nodes["bounds"] < 0.95 * nodes["scratch"], nodes
