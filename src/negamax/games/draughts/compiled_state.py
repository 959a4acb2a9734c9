"""A py-draughts position loaded into the compiled state of ``compiled`` (``new_state``),
and the compiled code of a move in py-draughts' notation (``code_of``). Imports numba."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from negamax.core.numba_cache import call_without_compiling
from negamax.games.draughts.bitboards import BIT_OF, PER_ROW
from negamax.games.draughts.compiled import (
    BLACK_PIECE,
    CLOCK,
    CROWNED,
    EMPTY,
    EVALUATION,
    HASH,
    KEYS,
    KING_PIECE,
    MAILBOX,
    MAILBOX_SIZE,
    MAN,
    MASKS,
    MATERIAL,
    MOST_REGIONS,
    OFF,
    PLY,
    ROOT,
    SIDE,
    SIDE_KEY,
    STATE_SIZE,
    VALUES,
    ZOBRIST,
    DraughtsSpec,
    mask_slot,
    material_of,
    men_digit,
    regions_at,
    shift_indices,
)


@njit(cache=True)
def _refresh(spec: Any, state: Any) -> None:
    geometry = spec.geometry
    key = SIDE_KEY if state[SIDE] == 1 else 0
    evaluation = 0
    state[MASKS : MASKS + 4] = 0
    regions = regions_at(state[PLY])
    state[regions : regions + MOST_REGIONS] = 0
    for square in range(spec.squares):
        piece = state[MAILBOX[geometry, square]]
        if piece != EMPTY:
            state[mask_slot(piece)] |= 1 << BIT_OF[geometry, square]
            key ^= ZOBRIST[piece, square]
            evaluation += VALUES[geometry, piece, square]
            if piece & 7 == MAN:
                shift_indices(geometry, state, regions, square, men_digit(piece))
    state[HASH] = key
    state[EVALUATION] = evaluation
    state[KEYS + state[PLY]] = key


def new_state(position: Any, spec: DraughtsSpec) -> Any:
    """The compiled state of a position of the variant of ``spec``, with the game's recent
    history for repetitions."""
    board = position.board
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[:MAILBOX_SIZE] = OFF
    for square in range(spec.squares):
        bit = 1 << square
        piece = EMPTY
        if board.white_men & bit:
            piece = MAN
        elif board.white_kings & bit:
            piece = KING_PIECE
        elif board.black_men & bit:
            piece = MAN + BLACK_PIECE
        elif board.black_kings & bit:
            piece = KING_PIECE + BLACK_PIECE
        state[MAILBOX[spec.geometry, square]] = piece
    state[SIDE] = 0 if position.board.turn == position.white else 1  # the colour (in checkers player 0 is Black)
    state[CLOCK] = min(board.halfmove_clock, spec.draw_clock)
    # the earlier positions within the clock, for repetitions (their keys, in order), and
    # at least 32 for the endgame rules (their pieces)
    within_clock = min(board.halfmove_clock, 200)
    earlier = position.keys[-1 - max(32, within_clock) : -1]
    state[PLY] = state[ROOT] = len(earlier)  # before the refresh: the regions' block is the ply's
    call_without_compiling(_refresh, spec, state)
    for index, key in enumerate(earlier):
        if index >= len(earlier) - within_clock:
            state[KEYS + index] = _key_of(key, spec)
        state[MATERIAL + index] = material_of(*(int(mask).bit_count() for mask in key[:4]))
    state[KEYS + len(earlier)] = state[HASH]
    state[MATERIAL + len(earlier)] = material_of(
        *(int(mask).bit_count() for mask in (board.white_men, board.white_kings, board.black_men, board.black_kings))
    )
    return state


def _key_of(key: Any, spec: DraughtsSpec) -> int:
    """The Zobrist key of a position key ``(white men, white kings, black men, black kings,
    White to move)``."""
    white_men, white_kings, black_men, black_kings, white = key
    value = 0 if white else int(SIDE_KEY)
    for mask, piece in (
        (white_men, MAN),
        (white_kings, KING_PIECE),
        (black_men, MAN + BLACK_PIECE),
        (black_kings, KING_PIECE + BLACK_PIECE),
    ):
        for square in range(spec.squares):
            if mask >> square & 1:
                value ^= int(ZOBRIST[piece, square])
    return value


def code_of(position: Any, move: str, spec: DraughtsSpec) -> int:
    """The compiled code of the legal ``move`` (py-draughts' notation)."""
    played = position.played(move)
    squares = played.square_list
    taken = 0
    for square in played.captured_list:
        taken |= 1 << square
    code = int(squares[0] | (squares[-1] << 6) | (taken << 12))
    if spec.crowned_mid_capture and taken and (position.board.white_men | position.board.black_men) >> squares[0] & 1:
        per_row = int(PER_ROW[spec.geometry])
        crown_row = 0 if position.board.turn == position.white else 2 * per_row - 1
        if any(square // per_row == crown_row for square in squares[1:-1]):
            code |= CROWNED  # crowned on the way, it went on taking as a king
    return code
