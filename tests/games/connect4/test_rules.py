from pathlib import Path

import pytest

from negamax.core.errors import IllegalMoveError, InvalidPositionError
from negamax.games.connect4.board import BOARD, has_four, mirror, winning_cells
from negamax.games.connect4.rules import Connect4, Connect4Game
from negamax.search import solve

DATA = Path(__file__).resolve().parents[2] / "data"
GAME = Connect4Game()


def _cases(name: str) -> list[tuple[str, int]]:
    lines = (DATA / name).read_text().split("\n")
    return [(moves, int(score)) for moves, score in (line.split() for line in lines if line.strip())]


def test_pons_example_scores_minus_15() -> None:
    position = GAME.new_position("44455554221")
    result = solve(position, backend="python")
    assert GAME.game_score(position, result.score) == -15
    assert result.score_text == "loss in 2"


@pytest.mark.parametrize(
    ("name", "step"),
    [
        ("Test_L3_R1", 10),
        ("Test_L2_R1", 10),
        pytest.param("Test_L3_R1", 1, marks=pytest.mark.slow),
        pytest.param("Test_L2_R1", 1, marks=pytest.mark.slow),
    ],
)
def test_pons_sets_solved_exactly_in_pure_python(name: str, step: int) -> None:
    cases = _cases(name)
    assert len(cases) == 1000
    wrong = []
    for moves, expected in cases[::step]:
        position = GAME.new_position(moves)
        score = GAME.game_score(position, solve(position, backend="python").score)
        if score != expected:
            wrong.append((moves, expected, score))
    assert wrong == []


@pytest.mark.parametrize("index", range(0, 1000, 200))
def test_pons_middle_medium_sample(index: int) -> None:
    moves, expected = _cases("Test_L2_R2")[index]
    position = GAME.new_position(moves)
    assert GAME.game_score(position, solve(position, backend="python").score) == expected


def test_position_parsing_errors() -> None:
    for text, reason in [
        ("4458", "not a column"),
        ("1111111", "full column"),
        ("1212121", "wins"),
        ("x", "not a column"),
    ]:
        with pytest.raises(InvalidPositionError, match=reason):
            GAME.new_position(text)


def test_board_text_round_trip() -> None:
    position = GAME.new_position("4453267")
    again = GAME.new_position(GAME.position_text(position))
    assert (again.current, again.mask, again.moves) == (position.current, position.mask, position.moves)
    with pytest.raises(InvalidPositionError, match="float"):
        GAME.new_position("......./......./......./......./X....../.......")


def test_moves_parse_and_print() -> None:
    position = GAME.new_position("444444")
    with pytest.raises(IllegalMoveError, match="full"):
        GAME.parse_move(position, "4")
    with pytest.raises(IllegalMoveError, match="1-7"):
        GAME.parse_move(position, "9")
    move = GAME.parse_move(position, "1")
    assert GAME.move_text(position, move) == "1"


def test_play_undo_and_symmetry() -> None:
    position = GAME.new_position("4453")
    key = position.key()
    for move in position.legal_moves():
        position.play(move)
        position.undo(move)
        assert position.key() == key
    mirrored = GAME.new_position("4435")  # 4453 reflected: columns c -> 8 - c
    assert mirror(position.key()) == mirrored.key()
    assert position.canonical_key() == mirrored.canonical_key()


def test_safe_moves_find_wins_and_forced_losses() -> None:
    assert GAME.new_position("112233").safe_moves() is None  # X completes the bottom row
    # X holds 2-3-4 on the bottom row with 1 and 5 open: O cannot stop both.
    position = GAME.new_position("22334")
    assert isinstance(position, Connect4)
    assert position.safe_moves() == []
    assert solve(position, backend="python").score_text == "loss in 2"
    forced = GAME.new_position("12131")  # X has three in column 1: O must block there
    assert [GAME.move_text(forced, move) for move in forced.safe_moves() or []] == ["1"]
    # winning cells agree with a brute-force check on boards from random play
    import random

    rng = random.Random(5)
    for _ in range(300):
        board = Connect4()
        for _ply in range(rng.randint(0, 35)):
            moves = [move for move in board.legal_moves() if not has_four(board.current | move)]
            if not moves:
                break
            board.play(rng.choice(moves))
        for stones in (board.current, board.current ^ board.mask):
            cells = winning_cells(stones, board.mask)
            for cell in range(49):
                bit = 1 << cell
                if BOARD & bit and not board.mask & bit:
                    assert bool(cells & bit) == has_four(stones | bit)
