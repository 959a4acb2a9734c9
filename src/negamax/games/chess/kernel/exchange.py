"""Static exchange on the compiled state: whether a capture loses material once every
recapture on its square is played out, least valuable attacker first."""

from __future__ import annotations

from typing import Any

from numba import njit

from negamax.games.chess.kernel.layout import (
    BISHOP,
    BLACK_PIECE,
    CASTLE,
    DIAGONAL_STEPS,
    EMPTY,
    EN_PASSANT_MOVE,
    KING,
    KING_STEPS,
    KNIGHT,
    KNIGHT_STEPS,
    OFF,
    ORDER_TABLE,
    PAWN,
    QUEEN,
    ROOK,
    SIDE,
    STRAIGHT_STEPS,
)

# Static exchange: the squares taken off the board by the exchange so far are bits of two
# words (mailbox squares 0-63, then 64-119), so it runs without touching the state.


@njit(cache=True, inline="always")
def _gone(low: int, high: int, square: int) -> bool:
    return ((low >> square) & 1 if square < 64 else (high >> (square - 64)) & 1) != 0


@njit(cache=True, inline="always")
def _take_off(low: int, high: int, square: int) -> tuple[int, int]:
    return (low | (1 << square), high) if square < 64 else (low, high | (1 << (square - 64)))


@njit(cache=True)
def _sliders_towards(
    state: Any, square: int, steps: Any, slider: int, queen: int, low: int, high: int
) -> tuple[int, int]:
    """The squares of a ``slider`` and of a ``queen`` that see ``square`` along one of
    ``steps`` past the squares gone (0: none); each ray is walked once for both."""
    found_queen = 0
    for step in steps:
        target = square + step
        while state[target] == EMPTY or (state[target] != OFF and _gone(low, high, target)):
            target += step
        if state[target] == slider:
            return target, 0  # the cheaper piece: the queen is not needed
        if state[target] == queen and found_queen == 0:
            found_queen = target
    return 0, found_queen


@njit(cache=True)
def least_attacker(state: Any, square: int, side: int, low: int, high: int) -> int:
    """The square of ``side``'s least valuable piece attacking ``square`` with the squares
    gone off the board (0: none). Pins are not considered."""
    offset = side * BLACK_PIECE
    pawn = PAWN + offset
    behind = -10 if side == 0 else 10  # where this side's pawns come from
    for origin in (square + behind - 1, square + behind + 1):
        if state[origin] == pawn and not _gone(low, high, origin):
            return origin
    knight = KNIGHT + offset
    for step in KNIGHT_STEPS:
        if state[square + step] == knight and not _gone(low, high, square + step):
            return square + step
    queen = QUEEN + offset
    bishop, diagonal_queen = _sliders_towards(state, square, DIAGONAL_STEPS, BISHOP + offset, queen, low, high)
    if bishop != 0:
        return bishop
    rook, straight_queen = _sliders_towards(state, square, STRAIGHT_STEPS, ROOK + offset, queen, low, high)
    if rook != 0:
        return rook
    if diagonal_queen != 0:
        return diagonal_queen
    if straight_queen != 0:
        return straight_queen
    king = KING + offset
    for step in KING_STEPS:
        if state[square + step] == king and not _gone(low, high, square + step):
            return square + step
    return 0


@njit(cache=True)
def losing_capture(state: Any, move: int) -> bool:
    """Whether a capture loses material by static exchange: both sides recapture on the
    target square with their least valuable piece, each free to stop, and the mover ends
    below even. Promotions and quiet moves never count as losing."""
    origin, target = move & 127, (move >> 7) & 127
    if (move >> 14) & 7 != 0 or move >> 17 == CASTLE:
        return False
    victim = ORDER_TABLE[PAWN] if move >> 17 == EN_PASSANT_MOVE else ORDER_TABLE[state[target]]
    if victim == 0:
        return False
    # ``balance``: what the side about to recapture gains by taking, less what the other
    # side is up if it stops here (the swap of Stockfish's see_ge at a threshold of 0)
    balance = ORDER_TABLE[state[origin]] - victim
    if balance <= 0:
        return False  # even losing the capturing piece back breaks even
    low, high = _take_off(0, 0, origin)
    if move >> 17 == EN_PASSANT_MOVE:  # the pawn taken is beside the target, not on it
        low, high = _take_off(low, high, target - 10 if state[SIDE] == 0 else target + 10)
    side = state[SIDE]
    mover_ahead = True
    while True:
        side = 1 - side
        square = least_attacker(state, target, side, low, high)
        if square == 0:
            break
        mover_ahead = not mover_ahead
        if state[square] & 7 == KING:
            # the king may capture only if nothing can take it back
            if least_attacker(state, target, 1 - side, low, high) != 0:
                mover_ahead = not mover_ahead
            break
        balance = ORDER_TABLE[state[square]] - balance
        if balance < (1 if mover_ahead else 0):
            break
        low, high = _take_off(low, high, square)
    return not mover_ahead
