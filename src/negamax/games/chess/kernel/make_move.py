"""Make and unmake on the compiled state: the board, the bitboards, the key, the sums and
the phase updated move by move; the accumulators' changes kept pending (``accumulators``)."""

from __future__ import annotations

from typing import Any

from numba import njit

from negamax.games.chess.kernel.attacks import _king_exposed, attacked
from negamax.games.chess.kernel.layout import (
    ADDED,
    ALSO_ADDED,
    ALSO_REMOVED,
    BLACK_PIECE,
    BLACK_VIEW,
    BOARD_SLOTS,
    BOARDS,
    BOARDS_WIDTH,
    CASTLE,
    CASTLE_MASKS,
    CASTLING,
    CASTLING_KEYS,
    CHECKED,
    CLOCK,
    DOUBLE_PUSH,
    EMPTY,
    EN_PASSANT,
    EN_PASSANT_MOVE,
    ENDGAME_SUM,
    ENDGAME_TABLE,
    HASH,
    KEYS,
    KING,
    KING_VIEWS,
    KINGS,
    MIDGAME_SUM,
    MIDGAME_TABLE,
    OCCUPIED,
    PAWN,
    PENDING,
    PENDING_WIDTH,
    PHASE_SUM,
    PHASE_TABLE,
    PLY,
    READY,
    REFRESHED,
    REMOVED,
    ROOK,
    SIDE,
    SIDE_KEY,
    SQUARE_BITS,
    UNDO,
    UNDO_WIDTH,
    WHITE_VIEW,
    ZOBRIST,
)


@njit(cache=True)
def _put(state: Any, square: int, piece: int, key: int, boards: int) -> int:
    state[square] = piece
    state[MIDGAME_SUM] += MIDGAME_TABLE[piece, square]
    state[ENDGAME_SUM] += ENDGAME_TABLE[piece, square]
    state[PHASE_SUM] += PHASE_TABLE[piece]
    state[boards + BOARD_SLOTS[piece]] ^= SQUARE_BITS[square]
    state[boards + OCCUPIED + (piece >> 3)] ^= SQUARE_BITS[square]
    return key ^ ZOBRIST[piece, square]


@njit(cache=True)
def _lift(state: Any, square: int, key: int, boards: int) -> int:
    piece = state[square]
    state[square] = EMPTY
    state[MIDGAME_SUM] -= MIDGAME_TABLE[piece, square]
    state[ENDGAME_SUM] -= ENDGAME_TABLE[piece, square]
    state[PHASE_SUM] -= PHASE_TABLE[piece]
    state[boards + BOARD_SLOTS[piece]] ^= SQUARE_BITS[square]
    state[boards + OCCUPIED + (piece >> 3)] ^= SQUARE_BITS[square]
    return key ^ ZOBRIST[piece, square]


@njit(cache=True, inline="always")
def _next_boards(state: Any, ply: int) -> None:
    """Copies ply ``ply``'s bitboards to the next ply's place (unmaking a move is then free)."""
    boards = BOARDS + ply * BOARDS_WIDTH
    for slot in range(boards, boards + BOARDS_WIDTH):
        state[slot + BOARDS_WIDTH] = state[slot]


