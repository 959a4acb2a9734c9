"""The sequential probability ratio test that gates draughts changes (``benchmarks/sprt.py``):
its fitted distributions are the most likely ones (checked by perturbing them every way the
constraints allow), its log-likelihood ratio is the one they give, and matches simulated
with a known strength gap stop on the right side of the test."""

from __future__ import annotations

import math
import random
from types import ModuleType

import pytest

from tests.benchmarks.conftest import load_benchmark


@pytest.fixture(scope="module")
def sprt() -> ModuleType:
    return load_benchmark("sprt")


def log_likelihood(counts: list[float], probabilities: list[float]) -> float:
    return sum(count * math.log(p) for count, p in zip(counts, probabilities, strict=True) if count)


@pytest.mark.parametrize(
    "counts", [[1, 5, 30, 25, 10], [3, 12, 40, 11, 2], [0.001, 2.001, 7.001, 0.001, 5.001], [8, 1, 1, 1, 20]]
)
@pytest.mark.parametrize("mean", [0.3, 0.5, 0.5144, 0.7])
def test_the_fitted_distribution_is_the_most_likely_with_that_mean(
    sprt: ModuleType, counts: list[float], mean: float
) -> None:
    fitted = sprt.constrained_distribution(counts, mean)
    scores = sprt.PAIR_SCORES
    assert math.isclose(sum(fitted), 1, abs_tol=1e-9)
    assert math.isclose(sum(p * a for p, a in zip(fitted, scores, strict=True)), mean, abs_tol=1e-9)
    best = log_likelihood(counts, fitted)
    # every direction that keeps the sum and the mean: d . 1 = 0 and d . a = 0 (a 3-dimensional
    # space); no step along one, small or large, finds a likelier distribution
    generator = random.Random(5)
    for _ in range(400):
        direction = [generator.gauss(0, 1) for _ in scores]
        for constraint in ([1.0] * 5, [a - sum(scores) / 5 for a in scores]):
            norm = sum(c * c for c in constraint)
            along = sum(d * c for d, c in zip(direction, constraint, strict=True)) / norm
            direction = [d - along * c for d, c in zip(direction, constraint, strict=True)]
        for step in (1e-4, 1e-3, 1e-2, 1e-1):
            moved = [p + step * d for p, d in zip(fitted, direction, strict=True)]
            if min(moved) <= 0:
                continue
            assert log_likelihood(counts, moved) <= best + 1e-9


def test_the_ratio_is_that_of_the_two_fits_and_points_the_right_way(sprt: ModuleType) -> None:
    counts = [1, 5, 30, 25, 10]
    smoothed = [count + sprt.REGULARISATION for count in counts]
    under0 = sprt.constrained_distribution(smoothed, 0.5)
    under1 = sprt.constrained_distribution(smoothed, sprt.score_of(10))
    expected = log_likelihood(counts, under1) - log_likelihood(counts, under0)
    assert math.isclose(sprt.log_likelihood_ratio(counts, 0, 10), expected, rel_tol=1e-12)
    assert expected > 0  # a score of 62 % favours "10 better" over "equal"
    assert sprt.log_likelihood_ratio(list(reversed(counts)), 0, 10) < 0
    assert sprt.log_likelihood_ratio([0, 0, 0, 0, 0], 0, 10) == 0


def test_scores_and_elo(sprt: ModuleType) -> None:
    assert sprt.score_of(0) == 0.5
    assert math.isclose(sprt.score_of(400), 10 / 11)
    assert math.isclose(sprt.elo_of(0.75), 190.848, abs_tol=1e-3)
    elo, error = sprt.elo_estimate([0, 0, 10, 0, 0])
    assert elo == 0 and error == math.inf  # every pair alike: no interval
    elo, error = sprt.elo_estimate([5, 10, 20, 10, 5])
    # pair variance 0.075 over 50 pairs: a score error of 0.0387, times 1.96 and the slope
    # of the Elo curve at 1/2 (1600 / ln 10)
    assert elo == 0 and math.isclose(error, 1.96 * math.sqrt(0.075 / 50) * 1600 / math.log(10), rel_tol=1e-9)
    assert math.isclose(error, 52.75, abs_tol=0.01)


def test_bad_settings_are_refused(sprt: ModuleType) -> None:
    with pytest.raises(ValueError, match="elo0"):
        sprt.Test(10, 0)
    with pytest.raises(ValueError, match="alpha"):
        sprt.Test(0, 10, alpha=0.6)
    with pytest.raises(ValueError, match="entries"):
        sprt.log_likelihood_ratio([1, 2, 3], 0, 10)
    test = sprt.Test(0, 10)
    assert math.isclose(test.upper, math.log(19)) and math.isclose(test.lower, -math.log(19))


def pentanomial(elo: float, draw_rate: float) -> list[float]:
    """Pair-result chances of two independent games (each won with ``(1 - draw_rate)`` of the
    decisive share the Elo gives), colours aside."""
    score = 1 / (1 + 10 ** (-elo / 400))
    win = max(score - draw_rate / 2, 0.0)
    loss = 1 - win - draw_rate
    game = {0.0: loss, 0.5: draw_rate, 1.0: win}
    chances = [0.0] * 5
    for first, p in game.items():
        for second, q in game.items():
            chances[round((first + second) * 2)] += p * q
    return chances


def simulate(sprt: ModuleType, elo: float, seed: int, test: object) -> tuple[str, int]:
    generator = random.Random(seed)
    chances = pentanomial(elo, 0.6)
    counts = [0] * 5
    for played in range(1, 20001):
        counts[generator.choices(range(5), chances)[0]] += 1
        verdict = test.verdict(counts)  # type: ignore[attr-defined]
        if verdict:
            return verdict, played
    return "", 20000


def test_simulated_matches_stop_on_the_side_of_the_true_strength(sprt: ModuleType) -> None:
    test = sprt.Test(0, 20)
    stronger = [simulate(sprt, 60, seed, test) for seed in range(12)]
    assert all(verdict == "H1" for verdict, _ in stronger), stronger
    weaker = [simulate(sprt, -20, seed, test) for seed in range(12)]
    assert all(verdict == "H0" for verdict, _ in weaker), weaker
    # a gap far past the bounds is decided sooner than one near them
    assert sum(played for _, played in stronger) < sum(played for _, played in simulate_many(sprt, 25, test))


def simulate_many(sprt: ModuleType, elo: float, test: object) -> list[tuple[str, int]]:
    return [simulate(sprt, elo, seed, test) for seed in range(12)]
