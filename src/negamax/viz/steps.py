"""A recorded search as the steps a student follows it by: each node entered with its
window, each value backed up to the parent, the parent's best and alpha as they change,
and each cut-off with its reason in words. The page's stepper walks these forward and back.

The search is negamax: a child's value is the other player's, so it counts for the parent
negated (unless the same player moves again there, as in Kalah: then it counts as it is).
With a window, the parent's alpha rises to its best value so far, and once the best
reaches beta the moves not yet searched are pruned (the opponent, who chose beta's bound
elsewhere, never lets the game come here).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from negamax.search.trace import SearchTrace, TracedNode
from negamax.viz.labels import bound_text, value_text, window_text


@dataclasses.dataclass(frozen=True)
class Step:
    """One step of the walk: ``node`` entered (``kind`` ``enter``) or its value backed up
    to its parent (``return``); ``alpha`` and ``beta`` are the window of the node the step
    leaves the search in (its parent after a return), as text; ``cut`` is set on the step
    that makes the parent cut off."""

    node: int
    kind: str
    text: str
    alpha: str = ""
    beta: str = ""
    best: str = ""
    cut: bool = False

    def as_dict(self) -> dict[str, object]:
        return dataclasses.asdict(self)


def _bound_text(value: int | None, unit: int) -> str:
    return "" if value is None else bound_text(value, unit)


def _name(node: TracedNode, labels: Mapping[int, str]) -> str:
    if node.parent is None:
        return "the root"
    return labels.get(node.index, "?")


def visit_steps(
    trace: SearchTrace, labels: Mapping[int, str], pruned: Mapping[int, Sequence[str]], unit: int = 1
) -> list[Step]:
    """The steps of ``trace``: ``labels`` and ``pruned`` give its moves in the game's
    notation (``viz.labels.move_labels`` and ``pruned_labels``), ``unit`` its values' unit
    (the game's ``evaluation_unit``)."""
    steps: list[Step] = []
    if not trace.nodes:
        return steps

    def shown(value: int | None) -> str:
        return value_text(value, unit)

    def edge(value: int | None) -> str:
        return _bound_text(value, unit)

    def walk(node: TracedNode) -> None:
        name = _name(node, labels)
        alpha, beta = node.alpha, node.beta
        windowed = alpha is not None and beta is not None
        window = f" with the window {window_text(node, unit)}" if windowed else ""
        steps.append(Step(node.index, "enter", f"enter {name}{window}", edge(alpha), edge(beta)))
        best: int | None = None
        for child_index in node.children:
            child = trace.nodes[child_index]
            walk(child)
            if child.value is None:
                continue  # a search stopped inside this child
            worth = trace.from_parent(child)
            assert worth is not None
            move = labels.get(child.index, "?")
            table = " (the table's answer)" if child.tt_cutoff else ""
            if child.player is not None and child.player == node.player:
                text = f"{move} is worth {shown(child.value)}{table} to the same player, who moves again"
            else:
                text = f"{move} is worth {shown(child.value)}{table} to its player to move: {shown(worth)} here"
            if best is None or worth > best:
                best = worth
                text += ", the best so far"
            if windowed and alpha is not None and best > alpha:
                alpha = best
                text += f"; alpha rises to {shown(alpha)}"
            last = child_index == node.children[-1]
            reached = beta is not None and (best > beta if trace.strict_cutoffs else best >= beta)
            sign = ">" if trace.strict_cutoffs else ">="
            cut = windowed and reached and last and node.index in pruned
            if cut:
                skipped = list(pruned[node.index])
                text += (
                    f". Cut-off: {shown(best)} {sign} beta {edge(beta)}, so the opponent avoids {name};"
                    f" {len(skipped)} move{'s' if len(skipped) != 1 else ''} pruned ({' '.join(skipped)})"
                )
            elif windowed and reached and last:
                text += f"; it reaches beta {edge(beta)}, with no move left to prune"
            elif windowed and trace.strict_cutoffs and beta is not None and best == beta and not last:
                text += (
                    f"; it equals beta {edge(beta)}: CS188's alpha-beta cuts only past beta (>), so the search goes on"
                )
            steps.append(
                Step(
                    child.index,
                    "return",
                    text,
                    edge(alpha),
                    edge(beta),
                    shown(best),
                    cut,
                )
            )
        if node.parent is None:
            how = "answered by the table" if node.tt_cutoff else "searched"
            steps.append(Step(node.index, "return", f"the root is {how}: worth {shown(node.value)}"))

    walk(trace.root)
    return steps
