"""Helper searches for the compiled move-list search (lazy SMP): while the main search
deepens, each helper thread deepens on its own copy of the position and its own working
memory, over the shared transposition table, until told to stop. Nothing a helper finds
is played directly; what it stores in the table cuts the main search's work, and the
threads' different timing makes them search different parts of the tree.

The kernel holds no interpreter lock, so the threads run on separate cores. A helper
starts one ply deeper than the ones before it (the first at depth 2), so that the
threads are not all searching the same depth in step.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from negamax.search.compiled import move_list_layout as layout
from negamax.search.windows import aspirated, first_width

ROOT_MOVES = slice(layout.ROOT_MOVES, layout.ROOT_MOVES + layout.MAX_MOVES)


class HelperSearches:
    """``count`` helper threads' working memory, kept between searches (their history
    tables go on learning, as the main search's does)."""

    def __init__(self, count: int) -> None:
        self.works = [np.zeros(layout.WORK_SIZE, dtype=np.int64) for _ in range(count)]
        self._threads: list[threading.Thread] = []

    def clear(self) -> None:
        for work in self.works:
            work[:] = 0

    def start(self, kernels: Any, spec: Any, state: Any, table: Any, main_work: Any, deepest: int) -> None:
        """Start every helper on a copy of ``state``, with the main search's features and
        table generation (``main_work`` is prepared for the search already)."""
        for index, work in enumerate(self.works):
            work[: layout.HISTORY] = 0
            work[layout.HISTORY : layout.HISTORY + layout.HISTORY_SLOTS] //= 8
            work[layout.W_FEATURES] = main_work[layout.W_FEATURES]
            work[layout.W_GENERATION] = main_work[layout.W_GENERATION]
            work[layout.W_ROOT_MOVES] = main_work[layout.W_ROOT_MOVES]  # the same root moves, if restricted
            work[ROOT_MOVES] = main_work[ROOT_MOVES]
            work[layout.W_NODE_LIMIT] = 1 << 62
            thread = threading.Thread(
                target=_deepen,
                args=(kernels, spec, state.copy(), table, work, 2 + index, deepest),
                name=f"search-helper-{index + 1}",
                daemon=True,
            )
            self._threads.append(thread)
            thread.start()

    def stop(self) -> None:
        """Stop every helper and wait for it (a kernel looks at its stop flag at every
        node)."""
        for work in self.works:
            work[layout.W_STOP] = 1
        for thread in self._threads:
            thread.join()
        self._threads.clear()

    def reset_nodes(self) -> None:
        for work in self.works:
            work[layout.W_NODES] = 0

    def nodes(self) -> int:
        """The nodes the helpers searched since they were started."""
        return sum(int(work[layout.W_NODES]) for work in self.works)


def _deepen(kernels: Any, spec: Any, state: Any, table: Any, work: Any, first_depth: int, deepest: int) -> None:
    """Iterative deepening with the main search's aspiration windows, until stopped."""
    guess = 0
    for depth in range(first_depth, deepest + 1):

        def search_window(alpha: int, beta: int, depth: int = depth) -> int:
            return int(kernels.search_root(spec, state, table, work, depth, alpha, beta))

        guess, _ = aspirated(search_window, guess, first_width(depth, guess), lambda: bool(work[layout.W_ABORTED]))
        if work[layout.W_ABORTED]:
            return
