"""The compiled Monte Carlo tree search of games written as rules (``negamax.CompiledGame``):
the tree's arrays, the kernel's batches, limits and progress, and the result.

The algorithm is ``negamax.search.mcts``'s; the kernel (``mcts_kernel``) is compiled for each
game, as the deepening kernel is (``families``), with the game's rules inlined, so that a
playout runs without the interpreter. Importing this module imports numba.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from negamax.core.errors import GameDefinitionError, InvalidOptionError
from negamax.core.game import CompiledRules, MoveListPosition
from negamax.core.numba_cache import all_cached, compiling_allowed, load_from_cache
from negamax.core.random_numbers import MASK64
from negamax.core.score import INF
from negamax.core.types import OnIteration, SearchLimits, SearchResult
from negamax.search import mcts, mcts_tree
from negamax.search.compiled import families, move_list_bindings
from negamax.search.compiled import mcts_kernel as kernel
from negamax.search.compiled.move_list import watching
from negamax.search.compiled.move_list_layout import W_ABORTED, W_ERROR, W_STOP
from negamax.search.mcts_tree import MCTSTrace
from negamax.search.params import SearchOptions

ALGORITHM = "compiled mcts"
FIRST_BATCH = 256
BATCH_SECONDS = 0.05
"""Each call of the kernel runs about this long: the time between progress reports' looks,
and between looks at a playout limit."""


@dataclasses.dataclass(frozen=True)
class _Bound:
    """A position's state with the kernel and spec it runs on."""

    kernels: Any
    spec: Any
    state: Any
    rules: CompiledRules


@dataclasses.dataclass(frozen=True)
class _TreeView:
    """The kernel's arrays as the fields ``mcts_tree`` reads."""

    first: Any
    count: Any
    node_visits: Any
    lower: Any
    upper: Any
    player: Any
    move: Any
    child: Any
    visits: Any
    reward: Any


