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

from negamax.core.score import INF, Bound
from negamax.search.trace import SearchTrace, TracedNode
from negamax.viz.labels import bound_text, value_text, window_text


@dataclasses.dataclass(frozen=True)
class Step:
    """One step of the walk: ``node`` entered (``kind`` ``enter``) or its value backed up
    to its parent (``return``); ``alpha`` and ``beta`` are the window of the node the step
    leaves the search in (its parent after a return), as text, and ``window`` says that
    node's name with them; ``cut`` is set on the step that makes the parent cut off."""

    node: int
    kind: str
    text: str
    alpha: str = ""
    beta: str = ""
    best: str = ""
    cut: bool = False
    window: str = ""
    minimax: str = ""
    """The same step as a lecture words it: values, alpha and beta from the root player's
    (max's) side, a min node's value not negated."""
    minimax_alpha: str = ""
    minimax_beta: str = ""
    minimax_best: str = ""
    minimax_window: str = ""

    def as_dict(self) -> dict[str, object]:
        return dataclasses.asdict(self)


def _bound_text(value: int | None, unit: int) -> str:
    return "" if value is None else bound_text(value, unit)


def full_names(trace: SearchTrace, labels: Mapping[int, str], separator: str = " ") -> dict[int, str]:
    """Node index -> the moves from the root to it, joined by ``separator`` ("b-a" in a
    typed tree, where every level reuses the letters a, b, c); the root is "the root"."""
    names: dict[int, str] = {}
    for node in trace.nodes:  # a parent is entered before its children
        if node.parent is None:
            names[node.index] = "the root"
        else:
            above = names[node.parent]
            label = labels.get(node.index, "?")
            names[node.index] = label if node.parent == 0 else f"{above}{separator}{label}"
    return names


def proven_bounds(trace: SearchTrace) -> dict[int, Bound]:
    """Node index -> what its value proves of the node's true value (for its player to
    move), from what was searched below it: exact where every move was searched and the
    values it rests on are exact (a node whose value is past the window, all its moves
    searched, is no bound), at least (``LOWER``) where moves were pruned, at most
    (``UPPER``) where it rests on a child's bound. A table's answer keeps the table's."""
    intervals: dict[int, tuple[int, int]] = {}
    proven: dict[int, Bound] = {}
    for node in reversed(trace.nodes):  # children come after their parent
        value = node.value
        if value is None:
            continue
        if node.tt_cutoff or not node.children:
            bound = node.bound if node.tt_cutoff else Bound.EXACT
            low = -INF if bound == Bound.UPPER else value
            high = INF if bound == Bound.LOWER else value
        else:
            lows, highs = [], []
            for child_index in node.children:
                child = trace.nodes[child_index]
                if child.index not in intervals:
                    continue
                child_low, child_high = intervals[child.index]
                same = child.player is not None and child.player == node.player  # moves again
                lows.append(child_low if same else -child_high)
                highs.append(child_high if same else -child_low)
            unsearched = len(lows) < len(node.children) or node.cut_moves or len(node.children) < len(node.legal)
            low = max(lows, default=-INF)
            high = INF if unsearched or not highs else max(highs)
            bound = node.bound  # a value neither bound (no fail-soft search gives one)
            if low == high:
                bound = Bound.EXACT
            elif value in (low, high):
                bound = Bound.LOWER if value == low else Bound.UPPER
        intervals[node.index] = (low, high)
        proven[node.index] = bound
    return proven


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


def max_bound(trace: SearchTrace, node: TracedNode, bound: Bound) -> Bound:
    """A bound of ``node``'s player to move, from max's side: a min node's "at least" for
    itself is "at most" for max."""
    if bound == Bound.EXACT or is_max(trace, node):
        return bound
    return Bound.UPPER if bound == Bound.LOWER else Bound.LOWER


BOUND_WORDS = {Bound.EXACT: "", Bound.LOWER: "at least ", Bound.UPPER: "at most "}


def all_leaves(trace: SearchTrace, node: TracedNode) -> bool:
    """Whether the moves ``node`` searched all led to leaves (its pruned ones likely do too,
    where the tree does not say)."""
    return all(not trace.nodes[index].children and not trace.nodes[index].tt_cutoff for index in node.children)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun if count == 1 else 'leaves' if noun == 'leaf' else noun + 's'}"


def pruned_count(skipped: Sequence[str], leaves: bool, sizes: Sequence[int | None] | None = None) -> str:
    """How many moves a cut-off pruned: "2 leaves" where they are leaves, "1 move (2 leaves)"
    where a typed tree says how many leaves are under them (``sizes``: None for a leaf)."""
    if sizes is not None and len(sizes) == len(skipped):
        if all(size is None for size in sizes):
            return _plural(len(skipped), "leaf")
        return f"{_plural(len(skipped), 'move')} ({_plural(sum(size or 1 for size in sizes), 'leaf')})"
    return _plural(len(skipped), "leaf" if leaves else "move")


def _pruned_text(skipped: Sequence[str], leaves: bool, sizes: Sequence[int | None] | None) -> str:
    return f"{pruned_count(skipped, leaves, sizes)} pruned (its {', '.join(skipped)})"


