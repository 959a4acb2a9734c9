"""The compiled Monte Carlo tree search kernel (numba), for games written as rules.

The algorithm is ``negamax.search.mcts``'s, line for line, drawing the same random numbers
(``negamax.core.random_numbers``): from the same seed, this kernel and the pure-Python
search of the same rules grow the same tree. ``run`` does whole iterations (select, expand,
play out, back up, prove) until it has done as many as asked, the root is solved, or another
thread sets ``work[W_STOP]`` (it holds no interpreter lock); ``mcts.CompiledMCTS`` calls it
in batches, reports progress between them, and reads the result.

Memory, allocated by the caller and never by the kernel:

* the tree (``negamax.search.mcts_tree`` says what each field means), in arrays of one row a
  field: the nodes' ``nodes`` (int64: ``NODE_VISITS``, ``KEY``) and ``node_fields`` (int32:
  ``FIRST``, ``COUNT``, ``LOWER``, ``UPPER``, ``PLAYER``, ``DEPTH``), the edges' ``edges``
  (int64: ``MOVE`` codes, ``VISITS``, ``REWARD``) and ``edge_fields`` (int32: ``CHILD``, and
  the copy of the child's bounds, ``LOW`` and ``HIGH``, that ``PythonSearch.select`` reads);
  a node's edges are side by side, so choosing among them reads a few cache lines of each
  row;
* ``slots``: the table that finds a node by its position's key and depth, open addressing
  (node + 1 in a slot, 0 for none), twice as many slots as nodes;
* ``root`` (the root's state, never changed) and ``state``, where each iteration copies the
  root and plays down the tree and through the playout, taking nothing back;
* ``numbers``: a game's ``playout`` rule's random numbers (``max_moves`` of them);
* ``rng``: the search's SplitMix64 state (one uint64);
* ``work``: counters at the ``W_*`` offsets, the move list (``MOVES``) and the path down the
  tree (``PATH_EDGES``, ``PATH_NODES``). A game's broken rule is recorded as the deepening
  kernel records it (``move_list_bindings.fail``, at ``move_list_layout``'s offsets), and
  ``run`` returns.

The kernel runs only games written as rules (``KERNEL_FOR_RULES``): their moves are all
legal, so no move is tried and taken back, and their end is their ``outcome``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from negamax.core.compiled import (
    exact_key,
    game_result,
    generate_moves,
    play_move,
    player_to_move,
    playout,
    search_function,
)
from negamax.core.score import INF, ONGOING, WIN, WIN_THRESHOLD
from negamax.search.compiled.move_list_bindings import ERROR_PLAYOUT
from negamax.search.compiled.move_list_layout import (
    ERROR_STATE,
    ERROR_STATE_SIZE,
    MAX_MOVES,
    W_ABORTED,
    W_ERROR,
    W_ERROR_VALUE,
    W_STOP,
    from_node,
)
from negamax.search.mcts import MAX_PLAYOUT_PLIES, MAX_TREE_DEPTH

KERNEL_FOR_RULES = True
"""``families`` compiles this kernel for games written as rules (and only for those)."""

NODE_VISITS, KEY = 0, 1
NODE_WIDE_FIELDS = 2
FIRST, COUNT, LOWER, UPPER, PLAYER, DEPTH = 0, 1, 2, 3, 4, 5
NODE_FIELDS = 6
MOVE, VISITS, REWARD = 0, 1, 2
EDGE_WIDE_FIELDS = 3
CHILD, LOW, HIGH = 0, 1, 2
EDGE_FIELDS = 3

W_PLAYOUTS = 0
W_NODES = 24
"""Nodes in use (the root's included)."""
W_EDGES = 25
"""Edges in use, and the unused edge 0."""
W_NODE_CAPACITY = 26
W_EDGE_CAPACITY = 27
W_TABLE_MASK = 28
W_SELDEPTH = 29
"""The deepest an iteration has gone down the tree."""
MOVES = 64
PATH_EDGES = MOVES + MAX_MOVES
PATH_NODES = PATH_EDGES + MAX_TREE_DEPTH + 1
WORK_SIZE = max(PATH_NODES + MAX_TREE_DEPTH + 2, ERROR_STATE + ERROR_STATE_SIZE)
SLOT_STEP = 0x2545F4914F6CDD1D
"""Spreads a node's depth over the table's slots."""

GAMMA = np.uint64(0x9E3779B97F4A7C15)
MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
MIX_2 = np.uint64(0x94D049BB133111EB)
SHIFT_2 = np.uint64(2)
SHIFT_27 = np.uint64(27)
SHIFT_30 = np.uint64(30)
SHIFT_31 = np.uint64(31)


@search_function
def _mixed(state: Any) -> Any:
    """SplitMix64's output for ``state``, its top two bits dropped (``random_numbers``)."""
    mixed = (state ^ (state >> SHIFT_30)) * MIX_1
    mixed = (mixed ^ (mixed >> SHIFT_27)) * MIX_2
    mixed = mixed ^ (mixed >> SHIFT_31)
    return np.int64(mixed >> SHIFT_2)


@search_function
def next_number(rng: Any) -> Any:
    """The search's next random number (``RandomNumbers.next``)."""
    state = rng[0] + GAMMA
    rng[0] = state
    return _mixed(state)


@search_function
def _fill_numbers(seed: int, numbers: Any) -> None:
    """A playout's numbers from its seed (``random_numbers.playout_numbers``)."""
    state = np.uint64(seed)
    for index in range(numbers.shape[0]):
        state = state + GAMMA
        numbers[index] = _mixed(state)


@search_function
def _half_points(value: int) -> int:
    if value > 0:
        return 2
    if value < 0:
        return 0
    return 1


@search_function
def _as_parent(lower: Any, upper: Any, same: bool) -> tuple[int, int]:
    """``score.from_child_bounds``."""
    if not same:
        lower, upper = -upper, -lower
    low = -INF if lower <= -INF else from_node(lower, 1)
    high = INF if upper >= INF else from_node(upper, 1)
    return low, high


@search_function
def list_moves(spec: Any, state: Any, work: Any) -> int:
    """The legal moves' codes of ``state``, written from ``work[MOVES]``: how many."""
    return generate_moves(spec, state, work, MOVES, False) - MOVES


@search_function
def key_of(spec: Any, state: Any) -> int:
    """``exact_key``: the game's key, spread over 63 bits (``keys.mixed``)."""
    return exact_key(spec, state)


@search_function
def _find(nodes: Any, node_fields: Any, slots: Any, work: Any, key: int, depth: int) -> int:
    """The node of the position ``key`` at ``depth``, or 0 (the root is at depth 0, and
    never looked for)."""
    mask = work[W_TABLE_MASK]
    slot = (key + depth * SLOT_STEP) & mask
    while slots[slot] != 0:
        node = slots[slot] - 1
        if nodes[KEY, node] == key and node_fields[DEPTH, node] == depth:
            return node
        slot = (slot + 1) & mask
    return 0


@search_function
def _add_node(nodes: Any, node_fields: Any, slots: Any, work: Any, key: int, depth: int, player: int) -> int:
    """A new node for the position ``key`` at ``depth`` (0 when the tree is full)."""
    node = work[W_NODES]
    if node >= work[W_NODE_CAPACITY]:
        return 0
    work[W_NODES] = node + 1
    nodes[NODE_VISITS, node] = 0
    nodes[KEY, node] = key
    node_fields[FIRST, node] = 0
    node_fields[COUNT, node] = 0
    node_fields[LOWER, node] = -INF
    node_fields[UPPER, node] = INF
    node_fields[PLAYER, node] = player
    node_fields[DEPTH, node] = depth
    mask = work[W_TABLE_MASK]
    slot = (key + depth * SLOT_STEP) & mask
    while slots[slot] != 0:
        slot = (slot + 1) & mask
    slots[slot] = node + 1
    return node


@search_function
def _expand(spec: Any, state: Any, node_fields: Any, edges: Any, edge_fields: Any, work: Any, node: int) -> bool:
    """Give ``node`` an edge for each legal move; False when the tree is full (or the rules
    broke their contract)."""
    end = generate_moves(spec, state, work, MOVES, False)
    if work[W_ERROR] != 0:
        return False
    count = end - MOVES
    first = work[W_EDGES]
    if first + count > work[W_EDGE_CAPACITY]:
        return False
    for index in range(count):
        edge = first + index
        edges[MOVE, edge] = work[MOVES + index]
        edges[VISITS, edge] = 0
        edges[REWARD, edge] = 0
        edge_fields[CHILD, edge] = 0
        edge_fields[LOW, edge] = -INF
        edge_fields[HIGH, edge] = INF
    node_fields[FIRST, node] = first
    node_fields[COUNT, node] = count
    work[W_EDGES] = first + count
    return True


@search_function
def _select(nodes: Any, node_fields: Any, edges: Any, edge_fields: Any, node: int, exploration: float) -> int:
    """``PythonSearch.select``."""
    floor = node_fields[LOWER, node]
    visits = nodes[NODE_VISITS, node]
    spread = math.log(visits) if visits > 0 else 0.0
    best = -1
    best_value = -math.inf
    losing = -1
    losing_value = -math.inf
    first = node_fields[FIRST, node]
    for edge in range(first, first + node_fields[COUNT, node]):
        low = edge_fields[LOW, edge]
        high = edge_fields[HIGH, edge]
        if low == high or high <= floor:
            continue
        count = edges[VISITS, edge]
        if count == 0:
            value = math.inf
        else:
            value = edges[REWARD, edge] / (2.0 * count) + exploration * math.sqrt(spread / count)
        if high <= -WIN_THRESHOLD:
            if value > losing_value:
                losing = edge
                losing_value = value
        elif value > best_value:
            best = edge
            best_value = value
    return best if best >= 0 else losing


@search_function
def _copy_bounds(node_fields: Any, edge_fields: Any, node: int, edge: int) -> None:
    """``PythonSearch.copy_bounds``."""
    child = edge_fields[CHILD, edge]
    if child != 0:
        low, high = _as_parent(
            np.int64(node_fields[LOWER, child]),
            np.int64(node_fields[UPPER, child]),
            node_fields[PLAYER, child] == node_fields[PLAYER, node],
        )
        edge_fields[LOW, edge] = low
        edge_fields[HIGH, edge] = high


@search_function
def _playout_error(state: Any, work: Any, value: int) -> None:
    work[W_ERROR] = ERROR_PLAYOUT
    work[W_ERROR_VALUE] = value
    for index in range(min(state.size, ERROR_STATE_SIZE)):
        work[ERROR_STATE + index] = state[index]
    work[W_STOP] = 1
    work[W_ABORTED] = 1


@search_function
def _playout(
    spec: Any, state: Any, numbers: Any, rng: Any, work: Any, game_playout: bool, player: int
) -> tuple[int, int]:
    """``PythonSearch.playout``: the result in half points, and the player it is for."""
    if game_playout:
        seed = next_number(rng)
        _fill_numbers(seed, numbers)
        value = playout(spec, state, numbers)
        if value != WIN and value != -WIN and not -WIN_THRESHOLD < value < WIN_THRESHOLD:
            _playout_error(state, work, value)
            return 1, player
        return _half_points(value), player
    plies = 0
    while True:
        value = game_result(spec, state)
        if value != ONGOING:
            return _half_points(value), player
        if plies >= MAX_PLAYOUT_PLIES:
            return 1, player
        end = generate_moves(spec, state, work, MOVES, False)
        if work[W_ERROR] != 0:
            return 1, player
        move = work[MOVES + next_number(rng) % (end - MOVES)]
        play_move(spec, state, move)
        mover = player_to_move(spec, state)
        player = 1 - player if mover < 0 else mover
        plies += 1


@search_function
def _prove(node_fields: Any, edge_fields: Any, work: Any, top: int) -> None:
    """``PythonSearch.prove``, for the nodes of the path from ``top`` up."""
    for step in range(top, -1, -1):
        node = work[PATH_NODES + step]
        first = node_fields[FIRST, node]
        if first == 0:
            continue
        lower = np.int64(-INF)
        upper = np.int64(-INF)
        for edge in range(first, first + node_fields[COUNT, node]):
            _copy_bounds(node_fields, edge_fields, node, edge)
            lower = max(lower, np.int64(edge_fields[LOW, edge]))
            upper = max(upper, np.int64(edge_fields[HIGH, edge]))
        lower = max(lower, np.int64(node_fields[LOWER, node]))
        upper = min(upper, np.int64(node_fields[UPPER, node]))
        if lower == node_fields[LOWER, node] and upper == node_fields[UPPER, node]:
            return
        node_fields[LOWER, node] = lower
        node_fields[UPPER, node] = upper


@search_function
def _reach(
    spec: Any,
    state: Any,
    numbers: Any,
    nodes: Any,
    node_fields: Any,
    edge_fields: Any,
    slots: Any,
    rng: Any,
    work: Any,
    game_playout: bool,
    edge: int,
    key: int,
    depth: int,
    player: int,
    on_path: int,
) -> tuple[int, int, bool]:
    """``PythonSearch.reach`` (the new node, if any, goes on the path at ``on_path``)."""
    child = _add_node(nodes, node_fields, slots, work, key, depth, player)
    if child != 0:
        edge_fields[CHILD, edge] = child
        work[PATH_NODES + on_path] = child
    value = game_result(spec, state)
    if value != ONGOING:
        if child != 0:
            node_fields[LOWER, child] = value
            node_fields[UPPER, child] = value
        return _half_points(value), player, child != 0
    if child != 0:
        node_fields[LOWER, child] = -WIN + 1
        node_fields[UPPER, child] = WIN - 1
    result, result_player = _playout(spec, state, numbers, rng, work, game_playout, player)
    return result, result_player, child != 0


@search_function
def _iterate(
    spec: Any,
    root: Any,
    state: Any,
    numbers: Any,
    nodes: Any,
    node_fields: Any,
    edges: Any,
    edge_fields: Any,
    slots: Any,
    rng: Any,
    work: Any,
    exploration: float,
    game_playout: bool,
) -> None:
    """``PythonSearch.iterate``."""
    for index in range(root.shape[0]):
        state[index] = root[index]
    node = 0
    depth = 0
    on_path = 1
    work[PATH_NODES] = 0
    proved = False
    stale = False
    result = 1
    result_player = 0
    while True:
        if node_fields[FIRST, node] == 0 and (
            (nodes[NODE_VISITS, node] == 0 and node != 0)
            or depth >= MAX_TREE_DEPTH
            or not _expand(spec, state, node_fields, edges, edge_fields, work, node)
        ):
            if work[W_ERROR] != 0:
                return
            result, result_player = _playout(spec, state, numbers, rng, work, game_playout, node_fields[PLAYER, node])
            break
        edge = _select(nodes, node_fields, edges, edge_fields, node, exploration)
        if edge < 0:  # every move is solved or pruned: the node's bounds are behind its children's
            proved = True
            stale = True
            result, result_player = _playout(spec, state, numbers, rng, work, game_playout, node_fields[PLAYER, node])
            break
        play_move(spec, state, edges[MOVE, edge])
        work[PATH_EDGES + depth] = edge
        depth += 1
        child = edge_fields[CHILD, edge]
        if child == 0:
            key = exact_key(spec, state)
            mover = player_to_move(spec, state)
            player = 1 - node_fields[PLAYER, node] if mover < 0 else mover
            child = _find(nodes, node_fields, slots, work, key, depth)
            if child == 0:  # a position new to the tree
                result, result_player, proved = _reach(
                    spec,
                    state,
                    numbers,
                    nodes,
                    node_fields,
                    edge_fields,
                    slots,
                    rng,
                    work,
                    game_playout,
                    edge,
                    key,
                    depth,
                    player,
                    on_path,
                )
                on_path += 1 if proved else 0
                break
            edge_fields[CHILD, edge] = child  # a position the tree reached by another path
        node = child
        work[PATH_NODES + on_path] = node
        on_path += 1
        if node_fields[LOWER, node] != node_fields[UPPER, node]:
            continue
        # solved (through another path, or since this edge's copy of its bounds was made)
        result = _half_points(node_fields[LOWER, node])
        result_player = node_fields[PLAYER, node]
        proved = True
        break
    if work[W_ERROR] != 0:
        return
    if depth > work[W_SELDEPTH]:
        work[W_SELDEPTH] = depth
    for step in range(depth):
        edge = work[PATH_EDGES + step]
        edges[VISITS, edge] += 1
        if node_fields[PLAYER, work[PATH_NODES + step]] == result_player:
            edges[REWARD, edge] += result
        else:
            edges[REWARD, edge] += 2 - result
    for step in range(on_path):
        nodes[NODE_VISITS, work[PATH_NODES + step]] += 1
    work[W_PLAYOUTS] += 1
    if proved:  # the last node's own bounds are right, unless they were stale
        _prove(node_fields, edge_fields, work, on_path - 1 if stale else on_path - 2)


@search_function
def run(
    spec: Any,
    root: Any,
    state: Any,
    numbers: Any,
    nodes: Any,
    node_fields: Any,
    edges: Any,
    edge_fields: Any,
    slots: Any,
    rng: Any,
    work: Any,
    iterations: int,
    exploration: float,
    game_playout: bool,
) -> int:
    """Up to ``iterations`` iterations, fewer if the root is solved, the stop flag is set or
    the rules broke their contract; how many were done."""
    done = 0
    while done < iterations:
        if work[W_STOP] != 0:
            work[W_ABORTED] = 1
            break
        if node_fields[LOWER, 0] == node_fields[UPPER, 0]:
            break
        _iterate(
            spec,
            root,
            state,
            numbers,
            nodes,
            node_fields,
            edges,
            edge_fields,
            slots,
            rng,
            work,
            exploration,
            game_playout,
        )
        if work[W_ERROR] != 0:
            break
        done += 1
    return done
