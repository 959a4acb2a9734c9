"""International draughts' compiled primitives: perft, every move list equal to
py-draughts' own along random games, and the incremental evaluation and key."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("draughts")
draughts_compiled = pytest.importorskip("negamax.games.draughts_compiled")
from negamax.games.draughts import DraughtsGame  # noqa: E402

GAME = DraughtsGame("draughts")


@pytest.mark.parametrize(("depth", "count"), [(1, 9), (2, 81), (3, 658), (4, 4265), (5, 27117), (6, 167140)])
def test_perft_from_the_start(depth: int, count: int) -> None:
    # the published international draughts perft counts
    state = draughts_compiled.new_state(GAME.new_position(None))
    buffer = np.zeros(256 * (depth + 1), dtype=np.int64)
    assert draughts_compiled.perft(state, depth, buffer, 0) == count


def test_move_lists_keys_and_evaluation_match_along_random_games() -> None:
    generator = random.Random(2026)
    buffer = np.zeros(512, dtype=np.int64)
    positions = 0
    for _ in range(25):
        position = GAME.new_position(None)
        state = draughts_compiled.new_state(position)
        for _ in range(160):
            end = draughts_compiled.generate(state, buffer, 0, False)
            ours = {int(code) for code in buffer[:end]}
            assert ours == {draughts_compiled.code_of(position, move) for move in position.legal_moves()}
            fresh = draughts_compiled.new_state(position)
            assert state[draughts_compiled.HASH] == fresh[draughts_compiled.HASH]
            assert int(draughts_compiled.evaluate(state)) == position.evaluate()
            positions += 1
            if not ours or position.is_terminal():
                break
            move = generator.choice(position.legal_moves())
            draughts_compiled.play(state, draughts_compiled.code_of(position, move))
            position.play(move)
    assert positions > 2000


def test_unplay_restores_everything_after_long_captures() -> None:
    position = GAME.new_position("W:WK46,15:B10,9,19,28,33,37")
    state = draughts_compiled.new_state(position)
    kept = draughts_compiled.GENERATED_FROM  # the board and the counters; the rest is scratch
    before = state[:kept].copy()
    buffer = np.zeros(512, dtype=np.int64)
    end = draughts_compiled.generate(state, buffer, 0, False)
    assert end > 0
    for code in buffer[:end]:
        draughts_compiled.play(state, code)
        draughts_compiled.unplay(state, code)
        assert (state[:kept] == before).all()
