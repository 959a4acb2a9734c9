"""Explicit game trees written as nested lists, so textbook trees can be searched.

A list is a node whose items are its children (moves a, b, ...); an integer is a leaf.
Leaves are valued from the point of view of the player to move at the *root*, as the
textbooks draw minimax trees; the tree turns them into side-to-move values.

>>> from negamax.search import solve
>>> solve(ExplicitTree([[3, 12, 8], [2, 4, 6], [14, 5, 2]])).score  # AIMA's figure 5.2
3
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Sequence
from typing import Any, TypeAlias

from negamax.core.errors import IllegalMoveError, InvalidPositionError
from negamax.core.game import Position
from negamax.core.rules import BaseGame
from negamax.core.score import WIN_THRESHOLD

Tree: TypeAlias = "int | list[Tree]"


class ExplicitTree:
    """A position in a nested-list tree: the path of child indices from the root."""

    __slots__ = ("nodes", "path")

    def __init__(self, tree: Tree) -> None:
        self.nodes: list[Tree] = [tree]
        self.path: list[int] = []

    def legal_moves(self) -> list[int]:
        node = self.nodes[-1]
        return list(range(len(node))) if isinstance(node, list) else []

    def play(self, move: int) -> None:
        node = self.nodes[-1]
        assert isinstance(node, list)
        self.nodes.append(node[move])
        self.path.append(move)

    def undo(self, move: int) -> None:
        self.nodes.pop()
        self.path.pop()

    def is_terminal(self) -> bool:
        return not isinstance(self.nodes[-1], list)

    def terminal_value(self) -> int:
        leaf = self.nodes[-1]
        assert isinstance(leaf, int)
        return leaf if len(self.path) % 2 == 0 else -leaf

    def evaluate(self) -> int:
        return 0

    def key(self) -> tuple[int, ...]:
        return tuple(self.path)

    def player(self) -> int:
        return len(self.path) % 2

    def copy(self) -> ExplicitTree:
        clone = ExplicitTree(self.nodes[0])
        clone.nodes = list(self.nodes)
        clone.path = list(self.path)
        return clone


MAX_TREE_DEPTH = 64
"""The deepest tree read: more is no textbook exercise, and the searches recurse a level
a ply."""


def _check_tree(tree: object, text: str, depth: int = 0) -> Tree:
    if depth > MAX_TREE_DEPTH:
        raise InvalidPositionError(f"tree {text[:40]!r}...: deeper than {MAX_TREE_DEPTH} levels")
    if isinstance(tree, bool) or not isinstance(tree, int | list):
        raise InvalidPositionError(f"tree {text[:60]!r}: {tree!r} is neither a list nor a whole number")
    if isinstance(tree, int):
        if abs(tree) >= WIN_THRESHOLD:
            raise InvalidPositionError(f"tree {text[:60]!r}: leaf {tree} is too large (keep |value| < {WIN_THRESHOLD})")
        return tree
    if not tree:
        raise InvalidPositionError(f"tree {text[:60]!r}: a node has no children")
    return [_check_tree(child, text, depth + 1) for child in tree]


def child_letter(move: Hashable) -> str:
    """A child index as a lecture names it: a, b, c... (a number would read as a leaf's value)."""
    return chr(ord("a") + move) if isinstance(move, int) and 0 <= move < 26 else str(move)


class ChildIndexMoves:
    """Moves named by the child they lead to, as lectures name them: a, b, c... (a number
    would read as a leaf's value); past the 26th child, its index. The index itself (0, 1,
    ...) is read too."""

    def parse_move(self, position: Position[Any], text: str) -> int:
        moves = position.legal_moves()
        word = text.strip()
        if word.isascii() and word.isdigit():  # "²".isdigit() is true
            move = int(word)
        elif len(word) == 1 and "a" <= word.lower() <= "z":
            move = ord(word.lower()) - ord("a")
        else:
            move = -1
        if move not in moves:
            raise IllegalMoveError(f"{text!r} is not a child here; choose {_choices(moves)}")
        return move

    def move_text(self, position: Position[Any], move: Hashable) -> str:
        return child_letter(move)


def _choices(moves: Sequence[int]) -> str:
    if not moves:
        return "none: the game is over"
    last = len(moves) - 1
    return f"a-{child_letter(last)}" if last < 26 else f"a-z or 0-{last}"


class TreeGame(ChildIndexMoves, BaseGame):
    name = "tree"
    description = "An explicit game tree of nested lists; leaves valued for the root player"
    position_help = "a nested list, e.g. [[3,12,8],[2,4,6],[14,5,2]]"

    def new_position(self, text: str | None = None) -> ExplicitTree:
        text = (text or "").strip() or "[[3,12,8],[2,4,6],[14,5,2]]"
        try:
            tree = json.loads(text)
        except json.JSONDecodeError as error:
            raise InvalidPositionError(f"tree {text[:60]!r}: not a nested list ({error.msg})") from None
        except RecursionError:  # nested past what the reader can follow
            raise InvalidPositionError(f"tree {text[:40]!r}...: deeper than {MAX_TREE_DEPTH} levels") from None
        return ExplicitTree(_check_tree(tree, text))

    def position_text(self, position: Position[Any]) -> str:
        assert isinstance(position, ExplicitTree)
        return json.dumps(position.nodes[-1], separators=(",", ":"))

    def render(self, position: Position[Any]) -> str:
        """The node by its letters, as a lecture (and the page's search tree) names it: "b-a"
        is the first child of the second child (moves 1 0), "the root" the whole tree."""
        assert isinstance(position, ExplicitTree)
        letters = "-".join(child_letter(move) for move in position.path)
        return f"{f'node {letters}' if letters else 'the root'}: {self.position_text(position)}"