@njit(cache=True)
def play(state: Any, move: int) -> bool:
    """Plays ``move``; returns whether it was legal (the mover's king is not attacked).
    Either way ``unplay`` takes it back."""
    origin, target = move & 127, (move >> 7) & 127
    promotion, kind = (move >> 14) & 7, move >> 17
    side = state[SIDE]
    ply = state[PLY]
    undo = UNDO + ply * UNDO_WIDTH
    captured = state[target]
    state[undo] = captured
    state[undo + 1] = state[CASTLING]
    state[undo + 2] = state[EN_PASSANT]
    state[undo + 3] = state[CLOCK]
    state[undo + 4] = state[MIDGAME_SUM]
    state[undo + 5] = state[ENDGAME_SUM]
    state[undo + 6] = state[PHASE_SUM]
    key = state[HASH] ^ CASTLING_KEYS[state[CASTLING]] ^ SIDE_KEY
    if state[EN_PASSANT] != 0:
        key ^= ZOBRIST[0, state[EN_PASSANT]]
    _next_boards(state, ply)
    boards = BOARDS + (ply + 1) * BOARDS_WIDTH
    piece = state[origin]
    placed = piece if promotion == 0 else promotion + side * BLACK_PIECE
    also_added = (EMPTY, 0)
    also_removed = (captured, target)
    if captured != EMPTY:
        key = _lift(state, target, key, boards)
    if kind == EN_PASSANT_MOVE:
        taken = target - 10 if side == 0 else target + 10
        also_removed = (state[taken], taken)
        key = _lift(state, taken, key, boards)
    key = _lift(state, origin, key, boards)
    key = _put(state, target, placed, key, boards)
    if kind == CASTLE:
        rook_from, rook_to = (target + 1, target - 1) if target > origin else (target - 2, target + 1)
        also_added = (ROOK + side * BLACK_PIECE, rook_to)
        also_removed = (ROOK + side * BLACK_PIECE, rook_from)
        key = _lift(state, rook_from, key, boards)
        key = _put(state, rook_to, ROOK + side * BLACK_PIECE, key, boards)
    pending = PENDING + (ply + 1) * PENDING_WIDTH
    refreshed = 0
    if piece & 7 == KING:
        state[KINGS + side] = target
        if KING_VIEWS[side, origin] != KING_VIEWS[side, target]:
            refreshed = 1 << side
    state[pending + READY] = 0
    state[pending + ADDED] = placed << 7 | target
    state[pending + REMOVED] = piece << 7 | origin
    state[pending + ALSO_ADDED] = also_added[0] << 7 | also_added[1]
    state[pending + ALSO_REMOVED] = also_removed[0] << 7 | also_removed[1] if also_removed[0] != EMPTY else 0
    state[pending + WHITE_VIEW] = KING_VIEWS[0, state[KINGS]]
    state[pending + BLACK_VIEW] = KING_VIEWS[1, state[KINGS + 1]]
    state[pending + REFRESHED] = refreshed
    rights = state[CASTLING] & CASTLE_MASKS[origin] & CASTLE_MASKS[target]
    state[CASTLING] = rights
    key ^= CASTLING_KEYS[rights]
    passant = 0
    if kind == DOUBLE_PUSH:
        enemy_pawn = PAWN + (1 - side) * BLACK_PIECE
        if state[target - 1] == enemy_pawn or state[target + 1] == enemy_pawn:
            passant = (origin + target) // 2
            key ^= ZOBRIST[0, passant]
    state[EN_PASSANT] = passant
    state[CLOCK] = 0 if (piece & 7 == PAWN or captured != EMPTY) else state[CLOCK] + 1
    state[SIDE] = 1 - side
    state[HASH] = key
    state[PLY] = ply + 1
    state[KEYS + ply + 1] = key
    state[pending + CHECKED] = 0
    if state[PENDING + ply * PENDING_WIDTH + CHECKED] == 1 and piece & 7 != KING and kind != EN_PASSANT_MOVE:
        return not _king_exposed(state, side, origin)
    return not attacked(state, state[KINGS + side], 1 - side)


@njit(cache=True)
def unplay(state: Any, move: int) -> None:
    origin, target = move & 127, (move >> 7) & 127
    promotion, kind = (move >> 14) & 7, move >> 17
    ply = state[PLY] - 1
    side = 1 - state[SIDE]
    undo = UNDO + ply * UNDO_WIDTH
    piece = state[target]
    if promotion != 0:
        piece = PAWN + side * BLACK_PIECE
    state[origin] = piece
    state[target] = state[undo]
    if kind == EN_PASSANT_MOVE:
        state[target - 10 if side == 0 else target + 10] = PAWN + (1 - side) * BLACK_PIECE
    elif kind == CASTLE:
        rook_from, rook_to = (target + 1, target - 1) if target > origin else (target - 2, target + 1)
        state[rook_from] = state[rook_to]
        state[rook_to] = EMPTY
    if piece & 7 == KING:
        state[KINGS + side] = origin
    state[CASTLING] = state[undo + 1]
    state[EN_PASSANT] = state[undo + 2]
    state[CLOCK] = state[undo + 3]
    state[MIDGAME_SUM] = state[undo + 4]
    state[ENDGAME_SUM] = state[undo + 5]
    state[PHASE_SUM] = state[undo + 6]
    state[SIDE] = side
    state[PLY] = ply
    state[HASH] = state[KEYS + ply]


@njit(cache=True)
def play_null(state: Any) -> None:
    ply = state[PLY]
    undo = UNDO + ply * UNDO_WIDTH
    _next_boards(state, ply)
    pending = PENDING + (ply + 1) * PENDING_WIDTH
    state[pending + READY] = 0
    state[pending + ADDED] = 0
    state[pending + CHECKED] = 0
    state[pending + REFRESHED] = 0
    state[undo + 2] = state[EN_PASSANT]
    state[undo + 3] = state[CLOCK]
    key = state[HASH] ^ SIDE_KEY
    if state[EN_PASSANT] != 0:
        key ^= ZOBRIST[0, state[EN_PASSANT]]
    state[EN_PASSANT] = 0
    state[CLOCK] += 1
    state[SIDE] = 1 - state[SIDE]
    state[HASH] = key
    state[PLY] = ply + 1
    state[KEYS + ply + 1] = key


@njit(cache=True)
def unplay_null(state: Any) -> None:
    ply = state[PLY] - 1
    undo = UNDO + ply * UNDO_WIDTH
    state[EN_PASSANT] = state[undo + 2]
    state[CLOCK] = state[undo + 3]
    state[SIDE] = 1 - state[SIDE]
    state[PLY] = ply
    state[HASH] = state[KEYS + ply]
