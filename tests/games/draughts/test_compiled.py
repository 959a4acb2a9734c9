"""Draughts' compiled primitives on every variant: every move list equal to the pure-Python
rules' along random games, and the evaluation (its per-square sum and the regions' indices
kept by make and unmake) and key. Perft against the published counts: ``test_perft``."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("draughts")
draughts_compiled = pytest.importorskip("negamax.games.draughts.compiled")
draughts_state = pytest.importorskip("negamax.games.draughts.compiled_state")
from negamax import search  # noqa: E402
from negamax.core.types import SearchLimits  # noqa: E402
from negamax.games.draughts.rules import VARIANTS, DraughtsGame  # noqa: E402

GAME = DraughtsGame("draughts")
SPEC = draughts_compiled.SPEC


def _regions(state: Any) -> Any:
    """The regions' indices of the position ``state`` holds (a block a ply)."""
    start = int(draughts_compiled.regions_at(state[draughts_compiled.PLY]))
    return state[start : start + draughts_compiled.MOST_REGIONS]


@pytest.mark.parametrize(
    ("variant", "games"), [("draughts", 25), ("brazilian", 40), ("russian", 40), ("checkers", 40), ("frisian", 30)]
)
def test_move_lists_keys_and_evaluation_match_along_random_games(variant: str, games: int) -> None:
    game = DraughtsGame(variant)
    spec = draughts_compiled.VARIANT_SPECS[variant]
    generator = random.Random(2026)
    buffer = np.zeros(512, dtype=np.int64)
    positions = kings = 0
    for _ in range(games):
        position = game.new_position(None)
        state = draughts_state.new_state(position, spec)
        for _ in range(160):
            end = draughts_compiled.generate(spec, state, buffer, 0, False)
            ours = {int(code) for code in buffer[:end]}
            assert ours == {draughts_state.code_of(position, move, spec) for move in position.legal_moves()}
            fresh = draughts_state.new_state(position, spec)
            assert state[draughts_compiled.HASH] == fresh[draughts_compiled.HASH]
            assert int(draughts_compiled.evaluate(spec, state)) == position.evaluate()
            assert int(draughts_compiled.evaluate(spec, fresh)) == position.evaluate()
            masks = slice(draughts_compiled.MASKS, draughts_compiled.KEYS)
            assert list(state[masks]) == list(fresh[masks])
            assert list(_regions(state)) == list(_regions(fresh))
            before = state.copy()
            for code in ours:  # unmaking restores what making changed; making leaves the ply's regions
                draughts_compiled.play(spec, state, code)
                draughts_compiled.unplay(spec, state, code)
                assert list(state[: draughts_compiled.KEYS]) == list(before[: draughts_compiled.KEYS])
                assert list(_regions(state)) == list(_regions(before))
            positions += 1
            kings += bool(position.board.white_kings or position.board.black_kings)
            if not ours or position.is_terminal():
                break
            move = generator.choice(position.legal_moves())
            draughts_compiled.play(spec, state, draughts_state.code_of(position, move, spec))
            position.play(move)
    assert positions > 2000
    assert kings > 200  # the kings' moves and captures were compared too


@pytest.mark.parametrize(
    ("variant", "text"),
    [
        ("draughts", "W:WK46,15:B10,9,19,28,33,37"),
        ("russian", "W:W27,K30:B22,15,14,7,23"),  # a man crowned on the way takes on as a king
        ("brazilian", "W:WK29,18:B22,15,14,7,23,26"),
        ("frisian", "W:W27,K46:B22,K41,32"),  # a king takes a king and two men, four ways
    ],
)
def test_unplay_restores_everything_after_long_captures(variant: str, text: str) -> None:
    spec = draughts_compiled.VARIANT_SPECS[variant]
    position = DraughtsGame(variant).new_position(text)
    state = draughts_state.new_state(position, spec)
    kept = draughts_compiled.GENERATED_FROM  # the board and the counters; the rest is scratch
    before = state[:kept].copy()
    buffer = np.zeros(512, dtype=np.int64)
    end = draughts_compiled.generate(spec, state, buffer, 0, False)
    assert end > 0
    for code in buffer[:end]:
        draughts_compiled.play(spec, state, code)
        draughts_compiled.unplay(spec, state, code)
        assert (state[:kept] == before).all()


