"""Batches: every pool gives the serial results; kills lose nothing; bad lines are reported."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from negamax.parallel.batch import _ChunkSizer, run_batch
from negamax.parallel.cases import read_cases
from negamax.parallel.outputs import open_output, read_results
from negamax.parallel.pools import WorkerPool, make_pool, serial_pool
from negamax.parallel.worker import BatchJob, ChunkResult
from tests import oracle

pytestmark = pytest.mark.kernels("connect4")

DATA = Path(__file__).resolve().parents[1] / "data"
SOLVE = BatchJob("connect4", solve=True)


def comparable(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Results without their timings, which differ from run to run."""
    return [{name: value for name, value in row.items() if name != "cpu_s"} for row in rows]


def sample(tmp_path: Path, source: str, count: int) -> Path:
    path = tmp_path / f"{source}-{count}"
    path.write_text("\n".join(DATA.joinpath(source).read_text().splitlines()[:count]) + "\n")
    return path


def batch(tmp_path: Path, job: BatchJob, cases_file: Path, name: str, pool: WorkerPool) -> list[dict[str, Any]]:
    output = open_output(str(tmp_path / name))
    try:
        summary = run_batch(job, list(read_cases(str(cases_file))), [output], pool)
    finally:
        output.close()
        pool.close()
    assert summary.errors == [] and summary.correct == summary.checked
    return read_results(str(tmp_path / name))


@pytest.fixture(scope="module")
def serial_middle_easy(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    tmp_path = tmp_path_factory.mktemp("serial")
    cases = sample(tmp_path, "Test_L2_R1", 200)
    return batch(tmp_path, SOLVE, cases, "serial.jsonl", serial_pool(SOLVE))


def test_serial_batch_solves_every_position_correctly(serial_middle_easy: list[dict[str, Any]]) -> None:
    assert len(serial_middle_easy) == 200
    assert all(row["correct"] and row["bound"] == "exact" for row in serial_middle_easy)
    assert all(row["best_move"] in "1234567" for row in serial_middle_easy)


def test_a_process_pool_gives_the_serial_results(tmp_path: Path, serial_middle_easy: list[dict[str, Any]]) -> None:
    cases = sample(tmp_path, "Test_L2_R1", 200)
    rows = batch(tmp_path, SOLVE, cases, "pool.sqlite", make_pool(SOLVE, 2, None))
    assert comparable(rows) == comparable(serial_middle_easy)


def test_a_dask_cluster_gives_the_serial_results(tmp_path: Path, serial_middle_easy: list[dict[str, Any]]) -> None:
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    )
    try:
        cases = sample(tmp_path, "Test_L2_R1", 200)
        pool = make_pool(SOLVE, None, cluster.scheduler_address)
        assert pool.workers == 2 and pool.kind == "dask"
        rows = batch(tmp_path, SOLVE, cases, "dask.csv", pool)
    finally:
        cluster.close()
    assert comparable(rows) == [
        {name: ("" if value is None else str(value)) for name, value in row.items()}
        for row in comparable(serial_middle_easy)
    ]


def test_an_analysis_batch_on_a_pool_matches_the_serial_one(tmp_path: Path) -> None:
    job = BatchJob("connect4", solve=False, depth=6)
    cases = sample(tmp_path, "Test_L1_R1", 20)
    serial = batch(tmp_path, job, cases, "serial.jsonl", serial_pool(job))
    pooled = batch(tmp_path, job, cases, "pool.jsonl", make_pool(job, 2, None))
    assert comparable(serial) == comparable(pooled)
    assert all(row["depth"] == 6 or abs(row["engine_score"]) > 90_000 for row in serial)
    assert all(row["correct"] is None for row in serial)  # a heuristic value claims nothing


class FakePool:
    def __init__(self, workers: int, overhead: float) -> None:
        self.workers, self.task_overhead = workers, overhead


def test_chunks_keep_the_task_overhead_under_five_percent() -> None:
    pool: Any = FakePool(workers=2, overhead=0.008)  # a Dask round trip
    sizer = _ChunkSizer(pool, None)
    assert sizer.next_size(1000) == 1  # nothing measured yet
    sizer.learn(ChunkResult([], [], busy_seconds=0.005), 1)  # 5 ms a position
    for remaining in (1000, 100, 10):
        size = sizer.next_size(remaining)
        assert pool.task_overhead / (size * 0.005) <= 0.05
    assert sizer.next_size(10) == 32
    assert sizer.next_size(100_000) == 400  # at most 2 s of work per chunk


def cli(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "negamax", *arguments], capture_output=True, text=True, timeout=600)


def test_malformed_lines_are_reported_with_their_line_numbers_and_skipped(tmp_path: Path) -> None:
    cases = tmp_path / "cases.txt"
    end_easy = DATA.joinpath("Test_L3_R1").read_text().splitlines()[0]
    cases.write_text(f"44455554221 -15\n4x5\n\n1234567123456712345671234567123456712345671 0\n{end_easy}\n")
    out = tmp_path / "out.jsonl"
    done = cli("batch", "connect4", str(cases), "--solve", "--out", str(out), "--workers", "1")
    assert done.returncode == 1, done.stderr
    assert "2 errors" in done.stdout and "out.jsonl.errors" in done.stdout
    errors = (tmp_path / "out.jsonl.errors").read_text().splitlines()
    assert [line.split(":")[0] for line in errors] == ["line 2", "line 4"]
    assert "'x'" in errors[0]
    rows = read_results(str(out))
    assert [(row["line"], row["score"]) for row in rows] == [(1, -15), (5, int(end_easy.split()[1]))]
    assert rows[0]["correct"] is True and rows[1]["correct"] is True


