"""Move ordering: killer moves and the history heuristic, and the order they impose.

The game lists its moves best guess first (its hint). The search then moves the
transposition-table move to the front, the killers of the ply right behind it, and, when
the history heuristic is on, sorts the rest by how often each move caused a cut-off.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any


class KillerTable:
    """Two quiet moves per ply that recently caused a beta cut-off."""

    __slots__ = ("slots",)

    def __init__(self, plies: int = 128) -> None:
        self.slots: list[list[Any]] = [[None, None] for _ in range(plies)]

    def add(self, ply: int, move: Hashable) -> None:
        while ply >= len(self.slots):
            self.slots.append([None, None])
        pair = self.slots[ply]
        if pair[0] != move:
            pair[1] = pair[0]
            pair[0] = move

    def get(self, ply: int) -> list[Any]:
        return self.slots[ply] if ply < len(self.slots) else [None, None]


class HistoryTable:
    """Schaeffer's history heuristic: credit a move by ``depth**2`` each time it cuts off."""

    __slots__ = ("scores",)

    def __init__(self) -> None:
        self.scores: dict[Hashable, int] = {}

    def add(self, move: Hashable, depth: int) -> None:
        self.scores[move] = self.scores.get(move, 0) + depth * depth

    def score(self, move: Hashable) -> int:
        return self.scores.get(move, 0)


def order_moves(
    moves: Sequence[Any],
    first: Any,
    killers: list[Any] | None,
    history: HistoryTable | None,
) -> list[Any]:
    """``moves`` reordered: ``first`` (the TT move), then killers, then by history score.

    Moves not in ``moves`` are ignored, so stale killers and hash collisions are harmless.
    """
    ordered = list(moves)
    if history is not None and history.scores and len(ordered) > 1:
        ordered.sort(key=history.score, reverse=True)  # stable: ties keep the game's order
    if killers is not None:
        for killer in reversed(killers):
            if killer is not None and killer != first and killer in ordered:
                ordered.remove(killer)
                ordered.insert(0, killer)
    if first is not None and first in ordered:
        ordered.remove(first)
        ordered.insert(0, first)
    return ordered
