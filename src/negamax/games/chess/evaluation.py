"""Chess's evaluation terms, shared by the game (``chess``) and its compiled primitives
(``compiled``): the piece-square values by colour, the game phase, the
capture-ordering values, the side to move's bonus, the pawn structure and piece placement
terms, and the mop-up of won endings without pawns. Every weight but mop-up's comes from
``weights``, which ``tools/fit_chess.py`` writes.
"""

from __future__ import annotations

import chess

from negamax.games.chess import weights as chess_weights
from negamax.games.chess.tables import PHASE_WEIGHTS


def _square_values(squares: tuple[tuple[int, ...], ...]) -> list[list[list[int]]]:
    """[colour][piece type][square] -> value from White's side (Black's pieces negative)."""
    by_colour: list[list[list[int]]] = [[[0] * 64 for _ in range(7)] for _ in range(2)]
    for piece_type in range(1, 7):
        for square in range(64):
            by_colour[chess.WHITE][piece_type][square] = squares[piece_type - 1][square]
            by_colour[chess.BLACK][piece_type][square] = -squares[piece_type - 1][square ^ 56]
    return by_colour


MIDGAME = _square_values(chess_weights.MIDGAME_SQUARES)
ENDGAME = _square_values(chess_weights.ENDGAME_SQUARES)
PHASE = (0, *PHASE_WEIGHTS)
ORDER_VALUES = (0, 100, 320, 330, 500, 900, 20_000)
"""Piece values for ordering captures (most valuable victim, least valuable attacker)."""
TEMPO = chess_weights.TEMPO


# The pawn structure and piece placement terms, from bitboards (bit ``8 * rank + file``,
# a1 = 0). One source for the game and its compiled primitives (numba compiles
# ``side_counts``, ``mirrored`` and ``structure_value`` as they are), so every mask is a
# signed 64-bit value and every shift right is masked: Python's integers and numba's int64
# then agree bit for bit.

STRUCTURE_TERMS = (
    "passed pawn on rank 2",
    "passed pawn on rank 3",
    "passed pawn on rank 4",
    "passed pawn on rank 5",
    "passed pawn on rank 6",
    "passed pawn on rank 7",
    "doubled pawn",
    "isolated pawn",
    "bishop pair",
    "rook on an open file",
    "rook on a half-open file",
    "pawn shielding the king",
)
"""What ``side_counts`` counts, in its order."""
STRUCTURE_MIDGAME = chess_weights.STRUCTURE_MIDGAME
STRUCTURE_ENDGAME = chess_weights.STRUCTURE_ENDGAME
"""The terms' weights in the middlegame and the endgame, tapered by the game phase like the
piece-square values; ``tools/fit_chess.py`` fits them together with those (the shipped
ones were fitted with PeSTO's tables held fixed: their passed-pawn weights correct the pawn
squares' values, which already pay for any advanced pawn)."""


def _signed(bits: int) -> int:
    return bits - (1 << 64) if bits >= 1 << 63 else bits


