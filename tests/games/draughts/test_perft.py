"""Perft from the start of every draughts variant, for the pure-Python rules and the compiled
kernel alike, against the published counts.

Every table counts a capture once by its start, end and pieces taken: a circle run either way
round is one move. Aart Bik's checkers counts come from a generator that keeps such twins,
and Rein Halbersma's 2010 thread says the same of his; but DCTL, Halbersma's library, checks
every table below with its twin-removing generator (``unique_gen``), so to these depths the
two ways of counting agree, except Frisian's, whose published table counts a circle once
(py-draughts lists both ways round: 3880 moves at depth 4 against the published 3874).
"""

from __future__ import annotations

import numpy as np
import pytest

from negamax.games.draughts.rules import VARIANTS, DraughtsGame, DraughtsPosition

pytest.importorskip("draughts")

PUBLISHED = {
    # Aart Bik, "Perft for Checkers" (aartbik.blogspot.com, 2009; later to depth 28); the
    # same table in DCTL's tests (rhalbersma/dctl, test/.../traversal/initial/board8x8.cpp)
    "checkers": (7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128),
    # the "Standard validation generator moves" thread of the Shashki forum
    # (shashki.com, topic 627, from post 126), as DCTL's tests quote it
    "russian": (7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586, 22444032, 110917189),
    # the same thread (from post 78), and Rein Halbersma, "Perft for all recognized draughts
    # variants" (laatste.info / damforum.nl, FMJD forum, 27 April 2010)
    "brazilian": (7, 49, 302, 1469, 7473, 37628, 187302, 907830, 4431766, 21560022, 105491257),
    # Rein Halbersma, "Perft for all recognized draughts variants" (6 May 2010), as DCTL's
    # tests quote it
    "frisian": (9, 81, 658, 3874, 21265, 102431, 540126, 2825779, 15605069, 85817725),
    # the "Perft" thread of the FMJD forum (laatste.info, topic 2308); Aart Bik's BikDam
    # (aartbik.blogspot.com) gives the same to depth 10
    "draughts": (9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423, 258895763),
}

PYTHON_DEPTH = {"checkers": 6, "russian": 6, "brazilian": 6, "frisian": 5, "draughts": 5}
"""The depths the default run checks the pure-Python rules to (under a second each)."""
COMPILED_DEPTH = 7
"""And the compiled kernel (well under a second, once compiled)."""


def perft(position: DraughtsPosition, depth: int) -> int:
    """Leaf nodes of the move tree ``depth`` plies deep (the last ply counted, not played)."""
    moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        position.play(move)
        total += perft(position, depth - 1)
        position.undo(move)
    return total


def compiled_perft(variant: str, depth: int) -> int:
    draughts_compiled = pytest.importorskip("negamax.games.draughts.compiled")
    draughts_state = pytest.importorskip("negamax.games.draughts.compiled_state")
    spec = draughts_compiled.VARIANT_SPECS[variant]
    state = draughts_state.new_state(DraughtsGame(variant).new_position(None), spec)
    buffer = np.zeros(256 * (depth + 1), dtype=np.int64)
    return int(draughts_compiled.perft(spec, state, depth, buffer, 0))


def test_every_variant_has_a_published_table() -> None:
    assert set(PUBLISHED) == set(VARIANTS)


@pytest.mark.parametrize("variant", list(PUBLISHED))
def test_python_rules_perft(variant: str) -> None:
    position = DraughtsGame(variant).new_position(None)
    counts = [perft(position, depth) for depth in range(1, PYTHON_DEPTH[variant] + 1)]
    assert counts == list(PUBLISHED[variant][: PYTHON_DEPTH[variant]])


@pytest.mark.parametrize("variant", list(PUBLISHED))
def test_compiled_perft(variant: str) -> None:
    counts = [compiled_perft(variant, depth) for depth in range(1, COMPILED_DEPTH + 1)]
    assert counts == list(PUBLISHED[variant][:COMPILED_DEPTH])


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(PUBLISHED))
def test_python_rules_perft_to_depth_8(variant: str) -> None:
    # 6 (Russian) to 65 (Frisian) CPU seconds a variant
    assert perft(DraughtsGame(variant).new_position(None), 8) == PUBLISHED[variant][7]


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(PUBLISHED))
def test_compiled_perft_to_the_last_published_depth(variant: str) -> None:
    # 4 (checkers) to 9 (international) CPU seconds a variant
    assert compiled_perft(variant, len(PUBLISHED[variant])) == PUBLISHED[variant][-1]


def test_checkers_captures_are_compulsory_and_black_moves_first() -> None:
    game = DraughtsGame("checkers")
    start = game.new_position(None)
    assert game.position_text(start).startswith("B:") and start.player() == 0  # the first player
    assert sorted(start.legal_moves()) == ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]
    # 11-15 22-18: Black must take (py-draughts' AmericanBoard offers seven quiet moves too)
    assert game.new_position("start moves 11-15 22-18").legal_moves() == ["15x22"]
    # the same men with White to move: White must take
    after = game.new_position("W:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15")
    assert after.legal_moves() == ["18x11"]
    # a capture must be played to its end, but any capture may be chosen (no majority rule)
    choice = game.new_position("B:W14,16,22:B9,12")
    assert sorted(choice.legal_moves()) == ["12x19", "9x18x25"]
