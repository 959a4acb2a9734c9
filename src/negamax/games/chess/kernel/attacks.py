"""Attacks and checks on the compiled state: whether a square is attacked, whether the side to
move is in check, and whether a move gives check before it is played."""

from __future__ import annotations

from typing import Any

from numba import njit

from negamax.games.chess.kernel.layout import (
    BISHOP,
    BLACK_PIECE,
    CASTLE,
    CHECKED,
    DIAGONAL_STEPS,
    EMPTY,
    EN_PASSANT_MOVE,
    KING,
    KING_LINES,
    KING_STEPS,
    KINGS,
    KNIGHT,
    KNIGHT_STEPS,
    PAWN,
    PENDING,
    PENDING_WIDTH,
    PLY,
    QUEEN,
    ROOK,
    SIDE,
    STRAIGHT_STEPS,
)


@njit(cache=True)
def attacked(state: Any, square: int, by: int) -> bool:
    """Whether side ``by`` attacks ``square``."""
    offset = by * BLACK_PIECE
    if by == 0:
        if state[square - 9] == PAWN or state[square - 11] == PAWN:
            return True
    elif state[square + 9] == PAWN + BLACK_PIECE or state[square + 11] == PAWN + BLACK_PIECE:
        return True
    knight = KNIGHT + offset
    for step in KNIGHT_STEPS:
        if state[square + step] == knight:
            return True
    king = KING + offset
    for step in KING_STEPS:
        if state[square + step] == king:
            return True
    queen = QUEEN + offset
    return _slides_onto(state, square, DIAGONAL_STEPS, BISHOP + offset, queen) or _slides_onto(
        state, square, STRAIGHT_STEPS, ROOK + offset, queen
    )


@njit(cache=True)
def _slides_onto(state: Any, square: int, steps: Any, slider: int, queen: int) -> bool:
    """Whether a ``slider`` or ``queen`` sees ``square`` along one of ``steps``."""
    for step in steps:
        target = square + step
        piece = state[target]
        while piece == EMPTY:
            target += step
            piece = state[target]
        if piece == slider or piece == queen:  # noqa: SIM109 (numba: two compares, no tuple)
            return True
    return False


@njit(cache=True)
def side_in_check(state: Any) -> bool:
    """Whether the side to move is in check (worked out once a ply: ``CHECKED``)."""
    known = PENDING + state[PLY] * PENDING_WIDTH + CHECKED
    if state[known] == 0:
        side = state[SIDE]
        state[known] = 2 if attacked(state, state[KINGS + side], 1 - side) else 1
    return state[known] == 2


@njit(cache=True)
def _king_exposed(state: Any, side: int, origin: int) -> bool:
    """Whether ``side``'s king, not in check before its move from ``origin`` (not the
    king's), is attacked after it: only a slider behind ``origin`` on a line from the king
    can attack it now."""
    king = state[KINGS + side]
    step = KING_LINES[king, origin]
    return step != 0 and _slider_along(state, king, step, 0, 1 - side)


@njit(cache=True, inline="always")
def _diagonal(step: int) -> bool:
    return step == 9 or step == 11 or step == -9 or step == -11


@njit(cache=True, inline="always")
def _slider_along(state: Any, king: int, step: int, vacated: int, owner: int) -> bool:
    """Whether the first piece from ``king`` along ``step``, past empty squares and
    ``vacated`` (0: none), is ``owner``'s queen or the slider that moves that way."""
    square = king + step
    while state[square] == EMPTY or square == vacated:
        square += step
    offset = owner * BLACK_PIECE
    return state[square] == QUEEN + offset or state[square] == (BISHOP if _diagonal(step) else ROOK) + offset


@njit(cache=True)
def _reaches(state: Any, king: int, square: int, piece_type: int, vacated: int) -> bool:
    """Whether a piece of ``piece_type`` on ``square`` attacks ``king`` once ``vacated``
    is empty (the pawns' direction is the side to move's)."""
    if piece_type == PAWN:
        ahead = king - square if state[SIDE] == 0 else square - king
        return ahead == 9 or ahead == 11
    if piece_type == KNIGHT:
        for step in KNIGHT_STEPS:  # noqa: SIM110 (numba: no generator expressions)
            if square + step == king:
                return True
        return False
    step = KING_LINES[king, square]
    if step == 0 or piece_type == KING or (piece_type != QUEEN and _diagonal(step) != (piece_type == BISHOP)):
        return False
    between = king + step
    while between != square:
        if state[between] != EMPTY and between != vacated:
            return False
        between += step
    return True


@njit(cache=True)
def gives_check(state: Any, move: int) -> bool:
    """Whether ``move`` (pseudo-legal, not yet played) checks the other king: the piece
    on its target square, or a slider behind its origin. True for every en passant
    capture (its two vacated squares are not worked out: rare, and True is safe)."""
    origin, target = move & 127, (move >> 7) & 127
    promotion, kind = (move >> 14) & 7, move >> 17
    if kind == EN_PASSANT_MOVE:
        return True
    side = state[SIDE]
    king = state[KINGS + 1 - side]
    if kind == CASTLE:
        rook_to = target - 1 if target > origin else target + 1
        return _reaches(state, king, rook_to, ROOK, origin)
    if _reaches(state, king, target, promotion if promotion != 0 else state[origin] & 7, origin):
        return True
    step = KING_LINES[king, origin]
    # a discovered check, unless the origin is on no line from the king or the piece stays on it
    return step != 0 and KING_LINES[king, target] != step and _slider_along(state, king, step, origin, side)
