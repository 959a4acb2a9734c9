"""Value objects at the edge of the search: what to search for, and what was found."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from negamax.core.errors import InvalidOptionError
from negamax.core.ranges import DEPTH, NODES, TIME
from negamax.core.score import INF, Bound, describe, not_proven_text

MoveT = TypeVar("MoveT", bound=Hashable)
STOP_LATENCY = 0.02
"""Seconds within which a compiled search notices that its stop event was set."""


@dataclasses.dataclass(frozen=True)
class SearchLimits:
    """When a search must stop. Every field is optional; none set means no limit.

    Each number is checked by ``negamax.core.ranges`` (a depth of 1 to 1000 plies, a node
    count of 1 to 10**15, a time of up to about four months), and ``stop`` must be an event.

    >>> SearchLimits(depth=4)
    SearchLimits(depth=4)
    >>> SearchLimits(depth=0)
    Traceback (most recent call last):
    ...
    negamax.core.errors.InvalidOptionError: depth must be a whole number from 1 to 1000 (plies), not 0
    """

    depth: int | None = None
    """Deepest iteration, in plies (``None``: to the end of the game when solving)."""
    nodes: int | None = None
    """Stop after about this many nodes."""
    time: float | None = None
    """Stop after this many wall-clock seconds."""
    stop: threading.Event | None = dataclasses.field(default=None, compare=False)
    """Set this event (from any thread) to stop the search."""

    def __post_init__(self) -> None:
        # frozen: the checked values (a depth of 3.0 becomes 3) are set past the guard
        object.__setattr__(self, "depth", DEPTH.check_optional(self.depth))
        object.__setattr__(self, "nodes", NODES.check_optional(self.nodes))
        object.__setattr__(self, "time", TIME.check_optional(self.time))
        if self.stop is not None and not callable(getattr(self.stop, "is_set", None)):
            raise InvalidOptionError(f"stop must be a threading.Event (or None), not {type(self.stop).__name__}")

    def reached(self, start: float, now: float) -> bool:
        """Whether a search that began at ``start`` must stop at ``now`` (both
        ``time.perf_counter()`` seconds): its stop event is set or its time is up. Every
        search watches its limits through this; each counts its own nodes."""
        if self.stop is not None and self.stop.is_set():
            return True
        return self.time is not None and now - start >= self.time

    def wait_before_next_look(self, start: float, now: float) -> float:
        """How long a thread watching a compiled search for these limits may sleep before it
        looks again: until the time is up, but at most ``STOP_LATENCY`` while a stop event
        could be set (and a quarter of a second in any case, for Ctrl-C). Waking only then
        keeps dozens of searches at once from competing for the interpreter lock with the
        threads that serve them."""
        wait = STOP_LATENCY if self.stop is not None else 0.25
        if self.time is not None:
            wait = min(wait, self.time - (now - start))
        return max(wait, 0.0)

    def __repr__(self) -> str:
        shown = [
            f"{field.name}={getattr(self, field.name)!r}"
            for field in dataclasses.fields(self)
            if getattr(self, field.name) is not None
        ]
        return f"SearchLimits({', '.join(shown)})"


@dataclasses.dataclass(frozen=True)
class SearchStats:
    """Counters that show how well the search pruned."""

    beta_cutoffs: int = 0
    """Nodes whose search stopped early on a fail-high."""
    first_move_cutoffs: int = 0
    """Of those, the ones where the first move searched caused the cut-off."""
    tt_probes: int = 0
    tt_hits: int = 0
    """Probes that found an entry for the same position."""
    tt_cutoffs: int = 0
    """Probes whose stored bound answered the node without a search."""
    researches: int = 0
    """Null-window or aspiration searches that had to be repeated with a wider window."""
    quiescence_nodes: int = 0
    seldepth: int = 0
    """The deepest ply reached, quiescence included (0: not measured)."""
    null_move_cutoffs: int = 0
    reduced_moves: int = 0
    """Moves searched first at a reduced depth (late-move reductions)."""
    iterations_nodes: tuple[int, ...] = ()
    """Nodes spent by each completed iteration (depth, or probe when solving)."""

    @property
    def first_move_cutoff_rate(self) -> float:
        """How often the first move was the one that cut off (1.0 is perfect ordering)."""
        return self.first_move_cutoffs / self.beta_cutoffs if self.beta_cutoffs else 0.0

    @property
    def tt_hit_rate(self) -> float:
        return self.tt_hits / self.tt_probes if self.tt_probes else 0.0

    def as_dict(self) -> dict[str, float | int]:
        values: dict[str, float | int] = {
            field.name: getattr(self, field.name)
            for field in dataclasses.fields(self)
            if field.name != "iterations_nodes"
        }
        values["first_move_cutoff_rate"] = round(self.first_move_cutoff_rate, 4)
        values["tt_hit_rate"] = round(self.tt_hit_rate, 4)
        return values


@dataclasses.dataclass(frozen=True)
class Line(Generic[MoveT]):
    """One root move's own result, for a search that scores several (``multipv``): its
    score from the side to move at the root, what that score proves, and its line."""

    move: MoveT
    score: int
    bound: Bound
    """``EXACT``, or ``LOWER``/``UPPER`` when a limit cut this move's search short."""
    pv: tuple[MoveT, ...]
    """The principal variation, starting with ``move``."""
    lower: int = -INF
    upper: int = INF
    visits: int | None = None
    """Monte Carlo tree search: the playouts through this move (``None`` for the other searches)."""
    win_rate: float | None = None
    """Monte Carlo tree search: the share of those playouts the side to move won, a draw
    counting half (``None`` before any, and for the other searches)."""

    @property
    def score_text(self) -> str:
        """As ``SearchResult.score_text``."""
        return _score_text(self.score, self.bound, self.lower, self.upper)

    @property
    def unresolved(self) -> bool:
        """Whether this move's value is only bounded (its solve was cut short)."""
        return _unresolved(self.bound, self.lower, self.upper)


