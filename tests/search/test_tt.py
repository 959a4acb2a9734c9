import pytest

from negamax.core.errors import InvalidOptionError
from negamax.core.score import Bound
from negamax.search.tt import BYTES_PER_ENTRY, TranspositionTable


def test_capacity_in_entries_or_mib() -> None:
    assert TranspositionTable(entries=1000).capacity == 1001
    assert TranspositionTable(entries=1).capacity == 1
    table = TranspositionTable(mib=1)
    assert table.capacity == (2**20 // BYTES_PER_ENTRY) | 1
    with pytest.raises(InvalidOptionError):
        TranspositionTable(entries=10, mib=1)
    with pytest.raises(InvalidOptionError, match="policy"):
        TranspositionTable(policy="lru")
    with pytest.raises(InvalidOptionError):
        TranspositionTable(entries=0)


def test_capacity_is_never_exceeded() -> None:
    for policy in ("depth", "always", "two-tier"):
        table = TranspositionTable(entries=50, policy=policy)
        for key in range(10_000):
            table.store(key, key % 7, key, Bound.EXACT, None)
        assert len(table) <= 51


def test_depth_preferred_keeps_the_deeper_entry_until_a_new_search() -> None:
    table = TranspositionTable(entries=1, policy="depth")
    table.store("a", 5, 1, Bound.LOWER, "m")
    table.store("b", 2, 2, Bound.EXACT, None)
    assert table.probe("b") is None and table.probe("a") is not None
    table.new_search()
    table.store("b", 2, 2, Bound.EXACT, None)
    assert table.probe("b") is not None and table.probe("a") is None


def test_always_replace_and_two_tier() -> None:
    always = TranspositionTable(entries=1, policy="always")
    always.store("a", 5, 1, Bound.LOWER, None)
    always.store("b", 1, 2, Bound.UPPER, None)
    assert always.probe("a") is None and always.probe("b") is not None
    tiers = TranspositionTable(entries=2, policy="two-tier")
    tiers.store("a", 5, 1, Bound.LOWER, None)
    tiers.store("b", 1, 2, Bound.UPPER, None)  # shallower: goes to the always-replace tier
    assert tiers.probe("a") is not None and tiers.probe("b") is not None


def test_same_key_keeps_its_move_and_hashfull() -> None:
    table = TranspositionTable(entries=1000)
    table.store(1, 3, 0, Bound.EXACT, "best")
    table.store(1, 4, 0, Bound.UPPER, None)
    entry = table.probe(1)
    assert entry is not None and entry[4] == "best" and entry[1] == 4
    assert table.hashfull() == 0  # 1 of 1001 slots
    table.clear()
    assert len(table) == 0
