"""Dead stones (``board.dead_stones_on``), which the compiled solver's keys count as the side
to move's: found as their definition says, blocked by live stones, and of no consequence
for the value (checked by a plain minimax written apart from the library)."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterator

import pytest

from negamax.games.connect4.board import Geometry, dead_stones_on, geometry
from tests.games.connect4.plain_minimax import PlainConnect4

STEPS = ((0, 1), (1, 0), (1, 1), (1, -1))


def random_stones(shape: Geometry, rng: random.Random, plies: int) -> tuple[int, int] | None:
    """``(current, mask)`` after ``plies`` random moves, or None if someone won on the way.
    Written with the plain cell arithmetic, not the library's moves."""
    current = mask = 0
    heights = [0] * shape.width
    for _ in range(plies):
        column = rng.choice([column for column in range(shape.width) if heights[column] < shape.height])
        current ^= mask  # the other side to move: its stones become "current"
        mask |= 1 << (column * shape.stride + heights[column])
        heights[column] += 1
        if any_four(shape, current ^ mask):
            return None
    return current, mask


def cell(shape: Geometry, column: int, row: int) -> int:
    return 1 << (column * shape.stride + row)


def on_board(shape: Geometry, column: int, row: int) -> bool:
    return 0 <= column < shape.width and 0 <= row < shape.height


@functools.cache
def all_fours(shape: Geometry) -> list[list[int]]:
    """Every four's cells, as one-bit boards."""
    fours = []
    for column in range(shape.width):
        for row in range(shape.height):
            for right, up in STEPS:
                cells = [(column + k * right, row + k * up) for k in range(4)]
                if all(on_board(shape, *place) for place in cells):
                    fours.append([cell(shape, *place) for place in cells])
    return fours


def any_four(shape: Geometry, stones: int) -> bool:
    return any(all(bit & stones for bit in four) for four in all_fours(shape))


def dead_by_definition(shape: Geometry, current: int, mask: int) -> int:
    """Cell by cell: a stone is dead when, along every line through it that holds a four,
    no cell one or two steps away is empty, and each empty cell three steps away ends a
    four whose two middle stones differ in colour."""
    dead = 0
    for column in range(shape.width):
        for row in range(shape.height):
            if not mask & cell(shape, column, row):
                continue
            alive = False
            for right, up in STEPS:
                line = [(column + k * right, row + k * up) for k in range(-3, 4)]
                on_line = [on_board(shape, *place) for place in line]
                longest = max(sum(on_line[start : start + 4]) for start in range(4))
                if longest < 4:
                    continue  # no four along this line passes through the stone
                for k in (-3, -2, -1, 1, 2, 3):
                    place = line[k + 3]
                    if not on_board(shape, *place) or mask & cell(shape, *place):
                        continue
                    if abs(k) < 3:
                        alive = True
                    else:
                        sign = 1 if k > 0 else -1
                        middle = [cell(shape, *line[3 + sign * step]) for step in (1, 2)]
                        alive |= bool(middle[0] & current) == bool(middle[1] & current)
            if not alive:
                dead |= cell(shape, column, row)
    return dead


SIZES = ["7x6", "4x10", "6x8", "8x6", "5x9", "8x7", "4x4", "5x4", "3x7", "7x3"]
"""8x7 takes all 64 bits; 3x7 and 7x3 have lines too short for a four."""


def positions_with_dead_stones(size: str) -> Iterator[tuple[Geometry, int, int, int]]:
    """``(shape, current, mask, dead)`` for 300 random attempts at a position (fewer
    positions: some end in a four on the way)."""
    shape = geometry(*map(int, size.split("x")))
    rng = random.Random(size)
    for _ in range(300):
        stones = random_stones(shape, rng, rng.randrange(shape.cells + 1))
        if stones is not None:
            current, mask = stones
            yield shape, current, mask, dead_stones_on(current, mask, shape.stride, shape.board, shape.short_lines)


@pytest.mark.parametrize("size", SIZES)
def test_dead_stones_are_the_ones_their_definition_names(size: str) -> None:
    found = 0
    for shape, current, mask, dead in positions_with_dead_stones(size):
        assert dead == dead_by_definition(shape, current, mask), (size, current, mask)
        found += dead.bit_count()
    assert found > 0


@pytest.mark.parametrize("size", SIZES)
def test_every_open_four_through_a_dead_stone_holds_live_stones_of_both_colours(size: str) -> None:
    """What makes the colours of dead stones free: each four through one with an empty cell
    is blocked by stones that are not dead, whatever colour the dead ones take."""
    for shape, current, mask, dead in positions_with_dead_stones(size):
        other = current ^ mask
        for four in all_fours(shape):
            if any(bit & dead for bit in four) and not all(bit & mask for bit in four):
                assert any(bit & current & ~dead for bit in four) and any(bit & other & ~dead for bit in four)


def recolourings(shape: Geometry, rng: random.Random, empty: range) -> Iterator[tuple[int, int, int]]:
    """Random positions with ``empty`` cells left recoloured: ``(current, recoloured,
    mask)``, ``recoloured`` the side to move's stones with some dead stones' colours
    swapped (positions with a four of filled cells left out: never a position searched)."""
    while True:
        stones = random_stones(shape, rng, shape.cells - rng.choice(empty))
        if stones is None:
            continue
        current, mask = stones
        dead = dead_stones_on(current, mask, shape.stride, shape.board, shape.short_lines)
        for flipped in {dead, dead & rng.getrandbits(shape.bits), dead & rng.getrandbits(shape.bits)} - {0}:
            if not any_four(shape, current ^ flipped) and not any_four(shape, current ^ flipped ^ mask):
                yield current, current ^ flipped, mask


@pytest.mark.parametrize("size", ["4x4", "5x4", "4x5"])
def test_recolouring_dead_stones_keeps_the_value(size: str) -> None:
    """The claim the solver's keys rest on, checked by a plain minimax that knows nothing
    of dead stones: any recolouring of any of them leaves the value unchanged."""
    shape = geometry(*map(int, size.split("x")))
    plain = PlainConnect4(shape.width, shape.height)
    pairs = recolourings(shape, random.Random(size), range(3, 9))
    for current, recoloured, mask in itertools.islice(pairs, 150):
        value = plain.value(plain.columns(current, mask))
        assert plain.value(plain.columns(recoloured, mask)) == value, (size, current, recoloured, mask)
