"""A fixed-capacity transposition table.

Invariant: an entry says what a search of ``depth`` plies below the position keyed
``key`` proved about its value: a lower bound, an upper bound or the exact value. That is
a function of the position and the depth alone (never of the window the search ran in,
nor of killers or history, which change *how* a search runs, not *what* it proves), so
any later search of the same position to at most that depth may use it. Decisive scores
are stored relative to the node (``score.to_node``) because a position can be met at
different plies. Losing an entry costs time, never correctness.

Entries are plain tuples ``(key, depth, value, bound, move, generation)``: in CPython a
tuple is an order of magnitude cheaper to build than a dataclass. Slots live in a dict
keyed by slot number, so the capacity is fixed (there are ``capacity`` slot numbers) but
a table costs nothing until it fills: many small searches can each have their own.

>>> table = TranspositionTable(entries=1000)
>>> table.store(42, depth=3, value=7, bound=Bound.LOWER, move=2)
>>> table.probe(42)
(42, 3, 7, <Bound.LOWER: 1>, 2, 0)
>>> table.probe(43) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Final

from negamax.core.errors import InvalidOptionError
from negamax.core.ranges import DEFAULT_HASH_MIB
from negamax.core.score import Bound

Entry = tuple[Hashable, int, int, Bound, Any, int]

BYTES_PER_ENTRY: Final = 144
"""Estimated CPython memory per filled slot: the list slot, a 6-tuple and its key."""

POLICIES: Final = ("depth", "always", "two-tier")
"""Replacement policies:

* ``depth``: keep the entry searched deeper, unless it is from an older search;
* ``always``: the newest entry wins;
* ``two-tier``: each slot holds a depth-preferred entry and an always-replaced one.
"""


def _odd_capacity(entries: int) -> int:
    # An odd size spreads keys whose low bits vary little (bitboards) over the table.
    return entries | 1


class TranspositionTable:
    """Fixed capacity in entries (or MiB, by default ``DEFAULT_HASH_MIB``); ``probe``/``store`` by key."""

    def __init__(self, entries: int | None = None, mib: float | None = None, policy: str = "depth") -> None:
        if entries is not None and mib is not None:
            raise InvalidOptionError("give the table size in entries or in MiB, not both")
        if policy not in POLICIES:
            raise InvalidOptionError(f"unknown replacement policy {policy!r}; choose one of {', '.join(POLICIES)}")
        if entries is None:
            entries = int((DEFAULT_HASH_MIB if mib is None else mib) * 2**20 / BYTES_PER_ENTRY)
        if entries < 1:
            raise InvalidOptionError(f"a transposition table needs at least 1 entry, not {entries}")
        self.policy = policy
        self.capacity = _odd_capacity(entries) if policy != "two-tier" else _odd_capacity(max(entries // 2, 1))
        self.generation = 0
        self.slots: dict[int, Entry] = {}
        self.store: Callable[[Hashable, int, int, Bound, Any], None] = getattr(
            self, "_store_" + policy.replace("-", "_")
        )
        self.probe: Callable[[Hashable], Entry | None] = (
            self._probe_two_tier if policy == "two-tier" else self._probe_single
        )

    def _probe_single(self, key: Hashable) -> Entry | None:
        """The entry for ``key``, or ``None``."""
        entry = self.slots.get(hash(key) % self.capacity)
        if entry is not None and entry[0] == key:
            return entry
        return None

    def _probe_two_tier(self, key: Hashable) -> Entry | None:
        index = hash(key) % self.capacity * 2
        slots = self.slots
        entry = slots.get(index)
        if entry is not None and entry[0] == key:
            return entry
        entry = slots.get(index + 1)
        if entry is not None and entry[0] == key:
            return entry
        return None

    def _store_always(self, key: Hashable, depth: int, value: int, bound: Bound, move: Any) -> None:
        self.slots[hash(key) % self.capacity] = (key, depth, value, bound, move, self.generation)

    def _store_depth(self, key: Hashable, depth: int, value: int, bound: Bound, move: Any) -> None:
        index = hash(key) % self.capacity
        old = self.slots.get(index)
        if old is None or old[0] == key or depth >= old[1] or old[5] != self.generation:
            if move is None and old is not None and old[0] == key:
                move = old[4]  # keep the best move a shallower or bound-only search did not find
            self.slots[index] = (key, depth, value, bound, move, self.generation)

    def _store_two_tier(self, key: Hashable, depth: int, value: int, bound: Bound, move: Any) -> None:
        index = hash(key) % self.capacity * 2
        slots = self.slots
        deep = slots.get(index)
        entry = (key, depth, value, bound, move, self.generation)
        if deep is None or deep[0] == key or depth >= deep[1] or deep[5] != self.generation:
            slots[index] = entry
            recent = slots.get(index + 1)
            if recent is not None and recent[0] == key:
                del slots[index + 1]
        else:
            slots[index + 1] = entry

    def new_search(self) -> None:
        """Age the entries: a later search may overwrite them regardless of depth."""
        self.generation += 1

    def clear(self) -> None:
        self.slots = {}
        self.generation = 0

    def hashfull(self) -> int:
        """Per mille of the slots that hold an entry of the current search (UCI's hashfull)."""
        slot_count = self.capacity * (2 if self.policy == "two-tier" else 1)
        used = sum(1 for entry in self.slots.values() if entry[5] == self.generation)
        return used * 1000 // slot_count

    def __len__(self) -> int:
        return len(self.slots)
