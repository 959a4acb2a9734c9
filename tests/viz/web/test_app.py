"""The web app's API over HTTP: boards of every game, refusals, the engine's stream,
Connect 4's solution against known values, and the search tree."""

from __future__ import annotations

import io
import itertools
import re
import socket
import time
from pathlib import Path
from urllib.parse import quote

import chess
import chess.pgn
import pytest

from negamax.core.types import SearchLimits
from negamax.games import get_game
from negamax.games.chess.levels import LEVEL_ELO
from negamax.parallel.book import Book, BookRow
from negamax.search import search, solve
from negamax.search.trace import SearchTrace, TraceLimitExceeded
from negamax.viz.web.app import create_app
from negamax.viz.web.searches import MAX_TRACE_DEPTH, Searches
from negamax.viz.web.server import BackgroundServer
from tests.viz.web.conftest import Compiling, Web, column_scores, end_game_cases

CONNECT4 = get_game("connect4")
PROMOTING = "k7/4P3/8/8/8/8/8/7K w - - 0 1"
"""White's pawn on e7 promotes on e8."""


@pytest.mark.numba  # the server loads every game's kernels
def test_every_game_has_its_board(web: Web) -> None:
    status, state = web.post("/api/state", {"game": "tictactoe", "moves": ["0", "4", "1"]})
    assert status == 200 and state["view"]["cells"][:5] == ["X", "X", "", "", "O"] and state["turn"] == 1
    assert state["players"] == ["X", "O"] and state["played"] == ["0", "4", "1"] and "2" in state["moves"]

    status, state = web.post("/api/state", {"game": "nim", "start": "3,4,5", "moves": ["2:3"]})
    assert state["view"]["heaps"] == [3, 1, 5] and "3:5" in state["moves"]

    status, state = web.post("/api/state", {"game": "connect4", "moves": ["4", "4", "3"]})
    rows = state["view"]["rows"]
    assert rows[-1][2:4] == ["X", "X"] and rows[-2][3] == "O" and state["players"] == ["red", "yellow"]

    status, state = web.post("/api/state", {"game": "chess", "moves": ["e2e4", "f7f6", "d1h5"]})
    view = state["view"]
    assert view["check"] == "e8" and view["last_move"] == "d1h5" and 'class="square' in view["svg"]
    assert state["played"] == ["e4", "f6", "Qh5+"] and state["moves"] == ["g7g6"]

    status, state = web.post("/api/state", {"game": "draughts", "moves": ["32-28"]})
    assert state["view"]["size"] == 10 and len(state["view"]["pieces"]) == 40 and "28" in state["view"]["pieces"]
    status, state = web.post("/api/state", {"game": "checkers"})
    assert state["view"]["size"] == 8 and len(state["view"]["pieces"]) == 24

    status, state = web.post("/api/state", {"game": "tictactoe", "moves": ["0", "3", "1", "4", "2"]})
    assert state["result"] == "X wins" and state["moves"] == []


def test_chess_and_draughts_play_on_through_a_repetition_and_end_at_its_third_occurrence(web: Web) -> None:
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    status, state = web.post("/api/state", {"game": "chess", "moves": shuffle})
    assert status == 200 and state["result"] is None and "g1f3" in state["moves"], state
    events = web.events({"game": "chess", "moves": shuffle, "seconds": 0.3})
    assert events[-1][0] == "done" and events[-1][1]["best"] is not None, events[-1]
    status, state = web.post("/api/state", {"game": "chess", "moves": shuffle * 2})
    assert state["result"] == "draw" and state["ending"] == "threefold repetition" and state["moves"] == []
    status, answer = web.post("/api/state", {"game": "chess", "moves": [*shuffle, *shuffle, "e2e4"]})
    assert status == 400 and "move 9 (e2e4) comes after the end of the game" in answer["error"]
    status, state = web.post("/api/state", {"game": "chess", "moves": ["f2f3", "e7e5", "g2g4", "d8h4"]})
    assert state["result"] == "black wins" and state["ending"] == "checkmate"
    kings = {"game": "draughts", "start": "W:WK31:BK20", "moves": ["31-26", "20-25", "26-31", "25-20"]}
    status, state = web.post("/api/state", kings)
    assert status == 200 and state["result"] is None and state["moves"], state
    status, state = web.post("/api/state", {**kings, "moves": kings["moves"] * 2})
    assert state["result"] == "draw" and state["ending"] == "threefold repetition"
    status, state = web.post("/api/state", {"game": "tictactoe", "moves": ["0", "3", "1", "4", "2"]})
    assert state["result"] == "X wins" and state["ending"] is None  # a game that does not say why


