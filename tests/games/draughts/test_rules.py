"""Draughts on py-draughts' rules where they are right: the move lists are py-draughts' own
(in checkers, captures compulsory), the rule edge cases (maximum capture, promotion during
a capture, flying kings, draws) hold, and the search finds what a player must see."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest

from negamax.core.errors import IllegalMoveError, InvalidPositionError
from negamax.core.rules import game_end
from negamax.core.score import WIN
from negamax.core.types import SearchLimits
from negamax.search import search

draughts = pytest.importorskip("draughts")
from negamax.games.draughts.evaluation import TEMPO, drawish  # noqa: E402
from negamax.games.draughts.rules import DraughtsGame  # noqa: E402

INTERNATIONAL = DraughtsGame("draughts")


def their_moves(board: object) -> set[str]:
    return {str(move) for move in board.legal_moves}  # type: ignore[attr-defined]


def outcomes(moves: Iterable[Any]) -> list[tuple[int, int, frozenset[int]]]:
    """Each of py-draughts' ``moves`` by its start, end and pieces taken."""
    return [(move.square_list[0], move.square_list[-1], frozenset(move.captured_list)) for move in moves]


@pytest.mark.parametrize("variant", ["draughts", "checkers", "russian", "brazilian", "frisian"])
def test_move_lists_are_py_draughts_own_along_random_games(variant: str) -> None:
    """Our moves are py-draughts', less the second way round a circle (Frisian) and, in
    checkers, less the quiet moves py-draughts offers beside a capture (checkers' own
    generator, compared here with py-draughts' captures)."""
    game = DraughtsGame(variant)
    generator = random.Random(variant)
    captured = 0
    for _ in range(6):
        position = game.new_position(None)
        for _ in range(80):
            moves = position.legal_moves()
            theirs = position.board.legal_moves
            if variant == "checkers" and any(move.captured_list for move in theirs):
                theirs = [move for move in theirs if move.captured_list]
            ours = outcomes(position.played(move) for move in moves)
            assert set(moves) <= {str(move) for move in theirs}
            assert len(set(ours)) == len(ours) and set(ours) == set(outcomes(theirs))
            if position.is_terminal():
                break
            # captures are compulsory: when one exists, every move offered is one
            assert all("x" in move for move in moves) or not any("x" in move for move in moves)
            captured += "x" in moves[0]
            position.play(generator.choice(moves))
        for _ in range(len(position.keys) - 1):
            position.undo(None)  # type: ignore[arg-type]
        assert position.key() == game.new_position(None).key()
    assert captured > 40


def test_the_maximum_capture_is_compulsory() -> None:
    # 32x21 takes one man; 32x23x12 takes two, so it is the only legal move
    position = INTERNATIONAL.new_position("W:W32:B27,28,18")
    assert position.legal_moves() == ["32x23x12"] == sorted(their_moves(position.board))
    result = search(position, SearchLimits(depth=2), backend="python")
    assert result.best_move == "32x23x12"


def test_a_man_passing_the_last_row_in_a_capture_is_not_crowned() -> None:
    position = INTERNATIONAL.new_position("W:W15:B10,9,19")
    assert position.legal_moves() == ["15x4x13x24"]
    position.play("15x4x13x24")
    board = position.board
    assert board.white_kings == 0 and board.white_men == 1 << 23
    # in Russian draughts a man reaching the last row mid-capture is crowned there and
    # goes on taking as a king: d6xf8 (crowned), then f8xh6 along the king's diagonal
    russian = DraughtsGame("russian").new_position("W:W10:B7,8")
    assert russian.legal_moves() == ["10x3x12"] == sorted(their_moves(russian.board))
    russian.play("10x3x12")
    assert (russian.board.white_kings, russian.board.white_men) == (1 << 11, 0)


def test_a_circle_run_either_way_round_is_one_move() -> None:
    # a checkers king takes four men round a square back to where it started
    king = DraughtsGame("checkers").new_position("W:WK26:B14,15,22,23")
    assert king.legal_moves() in (["26x19x10x17x26"], ["26x17x10x19x26"])
    # a Frisian man does so round three men, which py-draughts lists both ways round
    frisian = DraughtsGame("frisian").new_position("start moves 31-27 17-22 33-28")
    both = {"22x33x31x22", "22x31x33x22"}
    assert both <= their_moves(frisian.board) and len(both & set(frisian.legal_moves())) == 1


def test_a_man_ending_on_the_last_row_is_crowned_and_kings_fly() -> None:
    position = INTERNATIONAL.new_position("W:W7:B1,3")
    position.play(INTERNATIONAL.parse_move(position, "7-2"))
    assert position.board.white_kings == 1 << 1
    king = INTERNATIONAL.new_position("W:WK46:B28")
    assert set(king.legal_moves()) == {"46x23", "46x19", "46x14", "46x10", "46x5"}


