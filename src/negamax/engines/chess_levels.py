"""``UCI_Elo``: the skill that plays at a given rating on Stockfish's scale, from each
level's measured rating (``negamax.games.chess.levels``)."""

from __future__ import annotations

import itertools
from typing import Final

from negamax.core.ranges import Range
from negamax.games.chess.levels import LEVEL_ELO
from negamax.search.strength import LEVEL_SKILLS

UCI_ELO: Final = Range("UCI_Elo", LEVEL_ELO[0], LEVEL_ELO[-1])


def skill_for_elo(elo: int) -> int:
    """The skill whose rating is ``elo``, between the measured levels by straight lines
    (the ratings never fall from one level to the next; where two are equal, the lower
    level's skill).

    :raises InvalidOptionError: for a rating outside the measured ones.
    """
    elo = int(UCI_ELO.check(elo))
    levels = list(zip(LEVEL_SKILLS, LEVEL_ELO, strict=True))
    for (low_skill, low_elo), (high_skill, high_elo) in itertools.pairwise(levels):
        if elo <= high_elo:
            if high_elo == low_elo:
                return low_skill
            return round(low_skill + (high_skill - low_skill) * (elo - low_elo) / (high_elo - low_elo))
    return LEVEL_SKILLS[-1]
