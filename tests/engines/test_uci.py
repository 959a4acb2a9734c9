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

from negamax.core.ranges import max_hash_mib
from negamax.games.chess.levels import LEVEL_ELO

pytestmark = pytest.mark.kernels("chess")


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
    from negamax.games.chess.rules import ChessGame
    from negamax.search.compiled.move_list import CompiledSearcher

    CompiledSearcher(hash_mib=1).warm_up(ChessGame().new_position(None))
    from negamax.search import warmup

    warmup.mark_on_disk(ChessGame())  # as negamax warmup would: the engine loads it, no compile


@pytest.fixture(scope="module")
def running_engine() -> Iterator[chess.engine.SimpleEngine]:
    with chess.engine.SimpleEngine.popen_uci(engine_command(), timeout=30) as running:
        yield running


@pytest.fixture
def engine(running_engine: chess.engine.SimpleEngine) -> Iterator[chess.engine.SimpleEngine]:
    """One engine process for the module, as a GUI keeps one, each test starting with every
    option at its default (the tests that need a fresh process start their own)."""
    defaults = {name: option.default for name, option in running_engine.options.items()}
    reset = ("Hash", "Threads", "Backend", "Skill Level", "UCI_LimitStrength", "UCI_Elo")
    running_engine.configure({name: defaults[name] for name in reset})
    yield running_engine


def test_the_engine_identifies_itself_and_its_options(engine: chess.engine.SimpleEngine) -> None:
    assert engine.id["name"].startswith("negamax")
    assert "Hash" in engine.options and engine.options["Backend"].var == ["compiled", "python"]
    engine.configure({"Hash": 16})