FILE_A = 0x0101010101010101
BYTE_COUNTS = tuple(bin(byte).count("1") for byte in range(256))
FILES_OF = tuple(_signed(sum(FILE_A << file for file in range(8) if byte >> file & 1)) for byte in range(256))
"""The squares of the files a byte's bits name (bit f: file f)."""
KING_SHIELDS = tuple(
    _signed(
        sum(
            1 << (8 * rank + file)
            for rank in (square // 8 + 1, square // 8 + 2)
            for file in (square % 8 - 1, square % 8, square % 8 + 1)
            if 0 <= file < 8 and rank < 8
        )
    )
    for square in range(64)
)
"""The two ranks in front of a king on each square, on its file and the next ones."""


def mirrored(bits: int) -> int:
    """The board seen from the other side: rank 1 swapped with rank 8, and so on."""
    bits = ((bits >> 8) & 0x00FF00FF00FF00FF) | ((bits & 0x00FF00FF00FF00FF) << 8)
    bits = ((bits >> 16) & 0x0000FFFF0000FFFF) | ((bits & 0x0000FFFF0000FFFF) << 16)
    return ((bits >> 32) & 0xFFFFFFFF) | ((bits & 0xFFFFFFFF) << 32)


def side_counts(pawns: int, enemy_pawns: int, rooks: int, bishops: int, king: int) -> tuple[int, ...]:
    """The terms for the side whose pieces these are, seen from its side of the board (its
    pawns move up); ``king`` is its king's square. (No calls but to its own inner
    function: numba compiles it alone.)"""
    # an enemy pawn stops a pawn when it stands ahead of it on its file or the next ones
    ahead = enemy_pawns >> 8
    ahead |= ahead >> 8
    ahead |= ahead >> 16
    ahead |= ahead >> 32
    stoppers = ahead | ((ahead >> 1) & 0x7F7F7F7F7F7F7F7F) | ((ahead << 1) & 0x00FEFEFEFEFEFEFE)
    passed = pawns & ~stoppers
    behind = pawns >> 8  # squares with one of the side's own pawns ahead of them
    behind |= behind >> 8
    behind |= behind >> 16
    behind |= behind >> 32
    own = pawns | (pawns >> 8) | (pawns >> 16) | (pawns >> 24) | (pawns >> 32) | (pawns >> 40) | (pawns >> 48)
    enemy = enemy_pawns | (enemy_pawns >> 8) | (enemy_pawns >> 16) | (enemy_pawns >> 24)
    enemy |= (enemy_pawns >> 32) | (enemy_pawns >> 40) | (enemy_pawns >> 48)
    own_files, enemy_files = (own >> 8) & 255, (enemy >> 8) & 255  # pawns stand on ranks 2 to 7
    lonely = own_files & ~((own_files << 1) | (own_files >> 1)) & 255
    doubled, isolated = pawns & behind, pawns & FILES_OF[lonely]
    open_rooks = rooks & FILES_OF[~(own_files | enemy_files) & 255]
    half_open_rooks = rooks & FILES_OF[~own_files & enemy_files & 255]
    shield = pawns & KING_SHIELDS[king]

    def bit_count(bits: int) -> int:
        # the same in Python (bits below 2**64) and in numba (int64, the sign bit included)
        bits = bits - ((bits >> 1) & 0x5555555555555555)
        bits = (bits & 0x3333333333333333) + ((bits >> 2) & 0x3333333333333333)
        bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0F
        return (bits * 0x0101010101010101) >> 56 & 0xFF

    return (
        BYTE_COUNTS[(passed >> 8) & 255],
        BYTE_COUNTS[(passed >> 16) & 255],
        BYTE_COUNTS[(passed >> 24) & 255],
        BYTE_COUNTS[(passed >> 32) & 255],
        BYTE_COUNTS[(passed >> 40) & 255],
        BYTE_COUNTS[(passed >> 48) & 255],
        bit_count(doubled),
        bit_count(isolated),
        1 if bishops & (bishops - 1) else 0,  # two bishops or more
        bit_count(open_rooks),
        bit_count(half_open_rooks),
        bit_count(shield),
    )


def structure_value(white: tuple[int, ...], black: tuple[int, ...]) -> tuple[int, int]:
    """The terms' midgame and endgame values from White's side, given each side's counts."""
    midgame = endgame = 0
    for index in range(len(STRUCTURE_TERMS)):
        difference = white[index] - black[index]
        midgame += STRUCTURE_MIDGAME[index] * difference
        endgame += STRUCTURE_ENDGAME[index] * difference
    return midgame, endgame


def board_counts(board: chess.Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """White's and Black's ``side_counts`` on a python-chess board (Black's seen from its
    side: the board mirrored)."""
    white, black = board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK]
    return (
        side_counts(
            board.pawns & white,
            board.pawns & black,
            board.rooks & white,
            board.bishops & white,
            chess.lsb(board.kings & white),
        ),
        side_counts(
            mirrored(board.pawns & black),
            mirrored(board.pawns & white),
            mirrored(board.rooks & black),
            mirrored(board.bishops & black),
            chess.lsb(board.kings & black) ^ 56,
        ),
    )


# Mop-up: where one side has a winning lead in pieces and the other no pawn, the search
# needs a way towards mate that the tables and the network (trained on positions with
# pawns) do not show it: the lone king driven to the edge (to a corner of the bishop's
# colour with bishop and knight), the winning king brought close. Counted only with few
# pieces left: the compiled game looks at every square to count them. Where it applies, it
# takes the network's place: the network's values of such endings vary with the kings'
# squares by more than the mop-up's steps, and carry no plan.

ENDING_PHASE = 8
"""The most game phase (``PHASE_WEIGHTS`` summed) at which the pieces are counted for
mop-up and for ``pawnless_scale``."""
MOP_UP_LEAD = 4
"""The least lead in pieces (knight and bishop 3, rook 5, queen 9) that wins."""
MOP_UP_EDGE = 20
"""Per step of the lone king from the centre."""
MOP_UP_CORNER = 40
"""Per step of the lone king towards a corner where bishop and knight mate."""
MOP_UP_CLOSE = 8
"""Per step the kings are closer than 14 apart (in files plus ranks)."""
PIECE_WORTHS = (0, 0, 3, 3, 5, 9, 0)
"""The pieces' worth for the lead, by python-chess piece type (pawns and kings 0)."""


def mop_up(
    phase: int,
    white: int,
    black: int,
    white_knights: int,
    black_knights: int,
    bishops: int,
    bishop_colour: int,
    pawnless: int,
    white_king: int,
    black_king: int,
) -> tuple[bool, int]:
    """Whether mop-up applies, and its bonus from White's side. ``white`` and ``black``:
    each side's pieces' worths summed; ``bishops``: both sides' bishops, ``bishop_colour``:
    the colour of any one of them (0 dark, 1 light); ``pawnless``: 1 if White has no pawn,
    plus 2 if Black has none. Kings on squares 0-63, a1 = 0."""
    if phase > ENDING_PHASE:
        return False, 0
    # two knights do not mate
    if white >= black + MOP_UP_LEAD and pawnless & 2 and white != 3 * white_knights:
        strong, weak, sign, knights = white_king, black_king, 1, white_knights
    elif black >= white + MOP_UP_LEAD and pawnless & 1 and black != 3 * black_knights:
        strong, weak, sign, knights = black_king, white_king, -1, black_knights
    else:
        return False, 0
    file, rank = weak & 7, weak >> 3
    if white + black == 6 and knights == 1 and bishops == 1:  # bishop and knight alone
        # the nearest corner where they mate: a1 or h8 when dark, a8 or h1 when light
        nearest = min(file + rank, 14 - file - rank) if bishop_colour == 0 else min(file + 7 - rank, 7 - file + rank)
        towards_edge = MOP_UP_CORNER * (7 - nearest)  # no corner is more than 7 steps away
    else:
        towards_edge = MOP_UP_EDGE * (max(3 - file, file - 4) + max(3 - rank, rank - 4))  # 0 in the centre
    apart = abs(file - (strong & 7)) + abs(rank - (strong >> 3))
    return True, sign * (towards_edge + MOP_UP_CLOSE * (14 - apart))


def board_pieces(board: chess.Board) -> tuple[int, int, int, int, int, int, int]:
    """White's and Black's pieces' worths summed, their knights, their bishops, and the
    colour of any one bishop (0 dark, 1 light)."""
    worths = [0, 0]
    for piece in board.piece_map().values():
        worths[piece.color] += PIECE_WORTHS[piece.piece_type]
    white, black = board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK]
    bishop_colour = 0
    if board.bishops:
        square = chess.lsb(board.bishops)
        bishop_colour = (chess.square_file(square) + chess.square_rank(square)) & 1
    return (
        worths[chess.WHITE],
        worths[chess.BLACK],
        chess.popcount(board.knights & white),
        chess.popcount(board.knights & black),
        chess.popcount(board.bishops & white),
        chess.popcount(board.bishops & black),
        bishop_colour,
    )


