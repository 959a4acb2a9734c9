"""One rule for every number a user gives: the same refusals from code and from text."""

from __future__ import annotations

import threading

import pytest

from negamax.core.errors import InvalidOptionError
from negamax.core.ranges import DEPTH, NODES, TIME, hash_range, max_hash_mib, memory_mib, workers_range
from negamax.core.types import SearchLimits


@pytest.mark.parametrize(
    "fields",
    [
        {"depth": 0},
        {"depth": -3},
        {"depth": 1.5},
        {"depth": float("nan")},
        {"depth": "3"},
        {"depth": True},
        {"nodes": 0},
        {"nodes": float("inf")},
        {"nodes": 10**23},
        {"time": 0},
        {"time": float("nan")},
        {"time": 10**400},
        {"time": "1"},
        {"stop": "yes"},
    ],
)
def test_search_limits_refuse_what_no_search_can_honour(fields: dict[str, object]) -> None:
    with pytest.raises(InvalidOptionError, match="must be"):
        SearchLimits(**fields)  # type: ignore[arg-type]


def test_search_limits_take_whole_floats_as_ints() -> None:
    limits = SearchLimits(depth=3.0, nodes=1e6, time=2, stop=threading.Event())  # type: ignore[arg-type]
    assert (limits.depth, limits.nodes, limits.time) == (3, 1_000_000, 2)
    assert isinstance(limits.depth, int) and isinstance(limits.nodes, int)


@pytest.mark.parametrize("text", ["0", "-1", "1e3", "10.0", "two", "", "9" * 30, "1001"])
def test_depth_text_is_refused_with_the_range(text: str) -> None:
    with pytest.raises(InvalidOptionError, match="depth must be a whole number from 1 to 1000"):
        DEPTH.parse(text)


def test_numbers_as_text() -> None:
    assert DEPTH.parse(" 12 ") == 12
    assert NODES.parse("1000000") == 1_000_000
    assert TIME.parse("1e-3") == 0.001
    with pytest.raises(InvalidOptionError, match="time must be a number"):
        TIME.parse("inf")


def test_the_machine_sets_the_largest_table_and_the_workers() -> None:
    largest = max_hash_mib()
    assert largest & (largest - 1) == 0 and largest <= memory_mib() // 2
    assert hash_range().check(largest) == largest
    with pytest.raises(InvalidOptionError, match="hash must be a number from 1 to"):
        hash_range().check(largest * 2)
    with pytest.raises(InvalidOptionError, match="workers"):
        workers_range().check(10_000)
