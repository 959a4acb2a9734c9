"""The solver's claimeven ceiling (``compiled.claimeven_ceiling``): never below the value a
plain minimax written apart from the library finds, and finer than the rule it replaced
(which said nothing once a four fit in the first player's share, and at most -1 for a
loss)."""

from __future__ import annotations

import random

import pytest

from negamax.games.connect4.board import Geometry, geometry, has_four_on
from tests.games.connect4.plain_minimax import PlainConnect4
from tests.games.connect4.test_dead_stones import random_stones

compiled = pytest.importorskip("negamax.games.connect4.compiled")


def ceiling(shape: Geometry, current: int, mask: int) -> int:
    moves = mask.bit_count()
    return int(
        compiled.claimeven_ceiling(current, mask, moves, shape.bottom, shape.board, shape.even_rows, shape.stride)
    )


def coarse_ceiling(shape: Geometry, current: int, mask: int) -> int:
    """The rule before: no four in the first player's share caps the value at 0, or -1
    when one fits in the second player's."""
    playable = (mask + shape.bottom) & shape.board
    theirs = (current ^ mask) | (shape.even_rows & ~mask & ~playable)
    if has_four_on(shape.board & ~theirs, shape.stride):
        return compiled.NO_CEILING
    return -1 if has_four_on(theirs, shape.stride) else 0


def row_cells(shape: Geometry, row: int) -> int:
    """Row ``row`` (from 0) of every column."""
    return shape.bottom << row


@pytest.mark.parametrize(
    ("size", "least_plies", "tries"),
    [
        ("4x4", 2, 600),
        ("6x4", 12, 400),
        ("4x6", 10, 600),
        pytest.param("6x4", 6, 1500, marks=pytest.mark.slow),
        pytest.param("4x6", 4, 1500, marks=pytest.mark.slow),
    ],
)
def test_the_ceiling_never_falls_below_the_plain_minimax_value(size: str, least_plies: int, tries: int) -> None:
    shape = geometry(*map(int, size.split("x")))
    plain = PlainConnect4(shape.width, shape.height)
    rng = random.Random(f"{size} {least_plies}")
    bounded = sharp = finer = 0
    for _ in range(tries):
        plies = 2 * rng.randrange(least_plies // 2, shape.cells // 2)  # the first player to move
        stones = random_stones(shape, rng, plies)
        if stones is None:
            continue
        current, mask = stones
        bound = ceiling(shape, current, mask)
        assert bound <= coarse_ceiling(shape, current, mask)
        if bound == compiled.NO_CEILING:
            continue
        value = plain.value(plain.columns(current, mask))
        assert value <= bound, (size, current, mask, value, bound)
        bounded += 1
        sharp += value == bound
        finer += bound < coarse_ceiling(shape, current, mask)
    print(f"{size}: bounded {bounded}, sharp {sharp}, finer than before {finer}")
    assert bounded >= 50 and sharp > bounded // 2 and finer > 0


def test_the_cells_below_a_four_are_those_under_its_cells_in_their_columns() -> None:
    shape = geometry(4, 6)
    third_row = row_cells(shape, 2)  # a four along the third row
    assert compiled.cells_below(third_row, shape.bottom, shape.board, shape.stride) == row_cells(shape, 0) | row_cells(
        shape, 1
    )
    column = 0b1111 << (2 * shape.stride + 1)  # rows 1-4 of the third column
    assert compiled.cells_below(column, shape.bottom, shape.board, shape.stride) == (0b1 | 0b1110 << 1) << (
        2 * shape.stride
    )


def test_a_second_player_four_below_each_first_player_four_wins_first() -> None:
    """Claimed cells along the second row (from 0: the second of the board) are the
    second player's before the first player can fill the third row above them, but not
    before the bottom row."""
    shape = geometry(4, 6)
    claimed = row_cells(shape, 1) | row_cells(shape, 3)
    above = row_cells(shape, 2)
    assert compiled.second_wins_first(above, 0, claimed, shape.bottom, shape.board, shape.stride)
    assert not compiled.second_wins_first(
        above | row_cells(shape, 0), 0, claimed, shape.bottom, shape.board, shape.stride
    )
    # the first player's four up the first column, rows 2-5, over a claimed cell of row 1
    # that a four of the second player needs: the second player completes it first
    column = 0b1111 << 2
    second = row_cells(shape, 1) & ~0b10  # three stones of the second row; its first cell is claimed
    assert compiled.second_wins_first(column, second, 0b10, shape.bottom, shape.board, shape.stride)
    assert not compiled.second_wins_first(column << shape.stride, second, 0b10, shape.bottom, shape.board, shape.stride)


def test_the_latest_loss_follows_the_row_of_the_lowest_four() -> None:
    """A four of the second player's claimed cells in row ``r`` (from 1) of a board of
    height ``h`` is complete by stone ``cells - h + r``: a loss of at most ``-(h - r + 2) // 2``."""
    shape = geometry(4, 6)
    for row, expected in ((2, -3), (4, -2), (6, -1)):
        claimed = row_cells(shape, row - 1) | row_cells(shape, 5)
        assert compiled.latest_loss(0, claimed, shape.bottom, shape.stride) == expected
