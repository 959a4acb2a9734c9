"""The compiled evaluation, equal to ``ChessPosition.evaluate``: the tapered sums, the
structure terms, the network's correction and the scales of endings and of the fifty-move
clock; draws by rule; and the values move ordering and null-move pruning read."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from negamax.games.chess import evaluation as chess_evaluation
from negamax.games.chess.evaluation import ENDING_PHASE, TEMPO, WHOLE_SCALE
from negamax.games.chess.kernel.accumulators import _bring_up_to_date, _lanes
from negamax.games.chess.kernel.layout import (
    BISHOP,
    BLACK_PIECE,
    BOARD_SQUARES,
    BOARDS,
    BOARDS_WIDTH,
    CLOCK,
    EMPTY,
    EN_PASSANT_MOVE,
    ENDGAME_SUM,
    HASH,
    KEYS,
    KINGS,
    KNIGHT,
    MIDGAME_SUM,
    NETWORK_BUCKETS,
    NETWORK_OUTPUT_BIAS,
    NETWORK_OUTPUT_BY_SIDE,
    NETWORK_QA,
    NETWORK_QB,
    NETWORK_SQUARED,
    ORDER_TABLE,
    PAIR,
    PAWN,
    PHASE_SUM,
    PLY,
    QUEEN,
    ROOT,
    SIDE,
    SQUARE_OF,
)
from negamax.games.chess.tables import FULL_PHASE

_side_counts = njit(cache=True)(chess_evaluation.side_counts)
_structure_value = njit(cache=True)(chess_evaluation.structure_value)
_mirrored = njit(cache=True)(chess_evaluation.mirrored)
_mop_up = njit(cache=True)(chess_evaluation.mop_up)
_pawnless_scale = njit(cache=True)(chess_evaluation.pawnless_scale)
_shuffle_damped = njit(cache=True)(chess_evaluation.shuffle_damped)
PIECE_WORTHS = np.array(chess_evaluation.PIECE_WORTHS, dtype=np.int64)


@njit(cache=True)
def _board_pieces(state: Any) -> tuple[int, int, int, int, int, int, int]:
    """``chess_evaluation.board_pieces`` from the squares."""
    white = black = white_knights = black_knights = white_bishops = black_bishops = bishop_colour = 0
    for square in BOARD_SQUARES:
        piece = state[square]
        if piece == EMPTY:
            continue
        if piece < BLACK_PIECE:
            white += PIECE_WORTHS[piece]
        else:
            black += PIECE_WORTHS[piece & 7]
        if piece == KNIGHT:
            white_knights += 1
        elif piece == KNIGHT + BLACK_PIECE:
            black_knights += 1
        elif piece & 7 == BISHOP:
            if piece == BISHOP:
                white_bishops += 1
            else:
                black_bishops += 1
            index = SQUARE_OF[square]
            bishop_colour = ((index & 7) + (index >> 3)) & 1
    return white, black, white_knights, black_knights, white_bishops, black_bishops, bishop_colour


@njit(cache=True)
def evaluate(state: Any) -> int:
    boards = BOARDS + state[PLY] * BOARDS_WIDTH
    white_pawns, black_pawns = state[boards], state[boards + 1]
    white_rooks, black_rooks = state[boards + 2], state[boards + 3]
    white_bishops, black_bishops = state[boards + 4], state[boards + 5]
    midgame, endgame = _structure_value(
        _side_counts(white_pawns, black_pawns, white_rooks, white_bishops, SQUARE_OF[state[KINGS]]),
        _side_counts(
            _mirrored(black_pawns),
            _mirrored(white_pawns),
            _mirrored(black_rooks),
            _mirrored(black_bishops),
            SQUARE_OF[state[KINGS + 1]] ^ 56,
        ),
    )
    phase = min(state[PHASE_SUM], FULL_PHASE)
    white = (
        (state[MIDGAME_SUM] + midgame) * phase + (state[ENDGAME_SUM] + endgame) * (FULL_PHASE - phase)
    ) // FULL_PHASE
    base = (white if state[SIDE] == 0 else -white) + TEMPO
    if state[PHASE_SUM] > ENDING_PHASE or (white_pawns != 0 and black_pawns != 0):
        return _shuffle_damped(base + _network_value(state), state[CLOCK])
    # the few pieces left are counted (chess_evaluation.board_mop_up and board_pawnless_scaled)
    white_worth, black_worth, white_knights, black_knights, white_bishop_count, black_bishop_count, bishop_colour = (
        _board_pieces(state)
    )
    pawnless = (1 if white_pawns == 0 else 0) + (2 if black_pawns == 0 else 0)
    applies, mop_up = _mop_up(
        state[PHASE_SUM],
        white_worth,
        black_worth,
        white_knights,
        black_knights,
        white_bishop_count + black_bishop_count,
        bishop_colour,
        pawnless,
        SQUARE_OF[state[KINGS]],
        SQUARE_OF[state[KINGS + 1]],
    )
    if applies:  # in the network's place (chess_evaluation says why)
        return base + (mop_up if state[SIDE] == 0 else -mop_up)
    value = base + _network_value(state)
    scale = _pawnless_scale(value, state[SIDE], pawnless, white_worth, black_worth, white_knights, black_knights)
    return _shuffle_damped(value * scale // WHOLE_SCALE, state[CLOCK])


@njit(cache=True)
def _network_value(state: Any) -> int:
    """``chess.network``'s value for the side to move, from the accumulators."""
    _bring_up_to_date(state, state[PLY])
    pair = _lanes(state)[state[PLY] * PAIR : (state[PLY] + 1) * PAIR]
    bucket = min(state[PHASE_SUM], FULL_PHASE) * NETWORK_BUCKETS // (FULL_PHASE + 1)
    weights = NETWORK_OUTPUT_BY_SIDE[bucket, state[SIDE]]
    # Each sum is cut back to int32 at every step, which lets the compiler keep it in
    # int32 lanes and multiply int16 pairs (numba types the plain sum int64: 4 lanes, not 16).
    # chess_network.fault() checks that the weights and a unit's square fit int16 and that
    # the sums fit int32.
    if NETWORK_SQUARED:
        squares = np.int32(0)
        for unit in range(PAIR):
            level = pair[unit]
            level = level if level > 0 else np.int16(0)
            level = level if level < NETWORK_QA else np.int16(NETWORK_QA)
            squares = np.int32(squares + np.int32(np.int16(level * level)) * np.int32(weights[unit]))
        return (NETWORK_OUTPUT_BIAS[bucket] + int(squares) // NETWORK_QA) * 100 // (NETWORK_QA * NETWORK_QB)
    total = np.int32(0)
    for unit in range(PAIR):
        level = pair[unit]
        level = level if level > 0 else np.int16(0)
        level = level if level < NETWORK_QA else np.int16(NETWORK_QA)
        total = np.int32(total + np.int32(level) * np.int32(weights[unit]))
    return (NETWORK_OUTPUT_BIAS[bucket] + int(total)) * 100 // (NETWORK_QA * NETWORK_QB)


@njit(cache=True)
def drawn(state: Any) -> bool:
    """A draw by rule: fifty moves, a repetition inside the search, or bare kings (with at
    most one minor piece left)."""
    if state[CLOCK] >= 100:
        return True
    ply = state[PLY]
    if ply > state[ROOT]:
        key = state[HASH]
        oldest = max(0, ply - state[CLOCK])
        for earlier in range(ply - 2, oldest - 1, -2):
            if state[KEYS + earlier] == key:
                return True
    if state[PHASE_SUM] <= 1:
        for square in BOARD_SQUARES:  # noqa: SIM110 (numba compiles loops, not generators)
            if state[square] & 7 == PAWN:
                return False
        return True
    return False


@njit(cache=True)
def capture_order(state: Any, move: int) -> int:
    """Above zero for captures and promotions: most valuable victim, least valuable attacker."""
    target = (move >> 7) & 127
    victim = ORDER_TABLE[state[target]]
    if move >> 17 == EN_PASSANT_MOVE:
        victim = ORDER_TABLE[PAWN]
    promotion = (move >> 14) & 7
    if victim == 0 and promotion == 0:
        return 0
    return victim * 10 - ORDER_TABLE[state[move & 127]] // 100 + ORDER_TABLE[promotion] * 10 + 100


@njit(cache=True)
def null_move_allowed(state: Any) -> bool:
    """The side to move has a piece besides pawns and king (zugzwang is rare then)."""
    offset = state[SIDE] * BLACK_PIECE
    for square in BOARD_SQUARES:
        piece = state[square] - offset
        if KNIGHT <= piece <= QUEEN:
            return True
    return False
