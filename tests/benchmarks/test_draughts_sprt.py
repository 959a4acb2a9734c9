"""The self-play harness's openings (``benchmarks/draughts_sprt.py``): every line of so many
moves from the start, as the rules count them (international draughts has 9 first moves for
each side, so 81 two-move openings), in an order the seed fixes."""

from __future__ import annotations

import sys
from types import ModuleType

import pytest

from tests.benchmarks.conftest import load_benchmark

pytest.importorskip("draughts")


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