def board_mop_up(board: chess.Board, phase: int) -> tuple[bool, int]:
    """``mop_up`` on a python-chess board of game ``phase``."""
    if phase > ENDING_PHASE:
        return False, 0
    white, black, white_knights, black_knights, white_bishops, black_bishops, bishop_colour = board_pieces(board)
    white_pawns, black_pawns = (
        board.pawns & board.occupied_co[chess.WHITE],
        board.pawns & board.occupied_co[chess.BLACK],
    )
    white_king, black_king = board.king(chess.WHITE), board.king(chess.BLACK)
    assert white_king is not None and black_king is not None
    return mop_up(
        phase,
        white,
        black,
        white_knights,
        black_knights,
        white_bishops + black_bishops,
        bishop_colour,
        (0 if white_pawns else 1) + (0 if black_pawns else 2),
        white_king,
        black_king,
    )


# Without pawns, a lead of a minor piece or less rarely wins: rook against bishop or knight,
# rook and minor against rook, a minor piece alone, and knights alone are draws with correct
# defence. The side ahead by the evaluation keeps only part of its lead when it has no
# pawn left, so the search does not trade its last pawns into such an ending (nor the side
# behind avoid one) for a lead that the tables and the network count in full.

WHOLE_SCALE = 64
"""``pawnless_scale``'s whole: the lead kept in full."""