def test_both_engines_play_and_report_their_search(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board("r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 8")
    engine.ping()  # isready: the compiled kernel is loaded
    compiled = engine.analyse(board, chess.engine.Limit(depth=6))
    assert compiled["depth"] == 6 and compiled["seldepth"] > 6 and compiled["nodes"] > 0
    engine.configure({"Backend": "python"})
    python = engine.analyse(board, chess.engine.Limit(depth=2))
    assert python["depth"] == 2 and python["pv"][0] in board.legal_moves


def test_multipv_gives_distinct_first_moves_best_first(engine: chess.engine.SimpleEngine) -> None:
    assert engine.options["MultiPV"].default == 1
    board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")  # Rd8 mates
    engine.ping()
    infos = engine.analyse(board, chess.engine.Limit(depth=4), multipv=3)
    assert len(infos) == 3
    firsts = [info["pv"][0] for info in infos]
    assert len(set(firsts)) == 3 and firsts[0] == chess.Move.from_uci("d1d8")
    assert infos[0]["score"].white() == chess.engine.Mate(1)
    scores = [info["score"].white().score(mate_score=100_000) for info in infos]
    assert scores == sorted(scores, reverse=True)
    assert [info["multipv"] for info in infos] == [1, 2, 3]


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


def test_a_position_over_by_a_rule_that_leaves_moves_still_gets_a_move(engine: chess.engine.SimpleEngine) -> None:
    # the game is drawn (bare kings, the fifty-move rule) but a GUI asking for a move gets one
    for fen in ("8/8/8/4k3/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/R3K3 w - - 100 80"):
        board = chess.Board(fen)
        assert engine.play(board, chess.engine.Limit(depth=3)).move in board.legal_moves
    stalemate = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert not engine.play(stalemate, chess.engine.Limit(depth=3)).move  # bestmove 0000: no move at all


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
    assert len(strings) == 9
    assert all("unknown command" in text for text in strings[:3])  # internal names are not commands
    assert "e2e5" in strings[4] and "Colour" in strings[5] and "lots" in strings[6] and "banana" in strings[7]
    assert output[-1] == "readyok" or "readyok" in output
    best = [chess.Move.from_uci(line.split()[1]) for line in output if line.startswith("bestmove")]
    assert len(best) == 2  # one for each go, the one whose depth was refused too
    assert best[0] in chess.Board().legal_moves
    assert best[1] in chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").legal_moves


def answers_to_each_go(output: list[str]) -> list[tuple[list[str], str]]:
    """The info strings and the move of each ``go``, in order (a ``go`` first ends the
    search before it, so what it says comes after the move before)."""
    answers, strings = [], []
    for line in output:
        if line.startswith("info string"):
            strings.append(line)
        elif line.startswith("bestmove"):
            answers.append((strings, line.split()[1]))
            strings = []
    return answers


def test_every_go_gets_one_bestmove_whatever_its_parameters() -> None:
    gos = {
        "go searchmoves e2e4 d2d4 depth 3": ["e2e4", "d2d4"],
        "go nodes 0": ["nodes", "0"],
        "go mate 0": ["mate", "0"],
        "go depth -3": ["depth", "-3"],
        "go wtime 1e3": ["wtime", "1e3"],
        "go nodes 99999999999999999999999": ["nodes", "9999999"],
        "go depth 0": ["depth", "0"],
        "go sideways": ["sideways"],
        "go btime 1000": ["no depth, nodes, time or clock"],  # white to move: not its clock
        "go searchmoves e9e9 a2a3 depth 2": ["e9e9"],
        "go depth": ["depth needs a value"],
        "go searchmoves": ["no legal move named"],
    }
    output = uci_session("uci\nposition startpos\n" + "".join(f"{line}\n" for line in gos) + "isready\nquit\n")
    answers = answers_to_each_go(output)
    assert len(answers) == len(gos), output
    for (line, words), (strings, move) in zip(gos.items(), answers, strict=True):
        assert chess.Move.from_uci(move) in chess.Board().legal_moves, line
        if line.startswith("go searchmoves e2e4"):
            assert move in words and not strings
        else:
            assert strings and all(word in " ".join(strings) for word in words), (line, strings)
    assert answers[9][1] == "a2a3"  # e9e9 left out, the search kept to the move that is legal


def test_search_moves_from_the_client_restrict_the_root(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")  # Qxf7 mates
    allowed = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("d2d3")]
    for engine_name in ("compiled", "python"):
        engine.configure({"Backend": engine_name})
        played = engine.play(board, chess.engine.Limit(depth=3), root_moves=allowed)
        assert played.move in allowed, engine_name
        info = engine.analyse(board, chess.engine.Limit(depth=3), root_moves=allowed)
        assert info["pv"][0] in allowed and info["score"].white() != chess.engine.Mate(1)


def test_the_largest_hash_is_what_this_machine_holds(engine: chess.engine.SimpleEngine) -> None:
    assert engine.options["Hash"].max == max_hash_mib()
    output = uci_session(f"setoption name Hash value {2 * max_hash_mib()}\ngo depth 2\nisready\nquit\n")
    assert f"hash must be a number from 1 to {max_hash_mib()} (MiB)" in output[0]
    assert len([line for line in output if line.startswith("bestmove")]) == 1


LARGE_HASH_MIB = min(4096, max_hash_mib())


def stop_on_a_large_table(engine: chess.engine.SimpleEngine) -> tuple[chess.Move | None, float]:
    """The move after ``stop`` 50 ms into the first search on a new table, and how long it
    took to come (a table once took 17 s to be cleared first)."""
    engine.configure({"Hash": LARGE_HASH_MIB})
    engine.ping()
    with engine.analysis(chess.Board()) as analysis:
        time.sleep(0.05)
        started = time.perf_counter()
        analysis.stop()
        best = analysis.wait()
        return best.move, time.perf_counter() - started


def test_stop_is_obeyed_on_a_large_table(engine: chess.engine.SimpleEngine) -> None:
    move, _ = stop_on_a_large_table(engine)
    assert move in chess.Board().legal_moves


@pytest.mark.timing
def test_stop_is_prompt_on_a_large_table(engine: chess.engine.SimpleEngine) -> None:
    _, waited = stop_on_a_large_table(engine)
    assert waited < 0.3


def test_an_overlong_line_gets_one_info_string_and_is_not_read() -> None:
    output = uci_session("uci\n" + "position startpos moves " + "e2e4 " * 1_000_000 + "\nisready\ngo depth 1\nquit\n")
    after = output[output.index("uciok") + 1 :]
    assert after[0].startswith("info string a line of 5000024 bytes is over the limit of 65536")
    assert after[1] == "readyok" and after[-1].split()[1] in {move.uci() for move in chess.Board().legal_moves}


def test_strength_options_as_stockfish_has_them(engine: chess.engine.SimpleEngine) -> None:
    options = engine.options
    assert (options["Skill Level"].min, options["Skill Level"].max, options["Skill Level"].default) == (0, 20, 20)
    assert options["UCI_LimitStrength"].type == "check" and options["UCI_LimitStrength"].default is False
    assert (options["UCI_Elo"].min, options["UCI_Elo"].max) == (LEVEL_ELO[0], LEVEL_ELO[-1])
    engine.configure({"UCI_LimitStrength": True, "UCI_Elo": LEVEL_ELO[0]})
    board = chess.Board()
    for _ in range(16):  # the weakest rating plays a legal game, shallow, one line a search
        with engine.analysis(board, chess.engine.Limit(depth=8)) as analysis:  # capped at 2
            infos = list(analysis)
            best = analysis.wait().move
        assert best in board.legal_moves
        depths = [info["depth"] for info in infos if "depth" in info]
        assert depths and max(depths) <= 2 and all("multipv" not in info for info in infos)
        board.push(best)
        if board.is_game_over():
            break


def test_strength_options_out_of_range_get_an_info_string() -> None:
    output = uci_session(
        "uci\nsetoption name UCI_Elo value 3000\nsetoption name Skill Level value -1\n"
        "setoption name UCI_LimitStrength value maybe\nisready\nquit\n"
    )
    strings = [line for line in output if line.startswith("info string")]
    assert len(strings) == 3, strings
    assert f"from {LEVEL_ELO[0]} to {LEVEL_ELO[-1]}" in strings[0] and "from 0 to 20" in strings[1]
    assert "true or false" in strings[2] and output[-1] == "readyok"
