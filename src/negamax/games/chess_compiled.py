"""Chess's compiled primitives for the compiled deepening kernel (imports numba).

The position is one int64 array (``new_state``), laid out as below, so the kernel passes a
single argument down its recursion and never allocates:

* ``0 .. 119``: a 10x12 mailbox board. a1 is square 21, h1 28, a8 91, h8 98; the border
  squares hold ``OFF`` so that a piece walking off the board stops at once. White pieces
  are 1-6 (pawn, knight, bishop, rook, queen, king, as python-chess numbers them), Black's
  the same plus 8, so ``piece >> 3`` is the colour and ``piece & 7`` the type.
* ``SIDE`` .. ``ROOT``: the side to move (0 White), castling rights (bits: White O-O,
  White O-O-O, Black O-O, Black O-O-O), the en passant square (0: none; set only when a
  pawn could take there, as python-chess does), the half-move clock, the Zobrist key, the
  piece-square midgame and endgame sums from White's side and the game phase (kept up to date
  move by move), both kings' squares, the plies played since loading, and the ply at which
  the search began.
* ``KEYS``: the key after each ply played (for repetitions), ``UNDO``: what each ply's
  move destroyed (the captured piece, castling, en passant, clock, sums and phase).
* ``BOARDS``: for each ply, the squares of White's pawns, Black's pawns, White's rooks,
  Black's rooks, White's bishops and Black's bishops as bitboards (a1 = bit 0), which the
  evaluation's structure terms read, then White's pieces and Black's, which the move
  generator walks; a move copies its ply's row forward.
* ``ACCUMULATORS``: for each ply, the network's two accumulators (``chess_network``: the
  board as White sees it, then as Black does, ``HIDDEN`` units each), as int16 lanes packed
  four to a word (``_lanes``), so that the copies and updates use four times the vector
  width. A ply's pair is written from the ply before's, with the rows of the features its
  move changed, only when the evaluation asks for it (``PENDING`` keeps the changes until
  then): most moves searched near the horizon are pruned or cut off before anyone
  evaluates them. Taking a move back costs nothing. A king's move that changes which rows
  its side reads (its king bucket, or the board's turning) is kept pending too: when the
  pair is brought up to date, that side's accumulator is computed afresh from the board
  then (``_refresh_up_to``).
* ``BUCKET_BOARDS``: each side's accumulator in each view as last computed afresh, with
  the board it was computed from: computing one afresh adds and takes away only the
  squares changed since.

A move is ``from | to << 7 | promotion << 14 | kind << 17`` with mailbox squares; kinds
are a plain move, en passant, castling and a double pawn push. No move encodes as 0.

The evaluation is the pure-Python ``ChessPosition.evaluate`` exactly (the tapered
piece-square values, the structure terms of ``chess_evaluation``, a tempo bonus, the
network's correction, the scales of endings and of the fifty-move clock); the tests hold
both to the same scores.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import chess
import numpy as np
from numba import njit

from negamax.core import compiled
from negamax.core.compiled import implements
from negamax.core.numba_cache import call_without_compiling
from negamax.core.score import ONGOING
from negamax.games import chess_evaluation, chess_network
from negamax.games.chess_evaluation import ENDGAME, ENDING_PHASE, MIDGAME, ORDER_VALUES, PHASE, TEMPO, WHOLE_SCALE
from negamax.games.chess_tables import FULL_PHASE


class ChessSpec(NamedTuple):
    """Selects chess's primitives in the compiled deepening kernel."""

    variant: int = 0


SPEC = ChessSpec()