def test_draws_by_repetition_and_the_terminal_values() -> None:
    shuffle = "moves 45-50 6-1 50-45 1-6 45-50 6-1 50-45 1-6"
    repeated = INTERNATIONAL.new_position(f"W:WK45:BK6 {shuffle}")
    assert repeated.board.is_draw and repeated.is_terminal() and repeated.terminal_value() == 0
    blocked = INTERNATIONAL.new_position("B:W46,47:B1")
    assert not blocked.is_terminal()
    no_pieces = INTERNATIONAL.new_position("B:W46:B")
    assert no_pieces.is_terminal() and no_pieces.terminal_value() == -WIN


def test_a_played_game_ends_at_the_third_occurrence_where_the_search_sees_the_second() -> None:
    position = INTERNATIONAL.new_position("W:WK31:BK20")
    for move in ("31-26", "20-25", "26-31", "25-20"):
        position.play(move)
    assert position.is_terminal()  # inside a search, the second occurrence is a draw
    assert game_end(position) is None  # for the players the game goes on
    assert search(position.copy(), SearchLimits(depth=2), backend="python").best_move is not None
    for move in ("31-26", "20-25", "26-31", "25-20"):
        position.play(move)
    assert game_end(position) == (0, "threefold repetition") and position.board.is_draw
    assert game_end(position.copy()) == (0, "threefold repetition")  # the copy's board forgot its moves
    assert game_end(INTERNATIONAL.new_position("B:W46:B")) == (-WIN, "")
    assert game_end(INTERNATIONAL.new_position("W:WK31:BK20")) is None


KINGS_AND_MEN = {
    "draughts": "W:WK31,K46,33:BK20,K5,18",
    "frisian": "W:WK31,K46,33:BK20,K5,18",
    "checkers": "W:WK18,K27,30:BK11,K3,6",
    "russian": "W:WK18,K27,30:BK11,K3,6",
    "brazilian": "W:WK18,K27,30:BK11,K3,6",
}


@pytest.mark.parametrize("variant", list(KINGS_AND_MEN))
def test_a_played_game_ends_where_py_draughts_ends_it_on_random_games(variant: str) -> None:
    """At every ply of random games with kings, half of them often taking back the mover's
    last move: over, and lost or drawn, exactly where py-draughts' own board (which keeps
    every move) says so."""
    game = DraughtsGame(variant)
    generator = random.Random(variant)
    ends: set[str] = set()
    for number in range(12):
        position = game.new_position(KINGS_AND_MEN[variant])
        played: list[str] = []
        for _ in range(200):
            end = game_end(position)
            board = position.board
            expected = None if not board.game_over else 0 if board.is_draw else -WIN
            assert (None if end is None else end[0]) == expected, (variant, played)
            if end is not None:
                ends.add(end[1])
                break
            moves = position.legal_moves()
            back = "-".join(reversed(played[-2].split("-"))) if len(played) >= 2 else ""
            move = back if back in moves and number % 2 and generator.random() < 0.8 else generator.choice(moves)
            position.play(move)
            played.append(move)
    assert ends, "no game ended"


def test_the_search_finds_a_shot_and_a_won_race() -> None:
    # 33-28 forces 22x33, then 38x29x18x7... White wins men: the search sees the combination
    position = INTERNATIONAL.new_position("W:W27,28,32,33,37,38:B8,12,13,17,18")
    result = search(position, SearchLimits(depth=6), backend="python")
    assert result.score > 100 and result.best_move in position.legal_moves()
    # two men against one far from promotion: White wins
    race = DraughtsGame("checkers").new_position("W:W17,18:B1")
    assert search(race, SearchLimits(depth=8), backend="python").score > 0


def test_bad_input_gets_clear_errors() -> None:
    with pytest.raises(InvalidPositionError):
        INTERNATIONAL.new_position("W:W77:Bxx")
    position = INTERNATIONAL.new_position(None)
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        INTERNATIONAL.parse_move(position, "31-22")
    with pytest.raises(InvalidPositionError, match="variant"):
        DraughtsGame("hexagonal")


def turned_round(position: object) -> str:
    """The FEN of ``position`` with the board turned round and the colours swapped."""
    board = position.board  # type: ignore[attr-defined]
    squares = board.SQUARES_COUNT

    def listed(men: int, kings: int) -> str:
        found = [f"{squares - s}" for s in range(squares) if men >> s & 1]
        found += [f"K{squares - s}" for s in range(squares) if kings >> s & 1]
        return ",".join(found)

    side = "B" if board.turn == position.white else "W"  # type: ignore[attr-defined]
    return f"{side}:W{listed(board.black_men, board.black_kings)}:B{listed(board.white_men, board.white_kings)}"


