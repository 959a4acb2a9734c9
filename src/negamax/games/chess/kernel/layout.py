"""The layout of chess's compiled state, and the tables its primitives read (imports numba).

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
* ``ACCUMULATORS``: for each ply, the network's two accumulators (``chess.network``: the
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
piece-square values, the structure terms of ``chess.evaluation``, a tempo bonus, the
network's correction, the scales of endings and of the fifty-move clock); the tests hold
both to the same scores.
"""

from __future__ import annotations

from typing import Any

import chess
import numpy as np

from negamax.games.chess import network as chess_network
from negamax.games.chess.evaluation import ENDGAME, MIDGAME, ORDER_VALUES, PHASE

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
