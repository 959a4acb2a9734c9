"""``negamax-uci`` driven by python-chess's own engine client, as a GUI would."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.engine
import pytest


def engine_command() -> list[str]:
    installed = Path(sys.executable).with_name("negamax-uci")
    if installed.exists():
        return [str(installed)]
    found = shutil.which("negamax-uci")
    assert found, "negamax-uci is not installed"
    return [found]


@pytest.fixture(scope="module", autouse=True)
def compiled_kernel_on_disk() -> None:
    """Compile the chess kernel once here (a fresh install takes tens of seconds), so each
    engine process below loads it from numba's cache in well under a second."""
    from negamax.games.chess import ChessGame
    from negamax.search.compiled.move_list import CompiledSearcher

    CompiledSearcher(hash_mib=1).warm_up(ChessGame().new_position(None))
    from negamax.search import warmup

    warmup.mark_on_disk(ChessGame())  # as negamax warmup would: the engine loads it, no compile


@pytest.fixture
def engine() -> Iterator[chess.engine.SimpleEngine]:
    with chess.engine.SimpleEngine.popen_uci(engine_command(), timeout=30) as running:
        yield running


def test_the_engine_identifies_itself_and_its_options(engine: chess.engine.SimpleEngine) -> None:
    assert engine.id["name"].startswith("negamax")
    assert "Hash" in engine.options and engine.options["Engine"].var == ["compiled", "python"]
    engine.configure({"Hash": 16})


def test_both_engines_play_and_report_their_search(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board("r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 8")
    engine.ping()  # isready: the compiled kernel is loaded
    compiled = engine.analyse(board, chess.engine.Limit(depth=6))
    assert compiled["depth"] == 6 and compiled["seldepth"] > 6 and compiled["nodes"] > 0
    engine.configure({"Engine": "python"})
    python = engine.analyse(board, chess.engine.Limit(depth=2))
    assert python["depth"] == 2 and python["pv"][0] in board.legal_moves


def test_two_threads_find_the_mate(engine: chess.engine.SimpleEngine) -> None:
    assert engine.options["Threads"].default == 1
    engine.configure({"Threads": 2})
    board = chess.Board("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1")  # WAC.001
    info = engine.analyse(board, chess.engine.Limit(time=1))
    assert info["score"].white() == chess.engine.Mate(2) and info["pv"][0] == chess.Move.from_uci("g3g6")


def test_a_bad_thread_count_gets_an_info_string() -> None:
    output = uci_session("uci\nsetoption name Threads value 0\nsetoption name Threads value 1.5\nisready\nquit\n")
    strings = [line for line in output if line.startswith("info string")]
    assert len(strings) == 2 and "from 1 to 64" in strings[0] and "whole number" in strings[1], strings
    assert output[-1] == "readyok"


def test_it_plays_a_legal_game(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    for _ in range(12):
        result = engine.play(board, chess.engine.Limit(time=0.1))
        assert result.move in board.legal_moves
        board.push(result.move)
        if board.is_game_over():
            break


def test_analysis_with_depth_nodes_and_time_limits(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    info = engine.analyse(board, chess.engine.Limit(depth=2))
    assert info["depth"] == 2 and info["pv"][0] == chess.Move.from_uci("h5f7")
    assert info["score"].white() == chess.engine.Mate(1)
    by_nodes = engine.analyse(chess.Board(), chess.engine.Limit(nodes=300))
    assert by_nodes["nodes"] <= 300 + 64
    by_time = engine.analyse(chess.Board(), chess.engine.Limit(time=0.5))
    assert by_time["depth"] >= 1


@pytest.mark.timing
def test_a_time_limit_is_kept(engine: chess.engine.SimpleEngine) -> None:
    engine.ping()  # isready, as a GUI sends after starting an engine: the kernel is loaded
    started = time.perf_counter()
    engine.analyse(chess.Board(), chess.engine.Limit(time=0.5))
    assert time.perf_counter() - started < 0.55 + 0.5


def test_a_forced_move_is_played_at_once(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board("7k/8/8/8/8/8/6q1/7K w - - 0 1")  # Kxg2 is the only legal move
    result = engine.play(board, chess.engine.Limit(time=30), info=chess.engine.INFO_ALL)
    assert result.move == chess.Move.from_uci("h1g2")
    assert result.info.get("depth") == 1  # not a 30-second search
    board = chess.Board()
    result = engine.play(board, chess.engine.Limit(depth=3), info=chess.engine.INFO_ALL)
    assert result.info.get("depth") == 3


@pytest.mark.timing
def test_movetime_is_kept(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board("r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 8")
    engine.ping()  # isready, as a GUI sends after starting an engine: the kernel is loaded
    for _ in range(3):
        started = time.perf_counter()
        engine.play(board, chess.engine.Limit(time=1.0))
        assert time.perf_counter() - started < 1.05


def test_stop_ends_an_infinite_analysis(engine: chess.engine.SimpleEngine) -> None:
    with engine.analysis(chess.Board()) as analysis:
        time.sleep(0.5)
        analysis.stop()
        best = analysis.wait()
    assert best.move in chess.Board().legal_moves


@pytest.mark.timing
def test_stop_is_prompt(engine: chess.engine.SimpleEngine) -> None:
    with engine.analysis(chess.Board()) as analysis:
        time.sleep(0.5)
        started = time.perf_counter()
        analysis.stop()
        analysis.wait()
        assert time.perf_counter() - started < 0.3


def uci_session(lines: str) -> list[str]:
    done = subprocess.run(engine_command(), input=lines, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and not done.stderr
    return done.stdout.splitlines()


def test_garbage_gets_an_info_string_and_the_engine_goes_on() -> None:
    output = uci_session(
        "uci\nhello there\ninfo depth 3\nhalt\nposition fen not/a/fen w - - 0 1\nposition startpos moves e2e5\n"
        "setoption name Colour value blue\nsetoption name Hash value lots\ngo depth banana\n"
        "position startpos moves e2e4\ngo depth 2\nisready\nquit\n"
    )
    strings = [line for line in output if line.startswith("info string")]
    assert len(strings) == 8
    assert all("unknown command" in text for text in strings[:3])  # internal names are not commands
    assert "e2e5" in strings[4] and "Colour" in strings[5]
    assert output[-1] == "readyok" or "readyok" in output
    best = [line for line in output if line.startswith("bestmove")]
    assert (
        len(best) == 1
        and chess.Move.from_uci(best[0].split()[1])
        in chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").legal_moves
    )
