"""The engine behind a protocol: a position, a transposition table that lives across
moves, and searches on a worker thread that ``stop`` ends at once.

The protocol layer (``uci.py``) only turns text into calls of this API and results into
text, so the same engine can sit behind another protocol or a test.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from typing import Any

from negamax.core.errors import InvalidOptionError
from negamax.core.game import Position
from negamax.core.rules import Game
from negamax.core.types import SearchLimits, SearchResult
from negamax.search import search
from negamax.search.params import options_for
from negamax.search.tt import TranspositionTable

DEFAULT_HASH_MIB = 64
CHECK_EVERY_NODES = 64
"""Slow games (chess on python-chess: a few thousand nodes a second) must look at the
clock often for a stop to be prompt."""

OnInfo = Callable[[SearchResult[Any]], None]
OnDone = Callable[[SearchResult[Any]], None]


@dataclasses.dataclass(frozen=True)
class GoLimits:
    """What ``go`` asks for; the clock fields are the protocol's, in seconds."""

    depth: int | None = None
    nodes: int | None = None
    move_time: float | None = None
    infinite: bool = False
    time_left: float | None = None
    increment: float = 0.0
    moves_to_go: int | None = None


SAFETY_SECONDS = 0.03
"""Kept back from every time budget for the reply to travel."""


def time_budget(limits: GoLimits) -> float | None:
    """Seconds to think: the move time as given, or a share of the clock, never so much
    that the clock could run out."""
    if limits.infinite:
        return None
    if limits.move_time is not None:
        return max(0.001, limits.move_time - SAFETY_SECONDS)
    if limits.time_left is None:
        return None
    moves = limits.moves_to_go or 30
    share = limits.time_left / moves + 0.75 * limits.increment
    ceiling = max(0.001, limits.time_left * 0.5 - SAFETY_SECONDS)
    return max(0.001, min(share, ceiling))


class Engine:
    """Searches ``game`` positions one at a time on a worker thread."""

    def __init__(self, game: Game, hash_mib: float = DEFAULT_HASH_MIB) -> None:
        self.game = game
        self.position: Position[Any] = game.new_position(None)
        self.options = dataclasses.replace(options_for("auto"), check_every=CHECK_EVERY_NODES)
        self.table = TranspositionTable(mib=hash_mib)
        self._stop = threading.Event()
        self._worker: threading.Thread | None = None

    def set_hash(self, mib: float) -> None:
        if not 1 <= mib <= 65536:
            raise InvalidOptionError(f"Hash must be 1-65536 MiB, not {mib}")
        self.wait()
        self.table = TranspositionTable(mib=mib)

    def new_game(self) -> None:
        self.wait()
        self.table.clear()

    def set_position(self, text: str | None) -> None:
        """The position ``text`` describes (see the game's ``position_help``).

        :raises InvalidPositionError: and the engine keeps its previous position.
        """
        self.wait()
        self.position = self.game.new_position(text)

    @property
    def searching(self) -> bool:
        return self._worker is not None and self._worker.is_alive()

    def go(self, limits: GoLimits, on_info: OnInfo, on_done: OnDone) -> None:
        """Start searching the current position; ``on_done`` gets the result."""
        self.wait()
        self._stop.clear()
        search_limits = SearchLimits(
            depth=limits.depth,
            nodes=limits.nodes,
            time=time_budget(limits),
            stop=self._stop,
        )
        if search_limits.depth is None and search_limits.nodes is None and search_limits.time is None:
            search_limits = dataclasses.replace(search_limits, depth=64)  # "go infinite": until stopped
        position = self.position

        def run() -> None:
            result = search(position, search_limits, options=self.options, table=self.table, on_iteration=on_info)
            on_done(result)

        self._worker = threading.Thread(target=run, name="search", daemon=True)
        self._worker.start()

    def stop(self) -> None:
        """End the search now; its ``on_done`` still runs, with the best move so far."""
        self._stop.set()

    def wait(self) -> None:
        """Stop any search and wait for it to report."""
        if self._worker is not None:
            self._stop.set()
            self._worker.join()
            self._worker = None
