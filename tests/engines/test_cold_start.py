"""A fresh install (nothing in numba's disk cache): the engines answer every move in time
from the first one, with the pure-Python search while another process compiles the kernel,
and quit promptly. Timed, so under the ``timing`` marker (``.ci/run`` runs it)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import chess
import chess.engine
import pytest

pytestmark = pytest.mark.timing


def test_a_uci_client_gets_three_moves_in_time_from_a_cold_cache(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    environment = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "NEGAMAX_CACHE_DIR": str(tmp_path)}
    engine = chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "negamax.engines.uci"], env=environment)
    try:
        board = chess.Board()
        for _ in range(3):
            start = time.perf_counter()
            result = engine.play(board, chess.engine.Limit(time=1.0))
            assert time.perf_counter() - start < 1.2
            assert result.move in board.legal_moves
            board.push(result.move)
    finally:
        start = time.perf_counter()
        engine.quit()
        assert time.perf_counter() - start < 2.0


def test_a_hub_client_gets_moves_in_time_from_a_cold_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("numba")
    pytest.importorskip("draughts")
    from draughts import StandardBoard
    from draughts.engines.hub import HubEngine

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.setenv("NEGAMAX_CACHE_DIR", str(tmp_path))
    hub = Path(sys.executable).with_name("negamax-hub")
    with HubEngine(str(hub), time_limit=1.0, init_timeout=10) as engine:
        board = StandardBoard()
        for _ in range(3):
            start = time.perf_counter()
            move = engine.get_best_move(board)
            assert time.perf_counter() - start < 1.2
            assert move in board.legal_moves
            board.push(move)
