"""Recording a search node by node, for small trees: the teaching view of a search.

Pass a ``SearchTrace`` to ``search()`` or ``solve()``. The search then records, for every
node, the move that led there, the depth left, the (alpha, beta) window on entry, the
value and bound on exit, whether the transposition table answered it, and which moves a
cut-off left unsearched. Without a trace the search runs exactly the code it always runs
(the recording wrappers are bound only when a trace is given), so recording off costs
nothing.

>>> from negamax.games.tree import ExplicitTree
>>> from negamax.search import search
>>> from negamax.core.types import SearchLimits
>>> trace = SearchTrace()
>>> tree = ExplicitTree([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
>>> search(tree, SearchLimits(depth=2), algorithm="alphabeta", trace=trace).score
3
>>> cut = [len(trace.nodes[child].cut_moves) for child in trace.root.children]  # AIMA's fig. 5.5
>>> len(trace.nodes), trace.root.value, cut
(11, 3, [0, 2, 0])
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from typing import Any

from negamax.core.errors import NegamaxError
from negamax.core.score import Bound

DEFAULT_MAX_NODES = 20_000


class TraceLimitExceeded(NegamaxError, ValueError):
    """The search visited more nodes than the trace may hold."""


@dataclasses.dataclass
class TracedNode:
    """One node of a recorded search."""

    index: int
    parent: int | None
    move: Hashable | None
    """The move from the parent (``None`` at the root)."""
    path: tuple[Hashable, ...]
    depth: int
    """Plies left to search below this node."""
    alpha: int | None
    """The window on entry (``None`` for plain negamax, which has no window)."""
    beta: int | None
    legal: list[Hashable] = dataclasses.field(default_factory=list)
    player: int | None = None
    """The player to move here (``player()``); ``None`` where the search did not say."""
    value: int | None = None
    bound: Bound = Bound.EXACT
    tt_cutoff: bool = False
    """Answered by the transposition table without searching a move."""
    children: list[int] = dataclasses.field(default_factory=list)
    cut_moves: list[Hashable] = dataclasses.field(default_factory=list)
    """Legal moves left unsearched because of a beta cut-off (the pruned branches)."""

    @property
    def searched_moves(self) -> list[Hashable]:
        return [move for move in self.legal if move not in self.cut_moves]


class SearchTrace:
    """The nodes of one search, in the order they were entered."""

    def __init__(self, max_nodes: int = DEFAULT_MAX_NODES) -> None:
        self.max_nodes = max_nodes
        self.strict_cutoffs = False
        """Set by a search that cuts off only past beta, not at it (``search.textbook``)."""
        self.nodes: list[TracedNode] = []
        self._open: list[int] = []
        self._path: list[Hashable] = []

    # -- called by the search ---------------------------------------------------------

    def moved(self, move: Hashable) -> None:
        self._path.append(move)

    def unmoved(self) -> None:
        self._path.pop()

    def enter(
        self, depth: int, alpha: int | None, beta: int | None, legal: list[Hashable], player: int | None = None
    ) -> TracedNode:
        if len(self.nodes) >= self.max_nodes:
            raise TraceLimitExceeded(
                f"the search visited more than {self.max_nodes:,} nodes; trace a smaller search "
                f"(a lower depth, a later position) or raise the limit"
            )
        parent = self._open[-1] if self._open else None
        node = TracedNode(
            index=len(self.nodes),
            parent=parent,
            move=self._path[-1] if parent is not None and self._path else None,
            path=tuple(self._path),
            depth=depth,
            alpha=alpha,
            beta=beta,
            legal=legal,
            player=player,
        )
        self.nodes.append(node)
        if parent is not None:
            self.nodes[parent].children.append(node.index)
        self._open.append(node.index)
        return node

    def leave(self, node: TracedNode, value: int, table_answered: bool) -> None:
        self._open.pop()
        node.value = value
        if node.alpha is not None and node.beta is not None:
            # a search that cuts only past beta proves a bound only past the window
            strict = self.strict_cutoffs
            if value < node.alpha or (value == node.alpha and not strict):
                node.bound = Bound.UPPER
            elif value > node.beta or (value == node.beta and not strict):
                node.bound = Bound.LOWER
        node.tt_cutoff = table_answered and not node.children
        searched = {self.nodes[child].move for child in node.children}
        if node.bound == Bound.LOWER and node.children:
            node.cut_moves = [move for move in node.legal if move not in searched]

    def abandon(self) -> None:
        """Close the open nodes after a search was stopped."""
        self._open.clear()
        self._path.clear()

    # -- reading ----------------------------------------------------------------------

    @property
    def root(self) -> TracedNode:
        return self.nodes[0]

    def principal_variation(self) -> list[int]:
        """Node indices along the root's best line (children whose value backs up exactly)."""
        line = [0] if self.nodes else []
        while line and self.nodes[line[-1]].children:
            node = self.nodes[line[-1]]
            best = [child for child in node.children if self.from_parent(self.nodes[child]) == node.value]
            if not best:
                break
            line.append(best[0])
        return line

    def from_parent(self, child: TracedNode) -> int | None:
        """What ``child``'s value is worth to its parent's player to move: the same value when
        that player moves again (``player()`` unchanged), else negated."""
        if child.value is None or child.parent is None:
            return child.value
        same = child.player is not None and child.player == self.nodes[child.parent].player
        return child.value if same else -child.value

    def as_dicts(self) -> list[dict[str, Any]]:
        return [
            {
                "index": node.index,
                "parent": node.parent,
                "move": node.move,
                "path": list(node.path),
                "depth": node.depth,
                "player": node.player,
                "alpha": node.alpha,
                "beta": node.beta,
                "value": node.value,
                "bound": node.bound.name.lower(),
                "tt_cutoff": node.tt_cutoff,
                "children": node.children,
                "cut_moves": node.cut_moves,
            }
            for node in self.nodes
        ]
