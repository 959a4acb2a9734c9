"""UCI_Elo's skill: between the measured levels by straight lines, never falling."""

from __future__ import annotations

import pytest

from negamax.core.errors import InvalidOptionError
from negamax.engines.chess_levels import skill_for_elo
from negamax.games.chess.levels import LEVEL_ELO
from negamax.search.strength import LEVEL_SKILLS


def test_each_levels_rating_gives_its_skill_and_ratings_between_fall_between() -> None:
    assert list(LEVEL_ELO) == sorted(LEVEL_ELO)  # the measured ratings, made monotone
    for skill, elo in zip(LEVEL_SKILLS, LEVEL_ELO, strict=True):
        assert LEVEL_SKILLS.index(skill_for_elo(elo)) <= LEVEL_SKILLS.index(skill)
    skills = [skill_for_elo(elo) for elo in range(LEVEL_ELO[0], LEVEL_ELO[-1] + 1)]
    assert skills == sorted(skills) and skills[0] == 0 and skills[-1] == 20
    for bad in (LEVEL_ELO[0] - 1, LEVEL_ELO[-1] + 1):
        with pytest.raises(InvalidOptionError, match="UCI_Elo must be"):
            skill_for_elo(bad)
