"""Every switch and tunable of the optimised search and of Monte Carlo tree search, and the
named algorithm presets."""

from __future__ import annotations

import dataclasses

from negamax.core.errors import InvalidOptionError
from negamax.search.windows import ASPIRATION_WINDOW

EXPLORATION = 0.35
"""UCT's exploration constant ``c``: a child is chosen for the most
``wins / visits + c * sqrt(ln(parent's visits) / visits)``, wins counting 1 and draws 1/2.
Larger explores more. Measured on 5x5 Hex at 0.2 s a move, 20 games each, colours
alternating (``benchmarks/mcts_hex.py exploration``): 0.7 beat 1.4 14-6, 0.35 beat 0.7
13-7, and 0.2 and 0.5 scored 9-11 and 11-9 against 0.35 (``docs/journal/2026-12-02-mcts.md``)."""
PLAYOUTS = ("game", "random")
"""How a Monte Carlo playout finishes a game: ``game``, by the game's own ``playout`` where
it has one (else as ``random``); ``random``, by uniformly random legal moves."""

MAX_THREADS = 64
"""The most threads one compiled search runs (lazy SMP, ``compiled.move_list_helper_pool``)."""


def check_threads(threads: int, name: str) -> None:
    """:raises InvalidOptionError: unless ``threads`` (the option ``name``) is 1-``MAX_THREADS``."""
    if not 1 <= threads <= MAX_THREADS:
        raise InvalidOptionError(f"{name} must be 1-{MAX_THREADS}, not {threads}")


@dataclasses.dataclass(frozen=True)
class SearchOptions:
    """What the engine does at each node. The presets in ``ALGORITHMS`` fill these in."""

    alpha_beta: bool = True
    """Prune with an (alpha, beta) window; off gives plain negamax."""
    transposition_table: bool = True
    pvs: bool = True
    """Principal-variation search (NegaScout): null windows after the first move."""
    killers: bool = True
    history: bool = True
    quiescence: bool = True
    """Search noisy moves past the horizon, for games that offer them."""
    safe_moves: bool = True
    """Use the game's immediate-win / immediate-loss knowledge, if it has any."""
    canonical_keys: bool = True
    """Key the table by the game's symmetry-canonical key, if it has one."""
    mate_distance_pruning: bool = True
    aspiration_window: int = 0
    """Half-width of the first window of each iteration (0: full windows)."""
    driver: str = "deepening"
    """How the root is searched: ``deepening`` (full or aspiration windows), ``single``
    (one search at the final depth), ``mtdf``, ``bisection`` when solving (null-window
    probes that halve the score range, as in Pons' solver), or ``mcts``: Monte Carlo tree
    search (``negamax.search.mcts``), which reads only the three fields below."""
    tt_entries: int | None = None
    tt_mib: float | None = None
    """Table size; the default is ``negamax.core.ranges.DEFAULT_HASH_MIB``."""
    tt_policy: str = "depth"
    check_every: int = 1024
    """Nodes between checks of the time, node and stop limits."""
    exploration: float = EXPLORATION
    """MCTS: UCT's exploration constant (``EXPLORATION``)."""
    seed: int = 0
    """MCTS: the seed of the playouts' random choices: the same seed, the same search
    (to a playout limit)."""
    playouts: str = "game"
    """MCTS: how playouts finish a game (``PLAYOUTS``)."""

    def __post_init__(self) -> None:
        if self.driver not in ("deepening", "single", "mtdf", "bisection", "mcts"):
            raise InvalidOptionError(f"unknown driver {self.driver!r}")
        if not 0 <= self.exploration <= 100:
            raise InvalidOptionError(f"exploration must be from 0 to 100, not {self.exploration}")
        if self.playouts not in PLAYOUTS:
            raise InvalidOptionError(f"playouts must be one of {', '.join(PLAYOUTS)}, not {self.playouts!r}")
        if self.aspiration_window < 0:
            raise InvalidOptionError("aspiration_window must be at least 0")
        if self.check_every < 1:
            raise InvalidOptionError("check_every must be at least 1")


_PLAIN = SearchOptions(
    alpha_beta=False,
    transposition_table=False,
    pvs=False,
    killers=False,
    history=False,
    quiescence=False,
    safe_moves=False,
    canonical_keys=False,
    mate_distance_pruning=False,
    driver="single",
)

ALGORITHMS: dict[str, SearchOptions] = {
    "negamax": _PLAIN,
    "alphabeta": dataclasses.replace(_PLAIN, alpha_beta=True),
    "alphabeta-tt": dataclasses.replace(_PLAIN, alpha_beta=True, transposition_table=True),
    "pvs": SearchOptions(driver="deepening", aspiration_window=0),
    "mtdf": SearchOptions(driver="mtdf", pvs=False),
    "auto": SearchOptions(driver="deepening", aspiration_window=ASPIRATION_WINDOW, history=False),
    "mcts": dataclasses.replace(_PLAIN, driver="mcts"),
}
"""The named algorithms: the seeds' plain variants and the optimised engine's drivers.

``auto`` searches with aspiration windows when the depth is bounded and by null-window
bisection of the score range when solving; on a game without an evaluation
(``has_evaluation = False``) searched to a time or playout limit, it is ``mcts``.
"""

ALGORITHM_HELP = {
    "negamax": "plain negamax, no pruning: every node searched (the textbook algorithm)",
    "alphabeta": "fail-soft alpha-beta, game move order",
    "alphabeta-tt": "fail-soft alpha-beta with a transposition table",
    "pvs": "principal-variation search with TT, killers, history, iterative deepening",
    "mtdf": "MTD(f): null-window searches converging on the value, with TT",
    "auto": "the strongest: PVS with aspiration windows, or bisection when solving; MCTS for games without"
    " an evaluation",
    "mcts": "Monte Carlo tree search (UCT, random playouts, MCTS-Solver): for games without an evaluation;"
    " --nodes counts playouts",
}


def options_for(algorithm: str) -> SearchOptions:
    """The preset for ``algorithm``.

    :raises InvalidOptionError: for an unknown name.
    """
    try:
        return ALGORITHMS[algorithm]
    except KeyError:
        raise InvalidOptionError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}") from None
