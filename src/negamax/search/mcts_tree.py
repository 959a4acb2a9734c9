"""What a Monte Carlo search tree says: the move to play, the lines with their visits and win
rates, the values its solver proved, and a picture of its busiest part.

Both Monte Carlo tree searches keep their tree as the same fields (the pure-Python search in
lists, ``negamax.search.mcts``; the compiled one in arrays, ``negamax.search.compiled.mcts``),
and this module reads either. The tree is a graph: a position reached by several paths of the
same length (in Hex, every order of the same stones) is one node, its children shared. Node 0
is the root. For each node:

* ``first``, ``count``: where its edges are, one for each legal move (``first == 0``: not
  expanded yet; edge 0 is never used);
* ``node_visits``: the playouts through it;
* ``lower``, ``upper``: its value as the solver has proven it so far, from its own player to
  move, with win distances from the node (``negamax.core.score``); ``-INF`` and ``INF``
  where nothing is proven, equal once the node is solved;
* ``player``: the player to move there (0 or 1; a child with its parent's player is that
  player's second move).

For each edge (a move from its node):

* ``move``: the game's move, or the compiled search's code;
* ``child``: the node it leads to (0: none made yet);
* ``visits``: the playouts through the edge;
* ``reward``: what they were worth to the node's player to move, in half points: 2 a win,
  1 a draw, 0 a loss. (A node's own playouts may have come through other parents.)

A child is worth to its parent what ``from_child_bounds`` makes of its bounds (negated
unless the same player moves again, and one ply further from a win).
"""

from __future__ import annotations

import dataclasses
import heapq
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from negamax.core.score import INF, WIN_THRESHOLD, Bound, from_child_bounds
from negamax.core.types import Line, SearchResult, SearchStats

SCORE_SCALE = 1000
"""A score of a move not proven won or lost: ``SCORE_SCALE * (2 * win rate - 1)``, from
-1000 (every playout lost) to 1000 (every one won)."""
MAX_LINE = 64
"""The most moves of a line read from the tree."""
DEFAULT_PICTURE_NODES = 1000


class Tree(Protocol):
    """The fields of a Monte Carlo tree (lists, or a kernel's array rows), read only."""

    @property
    def first(self) -> Sequence[int]: ...
    @property
    def count(self) -> Sequence[int]: ...
    @property
    def node_visits(self) -> Sequence[int]: ...
    @property
    def lower(self) -> Sequence[int]: ...
    @property
    def upper(self) -> Sequence[int]: ...
    @property
    def player(self) -> Sequence[int]: ...
    @property
    def move(self) -> Sequence[Any]: ...
    @property
    def child(self) -> Sequence[int]: ...
    @property
    def visits(self) -> Sequence[int]: ...
    @property
    def reward(self) -> Sequence[int]: ...


MovesOf = Callable[[Sequence[int]], tuple[Any, ...]]
"""The game's moves along a path of edges from the root."""


def edges(tree: Tree, node: int) -> range:
    first = int(tree.first[node])
    return range(first, first + int(tree.count[node])) if first else range(0)


def edge_bounds(tree: Tree, node: int, edge: int) -> tuple[int, int]:
    """What the move ``edge`` is proven worth to ``node``'s player to move."""
    child = int(tree.child[edge])
    if child == 0:
        return -INF, INF
    same = int(tree.player[child]) == int(tree.player[node])
    return from_child_bounds(int(tree.lower[child]), int(tree.upper[child]), same)


def win_rate(tree: Tree, edge: int) -> float | None:
    """The share of the playouts through ``edge`` its node's player won (a draw half)."""
    visits = int(tree.visits[edge])
    return int(tree.reward[edge]) / (2 * visits) if visits else None


def _rank(tree: Tree, node: int, edge: int) -> tuple[bool, bool, int, int, int]:
    """How good a move ``edge`` is for ``node``'s player, as a key to sort by (larger is
    better): first whether it can still be the best (nothing proven better), then whether it
    is not a proven loss, then a proven win (the sooner the better) or else a proven loss
    (the later the better), then its playouts."""
    low, high = edge_bounds(tree, node, edge)
    floor = int(tree.lower[node])
    return (
        low >= floor or high > floor,
        high > -WIN_THRESHOLD,
        low if low >= WIN_THRESHOLD else -INF,
        high if high <= -WIN_THRESHOLD else INF,
        int(tree.visits[edge]),
    )


def ranked_edges(tree: Tree, node: int) -> list[int]:
    """The moves of ``node``, best first: the most visited, unless the solver proved
    otherwise (a proven win first, a proven loss last)."""
    return sorted(edges(tree, node), key=lambda edge: _rank(tree, node, edge), reverse=True)


def best_edge(tree: Tree, node: int) -> int | None:
    found = edges(tree, node)
    return max(found, key=lambda edge: _rank(tree, node, edge)) if found else None


def line_below(tree: Tree, node: int) -> list[int]:
    """The best line from ``node`` on, as edges: its best move, then the best from there,
    and so on, while the tree has been there."""
    line: list[int] = []
    while len(line) < MAX_LINE:
        edge = best_edge(tree, node)
        if edge is None or int(tree.visits[edge]) == 0 or int(tree.child[edge]) == 0:
            break
        line.append(edge)
        node = int(tree.child[edge])
    return line


def move_value(tree: Tree, node: int, edge: int) -> tuple[int, Bound, int, int]:
    """``(score, bound, lower, upper)`` of the move ``edge`` for ``node``'s player: its
    proven value, a proven bound on a win or loss, or else the score of its win rate."""
    low, high = edge_bounds(tree, node, edge)
    if low == high:
        return low, Bound.EXACT, low, high
    if low >= WIN_THRESHOLD:
        return low, Bound.LOWER, low, high
    if high <= -WIN_THRESHOLD:
        return high, Bound.UPPER, low, high
    rate = win_rate(tree, edge)
    score = 0 if rate is None else round(SCORE_SCALE * (2 * rate - 1))
    return score, Bound.EXACT, score, score


