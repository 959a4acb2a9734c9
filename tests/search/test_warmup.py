from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from negamax.games import get_game
from negamax.search import warmup


def test_the_variants_sharing_a_kernel_share_its_marker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # one kernel plays every draughts variant: once it is on disk, none of them should
    # announce a compilation
    monkeypatch.setenv(warmup.CACHE_DIRECTORY_VARIABLE, str(tmp_path))
    names = ("draughts", "checkers", "russian", "brazilian", "frisian", "chess")
    assert not any(warmup.kernels_on_disk(get_game(name)) for name in names)
    warmup.mark_on_disk(get_game("checkers"))
    on_disk = {name: warmup.kernels_on_disk(get_game(name)) for name in names}
    assert on_disk == {
        "draughts": True,
        "checkers": True,
        "russian": True,
        "brazilian": True,
        "frisian": True,
        "chess": False,
    }


class NotOnDisk:
    """A searcher whose kernel is not on disk yet (what a fresh install meets)."""

    kind = "move list"
    warmed = False

    def cached(self, position: object) -> bool:
        return False

    def warm_up(self, position: object) -> None:
        self.warmed = True


def test_a_first_compilation_is_announced_even_to_a_script_that_asked_for_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv(warmup.CACHE_DIRECTORY_VARIABLE, str(tmp_path))
    monkeypatch.setattr(warmup, "compile_elsewhere", lambda name, stop=None: True)
    game = get_game("chess")
    searcher = NotOnDisk()
    with caplog.at_level("WARNING", logger="negamax"):
        assert warmup.prepare(searcher, game.new_position(None), game)
    assert searcher.warmed
    assert [record.getMessage() for record in caplog.records] == [
        f"compiling chess's kernel, first run only, about {warmup.COMPILE_SECONDS['move list']} s"
    ]
    told: list[str] = []
    warmup.prepare(NotOnDisk(), get_game("draughts").new_position(None), get_game("draughts"), told.append)
    assert told == [f"compiling draughts's kernel, first run only, about {warmup.COMPILE_SECONDS['move list']} s"]


SETUP_HELPERS_LOADED = """
import chess
from negamax.core.numba_cache import load_from_cache
from negamax.games import get_game
from negamax.games.chess import compiled as chess_compiled
from negamax.games.draughts import compiled_state as draughts_state

state = chess_compiled.new_state(chess.Board())
print(load_from_cache(chess_compiled._refresh, (state,)))
spec, state = get_game("draughts").new_position().move_list_form()
print(load_from_cache(draughts_state._refresh, (spec, state)))
"""


@pytest.mark.compiles
def test_warming_up_compiles_the_helpers_that_only_set_a_search_up(tmp_path: Path) -> None:
    # no kernel calls a state's refresh: unless the warm-up compiles it, every search of a
    # fresh install builds its root state in Python (13 ms a chess move, with the network)
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "NEGAMAX_CACHE_DIR": str(tmp_path)}
    warmed = subprocess.run(
        [sys.executable, "-m", "negamax", "warmup", "chess", "draughts"],
        capture_output=True,
        text=True,
        env=environment,
        timeout=900,
    )
    assert warmed.returncode == 0, warmed.stderr[-2000:]
    checked = subprocess.run(
        [sys.executable, "-c", SETUP_HELPERS_LOADED], capture_output=True, text=True, env=environment, timeout=300
    )
    assert checked.returncode == 0, checked.stderr[-2000:]
    assert checked.stdout.split() == ["True", "True"]


def test_compilations_asked_for_at_once_run_one_after_another(monkeypatch: pytest.MonkeyPatch) -> None:
    # five games opened at once by a page: five compilers at once took both cores from the
    # searches answering meanwhile
    import threading
    import time

    running: list[str] = []
    most = 0
    lock = threading.Lock()

    def child(name: str, stop: object) -> bool:
        nonlocal most
        with lock:
            running.append(name)
            most = max(most, len(running))
        time.sleep(0.05)
        with lock:
            running.remove(name)
        return True

    monkeypatch.setattr(warmup, "_compile_in_child", child)
    threads = [threading.Thread(target=warmup.compile_elsewhere, args=(name,)) for name in "abcde"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert most == 1


def test_a_compilation_waiting_its_turn_can_be_abandoned(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    release = threading.Event()
    monkeypatch.setattr(warmup, "_compile_in_child", lambda name, stop: release.wait(10))
    first = threading.Thread(target=warmup.compile_elsewhere, args=("a",))
    first.start()
    stop = threading.Event()
    stop.set()
    assert warmup.compile_elsewhere("b", stop) is False  # not left waiting for "a"
    release.set()
    first.join(10)
