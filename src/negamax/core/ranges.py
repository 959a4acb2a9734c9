"""Every number a user can give, checked by one rule: the library, the command line, the UCI
and HUB engines and the web app all take a depth, a node count, a time, a table size, a
number of threads or workers from here, so each is refused the same way everywhere, with
one clear message, before any work starts.

>>> DEPTH.check(12)
12
>>> DEPTH.parse("0")
Traceback (most recent call last):
...
negamax.core.errors.InvalidOptionError: depth must be a whole number from 1 to 1000 (plies), not 0
>>> TIME.parse("1.5")
1.5
>>> NODES.check(float("nan"))
Traceback (most recent call last):
...
negamax.core.errors.InvalidOptionError: nodes must be a whole number from 1 to 1000000000000000, not nan
"""

from __future__ import annotations

import dataclasses
import math
import os
from functools import cache
from typing import Final

from negamax.core.errors import InvalidOptionError

MAX_TEXT: Final = 40
"""The most characters of a refused value quoted back (a GUI may send kilobytes)."""


def _shown(value: object) -> str:
    text = value if isinstance(value, str) else repr(value)
    text = "".join(character if character.isprintable() else "?" for character in text)
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 3] + "..."


@dataclasses.dataclass(frozen=True)
class Range:
    """The values a number the user gives may take: ``low`` to ``high`` inclusive, whole
    or not. ``check`` takes a value from code, ``parse`` one typed as text."""

    name: str
    low: float
    high: float
    whole: bool = True
    unit: str = ""

    def describe(self) -> str:
        """``a whole number from 1 to 1000 (plies)``."""
        unit = f" ({self.unit})" if self.unit else ""
        if self.whole:
            return f"a whole number from {int(self.low)} to {int(self.high)}{unit}"
        return f"a number from {self.low:g} to {self.high:g}{unit}"

    def _refuse(self, value: object) -> InvalidOptionError:
        return InvalidOptionError(f"{self.name} must be {self.describe()}, not {_shown(value)}")

    def check(self, value: object) -> int | float:
        """``value`` (an ``int``, or a ``float`` where fractions are allowed) if it is in the
        range; an ``int`` for a whole range.

        :raises InvalidOptionError: for anything else (``bool``, text, NaN, infinity, out of range).
        """
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self._refuse(value)
        if isinstance(value, float):
            if not math.isfinite(value):
                raise self._refuse(value)
            if self.whole:
                if value != int(value):
                    raise self._refuse(value)
                value = int(value)
        if not self.low <= value <= self.high:
            raise self._refuse(value)
        return value

    def check_optional(self, value: object) -> int | float | None:
        """``None`` stays ``None`` (no limit); anything else as ``check``."""
        return None if value is None else self.check(value)

    def parse(self, text: str) -> int | float:
        """The number ``text`` writes, checked; a whole range takes digits only (``1e3``
        and ``10.0`` are refused, as a protocol's integer field would be).

        :raises InvalidOptionError: as ``check``, or for text that is not a number.
        """
        stripped = text.strip()
        if len(stripped) > 64:  # no number in range is this long: refuse before converting
            raise self._refuse(text)
        try:
            value: int | float = int(stripped) if self.whole else float(stripped)
            return self.check(value)
        except InvalidOptionError:
            raise self._refuse(stripped) from None
        except ValueError:
            raise self._refuse(text) from None

    def parse_int(self, text: str) -> int:
        """``parse`` for a whole range, typed as ``int``."""
        return int(self.parse(text))


