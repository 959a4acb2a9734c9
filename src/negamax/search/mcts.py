"""Monte Carlo tree search (UCT) with an MCTS-Solver, for games without an evaluation.

Each iteration (a *playout*, the unit its node limit counts) walks the tree from the root,
at each node taking the child with the most ``wins / visits + c * sqrt(ln(parent's visits) /
visits)`` (UCT, Kocsis and Szepesvari 2006; ``c`` is ``SearchOptions.exploration``), a child
never visited first. A node met for the first time is played out: random legal moves to
the end of the game, or the game's own ``playout`` (``HasPlayout``). A node met again is
expanded: every legal move gets a child. The result goes back up the path, each node
counting it for the player who moved into it, the player to move at its parent: a child
whose player is its parent's (a player moving twice, as in Kalah) counts it for that same
player, and every other child for the opponent.

The solver (MCTS-Solver, Winands, Bjornsson and Saito 2008, with the bounds of Cazenave and
Saffidine's score-bounded MCTS, 2010): every node keeps the lower and upper bounds on its
value proven so far, as the alpha-beta solver's scores (``negamax.core.score``: wins with
their distance, draws, a game's plain scores). A finished game found in the tree is its own
value; a node is worth at least its best child's lower bound and at most its best child's
upper bound (the children's bounds as their parent's: ``from_child_bounds``). A child that
cannot beat what its parent has proven is never chosen again, nor is a solved one, nor a
proven loss while another move might not lose. So the search says ``win in N`` only when it
has proven it, and a solve (``solve(..., algorithm="mcts")``) ends once the root is solved,
with the alpha-beta solver's exact value.

The same position is often reached by several paths (in Hex, every order of the same
stones): the tree is a graph, one node for a position at a given depth (found by its key),
with its children, statistics and bounds shared by all its parents. The statistics that
choose a move are the move's own (its edge's), as in Childs, Brodeur and Kocsis' UCT with
transpositions (2008). A tree of a node for each path took more than 100 M playouts, and
filled 1 GiB, without proving the exact value of 4x4 Hex; the graph takes 0.74 M.

This module runs it in Python, for any position; ``negamax.search.compiled.mcts`` runs the
same algorithm compiled, for games written as rules (``negamax.CompiledGame``), drawing the
same random numbers (``negamax.core.random_numbers``): from the same seed, the two grow the
same tree. ``negamax.search.mcts_tree`` reads the result from either tree.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from negamax.core.errors import GameDefinitionError, InvalidOptionError
from negamax.core.game import (
    CompiledRules,
    HasPlayout,
    MoveListPosition,
    Position,
    checked_moves,
    checked_terminal_value,
    has_evaluation,
)
from negamax.core.keys import mixed
from negamax.core.random_numbers import RandomNumbers
from negamax.core.score import INF, WIN, WIN_THRESHOLD, from_child_bounds
from negamax.core.types import OnIteration, SearchLimits, SearchResult
from negamax.search import mcts_tree
from negamax.search.mcts_tree import MCTSTrace
from negamax.search.params import EXPLORATION, SearchOptions

ALGORITHM = "mcts"
MAX_TREE_DEPTH = 1000
"""A node this deep is played out, never expanded (the compiled search's path ends there)."""
GOING_ON = (-WIN + 1, WIN - 1)
"""What a game still going on is proven worth, before anything else: the side to move has
not lost yet, nor won (a node's bounds start there)."""
MAX_PLAYOUT_PLIES = 5000
"""A playout still going after this many moves counts as a draw."""
DEFAULT_TREE_MIB = 256.0
"""The compiled tree's arrays, mapped as they fill (about 6.7 M nodes)."""
REPORT_SECONDS = 1.0
"""Progress is reported at each doubling of the playouts, and at least this often."""
CHECK_EVERY = 8
"""Iterations between the pure-Python search's looks at the clock."""


def wanted(position: Position[Any], limits: SearchLimits, algorithm: str, options: SearchOptions | None) -> bool:
    """Whether a search runs Monte Carlo tree search: asked by name (``algorithm`` or the
    options' ``driver``), or ``auto`` on a game without an evaluation searched to a time,
    playout or stop limit rather than a depth."""
    if algorithm == ALGORITHM or (options is not None and options.driver == ALGORITHM):
        return True
    return algorithm == "auto" and limits.depth is None and not has_evaluation(position)


def runs_compiled(position: Position[Any]) -> bool:
    """Whether the compiled Monte Carlo search can take ``position``: a game written as rules
    (``negamax.CompiledGame``); other games run the same algorithm in Python."""
    return isinstance(position, MoveListPosition) and isinstance(getattr(position, "rules", None), CompiledRules)


def settings(options: SearchOptions | None) -> SearchOptions:
    """The options a Monte Carlo search reads (exploration, seed, playouts): the given
    ones, or the defaults."""
    if options is None:
        return SearchOptions(driver=ALGORITHM, exploration=EXPLORATION)
    return options


def check_limits(limits: SearchLimits, solving: bool) -> None:
    """:raises InvalidOptionError: for a depth limit (MCTS has no depth)."""
    if limits.depth is not None:
        job = "solve" if solving else "search"
        raise InvalidOptionError(
            f"Monte Carlo tree search has no depth to {job} to: give a time or a number of playouts (--nodes)"
        )


NODE_BYTES = 48
EDGE_BYTES = 36
EDGES_PER_NODE = 8
"""What the compiled search's arrays take: a node 48 bytes (its fields and two slots of the
table that finds it), an edge 36, and room for eight edges a node: a tree of ``tree_mib``
MiB holds ``capacity(tree_mib)`` of each, in either search (which then grow the same tree)."""


def capacity(tree_mib: float) -> tuple[int, int]:
    """The nodes and the edges a tree of ``tree_mib`` MiB holds (at least enough for a root
    and its moves)."""
    nodes = max(64, int(tree_mib * 2**20) // (NODE_BYTES + EDGES_PER_NODE * EDGE_BYTES))
    return nodes, EDGES_PER_NODE * nodes


def table_slots(nodes: int) -> int:
    """The slots of the table that finds a node by its position: a power of two, at least
    twice the nodes (it never fills)."""
    return 1 << (2 * nodes - 1).bit_length()


def half_points(value: int) -> int:
    """A game's result for its side to move, in half points: 2 won, 1 drawn, 0 lost."""
    return 2 if value > 0 else 0 if value < 0 else 1


def table_key(position: Position[Any]) -> int:
    """A position's key in the table of nodes: the compiled search's (``keys.mixed`` of the
    game's key) for a key that is an integer. Never the canonical key: a node's moves are
    its own position's, and symmetric positions have symmetric moves."""
    key = position.key()
    return mixed((key if isinstance(key, int) else hash(key)) & ((1 << 63) - 1))


class _Tree:
    """The tree's fields (``mcts_tree``) as lists, and the table of its nodes by position."""

    def __init__(self, tree_mib: float) -> None:
        self.node_limit, self.edge_limit = capacity(tree_mib)
        self.first = [0]
        self.count = [0]
        self.node_visits = [0]
        self.lower = [-INF]
        self.upper = [INF]
        self.player = [0]
        self.move: list[Any] = [None]
        self.child = [0]
        self.visits = [0]
        self.reward = [0]
        self.low = [-INF]
        self.high = [INF]
        """Each edge's copy of its child's bounds as its node's player sees them: read by
        every choice of a move (side by side, where the children's own are scattered), made
        again from the child's whenever the search passes, so it may lag (a child has other
        parents) but is proven all the same."""
        self.nodes: dict[tuple[int, int], int] = {}
        """(table key, depth) -> node: one node for a position at one depth."""

    def add_node(self, key: int, depth: int, player: int) -> int:
        """A new node (0 when the tree is full)."""
        node = len(self.first)
        if node >= self.node_limit:
            return 0
        self.first.append(0)
        self.count.append(0)
        self.node_visits.append(0)
        self.lower.append(-INF)
        self.upper.append(INF)
        self.player.append(player)
        self.nodes[key, depth] = node
        return node

    def add_edges(self, node: int, moves: Sequence[Any]) -> bool:
        """Give ``node`` an edge for each move; False when the tree is full."""
        first = len(self.move)
        if first + len(moves) > self.edge_limit:
            return False
        if not moves:
            raise GameDefinitionError("legal_moves() returned no move, but is_terminal() says the game goes on")
        self.move.extend(moves)
        self.child.extend([0] * len(moves))
        self.visits.extend([0] * len(moves))
        self.reward.extend([0] * len(moves))
        self.low.extend([-INF] * len(moves))
        self.high.extend([INF] * len(moves))
        self.first[node], self.count[node] = first, len(moves)
        return True


class PythonSearch:
    """One Monte Carlo search of a position in Python."""

    def __init__(self, position: Position[Any], options: SearchOptions, tree_mib: float) -> None:
        self.root = position
        self.position = position.copy()
        self.exploration = options.exploration
        self.numbers = RandomNumbers(options.seed)
        self.game_playout = options.playouts == "game" and isinstance(self.position, HasPlayout)
        self.tree = _Tree(tree_mib)
        self.legal_moves = checked_moves(self.position.legal_moves)
        self.terminal_value = checked_terminal_value(self.position.terminal_value)
        self.playouts = 0
        self.seldepth = 0

    def run(
        self,
        limits: SearchLimits,
        lines: int,
        root_moves: Sequence[Any] | None,
        on_iteration: OnIteration | None,
        solving: bool,
        trace: MCTSTrace | None,
    ) -> SearchResult[Any]:
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        tree = self.tree
        tree.player[0] = self.position.player()
        tree.lower[0], tree.upper[0] = GOING_ON
        tree.nodes[table_key(self.position), 0] = 0
        tree.add_edges(0, list(root_moves) if root_moves is not None else self.legal_moves())
        stopped = False
        next_report, last_report = 1024, start_wall

        def moves_of(path: Sequence[int]) -> tuple[Any, ...]:
            return tuple(tree.move[edge] for edge in path)

        def report() -> SearchResult[Any]:
            return mcts_tree.result(
                tree,
                moves_of,
                playouts=self.playouts,
                seldepth=self.seldepth,
                lines=lines,
                solving=solving,
                stopped=stopped,
                algorithm=ALGORITHM,
                start_wall=start_wall,
                start_cpu=start_cpu,
            )

        while tree.lower[0] != tree.upper[0]:
            if limits.nodes is not None and self.playouts >= limits.nodes:
                break
            if self.playouts % CHECK_EVERY == 0:
                now = time.perf_counter()
                if limits.reached(start_wall, now):
                    stopped = limits.stop is not None and limits.stop.is_set()
                    break
                if on_iteration is not None and (self.playouts >= next_report or now - last_report >= REPORT_SECONDS):
                    on_iteration(report())
                    next_report, last_report = 2 * max(next_report, self.playouts), now
            self.iterate()
        if trace is not None:
            trace.record(tree, moves_of, self.playouts)
        found = report()
        if on_iteration is not None:
            on_iteration(found)
        return found

    def iterate(self) -> None:
        """One playout: down the tree, a playout from a new node (or a finished game), the
        result back up, and whatever the solver proved."""
        tree, position = self.tree, self.position
        node, nodes = 0, [0]
        path: list[int] = []
        played: list[Any] = []
        proved = stale = False
        while True:
            if tree.first[node] == 0 and (
                (tree.node_visits[node] == 0 and node != 0)
                or len(path) >= MAX_TREE_DEPTH
                or not tree.add_edges(node, self.legal_moves())
            ):
                result, result_player = self.playout(tree.player[node])
                break
            edge = self.select(node)
            if edge < 0:  # every move is solved or pruned: the node's bounds are behind its children's
                proved = stale = True
                result, result_player = self.playout(tree.player[node])
                break
            move = tree.move[edge]
            position.play(move)
            played.append(move)
            path.append(edge)
            child = tree.child[edge]
            if child == 0:
                key, player = table_key(position), position.player()
                child = tree.nodes.get((key, len(path)), 0)
                if child == 0:  # a position new to the tree
                    result, result_player, proved = self.reach(edge, key, len(path), player, nodes)
                    break
                tree.child[edge] = child  # a position the tree reached by another path
            node = child
            nodes.append(node)
            if tree.lower[node] != tree.upper[node]:
                continue
            # solved (through another path, or since this edge's copy of its bounds was made)
            result, result_player = half_points(tree.lower[node]), tree.player[node]
            proved = True
            break
        for move in reversed(played):
            position.undo(move)
        self.seldepth = max(self.seldepth, len(path))
        for step, edge in enumerate(path):
            tree.visits[edge] += 1
            tree.reward[edge] += result if tree.player[nodes[step]] == result_player else 2 - result
        for node in nodes:
            tree.node_visits[node] += 1
        self.playouts += 1
        if proved:  # the last node's own bounds are right, unless they were stale
            self.prove(nodes if stale else nodes[:-1])

    def reach(self, edge: int, key: int, depth: int, player: int, nodes: list[int]) -> tuple[int, int, bool]:
        """A position new to the tree, down ``edge``: its node (none in a full tree), then its
        value if the game is over there, else a playout. The result, the player it counts
        for, and whether the node's bounds are new (a finished game's, or a game going on's)."""
        tree = self.tree
        child = tree.add_node(key, depth, player)
        if child != 0:
            tree.child[edge] = child
            nodes.append(child)
        if self.position.is_terminal():
            value = self.terminal_value()
            if child != 0:
                tree.lower[child] = tree.upper[child] = value
            return half_points(value), player, child != 0
        if child != 0:
            tree.lower[child], tree.upper[child] = GOING_ON
        result, result_player = self.playout(player)
        return result, result_player, child != 0

    def select(self, node: int) -> int:
        """The edge to go down: the best by UCT among the moves that may still matter (-1:
        none)."""
        tree = self.tree
        floor = tree.lower[node]
        visits = tree.node_visits[node]
        spread = math.log(visits) if visits > 0 else 0.0
        best, best_value = -1, -math.inf
        losing, losing_value = -1, -math.inf
        first = tree.first[node]
        for edge in range(first, first + tree.count[node]):
            low, high = tree.low[edge], tree.high[edge]
            if low == high or high <= floor:
                continue  # solved, or unable to beat what is proven
            count = tree.visits[edge]
            if count == 0:
                value = math.inf
            else:
                value = tree.reward[edge] / (2.0 * count) + self.exploration * math.sqrt(spread / count)
            if high <= -WIN_THRESHOLD:
                if value > losing_value:
                    losing, losing_value = edge, value
            elif value > best_value:
                best, best_value = edge, value
        return best if best >= 0 else losing

    def copy_bounds(self, node: int, edge: int) -> None:
        """The bounds of ``edge``'s child, as ``node``'s player sees them, onto the edge."""
        tree = self.tree
        child = tree.child[edge]
        if child != 0:
            same = tree.player[child] == tree.player[node]
            tree.low[edge], tree.high[edge] = from_child_bounds(tree.lower[child], tree.upper[child], same)

    def playout(self, player: int) -> tuple[int, int]:
        """A random game from the current position to its end: its result in half points,
        and the player it is for."""
        position = self.position
        if self.game_playout:
            assert isinstance(position, HasPlayout)
            value = position.playout(self.numbers.next())
            if type(value) is not int or not (value in (WIN, -WIN) or -WIN_THRESHOLD < value < WIN_THRESHOLD):
                raise GameDefinitionError(f"playout() returned {value!r}: a result is WIN, -WIN, DRAW or a score")
            return half_points(value), player
        played: list[Any] = []
        while True:
            if position.is_terminal():
                result, player = half_points(self.terminal_value()), position.player()
                break
            if len(played) >= MAX_PLAYOUT_PLIES:
                result = 1
                break
            moves = self.legal_moves()
            move = moves[self.numbers.below(len(moves))]
            position.play(move)
            played.append(move)
        for move in reversed(played):
            position.undo(move)
        return result, player

    def prove(self, nodes: list[int]) -> None:
        """Something was proven below the path ``nodes``: each node up the path copies its
        children's bounds onto its edges and narrows its own to what they prove, until one
        does not change. (Other parents of a node see its bounds when they next prove.)"""
        tree = self.tree
        for node in reversed(nodes):
            first = tree.first[node]
            if first == 0:
                continue
            lower = upper = -INF
            for edge in range(first, first + tree.count[node]):
                self.copy_bounds(node, edge)
                lower, upper = max(lower, tree.low[edge]), max(upper, tree.high[edge])
            lower, upper = max(lower, tree.lower[node]), min(upper, tree.upper[node])
            if lower == tree.lower[node] and upper == tree.upper[node]:
                return
            tree.lower[node], tree.upper[node] = lower, upper


def search(
    position: Position[Any],
    limits: SearchLimits,
    options: SearchOptions | None = None,
    *,
    lines: int = 1,
    root_moves: Sequence[Any] | None = None,
    on_iteration: OnIteration | None = None,
    solving: bool = False,
    trace: MCTSTrace | None = None,
    tree_mib: float = DEFAULT_TREE_MIB,
) -> SearchResult[Any]:
    """Monte Carlo tree search of ``position`` (unfinished) in Python, to ``limits`` (a time,
    playouts as ``nodes``, or the stop event; a search ends early once the root is solved, a
    solve only then). ``lines``: the moves reported with their values (``result.lines``,
    best first; at least one). ``trace``: a picture of the tree at the end."""
    check_limits(limits, solving)
    return PythonSearch(position, settings(options), tree_mib).run(
        limits, lines, root_moves, on_iteration, solving, trace
    )
