"""An Elo estimate from games against opponents of known ratings (shared by the ladder
benchmarks): the rating that makes the expected score equal the score obtained, over
every game at every level together, and its standard error from the likelihood's
curvature (the logistic model Elo ratings are defined by; a draw counts half)."""

from __future__ import annotations

import math
from collections.abc import Sequence

LOG_SCALE = math.log(10) / 400


def expected(rating: float, opponent: float) -> float:
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


def estimate(games: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """``games``: (opponent's rating, our score 0, 0.5 or 1) per game. Returns the rating
    and its standard error (infinite when every game was won or every one lost: the
    rating is then the highest or lowest opponent's, a bound). The error treats each game
    as a win or a loss; draws vary less, so the interval is on the wide side."""
    if not games:
        raise ValueError("no games to rate")
    total = sum(score for _, score in games)
    if total in (0, len(games)):
        edge = min(opponent for opponent, _ in games) if total == 0 else max(opponent for opponent, _ in games)
        return edge, math.inf
    low, high = -2000.0, 6000.0  # the expected total rises with the rating: bisect for it
    for _ in range(100):
        middle = (low + high) / 2
        if sum(expected(middle, opponent) for opponent, _ in games) < total:
            low = middle
        else:
            high = middle
    rating = (low + high) / 2
    information = sum(
        LOG_SCALE**2 * expected(rating, opponent) * (1 - expected(rating, opponent)) for opponent, _ in games
    )
    return rating, 1 / math.sqrt(information)
