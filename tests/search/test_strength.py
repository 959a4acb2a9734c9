"""Playing levels: a weaker strength looks fewer plies ahead, picks among close moves by
chance, errs at random at the lowest skills, and loses games the full strength does not."""

from __future__ import annotations

import random
from typing import Any

import pytest

from negamax.core.errors import InvalidOptionError
from negamax.core.score import WIN, Bound
from negamax.core.types import Line, SearchLimits, SearchResult
from negamax.games import get_game
from negamax.search import search
from negamax.search.strength import CANDIDATES, LEVEL_SKILLS, Strength


def scored(*scores: int) -> SearchResult[Any]:
    """A multipv result whose root moves 0, 1, 2... score ``scores`` (best first)."""
    lines = tuple(Line(move, score, Bound.EXACT, (move,)) for move, score in enumerate(scores))
    return SearchResult(0, scores[0], Bound.EXACT, (0,), 3, 100, 0.0, 0.0, "alphabeta", lines=lines)


def test_levels_and_skills() -> None:
    assert [Strength.of_level(level).skill for level in range(1, 9)] == list(LEVEL_SKILLS)
    assert Strength.of_level(8).full and Strength.of_level(8).depth is None
    depths = [Strength.of_level(level).depth for level in range(1, 8)]
    assert depths == sorted(depths) and depths[0] == 2
    temperatures = [Strength.of_level(level).temperature for level in range(1, 9)]
    assert temperatures == sorted(temperatures, reverse=True) and temperatures[-1] == 0
    assert Strength.of_level(1).blunder_chance > 0 == Strength.of_level(3).blunder_chance
    for bad in (0, 9, 2.5, "3", True):
        with pytest.raises(InvalidOptionError, match="level must be a whole number from 1 to 8"):
            Strength.of_level(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="skill level"):
        Strength(21)


def test_limits_cap_the_depth_and_keep_the_rest() -> None:
    weak = Strength(0)
    assert weak.limits(SearchLimits(time=1.0)) == SearchLimits(time=1.0, depth=2)
    assert weak.limits(SearchLimits(depth=1)).depth == 1
    assert Strength().limits(SearchLimits(time=1.0)) == SearchLimits(time=1.0)
    depths = {weak.limits(SearchLimits(time=1.0), random.Random(seed)).depth for seed in range(20)}
    assert depths == {1, 2}  # now and then a ply less: an oversight
    assert Strength(10).oversight_chance == 0
    assert weak.multipv(1) == CANDIDATES and weak.multipv(6) == 6 and Strength().multipv(1) == 1


def test_close_moves_are_picked_by_how_close_they_are() -> None:
    strength, generator = Strength(9), random.Random(7)
    counts = [0, 0, 0, 0]
    result = scored(50, 40, 0, -300)  # centipawns: a tenth of a pawn, half a pawn, three pawns worse
    for _ in range(2000):
        counts[strength.choose(result, [0, 1, 2, 3], generator, unit=100).best_move] += 1
    assert counts[0] > counts[1] > counts[2] > counts[3] == 0
    assert counts[1] > 0.5 * counts[0]  # a tenth of a pawn is nearly a coin toss at this skill
    assert Strength().choose(result, [0, 1, 2, 3], generator, unit=100) is result  # full strength: the best


def test_a_win_is_not_thrown_away_and_a_seen_loss_not_walked_into() -> None:
    strength, generator = Strength(4), random.Random(3)  # no random moves from skill 4 on
    winning = scored(WIN - 5, 30, 20)
    assert {strength.choose(winning, [0, 1, 2], generator, unit=100).best_move for _ in range(300)} == {0}
    losing = scored(10, 5, -(WIN - 2))
    assert {strength.choose(losing, [0, 1, 2], generator, unit=100).best_move for _ in range(300)} == {0, 1}


def test_the_lowest_skill_now_and_then_plays_any_legal_move() -> None:
    strength, generator = Strength(0), random.Random(11)
    result = scored(WIN - 1, -100)  # a mate in one, and nothing else in the lines
    picks = [strength.choose(result, list(range(10)), generator).best_move for _ in range(1000)]
    assert 20 < sum(pick != 0 for pick in picks) < 120  # 6 % of the time, any of the ten
    assert set(picks) - {0, 1}  # moves the search never scored
    chosen = strength.choose(result, list(range(10)), random.Random(0))
    assert chosen.pv[0] == chosen.best_move


def play(position: Any, strengths: tuple[Strength, Strength], generator: random.Random) -> int:
    """A game of pure-Python searches to the end; returns the first player's result."""
    while not position.is_terminal():
        strength = strengths[position.player()]
        limits = strength.limits(SearchLimits(depth=9), generator)
        result = search(position, limits, backend="python", multipv=strength.multipv())
        move = strength.choose(result, list(position.legal_moves()), generator).best_move
        position.play(move)
    value = position.terminal_value()  # for the side to move, who did not make the last move
    return value if position.player() == 0 else -value


def test_level_1_loses_tic_tac_toe_games_full_strength_never_loses() -> None:
    game, generator = get_game("tictactoe"), random.Random(5)
    weak, full = Strength.of_level(1), Strength.of_level(8)
    as_first = [play(game.new_position(None), (weak, full), generator) for _ in range(12)]
    as_second = [-play(game.new_position(None), (full, weak), generator) for _ in range(12)]
    results = [1 if value > 0 else -1 if value < 0 else 0 for value in as_first + as_second]
    assert 1 not in results  # perfect play never loses tic-tac-toe
    assert results.count(-1) >= 3  # and the weakest level does
