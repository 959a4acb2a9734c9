"""Move labels for the nodes of a trace, written in the game's own notation."""

from __future__ import annotations

from typing import Any

from negamax.core.game import Position
from negamax.core.rules import Game
from negamax.core.score import INF, describe
from negamax.search.trace import SearchTrace, TracedNode


def move_labels(trace: SearchTrace, game: Game, position: Position[Any]) -> dict[int, str]:
    """Node index -> the move leading to it, as the game writes it (the root gets '')."""
    labels: dict[int, str] = {}
    board = position.copy()

    def visit(node: TracedNode) -> None:
        for child_index in node.children:
            child = trace.nodes[child_index]
            labels[child_index] = game.move_text(board, child.move)
            board.play(child.move)
            visit(child)
            board.undo(child.move)

    if trace.nodes:
        labels[0] = ""
        visit(trace.root)
    return labels


def pruned_labels(trace: SearchTrace, game: Game, position: Position[Any]) -> dict[int, list[str]]:
    """Node index -> its cut-off (unsearched) moves, as the game writes them."""
    pruned: dict[int, list[str]] = {}
    board = position.copy()

    def visit(node: TracedNode) -> None:
        if node.cut_moves:
            pruned[node.index] = [game.move_text(board, move) for move in node.cut_moves]
        for child_index in node.children:
            child = trace.nodes[child_index]
            board.play(child.move)
            visit(child)
            board.undo(child.move)

    if trace.nodes:
        visit(trace.root)
    return pruned


def value_text(value: int | None) -> str:
    return "?" if value is None else describe(value).replace("win in ", "W").replace("loss in ", "L")


def window_text(node: TracedNode) -> str:
    if node.alpha is None or node.beta is None:
        return ""
    return f"[{bound_text(node.alpha)}, {bound_text(node.beta)}]"


def bound_text(value: int) -> str:
    """A window's bound as the trace shows it: ``-inf``, ``+inf``, or the value's text."""
    if value <= -INF:
        return "-inf"
    if value >= INF:
        return "+inf"
    return value_text(value)