def test_the_evaluation_sees_both_colours_alike() -> None:
    # the fitted regions' worths were fitted with every position turned round too: a
    # position and its turned-round twin are worth the same to the side to move
    generator = random.Random(7)
    compared = 0
    for _ in range(6):
        position = INTERNATIONAL.new_position(None)
        for _ in range(90):
            moves = position.legal_moves()
            if not moves or position.is_terminal():
                break
            twin = INTERNATIONAL.new_position(turned_round(position))
            assert position.evaluate() == twin.evaluate()
            compared += 1
            position.play(generator.choice(moves))
    assert compared > 300
    # with the regions in use, their worths different with the men on the board and without
    start = INTERNATIONAL.new_position(None)
    weights = start.weights  # type: ignore[attr-defined]
    full_board, bare_board = weights.patterns
    assert weights.regions and any(any(worths) for worths in full_board) and full_board != bare_board


def test_the_evaluation_shrinks_the_king_endgames_the_rules_draw() -> None:
    # a lone king against three kings: the pieces' worth stands when the lone king is off
    # the long diagonal (it is usually caught within the 16 moves), and is shrunk on it
    tempo = TEMPO
    off_position = INTERNATIONAL.new_position("W:WK26:BK1,K2,K3")
    weights = off_position.weights  # type: ignore[attr-defined]
    black = sum(weights.black_king[square] for square in (0, 1, 2)) + weights.first_king + 2 * weights.further_king
    white = weights.first_king
    off = off_position.evaluate() - tempo
    held = INTERNATIONAL.new_position("W:WK28:BK1,K2,K3").evaluate() - tempo
    # two kings down, to the side to move: worth more than two men (each further king is
    # fitted to count less than the first, the rules drawing many king endgames)
    assert off == white + weights.white_king[25] - black < -200
    assert held == -((black - white - weights.white_king[27]) // 8)
    # the twin of each, colours swapped, is worth the same to its side to move
    for text in ("W:WK26:BK1,K2,K3", "W:WK28:BK1,K2,K3"):
        position = INTERNATIONAL.new_position(text)
        assert position.evaluate() == INTERNATIONAL.new_position(turned_round(position)).evaluate()
    # against two pieces with a king the rule draws in 5 moves wherever the lone king is;
    # against two men (no king yet) it does not apply
    two_kings = INTERNATIONAL.new_position("B:WK25,K45:BK3").evaluate() - tempo
    assert -70 < two_kings < 0
    position = INTERNATIONAL.new_position("B:W25,45:BK3")
    weights, board = position.weights, position.board  # type: ignore[attr-defined]
    white = weights.white_man[24] + weights.white_man[44] + weights.arrangement(board.white_men, 0)
    assert position.evaluate() - tempo == weights.black_king[2] + weights.first_king - white
    # three pieces against a king, or kings even and the men within one: the lead shrinks
    three_kings = INTERNATIONAL.new_position("W:WK26,K27,30:BK1,5,6")
    shrunk = three_kings.evaluate() - tempo
    assert 0 < shrunk < 200
    assert three_kings.evaluate() == INTERNATIONAL.new_position(turned_round(three_kings)).evaluate()
    assert INTERNATIONAL.new_position("W:WK26,K27,K28,30:BK1,5,6").evaluate() - tempo > 4 * shrunk
    # in the other variants the pieces' worth stands
    brazilian = DraughtsGame("brazilian").new_position("W:WK26:BK1,K2").evaluate() - tempo
    assert brazilian < -200


@pytest.mark.parametrize(
    ("value", "pieces", "shrunk"),
    [
        (800, (1, 2, 2, 1), 100),  # three pieces against a king: an eighth
        (-800, (2, 1, 1, 2), -100),  # the same, Black ahead
        (101, (5, 1, 4, 1), 50),  # kings even, a man ahead: half
        (-101, (4, 1, 5, 1), -50),
        (101, (6, 1, 4, 1), 101),  # two men ahead: the lead stands
        (101, (5, 1, 4, 0), 101),  # no king behind: it stands
        (101, (5, 2, 4, 1), 101),  # a king ahead: it stands
        (101, (4, 0, 5, 1), 101),  # four men against a king and five: it stands
    ],
)
def test_a_king_makes_a_lead_drawish(value: int, pieces: tuple[int, int, int, int], shrunk: int) -> None:
    assert drawish(value, *pieces, False, False) == shrunk
    white_men, white_kings, black_men, black_kings = pieces
    assert drawish(-value, black_men, black_kings, white_men, white_kings, False, False) == -shrunk
