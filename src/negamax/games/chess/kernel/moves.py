"""Move generation on the compiled state: pseudo-legal moves (``make_move.play`` reports a
move that leaves the king attacked), all of them or only the captures and promotions."""

from __future__ import annotations

from typing import Any

from numba import njit

from negamax.games.chess.kernel.attacks import attacked
from negamax.games.chess.kernel.layout import (
    BISHOP,
    BIT_INDEX,
    BLACK_PIECE,
    BOARD_SQUARES,
    BOARDS,
    BOARDS_WIDTH,
    CASTLE,
    CASTLING,
    DE_BRUIJN,
    DIAGONAL_STEPS,
    DOUBLE_PUSH,
    EMPTY,
    EN_PASSANT,
    EN_PASSANT_MOVE,
    KING,
    KING_STEPS,
    KNIGHT,
    KNIGHT_STEPS,
    OCCUPIED,
    OFF,
    PAWN,
    PLAIN,
    PLY,
    QUEEN,
    ROOK,
    SIDE,
    STRAIGHT_STEPS,
)


@njit(cache=True)
def _add(out: Any, count: int, origin: int, target: int, promotion: int, kind: int) -> int:
    out[count] = origin | (target << 7) | (promotion << 14) | (kind << 17)
    return count + 1


@njit(cache=True, inline="always")
def _lowest_square(bits: int) -> int:
    """The index (a1 = 0) of the lowest set bit of ``bits`` (not 0)."""
    return BIT_INDEX[((bits & -bits) * DE_BRUIJN >> 58) & 63]


@njit(cache=True)
def _slides(state: Any, out: Any, count: int, square: int, steps: Any, them: int, noisy_only: bool) -> int:
    for step in steps:
        target = square + step
        victim = state[target]
        while victim == EMPTY:
            if not noisy_only:
                count = _add(out, count, square, target, 0, PLAIN)
            target += step
            victim = state[target]
        if victim != OFF and victim >> 3 == them:
            count = _add(out, count, square, target, 0, PLAIN)
    return count


@njit(cache=True)
def _pawn_moves(state: Any, out: Any, count: int, square: int, side: int, noisy_only: bool) -> int:
    forward = 10 if side == 0 else -10
    last_rank_low = 91 if side == 0 else 21
    second_rank_low = 31 if side == 0 else 81
    them = 1 - side
    ahead = square + forward
    promotes = last_rank_low <= ahead <= last_rank_low + 7
    if state[ahead] == EMPTY:
        if promotes:
            count = _add(out, count, square, ahead, QUEEN, PLAIN)
            if not noisy_only:
                count = _add(out, count, square, ahead, KNIGHT, PLAIN)
                count = _add(out, count, square, ahead, ROOK, PLAIN)
                count = _add(out, count, square, ahead, BISHOP, PLAIN)
        elif not noisy_only:
            count = _add(out, count, square, ahead, 0, PLAIN)
            if second_rank_low <= square <= second_rank_low + 7 and state[ahead + forward] == EMPTY:
                count = _add(out, count, square, ahead + forward, 0, DOUBLE_PUSH)
    for target in range(ahead - 1, ahead + 2, 2):
        victim = state[target]
        if victim != EMPTY and victim != OFF and victim >> 3 == them:
            count = _add(out, count, square, target, QUEEN if promotes else 0, PLAIN)
            if promotes and not noisy_only:
                count = _add(out, count, square, target, KNIGHT, PLAIN)
                count = _add(out, count, square, target, ROOK, PLAIN)
                count = _add(out, count, square, target, BISHOP, PLAIN)
        elif target == state[EN_PASSANT] and target != 0:
            count = _add(out, count, square, target, 0, EN_PASSANT_MOVE)
    return count


@njit(cache=True)
def generate(state: Any, out: Any, start: int, noisy_only: bool) -> int:
    """Writes the pseudo-legal moves (``noisy_only``: captures and queen promotions) from
    ``out[start]`` on, piece by piece from a1 to h8; returns the end index."""
    side = state[SIDE]
    them = 1 - side
    count = start
    pieces = state[BOARDS + state[PLY] * BOARDS_WIDTH + OCCUPIED + side]
    while pieces != 0:
        square = BOARD_SQUARES[_lowest_square(pieces)]
        pieces &= pieces - 1
        kind = state[square] & 7
        if kind == PAWN:
            count = _pawn_moves(state, out, count, square, side, noisy_only)
        elif kind == KNIGHT or kind == KING:  # noqa: SIM109 (numba: two compares, no tuple)
            steps = KNIGHT_STEPS if kind == KNIGHT else KING_STEPS
            for step in steps:
                target = square + step
                victim = state[target]
                if victim == EMPTY:
                    if not noisy_only:
                        count = _add(out, count, square, target, 0, PLAIN)
                elif victim != OFF and victim >> 3 == them:
                    count = _add(out, count, square, target, 0, PLAIN)
        elif kind == BISHOP:
            count = _slides(state, out, count, square, DIAGONAL_STEPS, them, noisy_only)
        elif kind == ROOK:
            count = _slides(state, out, count, square, STRAIGHT_STEPS, them, noisy_only)
        else:
            count = _slides(state, out, count, square, KING_STEPS, them, noisy_only)
    if not noisy_only:
        count = _castling(state, out, count, side)
    return count


@njit(cache=True)
def _castling(state: Any, out: Any, count: int, side: int) -> int:
    rights = state[CASTLING] >> (2 * side)
    if rights & 3 == 0:
        return count
    king = 25 + 70 * side
    them = 1 - side
    if state[king] != KING + side * BLACK_PIECE or attacked(state, king, them):
        return count
    if rights & 1 and state[king + 1] == EMPTY and state[king + 2] == EMPTY and not attacked(state, king + 1, them):
        count = _add(out, count, king, king + 2, 0, CASTLE)
    if (
        rights & 2
        and state[king - 1] == EMPTY
        and state[king - 2] == EMPTY
        and state[king - 3] == EMPTY
        and not attacked(state, king - 1, them)
    ):
        count = _add(out, count, king, king - 2, 0, CASTLE)
    return count