def test_the_engine_scores_several_lines_best_first(web: Web) -> None:
    moves = ["0", "4"]
    events = web.events({"game": "tictactoe", "moves": moves, "seconds": 2, "lines": 9 - len(moves)})
    name, done = events[-1]
    assert name == "done" and done["solved"], events[-1]
    game = get_game("tictactoe")
    position = game.new_position()
    for move in moves:
        position.play(int(move))
    expected = {}
    for move in position.legal_moves():
        child = position.copy()
        child.play(move)
        expected[game.move_text(position, move)] = -solve(child, algorithm="negamax").score
    assert {line["move"]: line["score"] for line in done["lines"]} == expected
    scores = [line["score"] for line in done["lines"]]
    assert scores == sorted(scores, reverse=True) and done["lines"][0]["move"] == done["best"]

    events = web.events({"game": "chess", "seconds": 0.5, "lines": 3})
    name, done = events[-1]
    assert name == "done" and len({line["move"] for line in done["lines"]}) == 3, done
    assert done["lines"][0]["move"] == done["best"] and all(line["line"] for line in done["lines"])


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        ("/api/state", {"game": "go"}, "does not serve 'go'"),
        ("/api/state", {"game": "chess", "start": "not a fen"}, "chess position"),
        ("/api/state", {"game": "tictactoe", "moves": ["0", "0"]}, "move 2 (0)"),
        # a promotion chosen for White, sent after White's other move: Black's turn then
        ("/api/state", {"game": "chess", "start": PROMOTING, "moves": ["h1g1", "e7e8q"]}, "move 2 (e7e8q)"),
        ("/api/state", {"game": "tictactoe", "moves": "0"}, "moves"),
        ("/api/state", {"game": "tictactoe", "moves": ["1"] * 1001}, "moves"),
        ("/api/state", {"game": "tictactoe", "moves": ["1" * 65]}, "moves"),
        ("/api/state", {"game": "nim", "start": ",".join(["1"] * 21)}, "at most 20 heaps"),
        ("/api/state", {"game": "nim", "start": "101"}, "at most 100 objects"),
        ("/api/state", {"game": "tictactoe", "extra": 1}, "extra"),
        ("/api/state", [1, 2], "valid dictionary"),
        ("/api/think", {"game": "tictactoe", "seconds": 60}, "seconds"),
        # refused as core.ranges refuses them everywhere: text, true, NaN, under a microsecond
        ("/api/think", {"game": "tictactoe", "seconds": "0.5"}, "seconds must be a number from 1e-06 to 5"),
        ("/api/think", {"game": "tictactoe", "seconds": True}, "seconds must be"),
        ("/api/think", {"game": "tictactoe", "seconds": float("nan")}, "not nan"),
        ("/api/think", {"game": "tictactoe", "seconds": 1e-9}, "seconds must be"),
        ("/api/trace", {"game": "nim", "depth": "3"}, "depth must be a whole number from 1 to 12"),
        ("/api/trace", {"game": "nim", "depth": 0}, "depth must be"),
        ("/api/think", {"game": "tictactoe", "moves": ["0", "3", "1", "4", "2"]}, "the game is over"),
        ("/api/think", {"game": "tictactoe", "lines": 0}, "lines must be"),
        ("/api/think", {"game": "tictactoe", "lines": 9}, "lines must be"),
        ("/api/think", {"game": "chess", "level": 0}, "level must be a whole number from 1 to 8"),
        ("/api/think", {"game": "chess", "level": 2.5}, "level must be"),
        ("/api/trace", {"game": "nim", "max_nodes": 10**6}, "max_nodes"),
        ("/api/trace", {"game": "nim", "algorithm": "mtdf"}, "algorithm"),
        ("/api/solution", {"game": "chess"}, "cannot be solved exactly"),
    ],
)
def test_bad_requests_get_a_400_and_one_line(web: Web, path: str, body: object, message: str) -> None:
    status, answer = web.post(path, body)
    assert status == 400, answer
    assert message in answer["error"] and "\n" not in answer["error"]


