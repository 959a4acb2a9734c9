"""Playing below full strength, the way people expect a weaker opponent to play: it looks
fewer plies ahead, and at the lower levels now and then a ply less still (it overlooks the
answer to its move), it takes a move close to the best one about as often as the best, and
at the lowest levels it now and then plays a move at random. It never weakens by thinking
less than its time allows at a given depth, so a weak level still answers at its own pace.

One number says how strong: the skill, 0 to 20 (20: full strength), as Stockfish's ``Skill
Level``. The page's levels 1 to 8 are eight skills; ``negamax-uci``'s ``UCI_Elo`` picks
the skill by straight lines between the levels' measured ratings (``BENCHMARKS.md`` has
the table).

The search itself is the same at every strength: a ``Strength`` narrows the limits of the
search asked for (``limits``) and chooses among the root moves it scored (``choose``), so
every engine and front end weakens the same way. The choice is random by design; it draws
from the ``random.Random`` the caller owns, so a seeded generator replays a game.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from typing import Any, Final

from negamax.core.ranges import LEVEL, SKILL
from negamax.core.score import INF, WIN_THRESHOLD, Bound
from negamax.core.types import SearchLimits, SearchResult

FULL_SKILL: Final = int(SKILL.high)
CANDIDATES: Final = 4
"""Root moves scored below full strength: the best and the three next, which is where a
human's second thoughts come from."""
LEVEL_SKILLS: Final = (0, 3, 6, 9, 12, 15, 18, 20)
"""The skill of each level from 1 to 8: evenly spaced, the last at full strength."""
SKILL_DEPTHS: Final = (2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 6, 7, 7, 7, 8, 8)
"""The deepest search at each skill below full strength: 2 plies at skills 0-3, one more
every four skills up to 5 at skills 12-13, then faster (7 at 15-17, 8 at 18-19). Chess
measured levels 5 (depth 5) and 6 (also 5) as one strength, and level 7 (6 plies) barely
above them, some 480 Elo below full strength: a ply more at the top levels spreads them."""


@dataclasses.dataclass(frozen=True)
class Strength:
    """How well to play: ``skill`` from 0 (weakest) to 20 (full strength)."""

    skill: int = FULL_SKILL

    def __post_init__(self) -> None:
        SKILL.check(self.skill)

    @classmethod
    def of_level(cls, level: int) -> Strength:
        """The strength of the page's level ``level`` (1 to 8).

        :raises InvalidOptionError: for a level out of range.
        """
        return cls(LEVEL_SKILLS[int(LEVEL.check(level)) - 1])

    @property
    def full(self) -> bool:
        return self.skill >= FULL_SKILL

    @property
    def depth(self) -> int | None:
        """The deepest search, in plies (``SKILL_DEPTHS``); ``None`` at full strength."""
        return None if self.full else SKILL_DEPTHS[self.skill]

    @property
    def temperature(self) -> float:
        """How far below the best a move may score and still be played often, in units of
        the game's evaluation (a pawn in chess): a move that scores this much less than the
        best is played e (2.7) times less often. 0.6 units at skill 0, falling with the
        square of the skill to nothing at full strength."""
        return 0.6 * ((FULL_SKILL - self.skill) / FULL_SKILL) ** 2

    @property
    def oversight_chance(self) -> float:
        """The chance of a move searched a ply less deep (at least one): 40 % at skill 0,
        falling evenly to none from skill 10 on. It is how a weak player misses a threat
        that a search of its usual depth would see."""
        return max(0.0, 0.04 * (10 - self.skill))

    @property
    def blunder_chance(self) -> float:
        """The chance of a move picked at random among all legal moves: 6 % at skill 0,
        none from skill 4 on."""
        return max(0.0, (4 - self.skill) * 0.015)

    def limits(self, limits: SearchLimits, generator: random.Random | None = None) -> SearchLimits:
        """``limits`` with the depth capped at this strength's, a ply less by chance (an
        oversight) when ``generator`` is given."""
        if self.depth is None:
            return limits
        depth = self.depth
        if generator is not None and generator.random() < self.oversight_chance:
            depth = max(1, depth - 1)
        depth = depth if limits.depth is None else min(limits.depth, depth)
        return dataclasses.replace(limits, depth=depth)

    def multipv(self, asked: int = 1) -> int:
        """Root moves to score: what was asked, and at least ``CANDIDATES`` below full strength."""
        return asked if self.full else max(asked, CANDIDATES)

    def choose(
        self, result: SearchResult[Any], legal_moves: Sequence[Any], generator: random.Random, unit: int = 1
    ) -> SearchResult[Any]:
        """``result`` with the move this strength plays: the best at full strength; else,
        by chance, one of the scored root moves weighted by how close it is to the best
        (``unit``: what one unit of ``temperature`` is worth in the game's scores), or now
        and then any legal move. A move other than the best leaves the line empty past it."""
        if self.full or result.best_move is None:
            return result
        if len(legal_moves) > 1 and generator.random() < self.blunder_chance:
            return _playing(result, generator.choice(list(legal_moves)))
        lines = result.lines or ()
        if len(lines) < 2:
            return result
        best = lines[0].score
        scale = max(self.temperature * unit, 1e-9)
        weights = [_weight(best, line.score, scale) for line in lines]
        move = generator.choices([line.move for line in lines], weights)[0]
        return result if move == result.best_move else _playing(result, move)


def _weight(best: int, score: int, scale: float) -> float:
    """A candidate's chance, relative to the best's: none for a move that throws away a win
    the best one has, or walks into a loss the search has seen."""
    if score <= -WIN_THRESHOLD < best or (best >= WIN_THRESHOLD > score):
        return 0.0
    return math.exp(-(best - score) / scale)


def _playing(result: SearchResult[Any], move: Any) -> SearchResult[Any]:
    """``result`` playing ``move``: with its own line's score and bounds where it was
    scored; a move picked at random was not, so nothing is proven of it."""
    line = next((line for line in result.lines if line.move == move), None)
    if line is None:
        return dataclasses.replace(result, best_move=move, pv=(move,), bound=Bound.LOWER, lower=-INF, upper=INF)
    return dataclasses.replace(
        result,
        best_move=move,
        pv=line.pv or (move,),
        score=line.score,
        bound=line.bound,
        lower=line.lower,
        upper=line.upper,
    )