def visit_steps(
    trace: SearchTrace,
    labels: Mapping[int, str],
    pruned: Mapping[int, Sequence[str]],
    unit: int = 1,
    separator: str = " ",
    pruned_sizes: Mapping[int, Sequence[int | None]] | None = None,
) -> list[Step]:
    """The steps of ``trace``: ``labels`` and ``pruned`` give its moves in the game's
    notation (``viz.labels.move_labels`` and ``pruned_labels``), ``unit`` its values' unit
    (the game's ``evaluation_unit``); a node is named by its moves from the root, joined by
    ``separator``; ``pruned_sizes`` gives the leaves under each pruned move where known
    (None for a leaf: a typed tree knows its unsearched branches)."""
    steps: list[Step] = []
    if not trace.nodes:
        return steps
    names = full_names(trace, labels, separator)

    def shown(value: int | None) -> str:
        return value_text(value, unit)

    def edge(value: int | None) -> str:
        return _bound_text(value, unit)

    def line(name: str, alpha: int | None, beta: int | None, best: int | None) -> str:
        if alpha is None or beta is None:
            return ""
        kept = "" if best is None else f" · best so far {shown(best)}"
        return f"at {name}: alpha {edge(alpha)} · beta {edge(beta)}{kept}"

    proven = proven_bounds(trace)
    told: set[str] = set()  # the sign flip and the window's swap are explained once each

    def once(key: str, words: str) -> str:
        if key in told:
            return ""
        told.add(key)
        return words

    def same_player(one: TracedNode, other: TracedNode) -> bool:
        return one.player is not None and one.player == other.player

    def opponent_above(node: TracedNode) -> str:
        """The nearest node above ``node`` where the other player moves (in Kalah the parent
        may be the same player, who gains from the cut node)."""
        above = node.parent
        while above is not None and same_player(trace.nodes[above], node):
            above = trace.nodes[above].parent
        return "the opponent" if above is None else names[above]

    def walk(node: TracedNode) -> None:
        name = names[node.index]
        alpha, beta = node.alpha, node.beta
        windowed = alpha is not None and beta is not None
        window = f" with the window {window_text(node, unit)}" if windowed else ""
        parent = None if node.parent is None else trace.nodes[node.parent]
        if windowed and parent is not None and not same_player(parent, node) and (alpha, beta) != (-INF, INF):
            window += once(
                "window",
                f" (its parent's window negated and swapped: the same bounds, seen by the player to move at {name})",
            )
        steps.append(
            Step(
                node.index,
                "enter",
                f"enter {name}{window}",
                edge(alpha),
                edge(beta),
                window=line(name, alpha, beta, None),
            )
        )
        best: int | None = None
        strict = trace.strict_cutoffs
        sign = ">" if strict else ">="
        for child_index in node.children:
            child = trace.nodes[child_index]
            walk(child)
            if child.value is None:
                continue  # a search stopped inside this child
            worth = trace.from_parent(child)
            assert worth is not None
            move = names[child.index]
            table = " (the table's answer)" if child.tt_cutoff else ""
            bound = proven.get(child.index, Bound.EXACT)
            if same_player(child, node):
                text = (
                    f"{move} is worth {BOUND_WORDS[bound]}{shown(child.value)}{table} to the same player,"
                    " who moves again: the value counts as it is"
                )
            else:
                flipped = {Bound.LOWER: Bound.UPPER, Bound.UPPER: Bound.LOWER}.get(bound, bound)
                text = (
                    f"{move} is worth {BOUND_WORDS[bound]}{shown(child.value)}{table} to its player to move,"
                    f" so {BOUND_WORDS[flipped]}{shown(worth)} to {name}"
                    + once("sign", " (negamax: what one player wins, the other loses)")
                )
            improved = best is None or worth > best
            if improved:
                best = worth
                text += ", the best so far"
            else:
                assert best is not None
                relation = "=" if worth == best else "<"
                text += f"; {shown(worth)} {relation} {shown(best)}, so {name} keeps {shown(best)}"
            assert best is not None
            if windowed and alpha is not None and best > alpha:
                alpha = best
                text += f"; alpha rises to {shown(alpha)}"
            last = child_index == node.children[-1]
            reached = beta is not None and (best > beta if strict else best >= beta)
            if windowed and reached and last and node.index in pruned:
                sizes = None if pruned_sizes is None else pruned_sizes.get(node.index)
                avoider = opponent_above(node)
                text += (
                    f". Cut-off at {name}: {shown(best)} {sign} beta {edge(beta)}, so {avoider} avoids it;"
                    f" {_pruned_text(pruned[node.index], all_leaves(trace, node), sizes)}"
                )
                cut = True
            else:
                cut = False
                if windowed and reached and last:
                    text += f"; {shown(best)} {sign} beta {edge(beta)}, but no move is left to prune"
                elif windowed and strict and improved and beta is not None and best == beta and not last:
                    text += (
                        f"; it equals beta {edge(beta)}: the rule chosen prunes only past beta (>), so the search"
                        " goes on"
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
                    window=line(name, alpha, beta, best),
                )
            )
        if node.parent is None:
            how = "answered by the table" if node.tt_cutoff else "searched"
            steps.append(Step(node.index, "return", f"the root is {how}: worth {shown(node.value)}"))

    walk(trace.root)
    lecture = minimax_steps(trace, labels, pruned, unit, separator, pruned_sizes)
    assert len(lecture) == len(steps)
    return [
        dataclasses.replace(
            step, minimax=text, minimax_alpha=alpha, minimax_beta=beta, minimax_best=best, minimax_window=window
        )
        for step, (text, alpha, beta, best, window) in zip(steps, lecture, strict=True)
    ]


