"""An oracle for games in which a player may move twice: minimax in its max/min form, the
first player maximising and the second minimising, whoever ``player()`` says is to move. It
never negates a value, so it shares nothing with the negamax searches it checks but the
rules. For games whose values are plain numbers (no win distances): random trees, Kalah.

And Kalah, the example game in which a player may move twice (``examples/kalah.py``).

The exact values of the starting positions agree with a separate brute force written for
issue 69 (Kalah(2,2) -2, (3,2) +4, (2,3) -2, (3,3) +2 for the first player).
"""

from __future__ import annotations

import functools
import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "kalah.py"
SIZES = ((2, 2), (3, 2), (2, 3), (3, 3))
"""Small enough for every algorithm, plain negamax included, in well under a second each."""
FIRST_PLAYER_VALUES = {(2, 2): -2, (3, 2): 4, (2, 3): -2, (3, 3): 2, (4, 3): 6}


def example() -> ModuleType:
    """``examples/kalah.py``, imported once."""
    module = sys.modules.get("kalah_example")
    if module is None:
        spec = importlib.util.spec_from_file_location("kalah_example", EXAMPLE)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["kalah_example"] = module
        spec.loader.exec_module(module)
    return module


def kalah(pits: int, seeds: int, moves: tuple[int, ...] = ()) -> Any:
    """The plain Kalah position after ``moves`` (pit numbers) from the start."""
    position = example().KalahPosition(pits, seeds)
    for move in moves:
        position.play(move)
    return position


def minimax(position: Any, depth: int | None = None, quiescence: bool = False) -> int:
    """The value of ``position`` for its side to move: to the end of the game, or ``depth``
    plies deep with the position's evaluation at the horizon (``quiescence``: the better, for
    the side to move there, of the evaluation and its noisy moves searched the same way)."""
    first = _first_player_value(position.copy(), depth, quiescence, {})
    return first if position.player() == 0 else -first


def _first_player_value(position: Any, depth: int | None, quiescence: bool, memo: dict[Any, int]) -> int:
    key = (position.key(), depth)
    if key in memo:
        return memo[key]
    side = 1 if position.player() == 0 else -1
    best = max if position.player() == 0 else min
    if position.is_terminal():
        value = side * position.terminal_value()
    elif depth is not None and depth <= 0:
        value = side * position.evaluate()
        for move in position.noisy_moves() if quiescence else ():
            position.play(move)
            value = best(value, _first_player_value(position, -1, quiescence, memo))
            position.undo(move)
    else:
        values = []
        for move in position.legal_moves():
            position.play(move)
            values.append(_first_player_value(position, None if depth is None else depth - 1, quiescence, memo))
            position.undo(move)
        value = best(values)
    memo[key] = value
    return value


@functools.cache
def positions(count: int = 6, seed: int = 5) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """Some positions of the small sizes: (pits, seeds, moves from the start), the start of
    each size first, then random games' positions still going on."""
    generator = random.Random(seed)
    found = [(pits, seeds, ()) for pits, seeds in SIZES]
    while len(found) < len(SIZES) + count:
        pits, seeds = generator.choice(SIZES[1:])
        position, line = kalah(pits, seeds), []
        for _ in range(generator.randrange(1, 6)):
            if position.is_terminal():
                break
            move = generator.choice(position.legal_moves())
            position.play(move)
            line.append(move)
        if not position.is_terminal():
            found.append((pits, seeds, tuple(line)))
    return tuple(found)
