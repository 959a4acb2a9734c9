"""Chess compiled for the search kernels (imports numba): chess's spec, each primitive
registered for it (the pieces are in ``kernel``: ``kernel.layout`` documents the state),
a python-chess board loaded into a state, moves encoded, and perft."""

from __future__ import annotations

from typing import Any, NamedTuple

import chess
import numpy as np
from numba import njit

from negamax.core import compiled
from negamax.core.compiled import implements
from negamax.core.numba_cache import call_without_compiling
from negamax.core.score import ONGOING
from negamax.games.chess.kernel.accumulators import _fresh_half, _lanes
from negamax.games.chess.kernel.attacks import gives_check, side_in_check
from negamax.games.chess.kernel.evaluation import capture_order, drawn, evaluate, null_move_allowed
from negamax.games.chess.kernel.exchange import losing_capture
from negamax.games.chess.kernel.layout import (
    BLACK_PIECE,
    BOARD_SLOTS,
    BOARD_SQUARES,
    BOARDS,
    BOARDS_WIDTH,
    BUCKET_BOARDS,
    BUCKET_LANES,
    CASTLE,
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
    HIDDEN,
    HISTORY_KEPT,
    KEYS,
    KING,
    KINGS,
    MIDGAME_SUM,
    MIDGAME_TABLE,
    NETWORK_BIAS,
    OCCUPIED,
    OFF,
    ORDER_TABLE,
    PAIR,
    PAWN,
    PENDING,
    PENDING_WIDTH,
    PHASE_SUM,
    PHASE_TABLE,
    PLAIN,
    PLY,
    READY,
    ROOT,
    SIDE,
    SIDE_KEY,
    SQUARE_BITS,
    SQUARE_OF,
    STATE_SIZE,
    VIEWS,
    ZOBRIST,
    mailbox,
)
from negamax.games.chess.kernel.make_move import play, play_null, unplay, unplay_null
from negamax.games.chess.kernel.moves import generate


class ChessSpec(NamedTuple):
    """Selects chess's primitives in the compiled deepening kernel."""

    variant: int = 0


SPEC = ChessSpec()


@njit(cache=True)
def perft(state: Any, depth: int, buffer: Any, start: int) -> int:
    """Leaf nodes of the legal move tree ``depth`` plies deep (tests the move generator, and
    ``play``'s legality test as the search meets it: with the check known first)."""
    side_in_check(state)
    end = generate(state, buffer, start, False)
    total = 0
    for index in range(start, end):
        move = buffer[index]
        if play(state, move):
            total += 1 if depth == 1 else perft(state, depth - 1, buffer, end)
        unplay(state, move)
    return total


# The kernel's view: chess registers each primitive for its spec.


@implements(compiled.generate_moves, ChessSpec)
def _generate_moves(spec: Any, state: Any, out: Any, start: Any, noisy_only: Any) -> Any:
    return generate(state, out, start, noisy_only)


@implements(compiled.play_move, ChessSpec)
def _play_move(spec: Any, state: Any, move: Any) -> Any:
    return play(state, move)


@implements(compiled.unplay_move, ChessSpec)
def _unplay_move(spec: Any, state: Any, move: Any) -> Any:
    unplay(state, move)


@implements(compiled.play_null_move, ChessSpec)
def _play_null_move(spec: Any, state: Any) -> Any:
    play_null(state)


@implements(compiled.unplay_null_move, ChessSpec)
def _unplay_null_move(spec: Any, state: Any) -> Any:
    unplay_null(state)


@implements(compiled.in_check, ChessSpec)
def _in_check(spec: Any, state: Any) -> Any:
    return side_in_check(state)


@implements(compiled.player_to_move, ChessSpec)
def _player_to_move(spec: Any, state: Any) -> Any:
    return -1  # the players alternate, every move


@implements(compiled.no_moves_lose, ChessSpec)
def _no_moves_lose(spec: Any, state: Any) -> Any:
    return side_in_check(state)


@implements(compiled.static_value, ChessSpec)
def _static_value(spec: Any, state: Any) -> Any:
    return evaluate(state)


@implements(compiled.state_key, ChessSpec)
def _state_key(spec: Any, state: Any) -> Any:
    return state[HASH]


@implements(compiled.game_result, ChessSpec)
def _game_result(spec: Any, state: Any) -> Any:
    return ONGOING  # the game ends when the side to move has no legal move


@implements(compiled.drawn_by_rule, ChessSpec)
def _drawn_by_rule(spec: Any, state: Any) -> Any:
    return drawn(state)


@implements(compiled.noisy_order, ChessSpec)
def _noisy_order(spec: Any, state: Any, move: Any) -> Any:
    return capture_order(state, move)


@implements(compiled.noisy_moves_forced, ChessSpec)
def _noisy_moves_forced(spec: Any) -> Any:
    return False


@implements(compiled.material_gain, ChessSpec)
def _material_gain(spec: Any, state: Any, move: Any) -> Any:
    gain = ORDER_TABLE[PAWN] if move >> 17 == EN_PASSANT_MOVE else ORDER_TABLE[state[(move >> 7) & 127]]
    promotion = (move >> 14) & 7
    if promotion != 0:
        gain += ORDER_TABLE[promotion] - ORDER_TABLE[PAWN]
    return gain


@implements(compiled.null_move_safe, ChessSpec)
def _null_move_safe(spec: Any, state: Any) -> Any:
    return null_move_allowed(state)