MAX_DEPTH: Final = 1000
DEPTH: Final = Range("depth", 1, MAX_DEPTH, unit="plies")
"""A search's depth. Depth 0 would be the static value, which no search needs a limit for."""
MAX_NODES: Final = 10**15
NODES: Final = Range("nodes", 1, MAX_NODES)
"""A node budget: 10**15 is decades at ten million nodes a second, and fits the kernels' int64."""
MAX_SECONDS: Final = 10_000_000.0
TIME: Final = Range("time", 0.000001, MAX_SECONDS, whole=False, unit="seconds")
"""A time limit: about four months at most, so every clock and timer can hold it."""
MAX_THREADS: Final = 64
THREADS: Final = Range("threads", 1, MAX_THREADS)
"""The threads of one compiled search (lazy SMP, or the solver's helpers)."""
CHUNK_SIZE: Final = Range("chunk size", 1, 1_000_000, unit="positions")
"""Positions per task of a batch."""
BOOK_PLIES: Final = Range("plies", 0, 64)
"""How far below its roots a book is built (the positions there are counted, and refused
past ``MAX_BOOK_POSITIONS``, long before 64 plies)."""
SPLIT_PLIES: Final = Range("split", 1, 6, unit="plies")
"""How deep a split solve cuts the tree into subproblems (6 plies of 7x6 are about 60,000
positions, kept in memory)."""
DEFAULT_SPLIT_PLIES: Final = 4
MAX_BOOK_POSITIONS: Final = 2_000_000
"""The most positions a book build enumerates over all its plies (every position of plies
0-10 of 7x6 Connect 4 is some 1.2 million): counting them takes about 50 microseconds each
(a minute for those), and their texts are held in memory (a few hundred bytes each)."""
SKILL: Final = Range("skill level", 0, 20)
"""A playing strength below the engine's best (20: full strength), as Stockfish's ``Skill
Level`` option numbers it."""
LEVEL: Final = Range("level", 1, 8)
"""The page's playing levels, as lichess numbers its computer opponents (8: full strength)."""
TRACE_NODES: Final = Range("max nodes", 1, 200_000)
"""The most nodes a recorded search keeps: a trace is for reading, and each node costs
hundreds of bytes."""
MAX_LINE_BYTES: Final = 64 * 1024
"""The longest protocol line (UCI, HUB) or input line (a batch's) read: a game of a
thousand moves fits with room to spare."""
MIN_HASH_MIB: Final = 1
MAX_HASH_MIB: Final = 65536
"""The largest table any machine is offered (``max_hash_mib``: less where memory is short)."""

# -- table sizes: the one default, and the places that deliberately take another ----------

DEFAULT_HASH_MIB: Final = 64
"""The transposition table of every search unless told (``--hash``, ``hash_mib``): the
compiled searchers' and the pure-Python search's. Measured on the empty 7x6 board on one
thread (AMD EPYC with 32 MiB of L3, 2026-11-28): 64 MiB took 393.8 M nodes in 31.7-32.2
CPU-s, 256 MiB 369.6 M nodes in 33.3-33.6 CPU-s (fewer nodes, each slower to reach); and a
smaller table is cheaper to clear for every call of a searcher that keeps none (2.7 ms
against 9.6 ms at 256 MiB). The compiled solver of placement games, left at this default,
grows its table for a board whose keys need more (128 MiB for 64-bit keys)."""
ENGINE_HASH_MIB: Final = DEFAULT_HASH_MIB
"""The UCI and HUB engines' ``Hash`` option before a GUI sets it: the same default
(Stockfish starts at 16 MiB; a GUI usually sets its own)."""
PAGE_SEARCH_HASH_MIB: Final = MIN_HASH_MIB
"""Each engine search of the web app: dozens run at once, each for a fraction of a second
on a table cleared for it, where clearing 64 MiB would cost more than the search."""
BATCH_ANALYSIS_HASH_MIB: Final = 4
"""The compiled search's table in a batch analysis, cleared for every position (0.3 ms);
a batch's solves take the default."""
WARM_UP_HASH_MIB: Final = MIN_HASH_MIB
"""A searcher made only to compile or load its kernel: its table is never searched."""
BENCH_HASH_MIB: Final = 16
"""``negamax bench``'s compiled cases, cleared for each: fixed, so that its node counts (a
signature of the engine) never depend on the default."""


@cache
def memory_mib() -> int:
    """The machine's memory in MiB (8 GiB where the system does not say)."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")) >> 20
    except (AttributeError, ValueError, OSError):
        return 8192


def max_hash_mib() -> int:
    """The largest table a user may ask for: half the machine's memory as a power of two,
    so that a table always fits beside the rest of the process (at most ``MAX_HASH_MIB``)."""
    half = max(MIN_HASH_MIB, memory_mib() // 2)
    return min(MAX_HASH_MIB, 1 << (half.bit_length() - 1))


def hash_range() -> Range:
    """The table sizes this machine can hold, in MiB."""
    return Range("hash", MIN_HASH_MIB, max_hash_mib(), whole=False, unit="MiB")


def workers_range() -> Range:
    """Local worker processes: up to four per core (more only wait their turn and cost
    memory; a cluster takes ``--scheduler``)."""
    return Range("workers", 1, 4 * (os.cpu_count() or 1))