def test_the_engine_streams_its_iterations_then_its_move(web: Web) -> None:
    events = web.events({"game": "tictactoe", "moves": ["0"], "seconds": 0.5})
    assert [name for name, _ in events[:-1]] == ["iteration"] * (len(events) - 1) and events[-1][0] == "done"
    done = events[-1][1]
    assert done["best"] == "4" and done["score"] == 0  # the only move that holds the draw

    events = web.events({"game": "chess", "moves": ["e2e4", "e7e5"], "seconds": 0.5})
    done = events[-1][1]
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert chess.Move.from_uci(done["best"]) in board.legal_moves
    assert done["line"][0] == board.san(chess.Move.from_uci(done["best"])) and done["nps"] > 0
    assert done["algorithm"] == "compiled" and len(events) >= 3  # several depths, streamed

    # Connect 4 runs on the compiled kernels: past the shipped book (ply 11), the hardest
    # nine-ply position of Pons' Begin-Hard set after two best moves (0 for the side to move)
    # takes the solver longer than a 0.5 s think gives it on most machines: then a search to
    # a horizon answers, streamed and said to be a guess; where the solve finishes, its exact
    # value...
    events = web.events({"game": "connect4", "moves": list("41744674475"), "seconds": 0.5})
    done = events[-1][1]
    assert done["algorithm"] == "compiled"
    if done["solved"]:
        assert done["score"] == 0
    else:
        assert "a guess" in done["score_text"] and events[0][0] == "iteration"
    # ...and the exact answer where it can
    moves, score = end_game_cases(1)[0]
    done = web.events({"game": "connect4", "start": moves, "seconds": 1})[-1][1]
    assert done["solved"] and done["score"] == score


def test_connect4_solution_gives_every_column_its_exact_score(web: Web) -> None:
    for moves, score in end_game_cases(3):
        status, answer = web.post("/api/solution", {"game": "connect4", "start": moves})
        assert status == 200
        found = {item["move"]: item["score"] for item in answer["moves"]}
        assert found == column_scores(moves)
        assert max(found.values()) == score  # Pons' value of the position itself
        assert all(item["source"] in ("solver", "end") for item in answer["moves"])


def test_connect4_solution_reads_the_book_first(tmp_path: Path) -> None:
    moves, _ = end_game_cases(1)[0]
    position = CONNECT4.new_position(moves)
    expected = column_scores(moves)
    child = position.copy()
    first = next(iter(position.legal_moves()))
    child.play(first)
    value = solve(child, SearchLimits(), backend="python").score
    path = str(tmp_path / "book.sqlite")
    with Book(path, CONNECT4) as book:
        book.store([BookRow.of(CONNECT4, child, value, None, "solve")])
    app = create_app(backend="python", book=lambda game: Book(path, game, create=False), prepare=False)
    with BackgroundServer(app) as server:
        status, answer = Web(server.url, app.app.state.searches).post(
            "/api/solution", {"game": "connect4", "start": moves}
        )
    assert status == 200
    sources = {item["move"]: item["source"] for item in answer["moves"]}
    assert sources[CONNECT4.move_text(position, first)] == "book"
    assert {item["move"]: item["score"] for item in answer["moves"]} == expected


def test_the_tree_is_traced_shallower_when_the_whole_search_is_too_big(web: Web) -> None:
    status, tree = web.post("/api/trace", {"game": "tictactoe", "max_nodes": 200})
    assert status == 200 and "more than 200 nodes" in tree["note"] and "to depth" in tree["note"]
    assert 0 < len(tree["nodes"]) <= 200 and tree["pv"][0] == 0
    root = tree["nodes"][0]
    assert root["parent"] is None and root["window"] == "[-inf, +inf]" and len(root["children"]) == 9
    cut = [node for node in tree["nodes"] if node["bound"] == "lower"]
    assert cut and any(node["pruned"] for node in cut)  # cut-offs leave moves unsearched

    # late in the game the whole search fits, and its value is exact
    status, tree = web.post("/api/trace", {"game": "tictactoe", "moves": ["0", "4", "8", "2"]})
    assert status == 200 and tree["note"] == "" and tree["value"] == "win in 3"

    # two plies from the start visit at most 1 + 20 + 20 * 20 nodes, whatever the evaluation
    status, tree = web.post("/api/trace", {"game": "chess", "max_nodes": 500})
    assert status == 200 and tree["note"].startswith("the search to depth 3 visits more than 500 nodes")
    assert "to depth 2" in tree["note"] and 21 < len(tree["nodes"]) <= 500