@implements(compiled.history_slot, ChessSpec)
def _history_slot(spec: Any, state: Any, move: Any) -> Any:
    return state[SIDE] * 14400 + (move & 127) * 120 + ((move >> 7) & 127)


@implements(compiled.continuation_slot, ChessSpec)
def _continuation_slot(spec: Any, state: Any, move: Any) -> Any:
    return (state[move & 127] & 15) * 64 + SQUARE_OF[(move >> 7) & 127]


@implements(compiled.losing_capture, ChessSpec)
def _losing_capture(spec: Any, state: Any, move: Any) -> Any:
    return losing_capture(state, move)


@implements(compiled.gives_check, ChessSpec)
def _gives_check(spec: Any, state: Any, move: Any) -> Any:
    return gives_check(state, move)


@implements(compiled.pruning_unit, ChessSpec)
def _pruning_unit(spec: Any) -> Any:
    return ORDER_TABLE[PAWN]


# Loading a python-chess board, and moves both ways.

PIECE_CODES = {
    (colour, piece_type): piece_type + (0 if colour else BLACK_PIECE)
    for colour in (True, False)
    for piece_type in range(1, 7)
}


@njit(cache=True)
def _refresh(state: Any) -> None:
    """Recomputes the sums, the phase and the key from the board and the rights."""
    state[MIDGAME_SUM] = state[ENDGAME_SUM] = state[PHASE_SUM] = 0
    key = CASTLING_KEYS[state[CASTLING]]
    if state[SIDE] == 1:
        key ^= SIDE_KEY
    if state[EN_PASSANT] != 0:
        key ^= ZOBRIST[0, state[EN_PASSANT]]
    boards = BOARDS + state[PLY] * BOARDS_WIDTH
    for slot in range(boards, boards + BOARDS_WIDTH):
        state[slot] = 0
    for square in BOARD_SQUARES:
        piece = state[square]
        if piece != EMPTY:
            state[boards + BOARD_SLOTS[piece]] ^= SQUARE_BITS[square]
            state[boards + OCCUPIED + (piece >> 3)] ^= SQUARE_BITS[square]
            state[MIDGAME_SUM] += MIDGAME_TABLE[piece, square]
            state[ENDGAME_SUM] += ENDGAME_TABLE[piece, square]
            state[PHASE_SUM] += PHASE_TABLE[piece]
            key ^= ZOBRIST[piece, square]
            if piece & 7 == KING:
                state[KINGS + (piece >> 3)] = square
    lanes = _lanes(state)
    for slot in range(2 * VIEWS):  # each view's kept accumulator: an empty board's
        for index in range(64):
            state[BUCKET_BOARDS + slot * 64 + index] = EMPTY
        for unit in range(HIDDEN):
            lanes[BUCKET_LANES + slot * HIDDEN + unit] = NETWORK_BIAS[unit]
    pair = lanes[state[PLY] * PAIR : (state[PLY] + 1) * PAIR]
    _fresh_half(state, pair[:HIDDEN], 0)
    _fresh_half(state, pair[HIDDEN:], 1)
    state[PENDING + state[PLY] * PENDING_WIDTH + READY] = 1
    state[PENDING + state[PLY] * PENDING_WIDTH + CHECKED] = 0
    state[HASH] = key
    state[KEYS + state[PLY]] = key


def _load_board(state: Any, board: chess.Board) -> None:
    state[:120] = OFF
    for square in BOARD_SQUARES:
        state[square] = EMPTY
    for square, piece in board.piece_map().items():
        state[mailbox(square)] = PIECE_CODES[piece.color, piece.piece_type]
    state[SIDE] = 0 if board.turn == chess.WHITE else 1
    rights = 0
    for bit, square in enumerate((chess.H1, chess.A1, chess.H8, chess.A8)):
        if board.castling_rights & chess.BB_SQUARES[square]:
            rights |= 1 << bit
    state[CASTLING] = rights
    passant = board.ep_square if board.has_legal_en_passant() else None
    state[EN_PASSANT] = 0 if passant is None else mailbox(passant)
    state[CLOCK] = board.halfmove_clock
    state[PLY] = 0
    call_without_compiling(_refresh, state)


def new_state(board: chess.Board) -> Any:
    """The compiled state of ``board``, with enough of its game history for repetitions."""
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    kept = min(len(board.move_stack), board.halfmove_clock, HISTORY_KEPT)
    start = board.copy()
    replay = [start.pop() for _ in range(kept)][::-1]
    _load_board(state, start)
    for move in replay:
        legal = call_without_compiling(play, state, encode(start, move))
        assert legal, "python-chess played a move the compiled rules reject"
        start.push(move)
    state[ROOT] = state[PLY]
    return state


def encode(board: chess.Board, move: chess.Move) -> int:
    """The compiled code of a legal ``move`` on ``board``."""
    origin, target = mailbox(move.from_square), mailbox(move.to_square)
    kind = PLAIN
    piece_type = board.piece_type_at(move.from_square)
    if piece_type == chess.PAWN:
        if board.is_en_passant(move):
            kind = EN_PASSANT_MOVE
        elif abs(move.to_square - move.from_square) == 16:
            kind = DOUBLE_PUSH
    elif piece_type == chess.KING and board.is_castling(move):
        kind = CASTLE
    return origin | (target << 7) | ((move.promotion or 0) << 14) | (kind << 17)
