"""Move labels for the nodes of a trace, written in the game's own notation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from negamax.core.game import Position
from negamax.core.rules import Game
from negamax.core.score import INF, describe, is_decisive
from negamax.search.trace import SearchTrace, TracedNode


def move_labels(
    trace: SearchTrace, game: Game, position: Position[Any], write: Callable[[Position[Any], Any], str] | None = None
) -> dict[int, str]:
    """Node index -> the move leading to it, as the game writes it or ``write(board,
    move)`` does (SAN for chess, say); the root gets ''."""
    labels: dict[int, str] = {}
    board = position.copy()
    written = write or game.move_text

    def visit(node: TracedNode) -> None:
        for child_index in node.children:
            child = trace.nodes[child_index]
            labels[child_index] = written(board, child.move)
            board.play(child.move)
            visit(child)
            board.undo(child.move)

    if trace.nodes:
        labels[0] = ""
        visit(trace.root)
    return labels


def pruned_labels(
    trace: SearchTrace, game: Game, position: Position[Any], write: Callable[[Position[Any], Any], str] | None = None
) -> dict[int, list[str]]:
    """Node index -> its cut-off (unsearched) moves, as the game writes them or ``write``
    does."""
    pruned: dict[int, list[str]] = {}
    board = position.copy()
    written = write or game.move_text

    def visit(node: TracedNode) -> None:
        if node.cut_moves:
            pruned[node.index] = [written(board, move) for move in node.cut_moves]
        for child_index in node.children:
            child = trace.nodes[child_index]
            board.play(child.move)
            visit(child)
            board.undo(child.move)

    if trace.nodes:
        visit(trace.root)
    return pruned


def value_text(value: int | None, unit: int = 1) -> str:
    """A traced value, short enough for a node: ``W3`` / ``L2`` for a win or loss in so many
    plies, else the number, in the game's unit when it has one (``evaluation_unit``: chess
    in pawns, ``0.35``, as the engine panel speaks)."""
    if value is None:
        return "?"
    if unit != 1 and not is_decisive(value):
        return f"{value / unit:.2f}"
    return describe(value).replace("win in ", "W").replace("loss in ", "L")


def window_text(node: TracedNode, unit: int = 1) -> str:
    if node.alpha is None or node.beta is None:
        return ""
    return f"[{bound_text(node.alpha, unit)}, {bound_text(node.beta, unit)}]"


def bound_text(value: int, unit: int = 1) -> str:
    """A window's bound as the trace shows it: ``-inf``, ``+inf``, or the value's text."""
    if value <= -INF:
        return "-inf"
    if value >= INF:
        return "+inf"
    return value_text(value, unit)
