"""The sequential probability ratio test engine developers gate changes with, on game pairs.

A match is played in pairs: both engines play the same opening once with each colour. A
pair scores 0, 1/2, 1, 3/2 or 2 points for the new engine (the pentanomial counts), which
removes most of the noise an opening's bias puts into single games. After every pair the
log-likelihood ratio of two hypotheses on the new engine's strength, "``elo0`` better" (H0)
against "``elo1`` better" (H1), is compared with the bounds that ``alpha`` (the chance to
accept H1 when H0 holds) and ``beta`` (to accept H0 when H1 holds) give: the match stops
as soon as one bound is crossed. Elo here is logistic Elo (a score ``s`` is
``1 / (1 + 10 ** (-elo / 400))``), the scale ``ladder_elo.py`` and the level tables use.

The ratio is the generalised one: under each hypothesis the pair results' distribution is
the one most likely to have produced the counts seen among those whose mean score is the
hypothesis' score (a multinomial's maximum likelihood under one linear constraint), so
draws and pair correlations count as they were observed, not as a model assumes.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from ladder_elo import expected

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A pair's score per game for the new engine: 0, 1/2, 1, 3/2 or 2 points over two games."""


def score_of(elo: float) -> float:
    """The expected score of an engine ``elo`` points stronger (logistic Elo)."""
    return expected(elo, 0)


def elo_of(score: float) -> float:
    """The logistic Elo difference a score in (0, 1) stands for."""
    return -400 * math.log10(1 / score - 1)


def constrained_distribution(counts: Sequence[float], mean: float) -> list[float]:
    """The outcome probabilities of largest likelihood for ``counts`` (over ``PAIR_SCORES``,
    every one above 0) among those with expected score ``mean`` (strictly between 0 and 1):
    ``p_i = q_i / (1 + t (a_i - mean))`` for the observed frequencies ``q`` and the ``t``
    that gives them that mean, found by bisection (the mean's excess falls as ``t`` rises)."""
    if not 0 < mean < 1 or min(counts) <= 0:
        raise ValueError("the mean must lie strictly between 0 and 1 and every count above 0")
    total = sum(counts)
    frequencies = [count / total for count in counts]
    # 1 + t (a - mean) must stay positive for the lowest (0) and highest (1) score
    low, high = -1 / (1 - mean), 1 / mean

    def excess(t: float) -> float:
        return sum(q * (a - mean) / (1 + t * (a - mean)) for a, q in zip(PAIR_SCORES, frequencies, strict=True))

    for _ in range(200):
        middle = (low + high) / 2
        if excess(middle) > 0:
            low = middle
        else:
            high = middle
    t = (low + high) / 2
    return [q / (1 + t * (a - mean)) for a, q in zip(PAIR_SCORES, frequencies, strict=True)]


REGULARISATION = 1e-3
"""Added to every count before the fit, so that a pair result not seen yet keeps a little
probability and a hypothesis outside the scores seen so far still has a fit."""


def log_likelihood_ratio(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """The generalised log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for the
    pentanomial ``counts`` (pairs scoring 0, 1/2, 1, 3/2, 2 points)."""
    if len(counts) != len(PAIR_SCORES):
        raise ValueError(f"pentanomial counts have {len(PAIR_SCORES)} entries, not {len(counts)}")
    if sum(counts) == 0:
        return 0.0
    smoothed = [count + REGULARISATION for count in counts]
    under0 = constrained_distribution(smoothed, score_of(elo0))
    under1 = constrained_distribution(smoothed, score_of(elo1))
    return sum(count * math.log(p1 / p0) for count, p0, p1 in zip(counts, under0, under1, strict=True) if count)


@dataclasses.dataclass(frozen=True)
class Test:
    """An SPRT: H0 "``elo0`` better" against H1 "``elo1`` better", errors ``alpha``, ``beta``."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 ({self.elo0}) must be below elo1 ({self.elo1})")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError("alpha and beta must lie between 0 and 0.5")

    @property
    def lower(self) -> float:
        """At or below it, H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """At or above it, H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    def verdict(self, counts: Sequence[int]) -> str:
        """``H1`` (the change is accepted), ``H0`` (rejected) or ``""`` (play on)."""
        ratio = log_likelihood_ratio(counts, self.elo0, self.elo1)
        if ratio >= self.upper:
            return "H1"
        if ratio <= self.lower:
            return "H0"
        return ""


def elo_estimate(counts: Sequence[int]) -> tuple[float, float]:
    """The Elo difference the pairs show and its 95 % half-interval (from the pairs' own
    variance, so correlated games within a pair count once); infinite when all pairs score
    alike or the mean is 0 or 1."""
    total = sum(counts)
    if total == 0:
        raise ValueError("no pairs played")
    mean = sum(score * count for score, count in zip(PAIR_SCORES, counts, strict=True)) / total
    if mean in (0.0, 1.0):
        return (math.inf if mean == 1.0 else -math.inf), math.inf
    variance = sum(count * (score - mean) ** 2 for score, count in zip(PAIR_SCORES, counts, strict=True)) / total
    if total < 2 or variance == 0:
        return elo_of(mean), math.inf
    error = math.sqrt(variance / total)
    # the Elo scale's slope at the mean turns the score's error into Elo
    slope = 400 / math.log(10) / (mean * (1 - mean))
    return elo_of(mean), 1.96 * error * slope