class CompiledMCTS:
    """Monte Carlo tree search of positions of games written as rules; owns the tree's
    arrays (``tree_mib`` MiB, mapped by the system as they fill), reused by each search."""

    kind: Final = "mcts"
    """What ``Searcher`` lends it for (``negamax.search.searcher.MCTS``)."""

    def __init__(self, tree_mib: float = mcts.DEFAULT_TREE_MIB) -> None:
        if not 0 < tree_mib <= 65536:
            raise InvalidOptionError(f"the tree's size must be above 0 and at most 65536 MiB, not {tree_mib}")
        self.node_capacity, self.edge_capacity = mcts.capacity(tree_mib)
        self.nodes = np.zeros((kernel.NODE_WIDE_FIELDS, self.node_capacity), dtype=np.int64)
        self.node_fields = np.zeros((kernel.NODE_FIELDS, self.node_capacity), dtype=np.int32)
        self.edges = np.zeros((kernel.EDGE_WIDE_FIELDS, self.edge_capacity), dtype=np.int64)
        self.edge_fields = np.zeros((kernel.EDGE_FIELDS, self.edge_capacity), dtype=np.int32)
        self.slots = np.zeros(mcts.table_slots(self.node_capacity), dtype=np.int32)
        self.work = np.zeros(kernel.WORK_SIZE, dtype=np.int64)
        self.rng = np.zeros(1, dtype=np.uint64)
        self._checked: tuple[MoveListPosition[Any], _Bound] | None = None
        fields = self.node_fields
        self.tree = _TreeView(
            fields[kernel.FIRST],
            fields[kernel.COUNT],
            self.nodes[kernel.NODE_VISITS],
            fields[kernel.LOWER],
            fields[kernel.UPPER],
            fields[kernel.PLAYER],
            self.edges[kernel.MOVE],
            self.edge_fields[kernel.CHILD],
            self.edges[kernel.VISITS],
            self.edges[kernel.REWARD],
        )

    def clear(self) -> None:
        """Nothing to forget: every search grows its tree from the root."""

    def close(self) -> None:
        """Nothing to end: the kernel runs in the calling thread."""

    def _bind(self, position: MoveListPosition[Any]) -> _Bound:
        spec, state = position.move_list_form()
        if not isinstance(spec, CompiledRules):
            raise InvalidOptionError("the compiled Monte Carlo search runs games written as rules (CompiledGame)")
        kernels, kernel_spec = families.kernels_for(kernel, spec)
        return _Bound(kernels, kernel_spec, state, spec)

    def _bind_once(self, position: MoveListPosition[Any]) -> _Bound:
        checked, self._checked = self._checked, None
        if checked is not None and checked[0] is position:
            return checked[1]
        return self._bind(position)

    def _arguments(self, bound: _Bound, iterations: int, exploration: float, game_playout: bool) -> tuple[Any, ...]:
        numbers = np.zeros(max(1, bound.rules.max_moves), dtype=np.int64)
        scratch = np.zeros_like(bound.state)
        return (
            bound.spec,
            bound.state,
            scratch,
            numbers,
            self.nodes,
            self.node_fields,
            self.edges,
            self.edge_fields,
            self.slots,
            self.rng,
            self.work,
            iterations,
            float(exploration),
            game_playout,
        )

    def cached(self, position: MoveListPosition[Any]) -> bool | None:
        """Whether the kernel for this game is loaded now, from numba's disk cache if it is
        there (``False``: it must be compiled first; ``None``: cannot tell)."""
        bound = self._bind(position)
        self._checked = (position, bound)
        return all_cached(
            [
                load_from_cache(bound.kernels.run, self._arguments(bound, 1, 1.0, False)),
                load_from_cache(bound.kernels.list_moves, (bound.spec, bound.state, self.work)),
                load_from_cache(bound.kernels.key_of, (bound.spec, bound.state)),
            ]
        )

    def warm_up(self, position: MoveListPosition[Any]) -> None:
        """Load (or compile) the kernel for this game now, so no timed search pays for it."""
        with compiling_allowed():
            self._checked = None
            self.search(position, SearchLimits(nodes=4))

    def search(
        self,
        position: MoveListPosition[Any],
        limits: SearchLimits,
        options: SearchOptions | None = None,
        *,
        lines: int = 1,
        root_moves: Sequence[Any] | None = None,
        on_iteration: OnIteration | None = None,
        solving: bool = False,
        trace: MCTSTrace | None = None,
    ) -> SearchResult[Any]:
        """As ``negamax.search.mcts.search``, compiled."""
        mcts.check_limits(limits, solving)
        options = mcts.settings(options)
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        bound = self._bind_once(position)
        rules = bound.rules
        self._plant(bound, position, root_moves, options.seed)
        game_playout = options.playouts == "game" and "playout" in rules.rule_functions()
        arguments = list(self._arguments(bound, 0, options.exploration, game_playout))
        playouts = 0
        batch = FIRST_BATCH
        next_report, last_report = 1024, start_wall
        tree = self.tree

        def moves_of(path: Sequence[int]) -> tuple[Any, ...]:
            return tuple(position.moves_from_codes([int(self.edges[kernel.MOVE, edge]) for edge in path]))

        def report(stopped: bool = False) -> SearchResult[Any]:
            return mcts_tree.result(
                tree,
                moves_of,
                playouts=playouts,
                seldepth=int(self.work[kernel.W_SELDEPTH]),
                lines=lines,
                solving=solving,
                stopped=stopped,
                algorithm=ALGORITHM,
                start_wall=start_wall,
                start_cpu=start_cpu,
            )

        with watching(self.work, limits, start_wall):
            while self.node_fields[kernel.LOWER, 0] != self.node_fields[kernel.UPPER, 0]:
                todo = batch if limits.nodes is None else min(batch, limits.nodes - playouts)
                if todo <= 0 or self.work[W_STOP]:
                    break
                arguments[11] = todo
                playouts += int(bound.kernels.run(*arguments))
                if self.work[W_ERROR]:
                    raise GameDefinitionError(move_list_bindings.rules_error(self.work, rules))
                now = time.perf_counter()
                batch = max(FIRST_BATCH, int(playouts / max(now - start_wall, 1e-6) * BATCH_SECONDS))
                if on_iteration is not None and (playouts >= next_report or now - last_report >= mcts.REPORT_SECONDS):
                    on_iteration(report())
                    next_report, last_report = 2 * max(next_report, playouts), now
        if trace is not None:
            trace.record(tree, moves_of, playouts)
        stopped = bool(self.work[W_ABORTED]) and limits.stop is not None and limits.stop.is_set()
        found = report(stopped)
        if on_iteration is not None:
            on_iteration(found)
        return found

    def _plant(
        self, bound: _Bound, position: MoveListPosition[Any], root_moves: Sequence[Any] | None, seed: int
    ) -> None:
        """A tree of the root and its moves (the moves of ``root_moves`` only, if given), and
        the kernel's counters and random numbers set for a new search."""
        work = self.work
        work[:] = 0
        count = int(bound.kernels.list_moves(bound.spec, bound.state, work))
        if work[W_ERROR]:
            raise GameDefinitionError(move_list_bindings.rules_error(work, bound.rules))
        codes = [int(code) for code in work[kernel.MOVES : kernel.MOVES + count]]
        if root_moves is not None:
            wanted = set(root_moves)
            codes = [code for code in codes if position.moves_from_codes([code])[0] in wanted]
        fields = self.node_fields
        fields[:, 0] = 0
        fields[kernel.FIRST, 0] = 1
        fields[kernel.COUNT, 0] = len(codes)
        fields[kernel.LOWER, 0], fields[kernel.UPPER, 0] = mcts.GOING_ON
        fields[kernel.PLAYER, 0] = position.player()
        key = int(bound.kernels.key_of(bound.spec, bound.state))
        self.nodes[:, 0] = (0, key)
        self.edges[:, : 1 + len(codes)] = 0
        self.edges[kernel.MOVE, 1 : 1 + len(codes)] = codes
        self.edge_fields[:, : 1 + len(codes)] = 0
        self.edge_fields[kernel.LOW, : 1 + len(codes)] = -INF
        self.edge_fields[kernel.HIGH, : 1 + len(codes)] = INF
        self.slots[:] = 0
        self.slots[key & (self.slots.size - 1)] = 1  # the root, at depth 0
        work[kernel.W_NODES] = 1
        work[kernel.W_EDGES] = 1 + len(codes)
        work[kernel.W_NODE_CAPACITY] = self.node_capacity
        work[kernel.W_EDGE_CAPACITY] = self.edge_capacity
        work[kernel.W_TABLE_MASK] = self.slots.size - 1
        self.rng[0] = np.uint64(seed & MASK64)
