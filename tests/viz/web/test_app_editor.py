"""``POST /api/edit`` over HTTP: a position set up in the board editor, answered with its text
(which ``/api/state`` then plays from) or refused with a 400 and one line saying why; and
random boards of Connect 4 and draughts judged as an independent reading of the rules judges
them."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from negamax.viz.web.app import create_app
from negamax.viz.web.server import BackgroundServer
from tests.viz.web.conftest import Web

EMPTY_ROW = "......."


@pytest.fixture(scope="module")
def edit_web() -> Iterator[Web]:
    """The app without its compiled kernels (the editor runs none)."""
    app = create_app(prepare=False)
    with BackgroundServer(app) as server:
        yield Web(server.url, app.app.state.searches)


def connect4_board(*bottom_rows: str) -> str:
    """A 7x6 board from its lowest rows, the bottom one last."""
    return "/".join([EMPTY_ROW] * (6 - len(bottom_rows)) + list(bottom_rows))


ACCEPTED = [
    ("chess", "4k3/8/4K3/8/8/8/8/R7 w - - 0 1", 0, "4k3/8/4K3/8/8/8/8/R7 w - - 0 1", 0),
    ("chess", "r3k3/8/8/8/8/8/8/4K2R b Kq - 0 1", 1, "r3k3/8/8/8/8/8/8/4K2R b Kq - 0 1", 1),
    ("connect4", connect4_board("...O...", "..XX..."), 1, connect4_board("...O...", "..XX..."), 1),
    ("draughts", "W:WK3,33:BK5,28", 0, "W:WK3,33:BK5,28", 0),
    ("checkers", "B:W30:B10", 0, "B:W30:B10", 0),
]


@pytest.mark.parametrize(("game", "position", "turn", "start", "mover"), ACCEPTED)
def test_a_position_set_up_is_answered_with_the_start_the_page_plays_from(
    edit_web: Web, game: str, position: str, turn: int, start: str, mover: int
) -> None:
    status, answer = edit_web.post("/api/edit", {"game": game, "position": position, "turn": turn})
    assert status == 200, answer
    status, state = edit_web.post("/api/state", {"game": game, "start": answer["start"]})
    assert status == 200 and state["turn"] == mover and state["moves"] and state["result"] is None
    if game == "connect4":  # the board's text as the game writes it, the column numbers under it
        assert answer["start"].replace(" ", "").split("/")[:6] == start.split("/")
    else:
        assert answer["start"] == start


REFUSED = [
    ("chess", "4k3/8/8/8/4K3/8/8/4K3 w - - 0 1", 0, "white has 2 kings: each side needs exactly one"),
    ("chess", "8/8/8/8/8/8/8/4K3 w - - 0 1", 0, "black has no king: each side needs exactly one"),
    ("chess", "4k3/8/8/8/4R3/8/8/4K3 w - - 0 1", 0, "black is in check with white to move"),
    ("chess", "4k2P/8/8/8/8/8/8/4K3 w - - 0 1", 0, "a pawn on h8: pawns never stand on the first or last rank"),
    ("chess", "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", 0, "black has 9 pawns: at most 8"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w KQ - 0 1", 0, "castling needs the king and that rook on their first squares"),
    ("chess", "4k3/8/8/8/8/8/8/4K3 w - -", 1, "the position has white to move, not black"),
    ("chess", "not a fen", 0, "not a FEN"),
    ("connect4", connect4_board("...O...", "..X...."), 0, "a disc floats above an empty cell"),
    ("connect4", connect4_board("..X...."), 0, "red to move does not fit 1 red and 0 yellow discs"),
    ("connect4", connect4_board("OOXX..."), 1, "yellow to move does not fit 2 red and 2 yellow discs"),
    ("connect4", connect4_board("X......", "OOO...."), 0, "red plays first, so red has as many discs as yellow or one"),
    ("connect4", connect4_board("OOO....", "XXXX..."), 1, "someone already has four in a row"),
    ("connect4", "...X/..", 0, "expected 6 rows of 7 cells"),
    ("draughts", "W:W1,33:B28", 0, "a man on square 1, its own side's promotion row"),
    ("draughts", "W:W33:B28,50", 0, "a man on square 50, its own side's promotion row"),
    ("draughts", "W:W33,51:B28", 0, "there is no square 51 on this board"),
    ("draughts", "W:W33:B", 0, "black has no pieces: each side needs at least one"),
    ("draughts", "W:W33:B28", 1, "the position has white to move, not black"),
    ("draughts", "W:W46:B41,37", 0, "white to move has no legal move: the game would be over"),
    ("draughts", "W:W" + ",".join(map(str, range(16, 37))) + ":B5", 0, "white has 21 pieces: at most 20"),
    ("checkers", "B:W30:B" + ",".join(map(str, range(1, 14))), 0, "black has 13 pieces: at most 12"),
    ("checkers", "B:W30:B31", 0, "a man on square 31, its own side's promotion row"),
    ("tictactoe", "", 0, "tictactoe has no board editor"),
]


@pytest.mark.parametrize(("game", "position", "turn", "reason"), REFUSED)
def test_a_position_that_cannot_be_played_from_is_refused_with_one_line(
    edit_web: Web, game: str, position: str, turn: int, reason: str
) -> None:
    status, answer = edit_web.post("/api/edit", {"game": game, "position": position, "turn": turn})
    assert status == 400 and reason in answer["error"], answer
    assert "\n" not in answer["error"] and (not position or position not in answer["error"])  # the board is shown


def test_an_unknown_game_and_a_huge_position_are_refused(edit_web: Web) -> None:
    status, answer = edit_web.post("/api/edit", {"game": "go", "position": ""})
    assert status == 400 and "does not serve 'go'" in answer["error"]
    status, answer = edit_web.post("/api/edit", {"game": "chess", "position": "8" * 5_000})
    assert status == 400 and "position" in answer["error"]
    status, answer = edit_web.post("/api/edit", {"game": "chess", "position": "", "turn": 2})
    assert status == 400 and "turn" in answer["error"]


def connect4_verdict(rows: list[str], turn: int) -> bool:
    """Whether a 7x6 board (top row first) can be played from, by the rules read afresh:
    discs rest on discs, red (X) has as many as yellow or one more, as the turn says, and
    no one has four in a row."""
    columns = ["".join(row[column] for row in reversed(rows)) for column in range(7)]  # bottom first
    if any("." in column.rstrip(".") for column in columns):
        return False
    red, yellow = sum(row.count("X") for row in rows), sum(row.count("O") for row in rows)
    if red - yellow != turn:
        return False
    for row in range(6):
        for column in range(7):
            for down, across in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(row + step * down, column + step * across) for step in range(4)]
                if all(0 <= r < 6 and 0 <= c < 7 for r, c in cells):
                    marks = {rows[r][c] for r, c in cells}
                    if len(marks) == 1 and marks != {"."}:
                        return False
    return True


def test_random_connect4_boards_are_judged_as_the_rules_read_afresh(edit_web: Web) -> None:
    rng = random.Random(71)
    verdicts = {True: 0, False: 0}
    for _ in range(150):
        heights = [rng.randint(0, 3) for _ in range(7)]
        grid = [["."] * 7 for _ in range(6)]
        for column, height in enumerate(heights):
            for level in range(height):
                grid[5 - level][column] = rng.choice("XO")
        if rng.random() < 0.2:  # now and then a disc taken from under others
            column = rng.randrange(7)
            grid[5][column] = "."
        rows = ["".join(row) for row in grid]
        turn = rng.randint(0, 1)
        status, answer = edit_web.post("/api/edit", {"game": "connect4", "position": "/".join(rows), "turn": turn})
        expected = connect4_verdict(rows, turn)
        assert status == (200 if expected else 400), (rows, turn, answer)
        verdicts[expected] += 1
    assert min(verdicts.values()) >= 10, verdicts  # both kinds of board were tried


def test_random_draughts_boards_are_judged_as_the_rules_read_afresh(edit_web: Web) -> None:
    """International draughts: White's men promote on 1-5, Black's on 46-50; a side without
    pieces, or without a move, has lost."""
    from draughts import StandardBoard

    rng = random.Random(71)
    verdicts = {True: 0, False: 0}
    for _ in range(100):
        squares = rng.sample(range(1, 51), rng.randint(0, 8))
        pieces = {square: rng.choice("wWbB") for square in squares}
        side = {
            colour: ",".join(
                ("K" if piece.isupper() else "") + str(square)
                for square, piece in pieces.items()
                if piece.lower() == colour
            )
            for colour in "wb"
        }
        turn = rng.randint(0, 1)
        position = f"{'WB'[turn]}:W{side['w']}:B{side['b']}"
        expected = (
            all(piece != "w" or square > 5 for square, piece in pieces.items())
            and all(piece != "b" or square < 46 for square, piece in pieces.items())
            and all(side[colour] for colour in "wb")
        )
        # and a move for the side to move (else the game is over), as py-draughts finds them
        expected = expected and bool(list(StandardBoard.from_fen(position).legal_moves))
        status, answer = edit_web.post("/api/edit", {"game": "draughts", "position": position, "turn": turn})
        assert status == (200 if expected else 400), (position, answer)
        verdicts[expected] += 1
    assert min(verdicts.values()) >= 10, verdicts


def test_the_games_list_says_which_boards_the_editor_sets_up(edit_web: Web) -> None:
    status, games = edit_web.get("/api/games")
    assert status == 200
    assert {game["name"] for game in games if game["editable"]} == {"chess", "connect4", "draughts", "checkers"}


def test_a_draughts_side_to_move_without_a_move_is_refused_as_py_draughts_reads_it(edit_web: Web) -> None:
    """A game over is nothing to play from: py-draughts (the rules) finds no move for the
    side to move, and the editor refuses the board."""
    from draughts import StandardBoard

    for text, mover in (("W:W46:B41,37", "white"), ("B:W50:B45", "black")):
        assert list(StandardBoard.from_fen(text).legal_moves) == [], text
        status, answer = edit_web.post("/api/edit", {"game": "draughts", "position": text})
        assert status == 400 and answer["error"] == f"{mover} to move has no legal move: the game would be over"
    assert list(StandardBoard.from_fen("W:W46:B41").legal_moves)  # a capture: playable
    status, _ = edit_web.post("/api/edit", {"game": "draughts", "position": "W:W46:B41"})
    assert status == 200


def test_the_games_list_gives_each_draughts_boards_width_as_py_draughts_does() -> None:
    """The editor's empty board takes its width from the games list: Brazilian draughts
    is 8x8 (international rules on a small board), Frisian 10x10."""
    import draughts

    app = create_app(extra_games=("brazilian", "frisian", "russian"), prepare=False)
    with BackgroundServer(app) as server:
        status, games = Web(server.url, app.app.state.searches).get("/api/games")
    assert status == 200
    sizes = {game["name"]: game["size"] for game in games}
    boards = {"draughts": "StandardBoard", "checkers": "AmericanBoard", "brazilian": "BrazilianBoard"}
    boards |= {"frisian": "FrisianBoard", "russian": "RussianBoard"}
    for name, board in boards.items():
        assert sizes[name] ** 2 == 2 * getattr(draughts, board)().SQUARES_COUNT, name
    assert sizes["brazilian"] == 8 and sizes["frisian"] == 10
    assert sizes["chess"] is None and sizes["connect4"] is None


@pytest.mark.parametrize("game", ["draughts", "checkers"])
@pytest.mark.parametrize("text", ["K", "X:W1:B2", "-1", "hello world", "W:Wx:B5", "W:W33", "W:W13:BK0"])
def test_a_draughts_text_that_does_not_read_is_refused_in_words_not_echoed(edit_web: Web, game: str, text: str) -> None:
    """py-draughts says only "Invalid FEN: " and the text, upper-cased: no reason a player
    can act on, and the board is shown anyway."""
    status, answer = edit_web.post("/api/edit", {"game": game, "position": text})
    assert status == 400 and answer["error"] == "not a draughts position (a FEN such as W:W31:B5)", answer
