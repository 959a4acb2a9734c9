"""Nim (``negamax.games.nim``): every value as the xor rule says, and its notation."""

import functools
import random

import pytest

from negamax.core.errors import IllegalMoveError, InvalidPositionError
from negamax.core.score import WIN_THRESHOLD
from negamax.games.nim import Nim, NimGame
from negamax.search import solve


@functools.cache
def _nim_wins(heaps: tuple[int, ...]) -> bool:
    """Brute force: the side to move wins if some move leaves a losing position."""
    return any(
        not _nim_wins(tuple(sorted((*heaps[:i], heaps[i] - take, *heaps[i + 1 :]))))
        for i in range(len(heaps))
        for take in range(1, heaps[i] + 1)
    )


@pytest.mark.parametrize("seed", range(30))
def test_nim_matches_the_xor_rule(seed: int) -> None:
    rng = random.Random(seed)
    heaps = [rng.randint(0, 5) for _ in range(rng.randint(1, 4))]
    if not any(heaps):
        heaps[0] = 1
    xor = 0
    for size in heaps:
        xor ^= size
    result = solve(Nim(heaps))
    assert (result.score > 0) == (xor != 0) == _nim_wins(tuple(sorted(heaps)))
    assert abs(result.score) >= WIN_THRESHOLD
    if xor:
        # the winning move leaves a zero XOR
        heap, take = result.best_move
        after = list(heaps)
        after[heap] -= take
        remaining = 0
        for size in after:
            remaining ^= size
        assert remaining == 0


def test_nim_text() -> None:
    game = NimGame()
    position = game.new_position("3, 4 5")
    assert position.heaps == [3, 4, 5]
    assert game.move_text(position, game.parse_move(position, "2:3")) == "2:3"
    with pytest.raises(IllegalMoveError, match="holds 3"):
        game.parse_move(position, "1:4")
    with pytest.raises(InvalidPositionError):
        game.new_position("3,x")
