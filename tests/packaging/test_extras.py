"""Each README command line on a fresh virtual environment holding the package with exactly
the extras the README names for it (``pip install .``, ``'.[web]'``, ``'.[draughts]'``,
``'.[openspiel]'``, ``'.[distributed]'``), and, without an extra, the command that needs it
refused in one line that names it. ``pytest -m extras``, a step of ``.ci/run``: each
environment downloads numba and the extra's packages."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
import venv
from pathlib import Path

import pytest

pytestmark = pytest.mark.extras

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
DRAUGHTS_POSITION = "W:W27,28,32,33,37,38:B8,12,13,17,18"


class Environment:
    """A virtual environment with the package and ``extra`` installed from this checkout."""

    def __init__(self, directory: Path, extra: str) -> None:
        venv.create(directory, with_pip=True)
        self.bin = directory / "bin"
        target = f"{ROOT}[{extra}]" if extra else str(ROOT)
        subprocess.run([str(self.bin / "python"), "-m", "pip", "install", "--quiet", target], check=True, timeout=1200)

    def run(self, *arguments: str, stdin: str = "", timeout: float = 600) -> subprocess.CompletedProcess[str]:
        """A console script of the environment, from a directory outside the checkout (so
        that nothing is imported from ``src/``)."""
        command = [str(self.bin / arguments[0]), *arguments[1:]]
        environment = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        return subprocess.run(
            command, input=stdin, capture_output=True, text=True, timeout=timeout, cwd=self.bin, env=environment
        )

    def refuses(self, needed: str, *arguments: str) -> None:
        """The command ends with a one-line error naming ``pip install 'negamax[needed]'``."""
        done = self.run(*arguments)
        assert done.returncode != 0, done.stdout
        assert "Traceback" not in done.stderr, done.stderr
        assert f"negamax[{needed}]" in done.stderr, done.stderr


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    return Environment(tmp_path_factory.mktemp("plain"), "")


def test_the_quick_start_line_and_the_commands_with_no_extra(plain: Environment) -> None:
    done = plain.run("negamax", "solve", "connect4", "44455554221")
    assert done.returncode == 0 and "[loss in 2]" in done.stdout, done.stdout + done.stderr
    done = plain.run("negamax", "solve", "tictactoe")
    assert done.returncode == 0 and done.stdout.split()[:2] == ["score", "0"], done.stdout + done.stderr
    out = plain.bin.parent / "results.jsonl"
    done = plain.run("negamax", "batch", "connect4", str(DATA / "Test_L3_R1"), "--solve", "--out", str(out))
    assert done.returncode == 0 and len(out.read_text().splitlines()) == 1000, done.stderr


def test_each_extra_is_named_where_it_is_missing(plain: Environment) -> None:
    plain.refuses("web", "negamax", "serve", "--port", "0")
    plain.refuses("draughts", "negamax", "analyze", "draughts", DRAUGHTS_POSITION, "--depth", "2")
    plain.refuses("openspiel", "negamax", "solve", "openspiel:tic_tac_toe")
    out = str(plain.bin.parent / "refused.jsonl")
    batch = ("negamax", "batch", "connect4", str(DATA / "Test_L3_R1"), "--solve", "--out", out)
    plain.refuses("distributed", *batch, "--scheduler", "tcp://127.0.0.1:1")


def served_games(environment: Environment, directory: Path) -> tuple[list[str], list[str]]:
    """The games ``negamax serve`` lists, and the lines it printed after its address."""
    server = subprocess.Popen(
        [str(environment.bin / "negamax"), "serve", "--port", "0"], stdout=subprocess.PIPE, text=True, cwd=directory
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()  # serving on http://127.0.0.1:PORT/ (Ctrl-C to stop)
        address = line.split("http://", 1)[1].split("/", 1)[0]
        with urllib.request.urlopen(f"http://{address}/api/games", timeout=30) as answer:
            names = [game["name"] for game in json.load(answer)]
        with urllib.request.urlopen(f"http://{address}/", timeout=30) as answer:
            assert answer.status == 200
    finally:
        server.terminate()
        server.wait(30)
    return names, server.stdout.read().splitlines()


def test_web_serves_every_built_in_game_and_without_py_draughts_says_what_it_left_out(tmp_path: Path) -> None:
    environment = Environment(tmp_path / "web", "web")
    names, printed = served_games(environment, tmp_path)
    assert {"connect4", "chess", "draughts", "checkers", "tictactoe", "nim"} <= set(names), names
    assert printed == []
    uninstall = [str(environment.bin / "python"), "-m", "pip", "uninstall", "--quiet", "--yes", "py-draughts"]
    subprocess.run(uninstall, check=True, timeout=300)
    names, printed = served_games(environment, tmp_path)
    assert "draughts" not in names and "checkers" not in names and "chess" in names, names
    assert printed == [
        f"left out: {name} (it needs draughts: pip install 'negamax[draughts]')" for name in ("draughts", "checkers")
    ]


def test_draughts_analyses_and_speaks_hub(tmp_path: Path) -> None:
    environment = Environment(tmp_path / "draughts", "draughts")
    done = environment.run("negamax", "analyze", "draughts", DRAUGHTS_POSITION, "--depth", "4")
    assert done.returncode == 0 and re.search(r"^depth\s+4$", done.stdout, re.MULTILINE), done.stdout + done.stderr
    done = environment.run("negamax-hub", stdin="hub\nquit\n", timeout=120)
    assert done.returncode == 0 and "wait" in done.stdout.split(), done.stdout + done.stderr


def test_openspiel_games_solve(tmp_path: Path) -> None:
    environment = Environment(tmp_path / "openspiel", "openspiel")
    done = environment.run("negamax", "solve", "openspiel:tic_tac_toe")
    assert done.returncode == 0 and done.stdout.split()[:2] == ["score", "0"], done.stdout + done.stderr


def test_distributed_runs_a_batch_on_a_dask_scheduler(tmp_path: Path) -> None:
    environment = Environment(tmp_path / "distributed", "distributed")
    cluster = subprocess.Popen(
        [
            str(environment.bin / "python"),
            "-c",
            "import sys; from distributed import LocalCluster;"
            " cluster = LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None);"
            " print(cluster.scheduler_address, flush=True); sys.stdin.read()",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    try:
        assert cluster.stdout is not None
        address = cluster.stdout.readline().strip()
        assert address.startswith("tcp://"), address
        out = tmp_path / "results.jsonl"
        started = time.monotonic()
        command = ("negamax", "batch", "connect4", str(DATA / "Test_L3_R1"), "--solve", "--out", str(out))
        done = environment.run(*command, "--scheduler", address)
        assert done.returncode == 0, done.stderr
        assert len(out.read_text().splitlines()) == 1000, time.monotonic() - started
    finally:
        assert cluster.stdin is not None
        cluster.stdin.close()
        cluster.wait(60)


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-m", "extras"]))
