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
from functools import partial

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
    minimax: str = ""
    """The same step as a lecture words it: values, alpha and beta from the root player's
    (max's) side, a min node's value not negated."""
    minimax_alpha: str = ""
    minimax_beta: str = ""
    minimax_best: str = ""

    def as_dict(self) -> dict[str, object]:
        return dataclasses.asdict(self)


def _bound_text(value: int | None, unit: int) -> str:
    return "" if value is None else bound_text(value, unit)


def _name(node: TracedNode, labels: Mapping[int, str]) -> str:
    if node.parent is None:
        return "the root"
    return labels.get(node.index, "?")


def is_max(trace: SearchTrace, node: TracedNode) -> bool:
    """Whether the root's player (max) moves at ``node``: by ``player()`` where the search
    recorded it, else by the parity of the ply."""
    root = trace.root
    if node.player is not None and root.player is not None:
        return node.player == root.player
    return len(node.path) % 2 == len(root.path) % 2


def for_max(trace: SearchTrace, node: TracedNode, value: int | None) -> int | None:
    """A value of ``node``'s player to move, from max's side."""
    return value if value is None or is_max(trace, node) else -value


def max_window(trace: SearchTrace, node: TracedNode) -> tuple[int | None, int | None]:
    """``node``'s window from max's side: a min node's [alpha, beta] is [-beta, -alpha]."""
    if node.alpha is None or node.beta is None or is_max(trace, node):
        return node.alpha, node.beta
    return -node.beta, -node.alpha


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
    lecture = minimax_steps(trace, labels, pruned, unit)
    assert len(lecture) == len(steps)
    return [
        dataclasses.replace(step, minimax=text, minimax_alpha=alpha, minimax_beta=beta, minimax_best=best)
        for step, (text, alpha, beta, best) in zip(steps, lecture, strict=True)
    ]


def minimax_steps(
    trace: SearchTrace, labels: Mapping[int, str], pruned: Mapping[int, Sequence[str]], unit: int = 1
) -> list[tuple[str, str, str, str]]:
    """The steps of ``trace`` as a lecture words them, in the order of ``visit_steps``: each
    its text, and alpha, beta and the node's best so far from max's side."""
    steps: list[tuple[str, str, str, str]] = []
    shown, edge = partial(value_text, unit=unit), partial(_bound_text, unit=unit)

    def walk(node: TracedNode) -> None:
        name = _name(node, labels)
        maximising = is_max(trace, node)
        kind = "max node" if maximising else "min node"
        alpha, beta = max_window(trace, node)
        windowed = alpha is not None and beta is not None
        window = f" with alpha {edge(alpha)}, beta {edge(beta)}" if windowed else ""
        leaf = not node.children and not node.legal
        steps.append((f"enter {name} ({'a leaf' if leaf else kind}){window}", edge(alpha), edge(beta), ""))
        named = kind if node.parent is None else f"{kind} {name}"
        best: int | None = None
        for child_index in node.children:
            child = trace.nodes[child_index]
            walk(child)
            if child.value is None:
                continue
            worth = for_max(trace, child, child.value)
            assert worth is not None
            text = f"{labels.get(child.index, '?')} is worth {shown(worth)}"
            if best is None or (worth > best if maximising else worth < best):
                best = worth
                text += f", {'max' if maximising else 'min'}'s best so far"
            if maximising and alpha is not None and best > alpha:
                alpha = best
                text += f"; alpha rises to {shown(alpha)}"
            if not maximising and beta is not None and best < beta:
                beta = best
                text += f"; beta falls to {shown(beta)}"
            last = child_index == node.children[-1]
            strict = trace.strict_cutoffs
            if maximising:
                edge_name, edge_value, sign = "beta", beta, ">" if strict else ">="
                reached = beta is not None and (best > beta if strict else best >= beta)
            else:
                edge_name, edge_value, sign = "alpha", alpha, "<" if strict else "<="
                reached = alpha is not None and (best < alpha if strict else best <= alpha)
            if windowed and reached and last and node.index in pruned:
                skipped = list(pruned[node.index])
                searched = [trace.nodes[index] for index in node.children]
                leaves = all(not below.children and not below.tt_cutoff for below in searched)
                noun = ("leaf" if leaves else "move") if len(skipped) == 1 else ("leaves" if leaves else "moves")
                other = "min" if maximising else "max"
                text += (
                    f". {named}: {shown(best)} {sign} {edge_name} {edge(edge_value)}, so {other} avoids it;"
                    f" {len(skipped)} {noun} pruned (its {', '.join(skipped)})"
                )
            elif windowed and reached and last:
                text += f"; it reaches {edge_name} {edge(edge_value)}, with no move left to prune"
            elif windowed and strict and best == edge_value and not last:
                text += (
                    f"; it equals {edge_name} {edge(edge_value)}: CS188's alpha-beta cuts only past it"
                    f" ({sign}), so the search goes on"
                )
            steps.append((text, edge(alpha), edge(beta), shown(best)))
        if node.parent is None:
            steps.append((f"the root (max node) is worth {shown(for_max(trace, node, node.value))}", "", "", ""))

    walk(trace.root)
    return steps