EMPTY, OFF = 0, 16
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
BLACK_PIECE = 8
SIDE, CASTLING, EN_PASSANT, CLOCK, HASH, MIDGAME_SUM, ENDGAME_SUM, PHASE_SUM = range(120, 128)
KINGS = 128  # White's king square, then Black's
PLY = 130
ROOT = 131
MAX_PLIES = 1024
KEYS = 132
UNDO_WIDTH = 7
UNDO = KEYS + MAX_PLIES
NETWORK = chess_network.network()
HIDDEN = NETWORK.bias.shape[0]
TURNS = 2 if NETWORK.mirrored else 1
BLOCKS = NETWORK.rows.shape[0] // chess_network.FEATURES
VIEWS = TURNS * BLOCKS
"""How many ways a side can see the board: in each king bucket's block, turned or not in a
mirrored network (``chess_network.king_view``)."""
_MOST_BLOCKS_PER_ARRAY = max(1, (chess_network.FROZEN_LIMIT // (2 * HIDDEN) - 1) // chess_network.FEATURES)
BLOCKS_PER_ARRAY = -(-BLOCKS // -(-BLOCKS // _MOST_BLOCKS_PER_ARRAY))
"""How many blocks of the network's rows each frozen array holds (``ROW_ARRAYS``): as few
arrays as numba will freeze, filled evenly."""
BOARDS = UNDO + MAX_PLIES * UNDO_WIDTH
BOARDS_WIDTH = 10
"""Six bitboards, each side's pieces (``OCCUPIED``, for the move generator), a slot that every
other piece writes to (so that no move branches), and one to align the rows."""
OCCUPIED = 6
PENDING = BOARDS + (MAX_PLIES + 1) * BOARDS_WIDTH
PENDING_WIDTH = 9
"""For each ply: whether its accumulators are up to date (``READY``), and else what the move
that led there changed: the features it added and took away (``piece << 7 | square``; the
second of each 0 for none, the first 0 after a null move) and both sides' views after it;
then whether the side to move is in check there (``CHECKED``: 0 not known yet, 1 no, 2 yes),
and the sides whose king the move took into another view (``REFRESHED``: 1 White, 2 Black)."""
READY, ADDED, REMOVED, ALSO_ADDED, ALSO_REMOVED, WHITE_VIEW, BLACK_VIEW, CHECKED, REFRESHED = range(9)
ACCUMULATORS = PENDING + (MAX_PLIES + 1) * PENDING_WIDTH
PAIR = 2 * HIDDEN
"""The int16 lanes of one ply's two accumulators."""
BUCKET_BOARDS = ACCUMULATORS + ((MAX_PLIES + 1) * PAIR + 3) // 4
"""For each side and view: the 64 squares' pieces when that view's accumulator was last
computed afresh, and after them (``BUCKET_LANES`` into ``_lanes``) that accumulator, so
that the next time the king enters the view, only the squares changed since are added and
taken away (``_fresh_half``)."""
BUCKET_LANES = (BUCKET_BOARDS + 2 * VIEWS * 64 - ACCUMULATORS) * 4
STATE_SIZE = BUCKET_BOARDS + 2 * VIEWS * 64 + (2 * VIEWS * HIDDEN + 3) // 4
HISTORY_KEPT = 400
"""Plies of game history loaded for repetitions (more than the fifty-move rule allows)."""

PLAIN, EN_PASSANT_MOVE, CASTLE, DOUBLE_PUSH = 0, 1, 2, 3
HISTORY_SLOTS = 2 * 120 * 120
DE_BRUIJN = 0x03F79D71B4CB0A89
"""A de Bruijn sequence: the top six bits of it times a power of two name the power."""
BIT_INDEX = np.zeros(64, dtype=np.int64)
BIT_INDEX[[((1 << index) * DE_BRUIJN >> 58) & 63 for index in range(64)]] = np.arange(64)
"""The index of each power of two, from those six bits (``_lowest_square``)."""


def mailbox(square: int) -> int:
    """The mailbox square of python-chess square ``square`` (a1 = 0)."""
    return 21 + (square >> 3) * 10 + (square & 7)


BOARD_SQUARES = np.array([mailbox(square) for square in range(64)], dtype=np.int64)
SQUARE_OF = np.zeros(120, dtype=np.int64)
SQUARE_OF[BOARD_SQUARES] = np.arange(64)
"""The square (a1 = 0, h8 = 63) of each mailbox square on the board."""
KNIGHT_STEPS = np.array([-21, -19, -12, -8, 8, 12, 19, 21], dtype=np.int64)
KING_STEPS = np.array([-11, -10, -9, -1, 1, 9, 10, 11], dtype=np.int64)
DIAGONAL_STEPS = np.array([-11, -9, 9, 11], dtype=np.int64)
STRAIGHT_STEPS = np.array([-10, -1, 1, 10], dtype=np.int64)


def _king_lines() -> np.ndarray:
    lines = np.zeros((120, 120), dtype=np.int64)
    for king in range(64):
        for file_step, rank_step in ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)):
            file, rank = (king & 7) + file_step, (king >> 3) + rank_step
            while 0 <= file < 8 and 0 <= rank < 8:
                lines[mailbox(king), mailbox(rank * 8 + file)] = rank_step * 10 + file_step
                file, rank = file + file_step, rank + rank_step
    return lines


KING_LINES = _king_lines()
"""For a king's square and another square on a line from it, the step along that line
(0 for squares on no line from it)."""


def _tables() -> tuple[Any, ...]:
    midgame = np.zeros((16, 120), dtype=np.int64)
    endgame = np.zeros((16, 120), dtype=np.int64)
    phase = np.zeros(17, dtype=np.int64)
    for colour, offset in ((chess.WHITE, 0), (chess.BLACK, BLACK_PIECE)):
        for piece_type in range(1, 7):
            phase[piece_type + offset] = PHASE[piece_type]
            for square in range(64):
                midgame[piece_type + offset, mailbox(square)] = MIDGAME[colour][piece_type][square]
                endgame[piece_type + offset, mailbox(square)] = ENDGAME[colour][piece_type][square]
    generator = np.random.default_rng(20261122)
    zobrist = generator.integers(1, 1 << 62, size=(17, 120), dtype=np.int64)
    castling_keys = generator.integers(1, 1 << 62, size=16, dtype=np.int64)
    side_key = np.int64(generator.integers(1, 1 << 62))
    order = np.zeros(17, dtype=np.int64)
    for piece_type in range(1, 7):
        order[piece_type] = order[piece_type + BLACK_PIECE] = ORDER_VALUES[piece_type]
    castle_masks = np.full(120, 15, dtype=np.int64)
    castle_masks[21], castle_masks[25], castle_masks[28] = 15 & ~2, 15 & ~3, 15 & ~1
    castle_masks[91], castle_masks[95], castle_masks[98] = 15 & ~8, 15 & ~12, 15 & ~4
    # a side's view: its king bucket times TURNS, plus one when its board is turned
    feature_rows = np.zeros((2, VIEWS, 16, 120), dtype=np.int32)
    for colour, offset in ((chess.WHITE, 0), (chess.BLACK, BLACK_PIECE)):
        for piece_type in range(1, 7):
            for square in range(64):
                for perspective in (chess.WHITE, chess.BLACK):
                    row = chess_network.feature(perspective, colour, piece_type, square)
                    for view in range(VIEWS):
                        turned = row ^ (7 if view % TURNS else 0)
                        feature_rows[
                            0 if perspective == chess.WHITE else 1, view, piece_type + offset, mailbox(square)
                        ] = (view // TURNS) % BLOCKS_PER_ARRAY * chess_network.FEATURES + turned
    king_views = np.zeros((2, 120), dtype=np.int64)
    for square in range(64):
        for side, seen in ((0, square), (1, square ^ 56)):
            first, turn = chess_network.king_view(NETWORK.king_buckets, NETWORK.mirrored, seen)
            king_views[side, mailbox(square)] = TURNS * (first // chess_network.FEATURES) + (turn != 0)
    board_slots = np.full(17, OCCUPIED + 2, dtype=np.int64)
    for offset, colour_slot in ((0, 0), (BLACK_PIECE, 1)):
        for piece_type, type_slot in ((PAWN, 0), (ROOK, 2), (BISHOP, 4)):
            board_slots[piece_type + offset] = type_slot + colour_slot
    square_bits = np.zeros(120, dtype=np.int64)
    for square in range(64):
        square_bits[mailbox(square)] = np.int64(1 << square) if square < 63 else np.iinfo(np.int64).min
    return (
        midgame,
        endgame,
        phase,
        zobrist,
        castling_keys,
        side_key,
        order,
        castle_masks,
        feature_rows,
        king_views,
        board_slots,
        square_bits,
    )


(
    MIDGAME_TABLE,
    ENDGAME_TABLE,
    PHASE_TABLE,
    ZOBRIST,
    CASTLING_KEYS,
    SIDE_KEY,
    ORDER_TABLE,
    CASTLE_MASKS,
    FEATURE_ROWS,
    KING_VIEWS,
    BOARD_SLOTS,
    SQUARE_BITS,
) = _tables()
"""Piece-square values from White's side (Black's negative), phase weights, Zobrist keys
(en passant squares use the key of an empty square's slot 0), capture-order values, and
the castling rights each square keeps when a move touches it, each piece's row of the
network on each square as White (0) and Black (1) see it in each of their views, each
side's view with its king on each square, each piece's slot in ``BOARDS`` and each mailbox
square's bit."""
NO_ROW = BLOCKS_PER_ARRAY * chess_network.FEATURES


def _row_arrays() -> tuple[np.ndarray, ...]:
    arrays = -(-BLOCKS // BLOCKS_PER_ARRAY)
    padded = np.zeros((arrays * NO_ROW + 1, HIDDEN), dtype=np.int16)
    padded[: NETWORK.rows.shape[0]] = NETWORK.rows
    return tuple(
        np.concatenate([padded[first : first + NO_ROW], padded[-1:]]) for first in range(0, arrays * NO_ROW, NO_ROW)
    )


ROW_ARRAYS = _row_arrays()
"""The network's rows (chess_network.network() checks that sums fit int16), in arrays of
``BLOCKS_PER_ARRAY`` blocks (king buckets; the last padded with zeros) and a row of zeros
(``NO_ROW``) for a move that changes fewer features than the most a move can. Several
arrays because numba freezes a global array into the machine code it caches only up to
10**6 bytes, less than all the rows of a wide network; frozen, the rows are known never to
change, which keeps the accumulators' updates vectorised."""
NETWORK_BIAS = NETWORK.bias.astype(np.int16)
NETWORK_OUTPUT_BY_SIDE = np.array(
    [[weights, np.concatenate([weights[HIDDEN:], weights[:HIDDEN]])] for weights in NETWORK.output],
    dtype=np.int16,
)
"""For each output bucket, the output weights in the order of the accumulator pair's lanes
(White's view, then Black's) when White (0) or Black (1) is to move."""
NETWORK_OUTPUT_BIAS = NETWORK.output_bias.astype(np.int64)
NETWORK_BUCKETS = NETWORK.output.shape[0]
NETWORK_QA, NETWORK_QB, NETWORK_SQUARED = NETWORK.QA, NETWORK.QB, NETWORK.squared


# Step 1. Attacks and checks.


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


# Step 2. Move generation (pseudo-legal: ``play`` reports a move that leaves the king attacked).


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


# Step 3. Make and unmake.


@njit(cache=True, inline="always")
def _lanes(state: Any) -> Any:
    """The accumulators' int16 lanes (a view, so their indices need no wraparound checks)."""
    return state[ACCUMULATORS:].view(np.int16)


if len(ROW_ARRAYS) == 1:
    ONLY_ROW_ARRAY = ROW_ARRAYS[0]

    @njit(cache=True, inline="always")
    def _row_array(view: int) -> Any:
        """The array of rows that side's ``view`` reads."""
        return ONLY_ROW_ARRAY  # not through the tuple, whose look-up is a switch on the index

else:

    @njit(cache=True, inline="always")
    def _row_array(view: int) -> Any:
        """The array of rows that side's ``view`` reads."""
        return ROW_ARRAYS[view // TURNS // BLOCKS_PER_ARRAY]


@njit(cache=True)
def _fresh_half(state: Any, half: Any, side: int) -> None:
    """Computes ``side``'s accumulator from the board, in the view of its king's square:
    the view's accumulator of the last time, brought up to date square by square."""
    view = KING_VIEWS[side, state[KINGS + side]]
    rows = _row_array(view)
    slot = side * VIEWS + view
    board = BUCKET_BOARDS + slot * 64
    kept = _lanes(state)[BUCKET_LANES + slot * HIDDEN : BUCKET_LANES + (slot + 1) * HIDDEN]
    for index in range(64):
        square = BOARD_SQUARES[index]
        piece, before = state[square], state[board + index]
        if piece != before:
            if before != EMPTY:
                row = rows[FEATURE_ROWS[side, view, before, square]]
                for unit in range(HIDDEN):
                    kept[unit] -= row[unit]
            if piece != EMPTY:
                row = rows[FEATURE_ROWS[side, view, piece, square]]
                for unit in range(HIDDEN):
                    kept[unit] += row[unit]
            state[board + index] = piece
    for unit in range(HIDDEN):
        half[unit] = kept[unit]


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


@njit(cache=True, inline="always")
def _half_update(
    rows: Any, before: Any, after: Any, added: int, also_added: int, removed: int, also_removed: int, both: bool
) -> None:
    """One side's accumulator after a move: the one before with the ``rows`` of the
    features the move adds and takes away (the second of each only when ``both``)."""
    plus, minus = rows[added], rows[removed]
    if both:
        plus_too, minus_too = rows[also_added], rows[also_removed]
        for unit in range(HIDDEN):
            after[unit] = before[unit] + plus[unit] + plus_too[unit] - minus[unit] - minus_too[unit]
    else:
        for unit in range(HIDDEN):
            after[unit] = before[unit] + plus[unit] - minus[unit]


@njit(cache=True, inline="always")
def _pending_half(state: Any, ply: int, side: int, before: Any, after: Any) -> None:
    """``side``'s accumulator at ply ``ply``, reached by a move (not a null move): the one
    ``before`` with the changes ``PENDING`` keeps for that ply."""
    pending = PENDING + ply * PENDING_WIDTH
    added, removed = state[pending + ADDED], state[pending + REMOVED]
    also_added, also_removed = state[pending + ALSO_ADDED], state[pending + ALSO_REMOVED]
    view = state[pending + WHITE_VIEW + side]
    _half_update(
        _row_array(view),
        before,
        after,
        FEATURE_ROWS[side, view, added >> 7, added & 127],
        FEATURE_ROWS[side, view, also_added >> 7, also_added & 127] if also_added != 0 else NO_ROW,
        FEATURE_ROWS[side, view, removed >> 7, removed & 127],
        FEATURE_ROWS[side, view, also_removed >> 7, also_removed & 127] if also_removed != 0 else NO_ROW,
        also_removed != 0,
    )


@njit(cache=True)
def _pending_update(state: Any, ply: int) -> None:
    """Writes ply ``ply``'s accumulators from the ply before's and the changes ``PENDING``
    keeps for it."""
    lanes = _lanes(state)
    before = lanes[(ply - 1) * PAIR : ply * PAIR]
    after = lanes[ply * PAIR : (ply + 1) * PAIR]
    if state[PENDING + ply * PENDING_WIDTH + ADDED] == 0:  # a null move
        for unit in range(PAIR):  # not after[:] = before, which needs numba's runtime
            after[unit] = before[unit]
        return
    for side in range(2):
        _pending_half(
            state, ply, side, before[side * HIDDEN : (side + 1) * HIDDEN], after[side * HIDDEN : (side + 1) * HIDDEN]
        )


@njit(cache=True)
def _refresh_up_to(state: Any, first: int, ply: int, refreshed: int) -> None:
    """Writes ply ``ply``'s accumulators (the board's ply) from ply ``first``'s, where a
    king changed its side's view in between (``refreshed``: the sides): that side's afresh
    from the board, the other's through every change on the way. The plies between are
    left pending: their boards are gone, and a later call from one of them redoes this."""
    lanes = _lanes(state)
    start = lanes[first * PAIR : (first + 1) * PAIR]
    target = lanes[ply * PAIR : (ply + 1) * PAIR]
    for side in range(2):
        half = target[side * HIDDEN : (side + 1) * HIDDEN]
        if refreshed & (1 << side):
            _fresh_half(state, half, side)
            continue
        origin = start[side * HIDDEN : (side + 1) * HIDDEN]
        for unit in range(HIDDEN):
            half[unit] = origin[unit]
        for later in range(first + 1, ply + 1):
            if state[PENDING + later * PENDING_WIDTH + ADDED] != 0:  # not a null move
                _pending_half(state, later, side, half, half)


@njit(cache=True)
def _bring_up_to_date(state: Any, ply: int) -> None:
    """Makes ply ``ply`` (the board's) accumulators up to date, from the last ply before it
    that is."""
    first = ply
    refreshed = 0
    while state[PENDING + first * PENDING_WIDTH + READY] == 0:
        refreshed |= state[PENDING + first * PENDING_WIDTH + REFRESHED]
        first -= 1
    if refreshed != 0:
        _refresh_up_to(state, first, ply, refreshed)
        state[PENDING + ply * PENDING_WIDTH + READY] = 1
        return
    for later in range(first + 1, ply + 1):
        _pending_update(state, later)
        state[PENDING + later * PENDING_WIDTH + READY] = 1


@njit(cache=True)
def accumulators(state: Any) -> Any:
    """The accumulator pair of the state's ply, brought up to date (a view of its lanes;
    for python callers: a kernel compiled without numba's runtime cannot return a view)."""
    ply = state[PLY]
    _bring_up_to_date(state, ply)
    return _lanes(state)[ply * PAIR : (ply + 1) * PAIR]


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


# Step 4. Evaluation, draws, and what move ordering needs.


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
    """``chess_network``'s value for the side to move, from the accumulators."""
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


@njit(cache=True)
def null_move_allowed(state: Any) -> bool:
    """The side to move has a piece besides pawns and king (zugzwang is rare then)."""
    offset = state[SIDE] * BLACK_PIECE
    for square in BOARD_SQUARES:
        piece = state[square] - offset
        if KNIGHT <= piece <= QUEEN:
            return True
    return False


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


# Step 5. The kernel's view: chess registers each primitive for its spec.


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


# Step 6. Loading a python-chess board, and moves both ways.

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