def test_usage_mistakes_get_one_line(tmp_path: Path) -> None:
    cases = sample(tmp_path, "Test_L3_R1", 3)
    for arguments, message in [
        ((), "--out FILE"),
        (("--out", str(tmp_path / "x.txt"), "--solve"), "extension"),
        (("--book", str(tmp_path / "b.sqlite"), "--depth", "3"), "--book needs --solve"),
        (("--out", str(tmp_path / "x.jsonl")), "give --solve, or a limit"),
        (("--out", str(tmp_path / "x.jsonl"), "--solve", "--workers", "0"), "workers must be a whole number from 1"),
        (("--out", str(tmp_path / "x.jsonl"), "--solve", "--workers", "1000"), "workers must be a whole number from 1"),
        (("--out", str(tmp_path / "x.jsonl"), "--solve", "--scheduler", "not a url"), "not a scheduler's address"),
    ]:
        done = cli("batch", "connect4", str(cases), *arguments)
        assert done.returncode == 2
        assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    done = cli("batch", "connect4", str(tmp_path / "missing"), "--solve", "--out", str(tmp_path / "x.jsonl"))
    assert done.returncode == 2 and "cannot read" in done.stderr


def child_pids(pid: int) -> list[int]:
    children = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        children.extend(int(child) for child in text)
    return children


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


def results_so_far(path: Path) -> int:
    if not path.exists():
        return 0
    if path.suffix == ".jsonl":
        return path.read_bytes().count(b"\n")
    try:
        return len(read_results(str(path)))
    except sqlite3.Error:  # the run has not made its table yet
        return 0


@pytest.mark.fuzz
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("name", ["out.jsonl", "out.sqlite"])
def test_sigkill_then_resume_loses_nothing_and_duplicates_nothing(tmp_path: Path, name: str) -> None:
    cases = sample(tmp_path, "Test_L2_R2", 240)
    out = tmp_path / name
    command = [sys.executable, "-m", "negamax", "batch", "connect4", str(cases), "--solve", "--out", str(out)]
    command += ["--workers", "2", "--chunk-size", "4"]
    kills = 0
    for wanted in (20, 90, 160):  # kill three times, at different points of the run
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while results_so_far(out) < wanted and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        if process.poll() is not None:
            break
        workers = child_pids(process.pid)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        kills += 1
        # the workers die with their parent instead of lingering
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(alive(pid) for pid in workers)
        rows = read_results(str(out))  # readable after every kill
        assert len({row["line"] for row in rows}) == len(rows)
    assert kills >= 2
    finished = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    rows = read_results(str(out))
    assert [int(row["line"]) for row in rows] == list(range(1, 241))
    assert all(row["correct"] in (True, 1) for row in rows)
    again = subprocess.run([*command, "--json"], capture_output=True, text=True, timeout=600)
    assert json.loads(again.stdout)["skipped"] == 240
    assert len(read_results(str(out))) == 240


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses a pseudo-terminal")
def test_a_terminal_gets_a_progress_bar(tmp_path: Path) -> None:
    import pty

    cases = sample(tmp_path, "Test_L2_R2", 150)
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "negamax",
            "batch",
            "connect4",
            str(cases),
            "--solve",
            "--out",
            str(tmp_path / "o.jsonl"),
            "--workers",
            "2",
            "--chunk-size",
            "5",
        ],
        stdout=subprocess.PIPE,
        stderr=follower,
    )
    os.close(follower)
    shown = b""
    while True:
        try:
            data = os.read(leader, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not data:
            break
        shown += data
    process.wait(timeout=120)
    os.close(leader)
    text = shown.decode()
    assert process.returncode == 0
    assert "/150" in text and "positions/s" in text and "ETA" in text


def test_a_game_whose_player_moves_twice_gets_the_oracles_values(tmp_path: Path) -> None:
    # Kalah, plain Python, on a pool of two processes: each worker loads the game by the
    # command line's name, with its parameters; each line carries the oracle's value
    job = BatchJob(f"{oracle.EXAMPLE}:Kalah(3, 3)", solve=True)
    positions = ["start", "1", "1 2", "2", "3", "3 1", "1 3 1"]
    expected = {
        text: oracle.minimax(oracle.kalah(3, 3, tuple(int(pit) for pit in text.split() if pit != "start")))
        for text in positions
    }
    cases = tmp_path / "kalah.txt"
    cases.write_text("".join(f"{text}\t{value}\n" for text, value in expected.items()))
    rows = batch(tmp_path, job, cases, "kalah.jsonl", make_pool(job, 2, None))  # every value checked
    assert {row["position"]: row["score"] for row in rows} == expected
    assert all(row["correct"] and row["bound"] == "exact" for row in rows)
