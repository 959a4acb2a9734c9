"""The ``negamax`` command, run as a user runs it: in a subprocess."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from negamax.cli import searching
from negamax.cli.main import main

pytestmark = pytest.mark.kernels("connect4", "chess", "tictactoe", "draughts")

DATA = Path(__file__).resolve().parents[1] / "data"


def run(*arguments: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "negamax", *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def run_json(*arguments: str) -> dict[str, object]:
    done = run(*arguments, "--json")
    assert done.returncode == 0, done.stderr
    record: dict[str, object] = json.loads(done.stdout)
    return record


def test_games_lists_every_game() -> None:
    done = run("games")
    assert done.returncode == 0
    for name in ("tictactoe", "connect4", "nim", "tree", "random"):
        assert name in done.stdout


def test_solve_tictactoe_plain_negamax_counts_the_seed_nodes() -> None:
    record = run_json("solve", "tictactoe", "--algorithm", "negamax")
    assert record["score"] == 0 and record["nodes"] == 549_946
    assert record["pv"] == ["0", "4", "1", "2", "6", "3", "5", "7", "8"]


def test_solve_tictactoe_default_is_cheap() -> None:
    record = run_json("solve", "tictactoe")
    assert record["score"] == 0
    assert isinstance(record["nodes"], int) and record["nodes"] <= 2000
    for field in ("game", "position", "algorithm", "best_move", "pv", "depth", "time_s"):
        assert field in record


def test_solve_connect4_pons_example() -> None:
    record = run_json("solve", "connect4", "44455554221")
    assert record["score"] == -15 and record["score_text"] == "loss in 2"


def test_helper_processes_solve_a_file_like_threads(tmp_path: Path) -> None:
    sample = tmp_path / "middle-medium-sample"
    sample.write_text("\n".join((DATA / "Test_L2_R2").read_text().splitlines()[::4]) + "\n")
    done = run("solve", "connect4", "--file", str(sample), "--check", "--threads", "2", "--processes")
    assert done.returncode == 0, done.stderr
    assert "note:" not in done.stderr  # the helpers really were processes
    assert done.stdout.splitlines()[-1].startswith("250/250 correct, mean nodes ")


def test_engines_agree_and_the_choice_is_checked() -> None:
    compiled = run_json("solve", "connect4", "2252576253462244111563365343671351441", "--backend", "compiled")
    python = run_json("solve", "connect4", "2252576253462244111563365343671351441", "--backend", "python")
    assert compiled["algorithm"] == "compiled" and python["algorithm"] == "auto"
    assert compiled["score"] == python["score"] == -1
    # auto: a position this quick is answered before the compiled kernel is even loaded
    assert run_json("solve", "connect4", "2252576253462244111563365343671351441")["algorithm"] == "auto"
    assert run_json("solve", "connect4", "4453", "--nodes", "100000", "--no-book")["algorithm"] == "compiled"
    assert run_json("solve", "tictactoe", "--backend", "compiled")["score"] == 0


def test_solve_file_check_middle_easy_on_both_engines(tmp_path: Path) -> None:
    sample = tmp_path / "middle-easy-sample"
    sample.write_text("\n".join((DATA / "Test_L2_R1").read_text().splitlines()[::5]) + "\n")
    for engine in ("compiled", "python"):
        done = run("solve", "connect4", "--file", str(sample), "--check", "--backend", engine)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[-1].startswith("200/200 correct, mean nodes ")


def test_solve_file_check_end_easy() -> None:
    done = run("solve", "connect4", "--file", str(DATA / "Test_L3_R1"), "--check")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("1000/1000 correct, mean nodes ")
    assert "mean CPU time" in done.stdout


def test_solve_file_reports_mismatches_and_bad_lines(tmp_path: Path) -> None:
    cases = tmp_path / "cases.txt"
    cases.write_text("# a comment\n44455554221 -15\n44455554221 3\n4458 0\n\n")
    done = run("solve", "connect4", "--file", str(cases), "--check")
    assert done.returncode == 1
    assert "line 3: 44455554221: expected 3, solved -15" in done.stdout
    assert "line 4:" in done.stderr and "not a column" in done.stderr
    assert done.stdout.splitlines()[-1].startswith("1/3 correct")  # the bad line counts as wrong
    assert "Traceback" not in done.stderr


def test_solve_file_without_check_prints_scores(tmp_path: Path) -> None:
    cases = tmp_path / "cases.txt"
    cases.write_text("44455554221\n2252576253462244111563365343671351441\n")
    done = run("solve", "connect4", "--file", str(cases))
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0].split()[:2] == ["44455554221", "-15"]
    assert lines[1].split()[:2] == ["2252576253462244111563365343671351441", "-1"]
    assert lines[-1].startswith("2/2 solved")


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_a_solve_stopped_by_its_limit_prints_the_bounds_it_proved(backend: str) -> None:
    moves = "2531276566711153"  # Pons' Middle-Medium set: a win in 23 (Pons' 2)
    value = dict(line.split() for line in (DATA / "Test_L2_R2").read_text().splitlines())[moves]
    arguments = ("solve", "connect4", moves, "--no-book", "--backend", backend, "--nodes", "10000")
    done = run(*arguments)
    assert done.returncode == 0, done.stderr  # the limit asked for was reached: no failure
    score_line = done.stdout.splitlines()[0]
    assert re.fullmatch(r"score +not proven: at least [+-]?\d+, at most [+-]?\d+", score_line), score_line
    assert "win in" not in done.stdout and "bound)" not in done.stdout and "stopped" in done.stdout
    record = run_json(*arguments)
    assert record["completed"] is False and record["bound"] == "lower"
    assert record["score"] == record["lower"] and record["lower"] < int(value) < record["upper"]
    assert isinstance(record["score_text"], str) and record["score_text"].startswith("not proven: at least ")


def test_a_chess_solve_stopped_before_any_bound_says_so() -> None:
    done = run("solve", "chess", "--nodes", "3000")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "score      not proven: no bound yet"
    assert "win in" not in done.stdout
    record = run_json("solve", "chess", "--nodes", "3000")
    assert [record[key] for key in ("score", "engine_score", "lower", "upper", "completed")] == [None] * 4 + [False]


@pytest.mark.parametrize("limit", [["--depth", "5"], ["--time", "0.3"], ["--nodes", "3000"]])
def test_analyze_with_each_limit(limit: list[str]) -> None:
    record = run_json("analyze", "connect4", "4453", "--no-book", *limit)
    assert record["best_move"] in list("1234567")
    assert isinstance(record["nodes"], int) and record["nodes"] > 0
    if limit[0] == "--depth":
        assert record["depth"] == 5 and record["completed"] is True
    if limit[0] == "--nodes":
        assert record["nodes"] <= 3001


def test_analyze_text_output() -> None:
    done = run("analyze", "nim", "3,4,5", "--depth", "4", "--algorithm", "pvs")
    assert done.returncode == 0
    assert done.stdout.startswith("score") and "best move" in done.stdout and "pv" in done.stdout


def test_analyze_and_solve_with_monte_carlo_tree_search() -> None:
    hex_game = str(Path(__file__).resolve().parents[2] / "examples" / "hex.py") + ":Hex(3)"
    done = run("analyze", hex_game, "--nodes", "400", "--multipv", "2")  # no evaluation: MCTS
    assert done.returncode == 0, done.stderr
    assert "playouts   400" in done.stdout and "% won)" in done.stdout and "cutoffs" not in done.stdout
    record = run_json("analyze", "tictactoe", "--algorithm", "mcts", "--nodes", "300", "--multipv", "3")
    assert record["algorithm"] == "mcts" and record["nodes"] == 300
    assert [line["visits"] for line in record["lines"]] == sorted(
        (line["visits"] for line in record["lines"]), reverse=True
    )
    solved = run_json("solve", hex_game, "--algorithm", "mcts")
    assert solved["score_text"] == "win in 5" and solved["completed"] is True
    refused = run("analyze", hex_game, "--algorithm", "mcts", "--depth", "3")
    assert refused.returncode != 0 and "no depth" in refused.stderr
    refused = run("trace", hex_game, "--algorithm", "mcts")
    assert refused.returncode == 2 and "the web app's tree view" in refused.stderr


def test_the_solver_takes_its_table_size_from_hash() -> None:
    # the first position of Pons' Begin-Medium set, solved on a 1 MiB table (131,072 entries)
    result = run_json("solve", "connect4", "32751571231557", "--hash", "1", "--threads", "1")
    assert result["score"] == -3 and result["algorithm"] == "compiled"


def test_every_algorithm_agrees_on_the_command_line() -> None:
    scores = {
        run_json("solve", "tree", "[[3,12,8],[2,4,6],[14,5,2]]", "-a", name)["score"]
        for name in ("negamax", "alphabeta", "alphabeta-tt", "pvs", "mtdf", "auto")
    }
    assert scores == {3}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["solve", "chess9"], "unknown game"),
        (["solve", "connect4", "4458"], "not a column"),
        (["solve", "tictactoe", "00"], "played twice"),
        (["analyze", "connect4", "--dpth", "3"], "unrecognized arguments"),
        (["solve", "connect4", "-a", "minimax"], "unknown algorithm"),
        (["solve", "connect4", "--check"], "--file"),
        (["solve", "connect4", "--file", "/nonexistent/cases"], "cannot read"),
        (["analyze", "connect4", "--depth", "-3"], "depth must be a whole number"),
        (["analyze", "connect4", "--depth", "0"], "depth must be a whole number from 1"),
        (["analyze", "connect4", "--nodes", "1" + "0" * 23], "nodes must be a whole number"),
        (["analyze", "connect4", "--time", "nan"], "time must be a number"),
        (["analyze", "connect4", "--time", "1e400"], "time must be a number"),
        (["solve", "connect4", "--backend", "python", "--hash", "nan"], "hash must be a number"),
        (["analyze", "connect4", "--hash", "0"], "--hash"),
        (["analyze", "connect4", "--depth", "two"], "depth must be a whole number from 1 to 1000 (plies), not two"),
        (["frobnicate"], "invalid choice"),
        (["solve", "tictactoe", "¹"], "is not a cell 0-8"),  # a digit to isdigit(), not to int()
        (["solve", "connect4:²x4"], "WIDTHxHEIGHT"),
        (["solve", "tictactoe(4)"], "the built-in game tictactoe takes no arguments"),
        (["solve", "nofile.py:Game(3,"], "malformed arguments ('(' was never closed)"),
        (["solve", "nofile.py:Game(size=four)"], "size (four) must be a number, a string in quotes"),
        (["analyze", "tree", "[[1,2],[3,4]] moves ²", "--depth", "1"], "tree"),
        (["solve", "nim", "--backend", "compiled"], "no compiled backend to solve"),
        (["analyze", "nim", "--backend", "compiled"], "no compiled backend to search"),
        (["analyze", "chess", "--backend", "compiled", "-a", "mtdf"], "needs the python backend"),
        (["solve", "connect4", "--backend", "compiled", "-a", "pvs"], "needs the python backend"),
        (["solve", "connect4", "--backend", "gpu"], "invalid choice"),
        (["solve", "connect4", "--backend", "python", "--threads", "2"], "one worker"),
        (["solve", "connect4", "--threads", "0"], "threads must be a whole number from 1 to 64"),
        (["analyze", "chess", "--threads", "0"], "threads must be a whole number from 1 to 64"),
        (["solve", "chess", "--backend", "compiled", "--threads", "2", "--time", "1"], "take --threads in analyze"),
        (["solve", "chess"], "cannot be solved exactly here"),
        (["solve", "connect4", "4453", "--hash", "0.5"], "hash must be a number from 1 to"),
        (["solve", "connect4", "4453", "--hash", "100000"], "hash must be a number from 1 to"),
        ([], "required"),
    ],
)
def test_bad_input_gives_one_line_and_exit_2(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # in this process (the command's own process is checked below): one command per run
    monkeypatch.setattr(searching, "_SEARCHER", None)
    try:
        status = main(arguments)
    except SystemExit as exit:  # argparse's own refusals
        status = exit.code
    stderr = capsys.readouterr().err
    assert status == 2
    assert message in stderr
    assert len(stderr.strip().splitlines()) == 1, stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize("arguments", [["solve", "chess9"], ["frobnicate"], ["solve", "connect4", "4458"]])
def test_the_process_itself_exits_2_with_one_line(arguments: list[str]) -> None:
    done = run(*arguments)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr


def test_play_reprompts_on_illegal_input_and_finishes() -> None:
    done = run("play", "nim", "1,1", "--side", "first", stdin="3:1\nx\n1:2\n1:1\n")
    assert done.returncode == 0, done.stderr
    assert "illegal move: there is no heap 3" in done.stdout
    assert "illegal move: 'x' is not a move" in done.stdout
    assert "illegal move: heap 1 holds 1" in done.stdout
    assert "engine plays 2:1" in done.stdout
    assert done.stdout.strip().endswith("engine wins")


def test_play_quits_on_end_of_input() -> None:
    done = run("play", "connect4", "--side", "second", "--depth", "2", stdin="")
    assert done.returncode == 0
    assert "engine plays" in done.stdout


def test_play_goes_on_after_a_position_repeats_once() -> None:
    # the start position occurs twice: a draw for the search, not yet for the players
    done = run(
        "play", "chess", "startpos moves g1f3 g8f6 f3g1 f6g8", "--side", "second", "--depth", "1", stdin="quit\n"
    )
    assert done.returncode == 0, done.stderr
    assert "engine plays" in done.stdout and "draw" not in done.stdout
    done = run("play", "chess", "startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", "--side", "second")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("draw (threefold repetition)")


def test_self_play_replays_the_seed_notebook_game() -> None:
    done = run("play", "tictactoe", "--self", "--algorithm", "negamax", "--depth", "9")
    assert done.returncode == 0, done.stderr
    moves = [line.split()[3] for line in done.stdout.splitlines() if " plays " in line]
    assert moves == ["0", "4", "1", "2", "6", "3", "5", "7", "8"]
    assert all("score 0 " in line for line in done.stdout.splitlines() if " plays " in line)
    assert done.stdout.strip().endswith("draw")  # tic-tac-toe gives no reason


def test_bench_prints_a_deterministic_signature() -> None:
    first, second = run("bench"), run("bench")
    assert first.returncode == 0
    signature = [line for line in first.stdout.splitlines() if line.startswith("Bench: ")]
    assert signature
    again = [line for line in second.stdout.splitlines() if line.startswith("Bench: ")]
    assert signature[0].split(" nodes")[0] == again[0].split(" nodes")[0]


def test_importing_negamax_stays_light() -> None:
    code = (
        "import sys, negamax, negamax.cli.main; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'numba', 'numpy', 'rich', 'hypothesis', 'chess'}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]"


def test_trace_writes_each_format(tmp_path: Path) -> None:
    for form in ("svg", "html", "dot", "json"):
        target = tmp_path / f"trace.{form}"
        done = run("trace", "tictactoe", "0438", "--format", form, "-o", str(target))
        assert done.returncode == 0, done.stderr
        assert target.stat().st_size > 200
    shown = run("trace", "tree", "[[3,12,8],[2,4,6],[14,5,2]]")
    assert shown.stdout.splitlines()[1] == "root: 3  [-inf, +inf]"
    too_big = run("trace", "tictactoe", "--algorithm", "negamax", "--max-nodes", "50")
    assert too_big.returncode == 2 and "more than 50 nodes" in too_big.stderr


def test_compare_shows_the_same_value_and_falling_node_counts() -> None:
    done = run("compare", "tictactoe", "04")
    assert done.returncode == 0
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines()[1:-1]}
    nodes = [int(rows[name][2].replace(",", "")) for name in ("negamax", "alphabeta", "alphabeta-tt", "pvs")]
    assert nodes == sorted(nodes, reverse=True) and len(set(nodes)) == 4
    assert {rows[name][1] for name in rows} == {"0"}
    assert done.stdout.strip().endswith("every algorithm finds the same value (0)")


def test_analyze_chess_runs_the_compiled_engine_unless_told_otherwise() -> None:
    fen = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1"  # WAC.001: Qg6, mate in 2
    compiled = run_json("analyze", "chess", fen, "--time", "5", "--json")
    assert compiled["algorithm"] == "compiled" and compiled["best_move"] == "g3g6"
    assert compiled["score_text"] == "win in 3" and len(compiled["pv"]) == 3  # type: ignore[arg-type]
    python = run_json("analyze", "chess", fen, "--depth", "2", "--backend", "python", "--json")
    assert python["algorithm"] == "auto" and python["depth"] == 2
    threaded = run_json("analyze", "chess", fen, "--depth", "14", "--threads", "2", "--json")  # found at 11-12
    assert threaded["best_move"] == "g3g6" and threaded["score_text"] == "win in 3"


def test_analyze_draughts_and_checkers() -> None:
    pytest.importorskip("draughts")
    shot = run_json("analyze", "draughts", "W:W27,28,32,33,37,38:B8,12,13,17,18", "--depth", "8", "--json")
    assert shot["algorithm"] == "compiled" and shot["depth"] >= 6 and int(shot["score"]) > 100  # type: ignore[call-overload]
    checkers = run_json("analyze", "checkers", "--depth", "4", "--json")  # Black, on 1-12, moves first
    assert checkers["best_move"] in {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}
    forced = run_json("analyze", "checkers", "start moves 11-15 22-18", "--depth", "4", "--json")
    assert forced["best_move"] == "15x22"


def test_serve_refuses_what_it_cannot_serve_in_one_line(tmp_path: Path) -> None:
    for arguments, message in [
        (("serve", "--game", "nosuchgame"), "unknown game 'nosuchgame'"),
        (("serve", "--book", str(tmp_path / "missing.sqlite")), "no book at"),
        (("serve", "--host", "203.0.113.1", "--port", "0"), "cannot listen on 203.0.113.1:0"),
    ]:
        done = run(*arguments)
        assert done.returncode == 2 and message in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_serve_opened_to_other_machines_says_so() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "negamax", "serve", "--host", "0.0.0.0", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline().startswith("serving on http://0.0.0.0:")
        assert "other machines can reach this server" in process.stderr.readline()
    finally:
        process.terminate()
        process.wait(10)


def test_the_shipped_book_answers_the_first_plies_at_once() -> None:
    empty = run_json("solve", "connect4")
    assert empty["score"] == 1 and empty["nodes"] == 0 and empty["algorithm"].startswith("book")
    every = run_json("solve", "connect4", "--multipv", "7")
    assert {line["move"]: line["score"] for line in every["lines"]} == dict(
        zip("1234567", (-2, -1, 0, 1, 0, -1, -2), strict=True)
    )  # Pons' scores of the empty board
    assert every["best_move"] == "4" and every["nodes"] == 0
    analysed = run_json("analyze", "connect4", "4453", "--depth", "3")
    assert (
        analysed["algorithm"].startswith("book")
        and analysed["score"] == run_json("solve", "connect4", "4453", "--no-book")["score"]
    )
    searched = run_json("analyze", "connect4", "4453", "--depth", "3", "--no-book")
    assert searched["nodes"] > 0 and searched["depth"] == 3
    assert run_json("solve", "connect4:6x5", "44")["algorithm"] != "book"  # Connect 4 on 7x6 only
