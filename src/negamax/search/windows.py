"""How the root's windows are chosen: policies shared by the pure-Python drivers and the
compiled runners, so that both searches probe the same way."""

from __future__ import annotations


def probe_point(lower: int, upper: int) -> int:
    """Where a solve's next null-window test goes, given the value is in [lower, upper]:
    the draw line first (as Pascal Pons' solver does), then halfway."""
    if lower <= 0 < upper:
        return 0  # is it a win?
    if lower < 0 == upper:
        return -1  # a draw, or a loss?
    return lower + (upper - lower) // 2
