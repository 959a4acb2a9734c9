"""Seeded random game trees (or DAGs) for tests and teaching.

A node is ``(depth, identity)``; its children, leaf value, heuristic value and the noisy
flags of its moves are pure functions of the seed and the node, so a tree needs no memory
and the same node always looks the same. With ``transpositions=K`` there are only ``K``
identities per level, so many paths meet in the same node, which exercises transposition
tables; depth is part of the node, so a node is always met at the same remaining depth.
With ``again=P``, P percent of the nodes have their player to move drawn at random (a pure
function of the node, like the rest) instead of alternating by depth: there the same player
may move twice in a row, as in Kalah.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from negamax.core.errors import InvalidPositionError
from negamax.core.game import Position
from negamax.core.rules import BaseGame
from negamax.games.tree import ChildIndexMoves

MASK64 = (1 << 64) - 1


def mix(*values: int) -> int:
    """A 64-bit hash of small integers (splitmix64 steps)."""
    state = 0x9E3779B97F4A7C15
    for value in values:
        state = (state ^ (value & MASK64)) * 0xBF58476D1CE4E5B9 & MASK64
        state ^= state >> 31
    state = (state ^ (state >> 30)) * 0x94D049BB133111EB & MASK64
    return state ^ (state >> 27)


SALT_CHILD, SALT_LEAF, SALT_EVAL, SALT_BRANCH, SALT_EARLY, SALT_NOISY, SALT_PLAYER = range(1, 8)


@dataclasses.dataclass(frozen=True)
class TreeShape:
    """The parameters of a random tree."""

    branching: int = 3
    depth: int = 4
    seed: int = 0
    low: int = -100
    high: int = 100
    transpositions: int = 0
    """Identities per level (0: a tree with no transpositions)."""
    variable: bool = False
    """Each node has 1..branching children instead of exactly branching."""
    leaves: int = 0
    """Percent chance that an inner node is a leaf already."""
    noisy: int = 0
    """Percent of moves that are noisy (searched by quiescence)."""
    again: int = 0
    """Percent of nodes below the root whose player to move is drawn at random rather than
    alternating by depth (so a player may move twice in a row)."""

    def __post_init__(self) -> None:
        if not 1 <= self.branching <= 64 or not 0 <= self.depth <= 40:
            raise InvalidPositionError("random tree: branching must be 1-64 and depth 0-40")
        if self.low > self.high:
            raise InvalidPositionError("random tree: values low..high needs low <= high")
        if self.transpositions < 0 or not all(0 <= percent <= 100 for percent in (self.leaves, self.noisy, self.again)):
            raise InvalidPositionError("random tree: transpositions >= 0, leaves, noisy and again are percents")


class RandomTree:
    """A position in a seeded random tree."""

    __slots__ = ("shape", "stack")

    def __init__(self, shape: TreeShape) -> None:
        self.shape = shape
        self.stack: list[tuple[int, int]] = [(0, mix(shape.seed))]

    def _children(self) -> int:
        depth, identity = self.stack[-1]
        shape = self.shape
        if shape.variable:
            return 1 + mix(shape.seed, SALT_BRANCH, depth, identity) % shape.branching
        return shape.branching

    def legal_moves(self) -> list[int]:
        return [] if self.is_terminal() else list(range(self._children()))

    def noisy_moves(self) -> list[int]:
        depth, identity = self.stack[-1]
        shape = self.shape
        if not shape.noisy or self.is_terminal():
            return []
        return [
            move
            for move in range(self._children())
            if mix(shape.seed, SALT_NOISY, depth, identity, move) % 100 < shape.noisy
        ]

    def play(self, move: int) -> None:
        depth, identity = self.stack[-1]
        child = mix(self.shape.seed, SALT_CHILD, depth, identity, move)
        if self.shape.transpositions:
            child %= self.shape.transpositions
        self.stack.append((depth + 1, child))

    def undo(self, move: int) -> None:
        self.stack.pop()

    def is_terminal(self) -> bool:
        depth, identity = self.stack[-1]
        shape = self.shape
        if depth >= shape.depth:
            return True
        return depth > 0 and shape.leaves > 0 and mix(shape.seed, SALT_EARLY, depth, identity) % 100 < shape.leaves

    def _value(self, salt: int) -> int:
        depth, identity = self.stack[-1]
        shape = self.shape
        return shape.low + mix(shape.seed, salt, depth, identity) % (shape.high - shape.low + 1)

    def terminal_value(self) -> int:
        return self._value(SALT_LEAF)

    def evaluate(self) -> int:
        return self._value(SALT_EVAL)

    def key(self) -> tuple[int, int]:
        return self.stack[-1]

    def player(self) -> int:
        depth, identity = self.stack[-1]
        shape = self.shape
        if shape.again and depth > 0 and mix(shape.seed, SALT_PLAYER, depth, identity) % 100 < shape.again:
            return mix(shape.seed, SALT_PLAYER, identity, depth) & 1
        return depth & 1

    def copy(self) -> RandomTree:
        clone = RandomTree(self.shape)
        clone.stack = list(self.stack)
        return clone


FIELDS = {
    "branching": "branching",
    "b": "branching",
    "depth": "depth",
    "d": "depth",
    "seed": "seed",
    "transpositions": "transpositions",
    "variable": "variable",
    "leaves": "leaves",
    "noisy": "noisy",
    "again": "again",
}


class RandomTreeGame(ChildIndexMoves, BaseGame):
    name = "random"
    description = "A seeded random game tree (or DAG) for tests and teaching"
    position_help = "key=value pairs, e.g. branching=3,depth=5,seed=7,values=-9..9,transpositions=20"

    def new_position(self, text: str | None = None) -> RandomTree:
        settings: dict[str, Any] = {}
        for part in re.split(r"[,\s]+", (text or "").strip()):
            if not part:
                continue
            name, _, value = part.partition("=")
            try:
                if name == "values":
                    low, _, high = value.partition("..")
                    settings["low"], settings["high"] = int(low), int(high)
                elif name in FIELDS:
                    field = FIELDS[name]
                    settings[field] = value.lower() in ("1", "true", "yes") if field == "variable" else int(value)
                else:
                    raise InvalidPositionError(
                        f"random tree: unknown setting {name!r}; use {', '.join(sorted(set(FIELDS.values())))}, values"
                    )
            except ValueError as error:
                if isinstance(error, InvalidPositionError):
                    raise
                raise InvalidPositionError(f"random tree: {part!r} needs a whole number") from None
        return RandomTree(TreeShape(**settings))

    def position_text(self, position: Position[Any]) -> str:
        assert isinstance(position, RandomTree)
        shape = position.shape
        return (
            f"branching={shape.branching},depth={shape.depth},seed={shape.seed},values={shape.low}..{shape.high},"
            f"transpositions={shape.transpositions},variable={int(shape.variable)},leaves={shape.leaves},noisy={shape.noisy}"
            f",again={shape.again}"
        )

    def render(self, position: Position[Any]) -> str:
        assert isinstance(position, RandomTree)
        depth, identity = position.key()
        return f"node at depth {depth} (identity {identity:x})"
