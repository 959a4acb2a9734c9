"""``search()`` and ``solve()``: the library's functions, on a default ``Searcher``.

The default searcher keeps no table from one call to the next, so the same call on the
same position gives the same answer whatever ran before in the process. Front ends that
play a game, serve many searches at once or want other tables make a ``Searcher`` of
their own (``negamax.search.searcher``), which owns everything a search needs.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from negamax.core.game import Position
from negamax.core.rules import Game
from negamax.core.types import OnIteration, SearchLimits, SearchResult
from negamax.search import presets
from negamax.search.mcts_tree import MCTSTrace
from negamax.search.params import SearchOptions
from negamax.search.searcher import Searcher
from negamax.search.trace import SearchTrace
from negamax.search.tt import TranspositionTable
from negamax.search.warmup import Announce

_DEFAULT = {backend: presets.for_library(backend) for backend in ("auto", "python", "compiled")}
"""One searcher per backend; each lends its compiled searchers to one call at a time."""


def prepare(game: Game, *, background: bool = False, announce: Announce | None = None) -> bool:
    """Compile (or load) ``game``'s kernels now, not on the first ``search()`` or ``solve()``
    that needs them: once on disk, every later call (in any process) loads them in well
    under a second. A first compilation takes tens of seconds; it is announced first, with
    the time it took last on this machine, to ``announce`` or else as a warning on the
    ``negamax`` logger. ``background=True`` starts it on a thread and returns at once
    (``False``); otherwise returns whether the kernels are loaded.

    >>> from negamax import get_game
    >>> prepare(get_game("nim"))  # no kernel to compile: ready at once
    True
    """
    searcher = presets.for_library("auto", game)
    if background:
        threading.Thread(target=searcher.prepare, kwargs={"announce": announce}, name="prepare", daemon=True).start()
        return False
    return searcher.prepare(announce=announce)


def default_searcher(backend: str = "auto") -> Searcher:
    """The searcher ``search()`` and ``solve()`` use for ``backend``.

    :raises InvalidOptionError: for an unknown backend."""
    return _DEFAULT.get(backend) or presets.for_library(backend)


def search(
    position: Position[Any],
    limits: SearchLimits | None = None,
    *,
    backend: str = "auto",
    multipv: int = 1,
    root_moves: Sequence[Any] | None = None,
    algorithm: str = "auto",
    options: SearchOptions | None = None,
    table: TranspositionTable | None = None,
    on_iteration: OnIteration | None = None,
    trace: SearchTrace | MCTSTrace | None = None,
) -> SearchResult[Any]:
    """Search ``position`` within ``limits`` (a depth, node count or time is required),
    deepening one ply at a time, each completed iteration reported to ``on_iteration``;
    ``position`` is never changed. ``backend``: ``"auto"`` (a compiled kernel when the game
    has one), ``"compiled"`` or ``"python"``. ``multipv=k`` scores the ``k`` best root moves
    (``result.lines``); ``root_moves`` restricts the root. ``algorithm``, ``options``,
    ``table`` and ``trace`` are the pure-Python search's, except ``algorithm="mcts"``: Monte
    Carlo tree search, compiled for a ``CompiledGame`` (and ``auto``'s choice for a game
    without an evaluation searched to a time or node limit). See ``Searcher.search``.

    :raises InvalidOptionError: if no limit is given, or for an unknown algorithm or
        backend, a backend that cannot do what is asked, or root moves that are not legal.
    """
    return default_searcher(backend).search(
        position,
        limits,
        multipv=multipv,
        root_moves=root_moves,
        algorithm=algorithm,
        options=options,
        table=table,
        trace=trace,
        on_iteration=on_iteration,
    )


def solve(
    position: Position[Any],
    limits: SearchLimits | None = None,
    *,
    backend: str = "auto",
    multipv: int = 1,
    algorithm: str = "auto",
    options: SearchOptions | None = None,
    table: TranspositionTable | None = None,
    on_iteration: OnIteration | None = None,
    trace: SearchTrace | MCTSTrace | None = None,
) -> SearchResult[Any]:
    """The game-theoretic value of ``position``: search to the end of the game. Wins and
    losses carry their distance. ``limits`` may bound nodes or time; a solve cut short
    returns the bounds proven so far (``lower``/``upper``, ``completed=False``, the lower
    bound as ``score``, ``score_text`` ``'not proven: ...'``). ``on_iteration`` gets the
    bounds as they narrow, then the result.
    ``multipv=k``: the ``k`` best moves with their values (``result.lines``). The other
    arguments as for ``search()``; see ``Searcher.solve``.

    :raises InvalidOptionError: for a depth limit, a game that cannot be solved exactly
        without a limit (chess), an unknown algorithm or backend, or a backend that cannot
        do what is asked.
    """
    return default_searcher(backend).solve(
        position,
        limits,
        multipv=multipv,
        algorithm=algorithm,
        options=options,
        table=table,
        trace=trace,
        on_iteration=on_iteration,
    )