def result(
    tree: Tree,
    moves_of: MovesOf,
    *,
    playouts: int,
    seldepth: int,
    lines: int,
    solving: bool,
    stopped: bool,
    algorithm: str,
    start_wall: float,
    start_cpu: float,
) -> SearchResult[Any]:
    """The search's result: the best move and its line, ``lines`` moves with their values,
    visits and win rates (best first). A root the solver proved has its exact value; a solve
    not finished, the root's proven bounds (``completed=False``); a search not finished, its
    best move's value (``stopped``: by the stop event rather than a time or playout limit)."""
    found = []
    for edge in ranked_edges(tree, 0)[: max(1, lines)]:
        child = int(tree.child[edge])
        path = [edge, *(line_below(tree, child) if child else [])]
        score, bound, low, high = move_value(tree, 0, edge)
        moves = moves_of(path)
        found.append(Line(moves[0], score, bound, moves, low, high, int(tree.visits[edge]), win_rate(tree, edge)))
    best = found[0]
    lower, upper = int(tree.lower[0]), int(tree.upper[0])
    if lower == upper:
        score, bound, completed = lower, Bound.EXACT, True
    elif solving:
        score, bound, completed = lower, Bound.LOWER, False
    else:
        score, bound, lower, upper, completed = best.score, best.bound, best.lower, best.upper, not stopped
    return SearchResult(
        best_move=best.move,
        score=score,
        bound=bound,
        pv=best.pv,
        depth=len(best.pv),
        nodes=playouts,
        cpu_time=time.process_time() - start_cpu,
        wall_time=time.perf_counter() - start_wall,
        algorithm=algorithm,
        stats=SearchStats(seldepth=seldepth),
        lower=lower,
        upper=upper,
        completed=completed,
        lines=tuple(found),
    )


@dataclasses.dataclass
class PictureNode:
    """One node of a picture of the tree (a position reached by two paths is drawn twice)."""

    index: int
    parent: int | None
    move: Any
    """The move from the parent (``None`` at the root)."""
    path: tuple[Any, ...]
    """The moves from the root."""
    visits: int
    win_rate: float | None
    """For the player who moved into the node (``None`` at the root, and before any playout)."""
    lower: int
    upper: int
    """The value proven so far, from the node's player to move (``-INF``, ``INF``: none)."""
    player: int | None
    """The player to move there (``None``: a position the tree has no node for)."""
    children: list[int] = dataclasses.field(default_factory=list)


class MCTSTrace:
    """A picture of a Monte Carlo search's tree, taken when it ends: its ``max_nodes`` most
    visited nodes (each one's parent among them), and the chosen line. Pass one to
    ``search(..., algorithm="mcts", trace=...)``.

    >>> from negamax.games import get_game
    >>> from negamax import SearchLimits
    >>> from negamax.search import search
    >>> trace = MCTSTrace(max_nodes=20)
    >>> found = search(get_game("tictactoe").new_position(), SearchLimits(nodes=500), algorithm="mcts", trace=trace)
    >>> len(trace.nodes), trace.nodes[0].visits, trace.playouts
    (20, 500, 500)
    >>> trace.nodes[trace.pv[1]].move == found.best_move
    True
    """

    def __init__(self, max_nodes: int = DEFAULT_PICTURE_NODES) -> None:
        self.max_nodes = max_nodes
        self.nodes: list[PictureNode] = []
        self.pv: list[int] = []
        """The chosen line: indices into ``nodes``, from the root."""
        self.playouts = 0

    def record(self, tree: Tree, moves_of: MovesOf, playouts: int) -> None:
        """Take the picture of ``tree``: the busiest moves first, by visits."""
        self.playouts = playouts
        self.nodes = [
            PictureNode(0, None, None, (), int(tree.node_visits[0]), None, *_bounds(tree, 0), int(tree.player[0]))
        ]
        waiting: list[tuple[int, int, int, tuple[int, ...]]] = []
        """(-visits, edge, picture index of its node, the edges from the root)"""

        def open_node(node: int, index: int, path: tuple[int, ...]) -> None:
            for edge in edges(tree, node):
                if int(tree.visits[edge]) > 0:
                    heapq.heappush(waiting, (-int(tree.visits[edge]), edge, index, (*path, edge)))

        placed: dict[tuple[int, int], int] = {}
        """(picture index of a node, edge) -> picture index of where the edge leads"""
        open_node(0, 0, ())
        while waiting and len(self.nodes) < self.max_nodes:
            _, edge, parent, path = heapq.heappop(waiting)
            child = int(tree.child[edge])
            low, high = _bounds(tree, child) if child else (-INF, INF)
            moves = moves_of(path)
            index = len(self.nodes)
            self.nodes.append(
                PictureNode(
                    index,
                    parent,
                    moves[-1],
                    moves,
                    int(tree.visits[edge]),
                    win_rate(tree, edge),
                    low,
                    high,
                    int(tree.player[child]) if child else None,
                )
            )
            self.nodes[parent].children.append(index)
            placed[parent, edge] = index
            if child:
                open_node(child, index, path)
        self.pv = [0]
        for edge in line_below(tree, 0):
            if (self.pv[-1], edge) not in placed:
                break
            self.pv.append(placed[self.pv[-1], edge])


def _bounds(tree: Tree, node: int) -> tuple[int, int]:
    return int(tree.lower[node]), int(tree.upper[node])
