"""A game's variations through the server: a start typed as a line of moves split into its
moves, every line of a game named as a player reads it, and PGN written and read with its
variations in parentheses."""

from __future__ import annotations

import io

import chess.pgn

from tests.viz.web.conftest import Web

NESTED = "1. d4 d5 (1... Nf6 2. c4 (2. Nf3 g6) e6) 2. c4 *"


def test_a_start_typed_as_a_line_is_split_into_its_moves(plain_web: Web) -> None:
    cases = {
        ("connect4", "4455"): ("", ["4", "4", "5", "5"]),
        ("tictactoe", "048"): ("", ["0", "4", "8"]),
        ("chess", "startpos moves e2e4 e7e5"): ("", ["e2e4", "e7e5"]),
        ("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 moves a1a7"): ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", ["a1a7"]),
        ("tictactoe", "x...o...."): ("x...o....", []),  # a board, not a line
        ("nim", "3,4,5"): ("3,4,5", []),
        ("connect4", ""): ("", []),
    }
    for (game, start), (base, moves) in cases.items():
        status, answer = plain_web.post("/api/start", {"game": game, "start": start})
        assert status == 200 and answer == {"start": base, "moves": moves}, (game, start, answer)
        # the line replays to the position the start typed names
        _, whole = plain_web.post("/api/state", {"game": game, "start": start})
        _, split = plain_web.post("/api/state", {"game": game, "start": base, "moves": moves})
        assert whole["position"] == split["position"], (game, start)
    status, answer = plain_web.post("/api/start", {"game": "connect4", "start": "4x"})
    assert status == 400 and "is not a column" in answer["error"]


def test_every_line_of_a_game_named_as_a_player_reads_it(plain_web: Web) -> None:
    lines = [["e2e4", "e7e5", "g1f3"], ["e2e4", "c7c5"]]
    status, answer = plain_web.post("/api/lines", {"game": "chess", "start": "", "lines": lines})
    assert status == 200
    assert answer["lines"] == [
        {"played": ["e4", "e5", "Nf3"], "movers": [0, 1, 0]},
        {"played": ["e4", "c5"], "movers": [0, 1]},
    ]
    status, answer = plain_web.post("/api/lines", {"game": "chess", "lines": [["e2e4", "e2e4"]]})
    assert status == 400 and "move 2 (e2e4)" in answer["error"]


def test_pgn_keeps_the_variations_out_and_in(plain_web: Web) -> None:
    status, read = plain_web.post("/api/pgn/read", {"pgn": NESTED})
    assert status == 200 and read["moves"] == ["d2d4", "d7d5", "c2c4"]
    assert read["lines"] == [
        ["d2d4", "d7d5", "c2c4"],
        ["d2d4", "g8f6", "c2c4", "e7e6"],
        ["d2d4", "g8f6", "g1f3", "g7g6"],
    ]
    # written from the position shown (inside a variation), the main line stays first
    shown = {"game": "chess", "moves": ["d2d4", "g8f6", "g1f3"], "lines": read["lines"]}
    status, written = plain_web.post("/api/pgn", shown)
    assert status == 200 and "1. d4 d5 ( 1... Nf6 2. c4 ( 2. Nf3 g6 ) 2... e6 ) 2. c4 *" in written["pgn"]
    game = chess.pgn.read_game(io.StringIO(written["pgn"]))
    assert game is not None and len(game.variations[0].variations) == 2  # python-chess reads it back
    _, again = plain_web.post("/api/pgn/read", {"pgn": written["pgn"]})
    assert again["lines"] == read["lines"]
    # a start with moves in it: the lines go on from its end
    started = {"game": "chess", "start": "startpos moves e2e4", "moves": ["e7e5"], "lines": [["e7e5"], ["c7c5"]]}
    status, written = plain_web.post("/api/pgn", started)
    assert status == 200 and "1. e4 e5 ( 1... c5 ) *" in written["pgn"]
    bad = {"game": "chess", "moves": [], "lines": [["e2e4", "e2e4"]]}
    status, answer = plain_web.post("/api/pgn", bad)
    assert status == 400 and "move 2 of a line" in answer["error"]