def minimax_steps(
    trace: SearchTrace,
    labels: Mapping[int, str],
    pruned: Mapping[int, Sequence[str]],
    unit: int = 1,
    separator: str = " ",
    pruned_sizes: Mapping[int, Sequence[int | None]] | None = None,
) -> list[tuple[str, str, str, str, str]]:
    """The steps of ``trace`` as a lecture words them, in the order of ``visit_steps``: each
    its text, alpha, beta and the node's best so far from max's side, and the line that
    says whose window and best they are."""
    steps: list[tuple[str, str, str, str, str]] = []
    shown, edge = partial(value_text, unit=unit), partial(_bound_text, unit=unit)
    names = full_names(trace, labels, separator)
    proven = proven_bounds(trace)
    strict = trace.strict_cutoffs

    def called(node: TracedNode) -> str:
        if node.parent is None:
            return "the root (max node)"
        if not node.children and not node.tt_cutoff:
            return f"leaf {names[node.index]}"
        return f"{'max' if is_max(trace, node) else 'min'} node {names[node.index]}"

    def line(node: TracedNode, alpha: int | None, beta: int | None, best: int | None) -> str:
        if alpha is None or beta is None:
            return ""
        who = "max" if is_max(trace, node) else "min"
        kept = "" if best is None else f" · {who}'s best so far {shown(best)}"
        return f"at {called(node)}: alpha {edge(alpha)} · beta {edge(beta)}{kept}"

    def walk(node: TracedNode) -> None:
        maximising = is_max(trace, node)
        who, other = ("max", "min") if maximising else ("min", "max")
        alpha, beta = max_window(trace, node)
        windowed = alpha is not None and beta is not None
        window = f" with alpha {edge(alpha)}, beta {edge(beta)}" if windowed else ""
        named = "the root" if node.parent is None else called(node)
        steps.append((f"enter {called(node)}{window}", edge(alpha), edge(beta), "", line(node, alpha, beta, None)))
        best: int | None = None
        for child_index in node.children:
            child = trace.nodes[child_index]
            walk(child)
            if child.value is None:
                continue
            worth = for_max(trace, child, child.value)
            assert worth is not None
            bound = max_bound(trace, child, proven.get(child.index, Bound.EXACT))
            text = f"{names[child.index]} is worth {BOUND_WORDS[bound]}{shown(worth)}"
            improved = best is None or (worth > best if maximising else worth < best)
            if improved:
                best = worth
                text += f", {who}'s best so far"
            else:
                assert best is not None
                relation = "=" if worth == best else ("<" if maximising else ">")
                text += f"; {shown(worth)} {relation} {shown(best)}, so {who} keeps {shown(best)}"
            if maximising and alpha is not None and best > alpha:
                alpha = best
                text += f"; alpha rises to {shown(alpha)}"
            if not maximising and beta is not None and best < beta:
                beta = best
                text += f"; beta falls to {shown(beta)}"
            last = child_index == node.children[-1]
            if maximising:
                edge_name, edge_value, sign = "beta", beta, ">" if strict else ">="
                reached = beta is not None and (best > beta if strict else best >= beta)
            else:
                edge_name, edge_value, sign = "alpha", alpha, "<" if strict else "<="
                reached = alpha is not None and (best < alpha if strict else best <= alpha)
            test = f"{shown(best)} {sign} {edge_name} {edge(edge_value)}"
            if windowed and reached and last and node.index in pruned:
                leaves = all_leaves(trace, node)
                sizes = None if pruned_sizes is None else pruned_sizes.get(node.index)
                text += f". {named}: {test}, so {other} avoids it; {_pruned_text(pruned[node.index], leaves, sizes)}"
            elif windowed and reached and last:
                text += f"; {test}, but no move is left to prune"
            elif windowed and strict and improved and best == edge_value and not last:
                text += (
                    f"; {who}'s best {shown(best)} equals {edge_name} {edge(edge_value)}: the rule chosen prunes only"
                    f" past {edge_name} ({shown(best)} {sign} {edge(edge_value)} is false), so the search goes on"
                )
            steps.append((text, edge(alpha), edge(beta), shown(best), line(node, alpha, beta, best)))
        if node.parent is None:
            steps.append((f"the root (max node) is worth {shown(for_max(trace, node, node.value))}", "", "", "", ""))

    walk(trace.root)
    return steps