@dataclasses.dataclass(frozen=True)
class SearchResult(Generic[MoveT]):
    """What a search found. Scores are from the side to move at the searched position."""

    best_move: MoveT | None
    """The move to play (``None`` when the position is already over)."""
    score: int
    """The value; for a solve cut short by a limit, the lower bound it proved (``-INF``
    when none), with ``bound`` ``LOWER``: never a value it did not prove."""
    bound: Bound
    """``EXACT`` unless the search was stopped before it could prove the score."""
    pv: tuple[MoveT, ...]
    """The principal variation, starting with ``best_move``."""
    depth: int
    """Depth of the deepest completed iteration (plies); for solves, the game length searched."""
    nodes: int
    cpu_time: float
    """Process CPU seconds spent."""
    wall_time: float
    algorithm: str
    stats: SearchStats = SearchStats()
    lower: int = -INF
    """The proven lower bound on the true value (``== score`` when exact; ``-INF``: none
    proven)."""
    upper: int = INF
    """The proven upper bound on the true value (``INF``: none proven)."""
    completed: bool = True
    """False when a limit or the stop event cut the search short (a solve whose value is
    proven but whose line was cut short is complete: its line is its best move)."""
    window: tuple[int, int] | None = None
    """In a report from an exact solve that is narrowing its bounds: the window it is
    searching (a null window: is the value above the first?)."""
    lines: tuple[Line[MoveT], ...] = ()
    """With ``multipv=k``: the ``k`` best root moves, best first, each with its own score,
    bound and line (every move when ``k`` is at least their number); otherwise empty."""

    @property
    def score_text(self) -> str:
        """``'win in 5'``, ``'loss in 4'`` or the plain number; for a result that only
        bounds the value (``unresolved``), ``'not proven: at least 0, at most win in 7'``."""
        return _score_text(self.score, self.bound, self.lower, self.upper)

    @property
    def unresolved(self) -> bool:
        """Whether the result only bounds the value (``lower < upper``, ``bound`` not
        ``EXACT``): a solve cut short by a limit, a solve's progress report, or a search
        stopped before its first iteration."""
        return _unresolved(self.bound, self.lower, self.upper)

    @property
    def nodes_per_second(self) -> float:
        """Nodes per CPU-second."""
        return self.nodes / self.cpu_time if self.cpu_time > 0 else 0.0

    @property
    def effective_branching_factor(self) -> float:
        """Growth of the node count from one iteration to the next (or nodes^(1/depth))."""
        counts = [count for count in self.stats.iterations_nodes if count > 0]
        if len(counts) >= 2:
            return counts[-1] / counts[-2]
        if self.depth > 0 and self.nodes > 0:
            return float(self.nodes ** (1.0 / self.depth))
        return 0.0


def _unresolved(bound: Bound, lower: int, upper: int) -> bool:
    return bound != Bound.EXACT and lower < upper


def _score_text(score: int, bound: Bound, lower: int, upper: int) -> str:
    return not_proven_text(lower, upper) if _unresolved(bound, lower, upper) else describe(score)


OnIteration = Callable[[SearchResult[Any]], None]
"""What a search calls with each completed iteration (or, when solving, each narrowing of
the bounds): progress for a display, never needed for the answer."""
