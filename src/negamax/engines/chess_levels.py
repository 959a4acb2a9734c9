"""The chess engine's strength on Stockfish's ``UCI_Elo`` scale, level by level, as
measured by ``benchmarks/chess_levels.py`` (the table and how it was run are in
``BENCHMARKS.md``): what ``UCI_Elo`` reads, and what the page says of each level."""

from __future__ import annotations

from typing import Final

from negamax.core.ranges import Range
from negamax.search.strength import LEVEL_SKILLS

LEVEL_ELO: Final = (1300, 1450, 1600, 1750, 1900, 2050, 2200, 2370)
"""The measured rating of each level from 1 to 8 (the skills ``LEVEL_SKILLS`` names)."""
UCI_ELO: Final = Range("UCI_Elo", LEVEL_ELO[0], LEVEL_ELO[-1])


def skill_for_elo(elo: int) -> int:
    """The skill whose rating is ``elo``, between the measured levels by straight lines.

    :raises InvalidOptionError: for a rating outside the measured ones.
    """
    elo = int(UCI_ELO.check(elo))
    for (low_skill, low_elo), (high_skill, high_elo) in zip(
        zip(LEVEL_SKILLS, LEVEL_ELO, strict=True), zip(LEVEL_SKILLS[1:], LEVEL_ELO[1:], strict=True), strict=False
    ):
        if elo <= high_elo:
            return round(low_skill + (high_skill - low_skill) * (elo - low_elo) / (high_elo - low_elo))
    return LEVEL_SKILLS[-1]
