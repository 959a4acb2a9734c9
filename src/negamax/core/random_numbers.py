"""The random numbers of Monte Carlo playouts: SplitMix64 (Steele, Lea and Flood, 2014), in
Python here and compiled in the MCTS kernel (``negamax.search.compiled.mcts_kernel``), so
that the pure-Python and the compiled search of a game written as rules draw the same
numbers and grow the same tree (the tests hold them to it).

A search draws from one stream, seeded by its ``seed``: a number to pick a random move, or
one to seed a game's own playout. A playout's numbers (``playout_numbers``) are a stream of
their own from that seed, so a playout takes exactly one number from the search's stream
however many it uses.

>>> stream = RandomNumbers(0)
>>> [stream.below(10) for _ in range(6)]
[3, 5, 9, 1, 6, 2]
>>> playout_numbers(7, 2) == playout_numbers(7, 3)[:2]
True
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
MIX_1 = 0xBF58476D1CE4E5B9
MIX_2 = 0x94D049BB133111EB
LIMIT = 1 << 62
"""Every number drawn is from 0 to ``LIMIT - 1``: the top two of SplitMix64's 64 bits
dropped, so that it is a non-negative int64 in compiled code."""


def next_number(state: int) -> tuple[int, int]:
    """The stream's next state after ``state`` and the number it gives."""
    state = (state + GAMMA) & MASK64
    mixed = ((state ^ (state >> 30)) * MIX_1) & MASK64
    mixed = ((mixed ^ (mixed >> 27)) * MIX_2) & MASK64
    mixed ^= mixed >> 31
    return state, mixed >> 2


def playout_numbers(seed: int, count: int) -> list[int]:
    """The first ``count`` numbers of the stream seeded by ``seed``: what a game's compiled
    ``playout`` rule is given."""
    state = seed & MASK64
    numbers = []
    for _ in range(count):
        state, number = next_number(state)
        numbers.append(number)
    return numbers


class RandomNumbers:
    """A search's stream of numbers, from ``seed`` (any integer: its low 64 bits)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        """A number from 0 to ``LIMIT - 1``."""
        self.state, number = next_number(self.state)
        return number

    def below(self, count: int) -> int:
        """A number from 0 to ``count - 1`` (``next() % count``: the kernel's choice of a move)."""
        return self.next() % count
