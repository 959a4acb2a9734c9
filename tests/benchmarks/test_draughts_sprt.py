"""The self-play harness's openings (``benchmarks/draughts_sprt.py``): every line of so many
moves from the start, as the rules count them (international draughts has 9 first moves for
each side, so 81 two-move openings), in an order the seed fixes."""

from __future__ import annotations

import sys
from types import ModuleType

import pytest

from tests.benchmarks.conftest import load_benchmark

pytest.importorskip("draughts")

from draughts.models import Color  # after the skip: py-draughts is optional


@pytest.fixture(scope="module")
def harness() -> ModuleType:
    return load_benchmark("draughts_sprt")


def test_the_openings_are_every_line_once_in_the_seeds_order(harness: ModuleType) -> None:
    assert len(harness.openings(1, 1)) == 9
    two = harness.openings(2, 1)
    assert len(two) == len(set(two)) == 81
    assert all(
        line.split()[0] in {"31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"}
        for line in two
    )
    assert harness.openings(2, 1) == two and harness.openings(2, 2) != two
    assert sorted(harness.openings(2, 2)) == sorted(two)


def test_a_setting_must_read_name_equals_value(harness: ModuleType) -> None:
    assert harness.parameters(["strength=7", "hash=64"]) == [("strength", "7"), ("hash", "64")]
    with pytest.raises(SystemExit, match="not NAME=VALUE"):
        harness.parameters(["strength"])


def test_a_pair_is_counted_from_the_new_engines_side_whatever_its_colour(harness: ModuleType) -> None:
    sprt = sys.modules["sprt"]
    match = harness.Match(sprt.Test(0, 10), 100, None)
    match.add(0, "32-28", [("1-0", "white", ""), ("1-0", "black", "")])  # won with white, lost with black
    match.add(1, "32-28", [("0-1", "black", ""), ("1/2-1/2", "white", "")])  # won with black, drew
    match.add(2, "32-28", [("0-1", "white", ""), ("1-0", "black", "")])  # lost both
    assert match.counts == [1, 0, 1, 1, 0]
    match.failure = "interrupted"
    match.add(3, "32-28", [("1-0", "white", ""), ("0-1", "black", "")])  # after the stop: not counted
    assert match.counts == [1, 0, 1, 1, 0] and match.next_pair() is None


def test_the_shipped_scores_cover_every_three_move_line_once(harness: ModuleType) -> None:
    scores = harness.read_scores()
    assert sorted(scores) == sorted(harness.openings(3, 1))
    assert len(scores) == 658


def test_balanced_keeps_the_lines_within_the_bound_in_the_seeds_order(harness: ModuleType) -> None:
    scores = {"a": -150, "b": 30, "c": 100, "d": -100, "e": 101}
    assert harness.balanced(["e", "d", "c", "b", "a"], 100, scores) == ["d", "c", "b"]
    assert harness.balanced(["e", "d", "c", "b", "a"], 0, scores) == []
    with pytest.raises(SystemExit, match="no score for 'f'"):
        harness.balanced(["a", "f"], 100, scores)


def _material_after_forced_captures(board: object) -> int:
    """White's men less Black's (a king three men) once the captures the rules force are
    over, each side choosing its best capture: a check by the rules alone, no search."""
    captures = [move for move in board.legal_moves if move.captured_list]  # type: ignore[attr-defined]
    if not captures:
        return (board.white_men.bit_count() + 3 * board.white_kings.bit_count()) - (  # type: ignore[attr-defined]
            board.black_men.bit_count() + 3 * board.black_kings.bit_count()  # type: ignore[attr-defined]
        )
    values = []
    for move in captures:
        board.push(move)  # type: ignore[attr-defined]
        values.append(_material_after_forced_captures(board))
        board.pop()  # type: ignore[attr-defined]
    return max(values) if board.turn == Color.WHITE else min(values)  # type: ignore[attr-defined]


def test_the_lines_scored_a_man_down_are_those_whose_forced_captures_lose_one(harness: ModuleType) -> None:
    from draughts import StandardBoard

    scores = harness.read_scores()
    losing = {}
    for line in scores:
        board = StandardBoard()
        for text in line.split():
            board.push_uci(text)
        losing[line] = _material_after_forced_captures(board) < 0
    # every line that loses material in its forced captures is scored about a man down,
    # but for a few the search sees it won back; more lose a man a few moves later
    lost_at_once = [line for line, lost in losing.items() if lost]
    assert sum(scores[line] < -100 for line in lost_at_once) >= 0.9 * len(lost_at_once)
    even = [line for line, lost in losing.items() if not lost]
    assert sum(abs(scores[line]) <= 100 for line in even) >= 0.85 * len(even)
