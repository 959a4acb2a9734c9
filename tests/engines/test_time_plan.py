"""The clock plan: a target share of the clock, stretched while the search is unsure."""

from __future__ import annotations

import pytest

from negamax.engines.time_plan import TimePlan


def test_the_target_is_a_share_of_the_clock_and_the_ceiling_three_targets() -> None:
    plan = TimePlan.for_clock(60.0, 1.0, None, 0.01)
    assert plan.target == pytest.approx(60 / 30 + 0.75) and plan.ceiling == pytest.approx(3 * plan.target)
    last_moves = TimePlan.for_clock(10.0, 0.0, 2, 0.01)  # two moves to the time control
    assert last_moves.ceiling == pytest.approx(10 * 0.5 - 0.01)  # never more than half the clock
    assert TimePlan.for_clock(0.0, 0.0, None, 0.01).target > 0


def test_a_steady_search_stops_once_half_its_target_has_gone() -> None:
    plan = TimePlan(target=1.0, ceiling=3.0)
    assert not plan.enough(8, "e4", 20, 0.4)
    assert not plan.enough(9, "e4", 22, 0.49)
    assert plan.enough(10, "e4", 21, 0.5)


def test_a_changing_best_move_stretches_the_target_and_the_stretch_fades() -> None:
    plan = TimePlan(target=1.0, ceiling=3.0)
    plan.enough(8, "e4", 20, 0.1)
    assert not plan.enough(9, "d4", 20, 0.9)  # changed: stretched to twice the target
    assert plan.stretch() == pytest.approx(2.0)
    assert plan.enough(10, "d4", 20, 0.9)  # steady again: half the stretch is left
    assert plan.stretch() == pytest.approx(1.5)


def test_a_falling_score_stretches_the_target() -> None:
    plan = TimePlan(target=1.0, ceiling=3.0)
    plan.enough(8, "e4", 50, 0.1)
    assert not plan.enough(9, "e4", 10, 0.6)  # a fall of 40: half a target more
    assert plan.stretch() == pytest.approx(1.5)
    plan.enough(10, "e4", -70, 0.6)  # a fall of 80: a whole target more
    assert plan.stretch() == pytest.approx(1.0 + 0.25 + 1.0)


def test_shallow_iterations_do_not_count_as_unease() -> None:
    plan = TimePlan(target=1.0, ceiling=3.0)
    for depth, move in enumerate(["a3", "e4", "d4", "c4"], start=1):
        plan.enough(depth, move, -100 * depth, 0.01)
    assert plan.stretch() == 1.0