def test_the_deepest_trace_that_fits_is_found_past_a_forced_end(web: Web) -> None:
    # Yellow to move after 3 3 4 4 5 loses in 2 (Red's three in a row is open at both
    # ends): depth 2 proves it, and the deeper searches of that loss still fit
    moves = list("33445")
    body = {"game": "connect4", "moves": moves, "max_nodes": 1000, "algorithm": "alphabeta-tt"}
    status, tree = web.post("/api/trace", body)
    position = CONNECT4.new_position("".join(moves))

    def fits(depth: int) -> bool:
        try:
            search(position, SearchLimits(depth=depth), algorithm="alphabeta-tt", trace=SearchTrace(max_nodes=1000))
        except TraceLimitExceeded:
            return False
        return True

    deepest = max(depth for depth in range(1, MAX_TRACE_DEPTH + 1) if fits(depth))
    assert status == 200 and deepest >= 4 and tree["value"] == "loss in 2"
    traced = f"this is alphabeta-tt to depth {deepest} ({len(tree['nodes']):,} nodes)"
    assert tree["note"].endswith(traced), tree["note"]
    assert f"the search to depth {deepest + 1} visits more than 1,000 nodes" in tree["note"]


def test_a_trace_of_a_huge_game_falls_back_to_what_fits(web: Web) -> None:
    status, tree = web.post("/api/trace", {"game": "nim", "start": ",".join(["100"] * 20), "max_nodes": 5000})
    assert status == 200 and "depth 1" in tree["note"] and len(tree["nodes"]) <= 5000


@pytest.mark.timing
def test_a_trace_of_a_huge_game_stays_within_its_time(web: Web) -> None:
    started = time.monotonic()
    status, _ = web.post("/api/trace", {"game": "nim", "start": ",".join(["100"] * 20), "max_nodes": 5000})
    assert status == 200 and time.monotonic() - started < 5


