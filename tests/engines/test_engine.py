"""The Engine API under the protocol layers, driven directly: positions, limits, stop,
the time budget, and the python engine while the compiled one is not ready."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from negamax.core.errors import InvalidOptionError, InvalidPositionError
from negamax.core.ranges import max_hash_mib
from negamax.core.types import SearchResult
from negamax.engines import engine as engine_module
from negamax.engines.engine import MOVE_OVERHEAD_SECONDS, Engine, GoLimits, time_budget
from negamax.games import get_game

pytestmark = pytest.mark.kernels("chess")


def run(engine: Engine, limits: GoLimits) -> tuple[SearchResult[Any], list[SearchResult[Any]]]:
    done = threading.Event()
    found: list[SearchResult[Any]] = []
    infos: list[SearchResult[Any]] = []
    engine.go(limits, infos.append, lambda result: (found.append(result), done.set()))
    assert done.wait(60)
    return found[0], infos


def test_the_time_budget() -> None:
    assert time_budget(GoLimits(move_time=1.0)) == pytest.approx(1.0 - MOVE_OVERHEAD_SECONDS)
    assert time_budget(GoLimits(infinite=True)) is None
    assert time_budget(GoLimits(depth=3)) is None
    ceiling = time_budget(GoLimits(time_left=60.0, increment=1.0))
    assert ceiling == pytest.approx(3 * (60 / 30 + 0.75))  # three targets: a thirtieth of the clock and then some
    assert time_budget(GoLimits(time_left=0.1)) < 0.1  # never the whole clock


def test_positions_depths_and_a_bad_position_keeps_the_old_one() -> None:
    engine = Engine(get_game("chess"), hash_mib=1, backend="python")
    engine.set_position("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    result, infos = run(engine, GoLimits(depth=2))
    assert result.best_move.uci() == "h5f7" and [info.depth for info in infos] == [1, 2]
    with pytest.raises(InvalidPositionError):
        engine.set_position("not a fen")
    assert engine.position.board.fen().startswith("r1bqkb1r")


def test_stop_ends_an_infinite_search_with_a_move() -> None:
    engine = Engine(get_game("tictactoe"), hash_mib=1, backend="python")
    engine.set_position("0")
    done = threading.Event()
    found: list[SearchResult[Any]] = []
    engine.go(GoLimits(infinite=True), lambda result: None, lambda result: (found.append(result), done.set()))
    engine.stop()
    assert done.wait(10) and found[0].best_move in engine.position.legal_moves()


def test_options_are_checked() -> None:
    engine = Engine(get_game("chess"), hash_mib=1, backend="python")
    with pytest.raises(InvalidOptionError, match=rf"hash must be a number from 1 to {max_hash_mib()} \(MiB\)"):
        engine.set_hash(0.5)
    with pytest.raises(InvalidOptionError, match="threads must be a whole number from 1 to 64"):
        engine.set_threads(65)
    with pytest.raises(InvalidOptionError, match="no compiled backend"):
        Engine(get_game("nim"), backend="compiled")


def test_a_table_the_machine_cannot_give_is_refused_and_the_old_one_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_memory(mib: float) -> None:
        raise MemoryError

    engine = Engine(get_game("chess"), hash_mib=1)  # compiled, not warmed up: its table comes later
    monkeypatch.setattr(engine_module, "_reserve", no_memory)
    with pytest.raises(InvalidOptionError, match=f"cannot give {max_hash_mib()} MiB now; the table stays at 1 MiB"):
        engine.set_hash(max_hash_mib())
    assert engine.hash_mib == 1
    result, _ = run(engine, GoLimits(depth=1))
    assert result.best_move in engine.position.legal_moves()


def test_a_failed_search_still_answers_with_a_move(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = Engine(get_game("chess"), hash_mib=1, backend="python")

    def broken(*arguments: Any, **keywords: Any) -> Any:
        raise MemoryError("no room")

    monkeypatch.setattr(engine, "analyse", broken)
    errors: list[str] = []
    done = threading.Event()
    found: list[SearchResult[Any]] = []
    moves = tuple(engine.position.legal_moves())[3:5]
    limits = GoLimits(depth=4, search_moves=moves)
    engine.go(limits, lambda result: None, lambda result: (found.append(result), done.set()), errors.append)
    assert done.wait(60) and len(found) == 1 and found[0].best_move in moves
    assert len(errors) == 1 and "MemoryError: no room" in errors[0]


def test_search_moves_restrict_the_root() -> None:
    engine = Engine(get_game("chess"), hash_mib=1, backend="python")
    engine.set_position("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    moves = tuple(move for move in engine.position.legal_moves() if move.uci() in ("a2a3", "d2d3"))
    result, infos = run(engine, GoLimits(depth=2, search_moves=moves))
    assert result.best_move in moves and all(info.best_move in moves for info in infos)
    forced, _ = run(engine, GoLimits(move_time=30.0, search_moves=moves[:1]))
    assert forced.best_move == moves[0] and forced.depth == 1  # one move to play: played at once


def test_the_python_backend_answers_while_the_kernel_compiles(monkeypatch: pytest.MonkeyPatch) -> None:
    from negamax.search import searcher, warmup

    # a new process on a new install: no kernel loaded, none on disk, a compilation that takes long
    monkeypatch.setattr(searcher, "_LOADED", set())
    monkeypatch.setattr(warmup, "kernels_on_disk", lambda game: False)
    release = threading.Event()
    monkeypatch.setattr(warmup, "compile_elsewhere", lambda name, stop=None: release.wait(30) and False)
    engine = Engine(get_game("chess"), hash_mib=1)
    engine.warm_up_in_background()
    assert engine.backend == "compiled" and not engine.ready(0.01)
    deadline = time.monotonic() + 10
    while not engine.compiling and time.monotonic() < deadline:
        time.sleep(0.01)
    result, _ = run(engine, GoLimits(depth=1))
    assert result.algorithm == "auto"  # the python backend's name for its default algorithm
    assert engine.hashfull() == 0  # the python table's, without touching the kernel
    release.set()
    engine.close()


def test_a_weak_skill_searches_shallow_and_plays_other_moves_than_full_strength() -> None:
    from negamax.search.strength import Strength

    game = get_game("chess")
    openings = ["startpos", "startpos moves e2e4", "startpos moves d2d4 d7d5", "startpos moves e2e4 c7c5 g1f3"]
    full, weak = Engine(game, backend="python", seed=1), Engine(game, backend="python", seed=1)
    weak.strength = Strength(0)
    differ = 0
    for opening in openings * 3:
        for engine in (full, weak):
            engine.set_position(opening)
        best, _ = run(full, GoLimits(depth=2))
        chosen, infos = run(weak, GoLimits(depth=6))  # the strength caps it
        assert chosen.best_move in weak.position.legal_moves()
        assert max(info.depth for info in infos) <= 2
        differ += chosen.best_move != best.best_move
    assert differ >= 3  # noise on close moves: the weak skill does not play the same game
