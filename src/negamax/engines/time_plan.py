"""How long a move on a clock may take: a target share of the clock, stretched while the
search is unsure (its best move keeps changing, its score is falling), and a ceiling the
search never passes.

The search is told the ceiling; after each finished iteration ``TimePlan.enough`` says
whether to stop there rather than start the next one. An iteration costs about twice the
one before it, so one that starts after half the stretched target has gone would end near
or past the target: the plan stops before it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

DEFAULT_MOVES_TO_GO = 30
"""The moves the clock is shared over when the GUI does not say (a sudden-death clock)."""
INCREMENT_SHARE = 0.75
"""How much of each increment a move spends beyond its share of the clock."""
CEILING_TARGETS = 3.0
"""The longest a move may take, in targets (an unsure search's last iteration runs on)."""
CLOCK_SHARE = 0.5
"""No move takes more than this share of what is left on the clock."""
NEXT_ITERATION = 0.5
"""Stop once this share of the stretched target has gone: the next iteration would not end
in time."""
SURE_DEPTH = 5
"""Iterations before this one are too shallow to judge the search's confidence by."""
CHANGE_WEIGHT = 1.0
"""Each change of the best move stretches the target by this many targets (the count
halves every iteration, so only recent changes count)."""
SCORE_DROP = 30
"""A fall of the score by this much since the last iteration (a third of a pawn in chess)
stretches the target by half, twice the fall by one whole target."""


@dataclasses.dataclass
class TimePlan:
    """One move's time on a clock (seconds): it should take ``target``, never ``ceiling``."""

    target: float
    ceiling: float
    _best_move: Any = None
    _score: int | None = None
    _changes: float = 0.0

    @classmethod
    def for_clock(cls, time_left: float, increment: float, moves_to_go: int | None, overhead: float) -> TimePlan:
        """The plan for a move with ``time_left`` on the clock, ``overhead`` kept back for
        the reply to travel."""
        moves = moves_to_go or DEFAULT_MOVES_TO_GO
        share = time_left / moves + INCREMENT_SHARE * increment
        most = max(0.001, time_left * CLOCK_SHARE - overhead)
        target = max(0.001, min(share, most))
        return cls(target=target, ceiling=min(target * CEILING_TARGETS, most))

    def stretch(self) -> float:
        """The target's multiple the search's unease asks for so far."""
        return 1.0 + CHANGE_WEIGHT * self._changes

    def enough(self, depth: int, best_move: Any, score: int, elapsed: float) -> bool:
        """After an iteration to ``depth`` that chose ``best_move`` at ``score``,
        ``elapsed`` seconds into the move: whether to stop rather than go deeper."""
        self._changes /= 2
        if self._score is not None and depth >= SURE_DEPTH:
            if best_move != self._best_move:
                self._changes += 1
            drop = self._score - score
            if drop >= SCORE_DROP:
                self._changes += 0.5 if drop < 2 * SCORE_DROP else 1.0
        self._best_move, self._score = best_move, score
        return elapsed >= NEXT_ITERATION * self.target * self.stretch()
