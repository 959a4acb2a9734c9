"""How the root's windows are chosen: policies shared by the pure-Python drivers and the
compiled runners, so that both searches probe the same way."""

from __future__ import annotations

from collections.abc import Callable

from negamax.core.score import INF, WIN, WIN_THRESHOLD

ASPIRATION_WINDOW = 25
"""The half-width of an iteration's first window around the previous iteration's score
(the ``auto`` preset's; a quarter of a pawn in chess)."""
ASPIRATION_FROM_DEPTH = 2
"""Iterations before this one search the full window: there is no score to aim at yet."""
ASPIRATION_GROWTH = 4
"""A window that failed grows this many times on the side it failed."""
ASPIRATION_GIVE_UP = 1000
"""A window grown wider than this becomes the full window (the score moved by more than
a few pieces: guessing again costs more than searching once)."""


def aspiration_window(guess: int, width: int) -> tuple[int, int]:
    """The first window of an iteration: ``width`` either side of ``guess``."""
    return max(guess - width, -INF), min(guess + width, INF)


def widened(alpha: int, beta: int, value: int, width: int) -> tuple[int, int, int] | None:
    """The next window after a search of (alpha, beta) returned ``value``, with the new
    width; ``None`` when ``value`` lay inside (the search is done)."""
    if value <= alpha and alpha > -INF:
        width *= ASPIRATION_GROWTH
        alpha = max(value - width, -INF)
    elif value >= beta and beta < INF:
        width *= ASPIRATION_GROWTH
        beta = min(value + width, INF)
    else:
        return None
    if width > ASPIRATION_GIVE_UP:
        return -INF, INF, width
    return alpha, beta, width


def first_width(depth: int, guess: int) -> int:
    """The half-width of iteration ``depth``'s first window around the last score
    ``guess``; 0 for the full window (no score to aim at yet, or a mate)."""
    return ASPIRATION_WINDOW if depth >= ASPIRATION_FROM_DEPTH and abs(guess) < WIN_THRESHOLD else 0


def aspirated(
    search_window: Callable[[int, int], int],
    guess: int,
    width: int,
    stopped: Callable[[], bool] | None = None,
) -> tuple[int, int]:
    """One iteration: ``search_window(alpha, beta)`` with ``width`` either side of ``guess``
    (0: the full window), widened until the value falls inside or ``stopped()`` (a search
    that stops by raising passes none). Returns the value and how many searches were
    repeated."""
    alpha, beta = aspiration_window(guess, width) if width else (-INF, INF)
    repeats = 0
    while True:
        value = search_window(alpha, beta)
        if stopped is not None and stopped():
            return value, repeats
        following = widened(alpha, beta, value, width)
        if following is None:
            return value, repeats
        alpha, beta, width = following
        repeats += 1


def probe_point(lower: int, upper: int) -> int:
    """Where a solve's next null-window test goes, given the value is in [lower, upper]:
    the draw line first (as Pascal Pons' solver does), then halfway."""
    if lower <= 0 < upper:
        return 0  # is it a win?
    if lower < 0 == upper:
        return -1  # a draw, or a loss?
    return lower + (upper - lower) // 2


SOLVE_RANGE = (-WIN + 1, WIN - 1)
"""The range a solve's bisection starts from: every value a position with a move can have."""


def proven_bounds(lower: int, upper: int) -> tuple[int, int]:
    """A bisection's range as a result states it: a bound no probe has moved from
    ``SOLVE_RANGE`` proves nothing, and is ``-INF`` or ``INF`` (unless the range has closed:
    a win with the next move is worth ``SOLVE_RANGE[1]``)."""
    if lower >= upper:
        return lower, upper
    return (-INF if lower <= SOLVE_RANGE[0] else lower), (INF if upper >= SOLVE_RANGE[1] else upper)
