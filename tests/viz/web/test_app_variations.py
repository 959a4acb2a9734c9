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


def test_pgn_says_a_draw_the_page_ends_the_game_with(plain_web: Web) -> None:
    """The page ends a game at a draw the players may claim at once (threefold repetition,
    the fifty-move rule, as lichess does); its PGN says 1/2-1/2 there, not '*'."""
    repeated = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2
    fifty = "8/8/8/4k3/8/8/8/R3K3 w - - 99 80"
    for start, moves in (("", repeated), (fifty, ["a1a2"])):
        board = chess.Board(start or chess.STARTING_FEN)
        for move in moves:
            board.push_uci(move)
        # python-chess's own rules: a draw claimable now, that its plain result leaves open
        assert board.result() == "*" and (board.is_repetition(3) or board.is_fifty_moves())
        status, state = plain_web.post("/api/state", {"game": "chess", "start": start, "moves": moves})
        assert status == 200 and state["result"] and "draw" in state["result"], state
        for lines in ([], [moves]):  # without variations (from the board) and with them
            body = {"game": "chess", "start": start, "moves": moves, "lines": lines}
            status, written = plain_web.post("/api/pgn", body)
            assert status == 200 and '[Result "1/2-1/2"]' in written["pgn"], (start, lines, written)
            assert written["pgn"].rstrip().endswith("1/2-1/2")


def test_a_null_move_is_no_move_in_chess(plain_web: Web) -> None:
    """python-chess reads '0000' (UCI) and '--' (SAN) as a null move, a pass that no rule of
    chess allows: refused, in a line of moves, a PGN line and a pasted PGN alike."""
    assert chess.Board().parse_uci("0000") == chess.Move.null()
    for moves in (["0000"], ["e2e4", "--"]):
        status, answer = plain_web.post("/api/state", {"game": "chess", "moves": moves})
        assert status == 400 and "not a legal move" in answer["error"], answer
        status, answer = plain_web.post("/api/pgn", {"game": "chess", "moves": [], "lines": [moves]})
        assert status == 400 and "not a legal move" in answer["error"], answer
    status, answer = plain_web.post("/api/pgn/read", {"pgn": "1. e4 -- 2. d4 *"})
    assert status == 400 and "null move" in answer["error"] and "\n" not in answer["error"], answer


def test_a_pgn_read_is_refused_where_its_lines_could_not_be_sent_back(plain_web: Web) -> None:
    """The page sends each line of a PGN back whole, from the start (``/api/lines``,
    ``/api/pgn``): a PGN with more lines, a longer line, or more moves in all its lines than
    a request takes is refused at once, in one line, not answered with megabytes."""
    branches = "1. e4 " + " ".join(["(1. d4)"] * 250) + " *"  # 251 lines of one move
    status, answer = plain_web.post("/api/pgn/read", {"pgn": branches})
    assert status == 400 and "251 lines" in answer["error"] and "\n" not in answer["error"], answer
    shuffle = " ".join(["Nf3 Nf6 Ng1 Ng8"] * 260)  # one line of 1,040 moves
    status, answer = plain_web.post("/api/pgn/read", {"pgn": shuffle + " *"})
    assert status == 400 and "over 1,000 moves" in answer["error"] and "\n" not in answer["error"], answer
    # 100 lines of 100 to 200 moves: each within bounds, 15,000 moves in all
    game = chess.pgn.Game()
    node: chess.pgn.GameNode = game
    for ply, san in enumerate(["Nf3", "Nf6", "Ng1", "Ng8"] * 50):
        if ply >= 100:
            node.add_variation(chess.Move.from_uci("a2a3" if ply % 2 == 0 else "a7a6"))
        node = node.add_main_variation(node.board().parse_san(san))
    status, answer = plain_web.post("/api/pgn/read", {"pgn": str(game)})
    assert status == 400 and "moves in all" in answer["error"] and "\n" not in answer["error"], answer
    status, read = plain_web.post("/api/pgn/read", {"pgn": " ".join(["Nf3 Nf6 Ng1 Ng8"] * 250) + " *"})
    assert status == 200 and len(read["lines"]) == 1 and len(read["moves"]) == 1_000  # the most a line holds