def test_a_search_stops_when_its_page_goes_away(web: Web) -> None:
    host, port = web.url.split("//")[1].rstrip("/").split(":")
    body = b'{"game": "chess", "seconds": 5}'
    request = (
        f"POST /api/think HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(request)
        received = b""
        while b"event: iteration" not in received:
            received += connection.recv(65536)
        assert web.searches.scheduler.pending() == 1
    deadline = time.monotonic() + 2
    while web.searches.scheduler.pending() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert web.searches.scheduler.pending() == 0  # long before its 5 s were up


def test_the_games_asked_for_load_first_and_a_built_in_only_once_the_page_opens_it() -> None:
    app = create_app("python", extra_games=("connect4:5x4",))  # python: nothing compiles here
    with BackgroundServer(app) as server:
        searches: Searches = app.app.state.searches
        web = Web(server.url, searches)
        assert searches.games_opened() == ["connect4:5x4"]
        status, _ = web.post("/api/state", {"game": "chess", "moves": ["e2e4"]})
        assert status == 200 and searches.games_opened() == ["connect4:5x4", "chess"]


@pytest.mark.compiles
def test_a_game_from_a_file_is_compiled_by_its_reference_and_solved_on_its_kernel(tmp_path: Path) -> None:
    # a cache of its own: the kernel is compiled from nothing by the process serve starts
    import os

    os.environ["NEGAMAX_CACHE_DIR"] = str(tmp_path)
    try:
        reference = f"{Path(__file__).resolve().parents[3] / 'examples' / 'othello.py'}:Othello6"
        app = create_app(extra_games=(reference,))
        with BackgroundServer(app) as server:
            searches: Searches = app.app.state.searches
            web = Web(server.url, searches)
            # a user's game is served by worker processes of its own, which prepare its kernel
            # (each of its workers answers in turn: every one has the kernel once several say so)
            deadline = time.monotonic() + 600
            compiled_in_a_row = 0
            while compiled_in_a_row < 6 and time.monotonic() < deadline:
                engine = web.get(f"/api/engine?game={quote(reference)}")[1]
                compiled_in_a_row = compiled_in_a_row + 1 if engine.get("status") == "compiled" else 0
                time.sleep(0.5)
            assert compiled_in_a_row == 6, engine
            assert searches.games_opened() == []  # not searched in the server's own process
            moves = [
                "b3",
                "b4",
                "e5",
                "b2",
                "a4",
                "d5",
                "b5",
                "f5",
                "f6",
                "e3",
                "a1",
                "c5",
                "c2",
                "a3",
                "e6",
                "b1",
                "f4",
                "a5",
                "a2",
                "d6",
            ]  # 12 cells left
            status, answer = web.post("/api/solution", {"game": reference, "moves": moves}, timeout=120)
        assert status == 200, answer
        assert {item["source"] for item in answer["moves"]} == {"solver"}, answer
    finally:
        del os.environ["NEGAMAX_CACHE_DIR"]


@pytest.mark.kernels("tictactoe", "chess")
def test_a_compiling_engine_is_announced_with_the_seconds_left_until_it_is_ready(compiling: Compiling) -> None:
    web = compiling.web
    status, state = web.post("/api/state", {"game": "tictactoe"})  # the page opens the game
    assert status == 200
    deadline = time.monotonic() + 30
    engine = state["engine"]
    while engine["status"] != "compiling" and time.monotonic() < deadline:
        time.sleep(0.05)
        engine = web.get("/api/engine?game=tictactoe")[1]
    assert engine["status"] == "compiling" and 0 <= engine["seconds_left"] <= engine["estimate"], engine
    assert engine["elapsed"] >= 0
    # meanwhile the engine answers in pure Python
    assert web.events({"game": "tictactoe", "seconds": 0.2})[-1][1]["algorithm"] != "compiled"
    assert web.get("/api/engine?game=nim")[1] == {"status": "python"}  # no compiled form at all
    assert web.post("/api/state", {"game": "chess"})[0] == 200  # a second game waits its turn
    engine_of_chess = web.get("/api/engine?game=chess")[1]
    assert engine_of_chess["status"] == "queued" and engine_of_chess["estimate"] > 0, engine_of_chess
    assert web.get("/api/engine?game=go")[0] == 400
    compiling.release.set()
    deadline = time.monotonic() + 60
    while engine["status"] != "compiled" and time.monotonic() < deadline:
        time.sleep(0.1)
        engine = web.get("/api/engine?game=tictactoe")[1]
    assert engine == {"status": "compiled"}


def test_a_draughts_state_names_the_pieces_its_last_move_captured(web: Web) -> None:
    status, state = web.post("/api/state", {"game": "draughts", "start": "W:W38:B33,22,23", "moves": ["38x29x18x27"]})
    assert status == 200 and state["view"]["captured"] == {"33": "b", "23": "b", "22": "b"}
    status, state = web.post("/api/state", {"game": "draughts", "moves": ["32-28"]})
    assert status == 200 and state["view"]["captured"] == {}  # a plain move takes nothing


def test_a_draughts_score_is_in_men(web: Web) -> None:
    done = web.events({"game": "draughts", "moves": ["32-28"], "seconds": 0.3})[-1][1]
    assert re.fullmatch(r"[+-]\d+\.\d\d men", done["score_text"]), done["score_text"]


def test_a_chess_game_goes_out_as_pgn_and_comes_back(web: Web) -> None:
    status, answer = web.post("/api/pgn", {"game": "chess", "moves": ["e2e4", "e7e5", "g1f3"]})
    assert status == 200
    game = chess.pgn.read_game(io.StringIO(answer["pgn"]))  # python-chess reads what we wrote
    assert game is not None and [move.uci() for move in game.mainline_moves()] == ["e2e4", "e7e5", "g1f3"]
    status, read = web.post("/api/pgn/read", {"pgn": answer["pgn"]})
    line = ["e2e4", "e7e5", "g1f3"]
    assert status == 200 and read == {"start": "", "moves": line, "lines": [line]}
    fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"
    status, read = web.post("/api/pgn/read", {"pgn": f'[SetUp "1"]\n[FEN "{fen}"]\n\n1. O-O-O Kf7 *'})
    assert status == 200 and read == {"start": fen, "moves": ["e1c1", "e8f7"], "lines": [["e1c1", "e8f7"]]}


def test_a_finished_chess_game_goes_out_as_pgn(web: Web) -> None:
    mate = ["f2f3", "e7e5", "g2g4", "d8h4"]  # the fool's mate
    status, answer = web.post("/api/pgn", {"game": "chess", "moves": mate})
    assert status == 200 and answer["pgn"].rstrip().endswith("2. g4 Qh4# 0-1"), answer


def test_pgn_refuses_what_it_cannot_read(web: Web) -> None:
    status, answer = web.post("/api/pgn/read", {"pgn": '[Variant "Crazyhouse"]\n\n1. e4 d5 *'})
    assert status == 400 and answer["error"] == "only standard chess is played here, not Crazyhouse"
    for body in ({"pgn": "hello"}, {"pgn": "1. e4 e5 2. Ke3"}, {"pgn": ""}, {"pgn": "1. e4 " * 10_001}):
        status, answer = web.post("/api/pgn/read", body)
        assert status == 400 and "\n" not in answer["error"], (body["pgn"][:20], answer)
    status, answer = web.post("/api/pgn", {"game": "connect4", "moves": ["4"]})
    assert status == 400 and answer["error"] == "PGN is for chess; connect4 has no PGN"


def test_a_level_plays_a_weaker_players_move_and_analysis_keeps_full_strength(web: Web) -> None:
    # tic-tac-toe after X in a corner: O must take the centre; level 8 always does, level 1
    # looks two plies ahead at most and by chance plays elsewhere
    body = {"game": "tictactoe", "moves": ["0"], "seconds": 0.5}
    full = {web.events(body)[-1][1]["best"] for _ in range(4)}
    weak = [web.events({**body, "level": 1})[-1][1] for _ in range(20)]
    assert full == {"4"}
    assert {done["best"] for done in weak} - {"4"} and all(done["depth"] <= 2 for done in weak)
    names = {game["name"]: game for game in web.get("/api/games")[1]}
    assert names["chess"]["level_elo"] == list(LEVEL_ELO) and names["connect4"]["level_elo"] is None


def test_the_solution_streams_each_score_as_it_is_solved(web: Web) -> None:
    start, _ = end_game_cases(3)[2]
    events = web.events({"game": "connect4", "start": start}, path="api/solution/stream")
    names = [name for name, _ in events]
    assert names[-1] == "done" and set(names[:-1]) == {"scores"} and len(names) >= 3
    first = events[0][1]["moves"]
    assert all(item["source"] in ("solving", "end") for item in first)  # at once: nothing solved yet
    known = [sum(item["score"] is not None for item in data["moves"]) for _, data in events[:-1]]
    assert all(later > earlier for earlier, later in itertools.pairwise(known))  # one more each time
    done = {item["move"]: item["score"] for item in events[-1][1]["moves"]}
    assert done == column_scores(start)


def test_the_first_plies_come_from_the_shipped_book_at_once(web: Web) -> None:
    for moves in ([], ["4"], ["4", "4"], ["4", "3", "5", "5"]):
        events = web.events({"game": "connect4", "moves": moves}, path="api/solution/stream")
        first = events[0][1]["moves"]
        assert {item["source"] for item in first} == {"book"}, moves
    empty = {
        item["move"]: item["score"]
        for item in web.events({"game": "connect4"}, path="api/solution/stream")[0][1]["moves"]
    }
    assert empty == dict(zip("1234567", (-2, -1, 0, 1, 0, -1, -2), strict=True))  # Pons' scores of the empty board


def test_a_chess_trace_writes_moves_in_san_and_values_in_pawns(web: Web) -> None:
    body = {"game": "chess", "moves": ["e2e4", "e7e5"], "depth": 2, "max_nodes": 5000, "algorithm": "alphabeta"}
    status, tree = web.post("/api/trace", body)
    assert status == 200, tree
    children = [tree["nodes"][index] for index in tree["nodes"][0]["children"]]
    assert {"Nf3", "Qh5", "Bc4"} <= {node["label"] for node in children}  # SAN, as players write
    assert {"g1f3", "d1h5", "f1c4"} <= {node["move"] for node in children}  # as the page replays them
    assert all(re.fullmatch(r"-?\d+\.\d\d", node["value"]) for node in tree["nodes"]), tree["nodes"][:3]
    assert any(" is worth " in step["text"] and "." in step["text"] for step in tree["steps"])
