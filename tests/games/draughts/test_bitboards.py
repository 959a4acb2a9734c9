"""Draughts' bitboards (``bitboards``): the layout's shifts agree with the mailbox's steps on
every square of every board, and the masks that make and unmake keep agree with the mailbox
along random games of every variant, as do the pieces found able to take and whether the
side to move has a move and whether it must take; the moves come in the mailbox generator's order, which the
search's move ordering breaks its ties by. (The move lists are compared with the
pure-Python rules in ``test_compiled``, and counted against the published perft in
``test_perft``.)"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

pytest.importorskip("draughts")
draughts_compiled = pytest.importorskip("negamax.games.draughts.compiled")
draughts_state = pytest.importorskip("negamax.games.draughts.compiled_state")
from negamax.games.draughts import bitboards  # noqa: E402
from negamax.games.draughts.rules import VARIANTS, DraughtsGame  # noqa: E402

GEOMETRIES = range(len(bitboards.BOARD_SIZES))
MAN, KING, BLACK = draughts_compiled.MAN, draughts_compiled.KING_PIECE, draughts_compiled.BLACK_PIECE


def _square_count(geometry: int) -> int:
    return bitboards.BOARD_SIZES[geometry] ** 2 // 2


def _mailbox_neighbour(geometry: int, square: int, step: int) -> int:
    """The square ``step`` away on the mailbox, or -1 off the board."""
    box = int(draughts_compiled.MAILBOX[geometry, square]) + step
    return int(draughts_compiled.SQUARE_AT[geometry, box]) if 0 <= box < draughts_compiled.MAILBOX_SIZE else -1


def _bit_neighbour(geometry: int, square: int, shift: int) -> int:
    """The square ``shift`` bits away, or -1 for a ghost or past the board."""
    bit = int(bitboards.BIT_OF[geometry, square]) + shift
    return int(bitboards.SQUARE_OF_BIT[geometry, bit]) if 0 <= bit < 64 else -1


@pytest.mark.parametrize("geometry", GEOMETRIES)
def test_the_diagonal_shifts_are_the_mailbox_steps_on_every_square(geometry: int) -> None:
    narrow = int(bitboards.PER_ROW[geometry])
    # the mailbox's diagonal steps -13, -11, +11, +13 are these shifts on every square, and
    # a shift off the board's side lands on a ghost
    pairs = ((-13, -narrow - 1), (-11, -narrow), (11, narrow), (13, narrow + 1))
    ghosts = 0
    for square in range(_square_count(geometry)):
        for step, shift in pairs:
            assert _bit_neighbour(geometry, square, shift) == _mailbox_neighbour(geometry, square, step)
            bit = int(bitboards.BIT_OF[geometry, square]) + shift
            ghosts += 0 <= bit < 64 and bitboards.SQUARE_OF_BIT[geometry, bit] < 0
    assert ghosts > 0


@pytest.mark.parametrize("geometry", GEOMETRIES)
def test_the_orthogonal_jumps_are_the_mailbox_steps_where_the_masks_allow_them(geometry: int) -> None:
    narrow = int(bitboards.PER_ROW[geometry])
    column = 2 * narrow + 1
    for square in range(_square_count(geometry)):
        for step, shift in ((-24, -column), (24, column)):  # the same column, two rows on
            assert _bit_neighbour(geometry, square, shift) == _mailbox_neighbour(geometry, square, step)
            assert _bit_neighbour(geometry, square, 2 * shift) == _mailbox_neighbour(geometry, square, 2 * step)
        bit = 1 << int(bitboards.BIT_OF[geometry, square])
        for step, shift, room in ((2, 1, bitboards.ROOM_TOWARD_HIGHER), (-2, -1, bitboards.ROOM_TOWARD_LOWER)):
            # along the row: the piece jumped and the landing, both on the board in this row
            on_board = _mailbox_neighbour(geometry, square, 2 * step) >= 0
            assert bool(room[geometry] & bit) == on_board
            if on_board:
                assert _bit_neighbour(geometry, square, shift) == _mailbox_neighbour(geometry, square, step)
                assert _bit_neighbour(geometry, square, 2 * shift) == _mailbox_neighbour(geometry, square, 2 * step)


@pytest.mark.parametrize("geometry", GEOMETRIES)
def test_the_board_mask_and_the_squares_of_the_bits(geometry: int) -> None:
    squares = _square_count(geometry)
    bits = [int(bitboards.BIT_OF[geometry, square]) for square in range(squares)]
    assert len(set(bits)) == squares and max(bits) < 63
    assert int(bitboards.BOARD_BITS[geometry]) == sum(1 << bit for bit in bits)
    assert [int(bitboards.SQUARE_OF_BIT[geometry, bit]) for bit in bits] == list(range(squares))
    assert (bitboards.SQUARE_OF_BIT[geometry] >= 0).sum() == squares
    generator = random.Random(geometry)
    for _ in range(200):
        mask = generator.getrandbits(squares)
        expected = sum(1 << bits[square] for square in range(squares) if mask >> square & 1)
        assert int(bitboards.bits_of(geometry, mask)) == expected


def test_lowest_bit() -> None:
    generator = random.Random(1)
    for index in range(63):
        assert bitboards.lowest_bit(1 << index) == index
        high = generator.getrandbits(62 - index) << (index + 1) if index < 62 else 0
        assert bitboards.lowest_bit((1 << index) | high) == index


def _expected_masks(state: Any, geometry: int, squares: int) -> list[int]:
    """White's men, Black's men, White's kings, Black's kings, read off the mailbox."""
    masks = [0, 0, 0, 0]
    for square in range(squares):
        piece = int(state[draughts_compiled.MAILBOX[geometry, square]])
        if piece != draughts_compiled.EMPTY:
            slot = (piece >> 3) + (2 if piece & 7 == KING else 0)
            masks[slot] |= 1 << int(bitboards.BIT_OF[geometry, square])
    return masks


def _masks(state: Any) -> list[int]:
    return [int(mask) for mask in state[draughts_compiled.MASKS : draughts_compiled.MASKS + 4]]


def _own_pieces(spec: Any, state: Any) -> Iterator[tuple[int, int, bool]]:
    """Each piece of the side to move, square by square: its square, its mailbox box and
    whether it is a king."""
    side = int(state[draughts_compiled.SIDE])
    for square in range(spec.squares):
        box = int(draughts_compiled.MAILBOX[spec.geometry, square])
        piece = int(state[box])
        if piece != draughts_compiled.EMPTY and piece >> 3 == side:
            yield square, box, piece & 7 == KING


def _expected_takers(spec: Any, state: Any) -> int:
    """The bits of the side to move's men (and kings that do not fly) that can take, found
    on the mailbox: a piece of theirs a step away, an empty square beyond."""
    side = int(state[draughts_compiled.SIDE])
    found = 0
    for square, box, king in _own_pieces(spec, state):
        if king and spec.flying_kings:
            continue
        for index, step in enumerate(draughts_compiled.STEPS[: 8 if spec.frisian_captures else 4]):
            backward = index < 4 and (index >= 2) == (side == 0)
            if backward and not (king or spec.men_capture_backward):
                continue
            victim = int(state[box + step])
            if victim in (draughts_compiled.EMPTY, draughts_compiled.OFF) or victim >> 3 == side:
                continue
            if state[box + 2 * step] == draughts_compiled.EMPTY:
                found |= 1 << int(bitboards.BIT_OF[spec.geometry, square])
    return found


def _takers(spec: Any, state: Any) -> int:
    """The pieces the generator finds able to take, from the masks."""
    side = int(state[draughts_compiled.SIDE])
    return int(draughts_compiled._takers(spec, side, *draughts_compiled._masks(spec, state)))


def _mailbox_order(spec: Any, state: Any) -> list[int]:
    """The moves without a capture in the mailbox generator's order, which the search's
    move ordering breaks its ties by: square by square, then by ``STEPS``."""
    side = int(state[draughts_compiled.SIDE])
    moves = []
    for square, box, king in _own_pieces(spec, state):
        for index, step in enumerate(draughts_compiled.STEPS[:4]):
            if not king and (index >= 2) == (side == 0):
                continue  # a man's backward step
            target = box + int(step)
            while state[target] == draughts_compiled.EMPTY:
                moves.append(square | int(draughts_compiled.SQUARE_AT[spec.geometry, target]) << 6)
                if not (king and spec.flying_kings):
                    break
                target += int(step)
    return moves


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_masks_follow_the_mailbox_along_random_games(variant: str) -> None:
    game = DraughtsGame(variant)
    spec = draughts_compiled.VARIANT_SPECS[variant]
    generator = random.Random(variant)
    buffer = np.zeros(512, dtype=np.int64)
    positions = takers = kings = stuck = leaving = 0
    for _ in range(12):
        position = game.new_position(None)
        state = draughts_state.new_state(position, spec)
        for _ in range(200):
            masks = _masks(state)
            assert masks == _expected_masks(state, spec.geometry, spec.squares)
            assert masks == _masks(draughts_state.new_state(position, spec))
            assert _takers(spec, state) == _expected_takers(spec, state)
            end = draughts_compiled.generate(spec, state, buffer, 0, False)
            assert bool(draughts_compiled.has_move(spec, state)) == (end > 0)
            moves = [int(code) for code in buffer[:end]]
            capturing = any(draughts_compiled.taken_of(code) for code in moves)
            assert bool(draughts_compiled.must_capture(spec, state)) == capturing
            if not capturing:
                assert moves == _mailbox_order(spec, state)
            else:  # the capturing pieces in the order of their squares too
                assert [code & 63 for code in moves] == sorted(code & 63 for code in moves)
            for code in buffer[:end]:  # unmaking restores the masks
                leaves = bool(draughts_compiled.leaves_capture(spec, state, code))
                draughts_compiled.play(spec, state, code)
                assert _masks(state) == _expected_masks(state, spec.geometry, spec.squares)
                assert leaves == bool(draughts_compiled.must_capture(spec, state))
                leaving += leaves
                draughts_compiled.unplay(spec, state, code)
                assert _masks(state) == masks
            positions += 1
            takers += _takers(spec, state) != 0
            kings += (masks[2] | masks[3]) != 0
            if end == 0 or position.is_terminal():
                stuck += end == 0
                break
            code = int(buffer[generator.randrange(end)])
            codes = {draughts_state.code_of(position, move, spec): move for move in position.legal_moves()}
            move = codes[code]
            draughts_compiled.play(spec, state, code)
            position.play(move)
    assert positions > 500 and takers > 50 and kings > 50 and stuck > 0 and leaving > 100