def test_a_russian_man_crowned_during_a_capture_goes_on_as_a_king() -> None:
    spec = draughts_compiled.VARIANT_SPECS["russian"]
    position = DraughtsGame("russian").new_position("W:W12,11:B26,28,19,10,8")
    state = draughts_state.new_state(position, spec)
    buffer = np.zeros(512, dtype=np.int64)
    end = draughts_compiled.generate(spec, state, buffer, 0, False)
    crowned = [int(code) for code in buffer[:end] if code & draughts_compiled.CROWNED]
    assert crowned == [draughts_state.code_of(position, "12x3x17x31", spec)]
    draughts_compiled.play(spec, state, crowned[0])
    position.play("12x3x17x31")
    assert position.board.white_kings == 1 << 30  # py-draughts crowned it, off the far row
    assert state[draughts_compiled.HASH] == draughts_state.new_state(position, spec)[draughts_compiled.HASH]


def _quiet_choice(position: Any, generator: random.Random) -> str:
    """A random move after which the opponent has nothing to take, if there is one (so a
    lone king lives long enough for the endgame rules)."""
    safe = []
    for move in position.legal_moves():
        position.play(move)
        if not position.noisy_moves():
            safe.append(move)
        position.undo(move)
    return generator.choice(safe or position.legal_moves())


@pytest.mark.parametrize(
    ("variant", "text", "least_checked"),
    [
        ("draughts", "W:WK26:BK4,K44,15", 300),  # a lone king against three pieces: 16 moves
        ("draughts", "W:WK35:BK1,K2,K3", 300),
        ("draughts", "B:W36,K7,K47:BK25", 300),  # Black's lone king against three
        ("draughts", "B:WK25,K45:BK3", 300),  # against two: 5 moves
        ("frisian", "W:WK26:BK4", 150),  # a king against a king: 4 plies
        ("frisian", "B:WK25,K45:BK3", 150),  # two against one: 14 plies
    ],
)
def test_the_king_endgame_rules_agree_with_py_draughts(variant: str, text: str, least_checked: int) -> None:
    game = DraughtsGame(variant)
    spec = draughts_compiled.VARIANT_SPECS[variant]
    generator = random.Random(text)
    checked = drawn = 0
    for _ in range(10):
        position = game.new_position(text)
        state = draughts_state.new_state(position, spec)
        for _ in range(40):
            if not position.legal_moves():
                break
            board = position.board
            expected = bool(board.is_5_moves_rule or board.is_16_moves_rule)
            assert draughts_compiled.king_endgame_drawn(spec, state) == expected
            assert draughts_compiled.king_endgame_drawn(spec, draughts_state.new_state(position, spec)) == expected
            assert int(draughts_compiled.evaluate(spec, state)) == position.evaluate()  # drawish too
            checked += 1
            drawn += expected
            move = _quiet_choice(position, generator)
            draughts_compiled.play(spec, state, draughts_state.code_of(position, move, spec))
            position.play(move)
    assert checked > least_checked and drawn > 50


def test_a_win_on_the_last_move_an_endgame_rule_allows_is_a_win() -> None:
    # two kings against one: Black's 8x17 takes the last white king on the 10th ply of the
    # five-move count, which py-draughts scores as Black's win, not a draw
    position = GAME.new_position("B:WK25,K45:BK3 moves 3-17 25-20 17-44 45-12 44-50 20-14 50-45 12-8 45-12")
    results = [search(position, SearchLimits(depth=2), backend=engine) for engine in ("python", "compiled")]
    assert [result.best_move for result in results] == ["8x17", "8x17"]
    assert results[0].score == results[1].score > 0


def test_every_variant_has_a_compiled_spec() -> None:
    assert set(draughts_compiled.VARIANT_SPECS) == set(VARIANTS)


@pytest.mark.parametrize(
    ("text", "legal"),
    [
        ("W:W28:B22,K23", ["28x19"]),  # a king taken (199) is worth more than a man (100)
        ("W:W28:B22,K23,11", ["28x17x6"]),  # two men (200) more than a king
        ("W:W28:B18", ["28x8"]),  # a man takes orthogonally, over the man two rows up
        ("W:W37,K21:B43,41,28", ["21x49"]),  # equal worth: the king's capture goes first
        ("W:W38,K26:B42,11,33", ["26x48"]),
        ("W:WK28:B27", ["28x26"]),  # a king takes along a row
        ("W:WK50:B30", ["50x10", "50x20"]),  # and flies along a column, landing where it likes
    ],
)
def test_frisian_captures_of_the_most_worth(text: str, legal: list[str]) -> None:
    spec = draughts_compiled.VARIANT_SPECS["frisian"]
    position = DraughtsGame("frisian").new_position(text)
    assert sorted(str(move) for move in position.board.legal_moves) == legal  # py-draughts' rules
    buffer = np.zeros(256, dtype=np.int64)
    end = draughts_compiled.generate(spec, draughts_state.new_state(position, spec), buffer, 0, False)
    assert sorted(int(code) for code in buffer[:end]) == sorted(
        draughts_state.code_of(position, move, spec) for move in legal
    )