SHUFFLE_PLIES = 200
"""Plies without a capture or a pawn move at which ``shuffle_damped`` leaves nothing of a
value: half of it at the fifty-move rule's 100."""


def shuffle_damped(value: int, clock: int) -> int:
    """``value`` shrunk in proportion to ``clock``, the plies since the last capture or pawn
    move: a lead the side ahead makes no progress with is worth less as the fifty-move rule
    nears, so the search prefers the moves that make progress (Stockfish damps its
    evaluation in the same way)."""
    return value * (SHUFFLE_PLIES - clock) // SHUFFLE_PLIES


def pawnless_scale(
    value: int, side: int, pawnless: int, white: int, black: int, white_knights: int, black_knights: int
) -> int:
    """Of ``WHOLE_SCALE``, the part of ``value`` (for ``side`` to move, 0 White) that the side
    it favours keeps: ``pawnless`` as for ``mop_up``, the rest as ``board_pieces`` counts."""
    strong_side = side if value > 0 else 1 - side
    if value == 0 or not pawnless & (1 << strong_side):  # level, or the side ahead has a pawn
        return WHOLE_SCALE
    strong, weak, knights = (white, black, white_knights) if strong_side == 0 else (black, white, black_knights)
    if strong == 3 * knights:  # knights alone do not force mate
        return 0
    if strong - weak > 3:
        return WHOLE_SCALE
    if strong < 5:  # a minor piece against anything
        return 0
    if weak <= 3:  # a rook or two minor pieces (two bishops against a knight, too) against a minor piece
        return 4
    return 14


def board_pawnless_scaled(board: chess.Board, phase: int, value: int) -> int:
    """``value`` (for the side to move) times ``pawnless_scale`` on a python-chess board of
    game ``phase`` (only at most ``ENDING_PHASE``)."""
    white_pawns = board.pawns & board.occupied_co[chess.WHITE]
    black_pawns = board.pawns & board.occupied_co[chess.BLACK]
    pawnless = (0 if white_pawns else 1) + (0 if black_pawns else 2)
    if phase > ENDING_PHASE or pawnless == 0:
        return value
    white, black, white_knights, black_knights, _, _, _ = board_pieces(board)
    side = 0 if board.turn == chess.WHITE else 1
    return value * pawnless_scale(value, side, pawnless, white, black, white_knights, black_knights) // WHOLE_SCALE
