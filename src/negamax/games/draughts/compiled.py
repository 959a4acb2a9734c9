"""Draughts' compiled primitives for the compiled deepening kernel (imports numba), for
every variant of ``rules.VARIANTS``: international and Frisian (10x10), Brazilian, Russian
and American checkers (8x8). The rules are those of the pure-Python positions (the tests
compare every move list with theirs, and both with the published perft counts): captures
are compulsory, pieces taken are removed after the capture (none is jumped twice), a man
is crowned when its move ends on the far row; men capture backwards, kings fly and only
the longest capture is legal where the variant says so (``DraughtsSpec``); in Russian a
man crowned during a capture goes on as a king, and a flying king that can go on taking
from some square behind its victim must land there. Frisian captures orthogonally too,
and only its captures of the most worth are legal (``frisian_captures``).

The position is one int64 array (``compiled_state.new_state`` loads one):

* ``0 .. 167``: a 12x14 mailbox, the board (10x10, or 8x8 in its top left corner) with a
  border of ``OFF`` squares, two rows deep above and below (an orthogonal capture jumps
  two rows). Square ``s`` (py-draughts' numbering minus one) sits at
  ``MAILBOX[geometry, s]``; the diagonal steps are -13, -11, +11, +13 on both boards, the
  orthogonal ones -24, +24, -2, +2.
  Men are 1 and kings 2, plus 8 for Black, so ``piece >> 3`` is the colour.
* ``SIDE`` .. ``ROOT``: the side to move (0 White), the clock (plies of king moves without
  a capture), the Zobrist key, the per-square evaluation sum from White's side, the plies
  played since loading, and the ply at which the search began.
* ``KEYS``: the key after each ply (for repetitions); ``UNDO``: what each move destroyed;
  ``MATERIAL``: the pieces after each ply, counted (``material_of``: for the endgame rules,
  the evaluation's blend of the regions' worths and its ``drawish`` king endgames).
* ``GENERATED`` .. : scratch for move generation.
* ``REGION_INDEX``: in international draughts, each region's arrangement of men as its
  index into ``PATTERNS`` (``evaluation``), a block of ``MOST_REGIONS`` a ply
  (``regions_at``): make copies the block and changes the copy, so unmake has nothing to
  undo; the evaluation looks their worths up.
* ``MASKS``: each side's men and kings as bitboards (``bitboards``), kept by make and unmake,
  from which the generator finds the pieces that can take and the men's steps (and the
  evaluation, a lone king on the long diagonal).

A move is ``from | to << 6 | taken << 12``: squares 0-49, and the set of squares whose
pieces it takes as a 50-bit mask; ``CROWNED`` marks a Russian man crowned on the way.
Two captures with the same start, end and pieces taken are one move, as in the pure-Python
positions and the published perft counts.

The evaluation is the pure-Python ``DraughtsPosition.evaluate`` exactly.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from negamax.core import compiled
from negamax.core.compiled import implements
from negamax.core.score import ONGOING
from negamax.games.draughts import bitboards
from negamax.games.draughts.bitboards import BIT_OF, BOARD_BITS, BOARD_SIZES, PER_ROW, SQUARE_OF_BIT, lowest_bit
from negamax.games.draughts.evaluation import (
    ARRANGEMENTS,
    KING,
    KING_ENDGAME_VARIANTS,
    LONG_DIAGONAL,
    PATTERN_VARIANTS,
    TEMPO,
    weights_for,
)
from negamax.games.draughts.evaluation import MAN as MAN_WORTH
from negamax.games.draughts.evaluation import blend as rules_blend
from negamax.games.draughts.evaluation import drawish as rules_drawish
from negamax.games.draughts.evaluation import kings_bonus as rules_kings_bonus


class DraughtsSpec(NamedTuple):
    """Selects draughts' primitives in the compiled deepening kernel; its values are the
    variant's board and rules (``VARIANT_SPECS``), read at run time, so one kernel plays
    every variant."""

    squares: int = 50
    """Dark squares: 50 (10x10) or 32 (8x8)."""
    geometry: int = 0
    """Which board's tables (``MAILBOX``, ``SQUARE_AT``, ``VALUES``, the regions'; see
    ``BOARD_SIZES``): 0 10x10 with the regions' worths, 1 8x8, 2 10x10 without them."""
    men_capture_backward: int = 1
    flying_kings: int = 1
    crowned_mid_capture: int = 0
    """A man reaching the far row during a capture is crowned there and goes on capturing
    as a king (Russian)."""
    longest_capture: int = 1
    """Only the captures that rank highest are legal: those taking the most pieces
    (international, Brazilian), or the most worth (``frisian_captures``)."""
    draw_clock: int = 50
    """Plies of king moves without a capture that draw (py-draughts' rules)."""
    endgame_clocks: int = 1
    """``FMJD_ENDGAMES``: a lone king draws against three pieces with a king within 16
    moves, against one or two within 5 (international). ``FRISIAN_ENDGAMES``: by the
    clock, a king against a king draws after 4 plies, three kings after 14. 0: neither."""
    frisian_captures: int = 0
    """Pieces also capture orthogonally (over the piece two rows or two columns away, a
    king flying), and only the captures of the most worth are legal: a man taken counts
    100, a king 199, and among equals a king's capture goes first."""


FMJD_ENDGAMES, FRISIAN_ENDGAMES = 1, 2


SPEC = DraughtsSpec()
VARIANT_SPECS = {
    "draughts": SPEC,
    "brazilian": DraughtsSpec(32, 1, 1, 1, 0, 1, 30, 0),
    "russian": DraughtsSpec(32, 1, 1, 1, 1, 0, 30, 0),
    "checkers": DraughtsSpec(32, 1, 0, 0, 0, 0, 40, 0),
    "frisian": DraughtsSpec(geometry=2, endgame_clocks=FRISIAN_ENDGAMES, frisian_captures=1),
}
"""The spec of each variant the compiled kernel plays."""

EMPTY, MAN, KING_PIECE, BLACK_PIECE, OFF = 0, 1, 2, 8, 16
MAILBOX_SIZE = 12 * 14
SIDE, CLOCK, HASH, EVALUATION, PLY, ROOT, GENERATED_FROM, GENERATED, BEST_RANK = range(MAILBOX_SIZE, MAILBOX_SIZE + 9)
MAX_PLIES = 1024
MOST_REGIONS = 16
MASKS = BEST_RANK + 1
"""Four bit masks (``bitboards``): White's men, Black's men, White's kings, Black's kings."""
KEYS = MASKS + 4
UNDO_WIDTH = 4
UNDO = KEYS + MAX_PLIES
MATERIAL = UNDO + MAX_PLIES * UNDO_WIDTH
REGION_INDEX = MATERIAL + MAX_PLIES
"""Each region's arrangement of men as its index into ``PATTERNS`` (``evaluation``), a
block a ply (``regions_at``)."""
STATE_SIZE = REGION_INDEX + (MAX_PLIES + 1) * MOST_REGIONS
SQUARES = 50
"""The most dark squares of a board (10x10)."""
STEPS = np.array([-13, -11, 11, 13, -24, 24, -2, 2], dtype=np.int64)
"""The steps on the 12-wide mailbox: the diagonal ones, the first two towards row 0
(White's way), then the orthogonal ones (Frisian's captures), to the square two rows or two
columns away."""
TAKEN = (1 << SQUARES) - 1
"""A move's bits from 12 on: the squares whose pieces it takes."""
CROWNED = 1 << 62
"""A move's flag: the man was crowned during the capture and went on as a king."""
WITH_PATTERNS = tuple(
    any(spec.geometry == geometry and variant in PATTERN_VARIANTS for variant, spec in VARIANT_SPECS.items())
    for geometry in range(len(BOARD_SIZES))
)
"""Whether a geometry's tables hold the regions' worths: the variants that play on it say."""
PATTERN_SLOT = np.cumsum(WITH_PATTERNS) * np.array(WITH_PATTERNS) - 1
"""Each geometry's place in ``PATTERNS`` (-1: none), which holds only the geometries with
worths: numba cannot cache code that reads a global array of more than a megabyte."""
assert all((variant in PATTERN_VARIANTS) == WITH_PATTERNS[spec.geometry] for variant, spec in VARIANT_SPECS.items())


def _mailbox(square: int, size: int) -> int:
    per_row = size // 2
    row = square // per_row
    column = 2 * (square % per_row) + (1 if row % 2 == 0 else 0)
    return (row + 2) * 12 + column + 1


MAILBOX = np.zeros((len(BOARD_SIZES), SQUARES), dtype=np.int64)
SQUARE_AT = np.full((len(BOARD_SIZES), MAILBOX_SIZE), -1, dtype=np.int64)
for _geometry, _size in enumerate(BOARD_SIZES):
    for _square in range(_size * _size // 2):
        MAILBOX[_geometry, _square] = _mailbox(_square, _size)
        SQUARE_AT[_geometry, _mailbox(_square, _size)] = _square


def _tables() -> tuple[Any, ...]:
    values = np.zeros((len(BOARD_SIZES), 16, SQUARES), dtype=np.int64)
    region_count = np.zeros((len(BOARD_SIZES), SQUARES), dtype=np.int64)
    region_of = np.zeros((len(BOARD_SIZES), SQUARES, 4), dtype=np.int64)
    digit = np.zeros((len(BOARD_SIZES), SQUARES, 4), dtype=np.int64)
    patterns = np.zeros((sum(WITH_PATTERNS), 2, MOST_REGIONS, ARRANGEMENTS), dtype=np.int16)
    king_counts = np.zeros((len(BOARD_SIZES), 2), dtype=np.int64)
    for geometry, size in enumerate(BOARD_SIZES):
        squares = size * size // 2
        weights = weights_for(squares, patterns=WITH_PATTERNS[geometry])
        for square in range(squares):
            values[geometry, MAN, square] = weights.white_man[square]
            values[geometry, KING_PIECE, square] = weights.white_king[square]
            values[geometry, MAN + BLACK_PIECE, square] = -weights.black_man[square]
            values[geometry, KING_PIECE + BLACK_PIECE, square] = -weights.black_king[square]
        king_counts[geometry] = weights.first_king, weights.further_king
        assert len(weights.regions) <= MOST_REGIONS
        for region, members in enumerate(weights.regions):
            for phase in range(2):
                patterns[PATTERN_SLOT[geometry], phase, region] = weights.patterns[phase][region]
            for place, square in enumerate(members):
                region_of[geometry, square, region_count[geometry, square]] = region
                digit[geometry, square, region_count[geometry, square]] = 3**place
                region_count[geometry, square] += 1
    generator = np.random.default_rng(20261123)
    zobrist = generator.integers(1, 1 << 62, size=(16, SQUARES), dtype=np.int64)
    side_key = np.int64(generator.integers(1, 1 << 62))
    return values, zobrist, side_key, region_count, region_of, digit, patterns, king_counts


VALUES, ZOBRIST, SIDE_KEY, REGION_COUNT, REGION_OF, DIGIT, PATTERNS, KING_COUNTS = _tables()
"""Each piece's worth on each square of each board from White's side (Black's negative),
Zobrist keys, and for each square the regions holding it (how many, which, and the square's
digit in each region's index); ``PATTERNS[PATTERN_SLOT[geometry], phase, region, index]``:
each region's worth by its index with all ``FULL_MEN`` men on the board (phase 0) and with
none (phase 1); ``KING_COUNTS[geometry]``: what a side's first king and each further one
add (``evaluation.kings_bonus``)."""


# Step 1. Move generation: captures (the longest only, where that is the rule), else quiet
# moves.


@njit(cache=True)
def pieces_taken(taken: int) -> int:
    """How many pieces a capture's ``taken`` mask holds."""
    count = 0
    while taken:
        taken &= taken - 1
        count += 1
    return count


@njit(cache=True)
def taken_of(move: int) -> int:
    """The squares whose pieces ``move`` takes (a mask)."""
    return (move >> 12) & TAKEN


@njit(cache=True)
def _capture_rank(spec: Any, state: Any, taken: int, king: bool) -> int:
    """How a capture ranks against the others where only the best are legal: the pieces it
    takes, or in Frisian twice their worth (a man 100, a king 199), plus one for a king's
    capture. (The pieces taken are still on the board while moves are generated.)"""
    count = pieces_taken(taken)
    if not spec.frisian_captures:
        return count
    worth = 100 * count + 99 * kings_among(spec, state, taken)
    return 2 * worth + (1 if king else 0)


@njit(cache=True)
def kings_among(spec: Any, state: Any, taken: int) -> int:
    """How many of the pieces on the squares of ``taken`` (a mask) are kings."""
    return pieces_taken(bitboards.bits_of(spec.geometry, taken) & (state[MASKS + 2] | state[MASKS + 3]))


@njit(cache=True)
def _record(spec: Any, state: Any, out: Any, origin: int, target: int, taken: int, crowned: bool, king: bool) -> None:
    if spec.longest_capture:
        rank = _capture_rank(spec, state, taken, king)
        if rank < state[BEST_RANK]:
            return
        if rank > state[BEST_RANK]:
            state[BEST_RANK] = rank
            state[GENERATED] = state[GENERATED_FROM]  # lesser captures found so far are dropped
    code = origin | (target << 6) | (taken << 12)
    if crowned:
        code |= CROWNED
    for index in range(state[GENERATED_FROM], state[GENERATED]):
        if out[index] & ~CROWNED == code & ~CROWNED:
            return  # the same capture by another route
    out[state[GENERATED]] = code
    state[GENERATED] += 1


@njit(cache=True, inline="always")
def _backward(direction: int, side: int) -> bool:
    """Whether the diagonal ``direction`` (an index into ``STEPS``) leads away from
    ``side``'s far row (White's forward steps are the first two). Only Frisian captures
    orthogonally, and its men capture every way."""
    return (direction >= 2) == (side == 0)


@njit(cache=True, inline="always")
def _directions(spec: Any) -> int:
    """How many of ``STEPS`` a capture may take: the diagonal four, or all eight."""
    return 8 if spec.frisian_captures else 4


@njit(cache=True, inline="always")
def _movement(spec: Any, piece: int) -> tuple[bool, bool, bool]:
    """``(king, flying, backward)``: whether ``piece`` is a king, flies, and captures
    backwards, in the variant of ``spec``."""
    king = piece & 7 == KING_PIECE
    return king, king and spec.flying_kings != 0, king or spec.men_capture_backward != 0


@njit(cache=True, inline="always")
def _victim(state: Any, box: int, direction: int, flying: bool, them: int) -> int:
    """The box of the piece of ``them`` that the piece on ``box`` meets first in
    ``direction`` (sliding over empty squares if ``flying``), else 0."""
    step = STEPS[direction]
    victim = box + step
    if flying:
        while state[victim] == EMPTY:
            victim += step
    piece = state[victim]
    if piece == EMPTY or piece == OFF or piece >> 3 != them:  # noqa: SIM109 (numba: compares)
        return 0
    return victim


@njit(cache=True, inline="always")
def _can_take(
    state: Any, geometry: int, directions: int, box: int, taken: int, flying: bool, backward: bool, them: int
) -> bool:
    """Whether the piece on ``box``, having taken ``taken`` so far, can take a piece of
    ``them`` (the test that spares most pieces the capture search)."""
    for direction in range(4):  # a constant bound: the diagonal variants' loop is unrolled
        if (backward or not _backward(direction, 1 - them)) and _takes_toward(
            state, geometry, box, taken, flying, them, direction
        ):
            return True
    for direction in range(4, directions):
        if _takes_toward(state, geometry, box, taken, flying, them, direction):
            return True
    return False


@njit(cache=True, inline="always")
def _takes_toward(state: Any, geometry: int, box: int, taken: int, flying: bool, them: int, direction: int) -> bool:
    """Whether the piece on ``box`` can take a piece of ``them`` in ``direction``."""
    victim = _victim(state, box, direction, flying, them)
    if victim == 0 or (taken and (taken >> SQUARE_AT[geometry, victim]) & 1):
        return False
    return state[victim + STEPS[direction]] == EMPTY


@njit(cache=True)
def _jumps(
    spec: Any, state: Any, out: Any, origin: int, box: int, taken: int, flying: bool, backward: bool, crowned: int
) -> None:
    """Extends a capture that has reached ``box`` having taken ``taken`` (the moving piece
    is lifted off the board meanwhile): a flying king's, or a piece that jumps one square
    (a man, forward only unless ``backward``; a short king). ``crowned``: 1 once a man was
    crowned on the way, 2 once it took a piece after that."""
    extended = False
    side = state[SIDE]
    them = 1 - side
    yes = side == side  # typed: numba's cache breaks on literal arguments to recursion
    geometry = spec.geometry
    directions = _directions(spec)
    per_row = PER_ROW[geometry]
    crown_row = 0 if side == 0 else 2 * per_row - 1
    free_choice = not spec.longest_capture
    for direction in range(directions):
        if not backward and _backward(direction, side):
            continue
        victim = _victim(state, box, direction, flying, them)
        if victim == 0:
            continue
        step = STEPS[direction]
        victim_square = SQUARE_AT[geometry, victim]
        if (taken >> victim_square) & 1:
            continue  # a piece is taken once, and blocks the way until the capture ends
        now_taken = taken | (1 << victim_square)
        going_on = min(crowned, 1) * 2  # once crowned, a further piece taken counts
        # A flying king that can go on taking from some square behind its victim must land
        # on such a square (FMJD; only the free-choice variants need telling).
        must_go_on = (
            flying
            and free_choice
            and _lands_to_go_on(state, geometry, directions, victim + step, step, now_taken, them)
        )
        landing = victim + step
        # (a Frisian man never lands where it took a piece: its landings lie an even number
        # of rows and columns from its start, with the two differing by a multiple of 4,
        # which no square it jumps over does)
        while state[landing] == EMPTY:
            if not must_go_on or _can_take(state, geometry, directions, landing, now_taken, yes, yes, them):
                extended = True
                if (
                    not flying
                    and spec.crowned_mid_capture
                    and crowned == 0
                    and SQUARE_AT[geometry, landing] // per_row == crown_row
                ):
                    _jumps(spec, state, out, origin, landing, now_taken, yes, yes, crowned + 1)
                else:
                    _jumps(spec, state, out, origin, landing, now_taken, flying, backward, going_on)
            if not flying:
                break
            landing += step
    if not extended and taken != 0:
        # (Frisian's kings fly and its men are crowned only where a move ends)
        _record(spec, state, out, origin, SQUARE_AT[geometry, box], taken, crowned == 2, flying)


@njit(cache=True)
def _lands_to_go_on(state: Any, geometry: int, directions: int, landing: int, step: int, taken: int, them: int) -> bool:
    """Whether a flying king can go on taking from some empty square from ``landing`` on."""
    yes = them == them
    while state[landing] == EMPTY:
        if _can_take(state, geometry, directions, landing, taken, yes, yes, them):
            return True
        landing += step
    return False


@njit(cache=True, inline="always")
def _masks(spec: Any, state: Any) -> tuple[int, int, int, int]:
    """The bitboards of the side to move's men and kings, the opponent's pieces, and the empty squares."""
    side = state[SIDE]
    men, kings = state[MASKS + side], state[MASKS + 2 + side]
    theirs = state[MASKS + 1 - side] | state[MASKS + 3 - side]
    return men, kings, theirs, BOARD_BITS[spec.geometry] & ~(men | kings | theirs)


@njit(cache=True, inline="always")
def _takers(spec: Any, side: int, men: int, kings: int, theirs: int, empty: int) -> int:
    """The men (and kings that do not fly) that can take, from the bitboards."""
    geometry, orthogonal = spec.geometry, spec.frisian_captures != 0
    found = bitboards.takers(geometry, side, men, theirs, empty, spec.men_capture_backward != 0, orthogonal)
    if not spec.flying_kings:
        found |= bitboards.takers(geometry, side, kings, theirs, empty, True, orthogonal)
    return found


@njit(cache=True)
def must_capture(spec: Any, state: Any) -> bool:
    """Whether the side to move has a capture (and so must take)."""
    side = state[SIDE]
    men, kings, theirs, empty = _masks(spec, state)
    if _takers(spec, side, men, kings, theirs, empty):
        return True
    flying = kings if spec.flying_kings else 0
    while flying:
        box = MAILBOX[spec.geometry, SQUARE_OF_BIT[spec.geometry, lowest_bit(flying)]]
        if _can_take(state, spec.geometry, _directions(spec), box, 0, True, True, 1 - side):
            return True
        flying &= flying - 1
    return False


@njit(cache=True)
def leaves_capture(spec: Any, state: Any, move: int) -> bool:
    """Whether the opponent must take after ``move`` (of the side to move). From the
    bitboards alone, unless the opponent has a flying king: then the move is played."""
    side = state[SIDE]
    them = 1 - side
    geometry = spec.geometry
    their_kings = state[MASKS + 2 + them]
    if spec.flying_kings and their_kings:
        play(spec, state, move)
        taking = must_capture(spec, state)
        unplay(spec, state, move)
        return taking
    taken = bitboards.bits_of(geometry, taken_of(move))
    moved = state[MASKS + side] | state[MASKS + 2 + side]
    moved ^= 1 << BIT_OF[geometry, move & 63]  # (a capture may end where it began)
    moved |= 1 << BIT_OF[geometry, (move >> 6) & 63]
    their_men = state[MASKS + them] & ~taken
    their_kings &= ~taken
    empty = BOARD_BITS[geometry] & ~(moved | their_men | their_kings)
    return _takers(spec, them, their_men, their_kings, moved, empty) != 0


@njit(cache=True)
def has_move(spec: Any, state: Any) -> bool:
    """Whether the side to move has a legal move."""
    men, kings, _, empty = _masks(spec, state)
    return bitboards.steppers(spec.geometry, state[SIDE], men, kings, empty) != 0 or must_capture(spec, state)


@njit(cache=True)
def generate(spec: Any, state: Any, out: Any, start: int, noisy_only: bool) -> int:
    """Writes the legal moves (``noisy_only``: the captures) from ``out[start]`` on; returns
    the end index."""
    side = state[SIDE]
    them = 1 - side
    geometry = spec.geometry
    state[GENERATED] = state[GENERATED_FROM] = start
    state[BEST_RANK] = 1
    none = side - side  # a typed zero: numba's cache breaks on literal arguments to recursion
    men, kings, theirs, empty = _masks(spec, state)
    # the pieces that can take, in the order of their squares (the mailbox generator's, which
    # the search's move ordering breaks its ties by): those that jump one square, found on
    # the bitboards, and the flying kings (few: each is tested on the mailbox)
    candidates = _takers(spec, side, men, kings, theirs, empty) | (kings if spec.flying_kings else 0)
    while candidates:
        bit = lowest_bit(candidates)
        candidates &= candidates - 1
        square = SQUARE_OF_BIT[geometry, bit]
        box = MAILBOX[geometry, square]
        piece = state[box]
        _, flying, backward = _movement(spec, piece)
        if not flying and not spec.frisian_captures:  # (Frisian ranks captures by their worth)
            crowning = spec.crowned_mid_capture != 0
            end = bitboards.single_jumps(geometry, side, bit, theirs, empty, backward, crowning, out, state[GENERATED])
            if end >= 0:  # (else the piece may go on taking)
                if not spec.longest_capture or state[BEST_RANK] == 1:  # (else a longer one was found)
                    state[GENERATED] = end
                continue
        if flying and not _can_take(state, geometry, _directions(spec), box, none, flying, backward, them):
            continue
        state[box] = EMPTY
        _jumps(spec, state, out, square, box, none, flying, backward, none)
        state[box] = piece
    end = state[GENERATED]
    if noisy_only or end > start:
        return end
    return bitboards.quiet_moves(geometry, side, men, kings, empty, spec.flying_kings != 0, out, end)


# Step 2. Make and unmake, keeping the evaluation's sum and the regions' indices.


@njit(cache=True, inline="always")
def mask_slot(piece: int) -> int:
    """The slot of ``MASKS`` that holds ``piece``'s kind and colour."""
    return MASKS + (piece >> 3) + (piece & KING_PIECE)


@njit(cache=True, inline="always")
def regions_at(ply: int) -> int:
    """Where the regions' indices after ``ply`` plies begin."""
    return REGION_INDEX + ply * MOST_REGIONS


@njit(cache=True, inline="always")
def men_digit(piece: int) -> int:
    """A man's digit in a region's index: 1 White, 2 Black."""
    return 1 + (piece >> 3)


@njit(cache=True, inline="always")
def shift_indices(geometry: int, state: Any, regions: int, square: int, amount: int) -> None:
    """Adds ``amount`` times the square's digit to the index of each region holding
    ``square``, in the block of indices at ``regions``."""
    for place in range(REGION_COUNT[geometry, square]):
        state[regions + REGION_OF[geometry, square, place]] += amount * DIGIT[geometry, square, place]


@njit(cache=True)
def play(spec: Any, state: Any, move: int) -> bool:
    origin, target, taken = move & 63, (move >> 6) & 63, taken_of(move)
    geometry = spec.geometry
    side = state[SIDE]
    ply = state[PLY]
    undo = UNDO + ply * UNDO_WIDTH
    piece = state[MAILBOX[geometry, origin]]
    state[undo] = piece
    state[undo + 1] = state[CLOCK]
    state[undo + 2] = state[EVALUATION]
    kings_taken = 0
    key = state[HASH] ^ SIDE_KEY
    evaluation = state[EVALUATION]
    material = state[MATERIAL + ply]
    regions = regions_at(ply + 1)
    if PATTERN_SLOT[geometry] >= 0:
        before = regions_at(ply)
        for region in range(MOST_REGIONS):
            state[regions + region] = state[before + region]
    bits = taken
    while bits:
        low = bits & -bits
        square = lowest_bit(low)
        victim = state[MAILBOX[geometry, square]]
        material -= 1 << _count_shift(victim)
        if victim & 7 == KING_PIECE:
            kings_taken |= low
        key ^= ZOBRIST[victim, square]
        evaluation -= VALUES[geometry, victim, square]
        if victim & 7 == MAN:
            shift_indices(geometry, state, regions, square, -men_digit(victim))
        state[MAILBOX[geometry, square]] = EMPTY
        bits ^= low
    state[undo + 3] = kings_taken
    if taken:
        taken_bits = bitboards.bits_of(geometry, taken)
        state[MASKS + 1 - side] &= ~taken_bits
        state[MASKS + 3 - side] &= ~taken_bits
    state[mask_slot(piece)] ^= 1 << BIT_OF[geometry, origin]
    key ^= ZOBRIST[piece, origin]
    evaluation -= VALUES[geometry, piece, origin]
    if piece & 7 == MAN:
        shift_indices(geometry, state, regions, origin, -men_digit(piece))
    state[MAILBOX[geometry, origin]] = EMPTY
    placed = piece
    last_row = 0 if side == 0 else 2 * PER_ROW[spec.geometry] - 1
    if piece & 7 == MAN and (target // PER_ROW[spec.geometry] == last_row or move & CROWNED):
        placed = KING_PIECE + side * BLACK_PIECE
        material += (1 << _count_shift(placed)) - (1 << _count_shift(piece))
    state[MATERIAL + ply + 1] = material
    state[MAILBOX[geometry, target]] = placed
    state[mask_slot(placed)] |= 1 << BIT_OF[geometry, target]
    key ^= ZOBRIST[placed, target]
    evaluation += VALUES[geometry, placed, target]
    if placed & 7 == MAN:
        shift_indices(geometry, state, regions, target, men_digit(placed))
    state[CLOCK] = state[CLOCK] + 1 if (piece & 7 == KING_PIECE and taken == 0) else 0
    state[EVALUATION] = evaluation
    state[SIDE] = 1 - side
    state[HASH] = key
    state[PLY] = ply + 1
    state[KEYS + ply + 1] = key
    return True


@njit(cache=True)
def unplay(spec: Any, state: Any, move: int) -> None:
    origin, target, taken = move & 63, (move >> 6) & 63, taken_of(move)
    geometry = spec.geometry
    ply = state[PLY] - 1
    side = 1 - state[SIDE]
    undo = UNDO + ply * UNDO_WIDTH
    placed = state[MAILBOX[geometry, target]]
    state[MAILBOX[geometry, target]] = EMPTY
    state[mask_slot(placed)] ^= 1 << BIT_OF[geometry, target]
    piece = state[undo]
    state[MAILBOX[geometry, origin]] = piece
    state[mask_slot(piece)] |= 1 << BIT_OF[geometry, origin]
    kings_taken = state[undo + 3]
    bits = taken
    while bits:
        square = lowest_bit(bits)
        bits &= bits - 1
        if (kings_taken >> square) & 1:
            state[MAILBOX[geometry, square]] = KING_PIECE + (1 - side) * BLACK_PIECE
        else:
            state[MAILBOX[geometry, square]] = MAN + (1 - side) * BLACK_PIECE
    if taken:
        kings_bits = bitboards.bits_of(geometry, kings_taken)
        state[MASKS + 3 - side] |= kings_bits
        state[MASKS + 1 - side] |= bitboards.bits_of(geometry, taken) ^ kings_bits
    state[CLOCK] = state[undo + 1]
    state[EVALUATION] = state[undo + 2]
    state[SIDE] = side
    state[PLY] = ply
    state[HASH] = state[KEYS + ply]


# Step 3. Evaluation, draws, and what move ordering needs.

blend = njit(cache=True, inline="always")(rules_blend)
kings_bonus = njit(cache=True, inline="always")(rules_kings_bonus)
drawish = njit(cache=True, inline="always")(rules_drawish)
LONG_DIAGONAL_BITS = sum(1 << bitboards.bit_of_square(square, 5) for square in LONG_DIAGONAL)
"""``evaluation.LONG_DIAGONAL`` on the 10x10 bitboards, where the FMJD's king endgames are
played (``KING_ENDGAME_VARIANTS``)."""
assert all(
    (variant in KING_ENDGAME_VARIANTS) == (spec.endgame_clocks == FMJD_ENDGAMES) and spec.squares == 50
    for variant, spec in VARIANT_SPECS.items()
    if variant in KING_ENDGAME_VARIANTS or spec.endgame_clocks == FMJD_ENDGAMES
)


@njit(cache=True)
def evaluate(spec: Any, state: Any) -> int:
    value = state[EVALUATION]
    material = state[MATERIAL + state[PLY]]
    slot = PATTERN_SLOT[spec.geometry]
    if slot >= 0:
        full, bare = 0, 0
        regions = regions_at(state[PLY])
        for region in range(MOST_REGIONS):
            index = state[regions + region]
            full += PATTERNS[slot, 0, region, index]
            bare += PATTERNS[slot, 1, region, index]
        value += blend(full, bare, (material & 255) + ((material >> 16) & 255))
    white_kings, black_kings = (material >> 8) & 255, material >> 24
    if white_kings or black_kings:
        value += kings_bonus(KING_COUNTS[spec.geometry, 0], KING_COUNTS[spec.geometry, 1], white_kings, black_kings)
    if spec.endgame_clocks == FMJD_ENDGAMES and (white_kings or black_kings):
        value = drawish(
            value,
            material & 255,
            white_kings,
            (material >> 16) & 255,
            black_kings,
            state[MASKS + 2] & LONG_DIAGONAL_BITS != 0,
            state[MASKS + 3] & LONG_DIAGONAL_BITS != 0,
        )
    return (value if state[SIDE] == 0 else -value) + TEMPO


@njit(cache=True)
def drawn(spec: Any, state: Any) -> bool:
    """The variant's move-count rule (international: 25 moves), a repetition inside the
    search (both need kings moving), or a king endgame's rule. A side left without a move
    on the last move a rule allows has lost all the same (py-draughts)."""
    clock = state[CLOCK]
    if clock >= spec.draw_clock or king_endgame_drawn(spec, state):
        return has_move(spec, state)
    ply = state[PLY]
    if ply > state[ROOT] and clock >= 4:
        key = state[HASH]
        for earlier in range(ply - 2, max(0, ply - clock) - 1, -2):
            if state[KEYS + earlier] == key:
                return True
    return False


@njit(cache=True, inline="always")
def _count_shift(piece: int) -> int:
    """Where ``material_of`` counts ``piece``: White's men, White's kings, Black's men,
    Black's kings, 8 bits each."""
    return 16 * (piece >> 3) + 8 * ((piece & 7) - 1)


@njit(cache=True, inline="always")
def _pieces(material: int) -> int:
    """How many pieces ``material`` (as ``MATERIAL`` holds it) counts."""
    return (material & 255) + ((material >> 8) & 255) + ((material >> 16) & 255) + (material >> 24)


def material_of(white_men: int, white_kings: int, black_men: int, black_kings: int) -> int:
    """The pieces counted, packed as ``MATERIAL`` holds them."""
    return white_men | white_kings << 8 | black_men << 16 | black_kings << 24


@njit(cache=True)
def _endgame_limits(material: int) -> tuple[int, int]:
    """The plies a king endgame may last (16 moves, 5 moves; -1: the rule does not apply):
    one side a lone king, the other one to three pieces with a king."""
    white_men, white_kings = material & 255, (material >> 8) & 255
    black_men, black_kings = (material >> 16) & 255, (material >> 24) & 255
    if white_men == 0 and white_kings == 1 and black_kings >= 1 and 1 <= black_men + black_kings <= 3:
        other = black_men + black_kings
    elif black_men == 0 and black_kings == 1 and white_kings >= 1 and 1 <= white_men + white_kings <= 3:
        other = white_men + white_kings
    else:
        return -1, -1
    return (32 if other == 3 else -1), (10 if other <= 2 else -1)


@njit(cache=True)
def king_endgame_drawn(spec: Any, state: Any) -> bool:
    """Whether the variant's king endgame rule (``DraughtsSpec.endgame_clocks``) draws."""
    material = state[MATERIAL + state[PLY]]
    if spec.endgame_clocks == FMJD_ENDGAMES:
        return _pieces(material) <= 4 and endgame_drawn(state)
    if spec.endgame_clocks == FRISIAN_ENDGAMES:
        return frisian_endgame_drawn(material, state[CLOCK])
    return False


@njit(cache=True)
def endgame_drawn(state: Any) -> bool:
    """The FMJD's king endgame rules as py-draughts counts them: drawn once a position that
    started one (one side a lone king) lies as many plies back as the rule allows, with
    at most four pieces on the board all the way (captures and crowning do not restart
    the count)."""
    ply = state[PLY]
    for back in range(min(ply, 32) + 1):
        material = state[MATERIAL + ply - back]
        if _pieces(material) > 4:
            return False
        sixteen, five = _endgame_limits(material)
        if (five >= 0 and back >= five) or (sixteen >= 0 and back >= sixteen):
            return True
    return False


@njit(cache=True)
def frisian_endgame_drawn(material: int, clock: int) -> bool:
    """Frisian's king endgames as py-draughts counts them, by the clock of quiet king moves:
    a king against a king drawn after 4 plies, three kings (two against one) after 14."""
    if material & 255 or (material >> 16) & 255:
        return False  # men on the board
    white_kings, black_kings = (material >> 8) & 255, material >> 24
    if white_kings == 1 and black_kings == 1:
        return clock >= 4
    return white_kings + black_kings == 3 and clock >= 14


@njit(cache=True)
def perft(spec: Any, state: Any, depth: int, buffer: Any, start: int) -> int:
    """Leaf nodes of the move tree ``depth`` plies deep (tests the move generator)."""
    end = generate(spec, state, buffer, start, False)
    if depth == 1:
        return end - start
    total = 0
    for index in range(start, end):
        play(spec, state, buffer[index])
        total += perft(spec, state, depth - 1, buffer, end)
        unplay(spec, state, buffer[index])
    return total


# Step 4. The kernel's view.


@implements(compiled.generate_moves, DraughtsSpec)
def _generate_moves(spec: Any, state: Any, out: Any, start: Any, noisy_only: Any) -> Any:
    return generate(spec, state, out, start, noisy_only)


@implements(compiled.play_move, DraughtsSpec)
def _play_move(spec: Any, state: Any, move: Any) -> Any:
    return play(spec, state, move)


@implements(compiled.unplay_move, DraughtsSpec)
def _unplay_move(spec: Any, state: Any, move: Any) -> Any:
    unplay(spec, state, move)


@implements(compiled.play_null_move, DraughtsSpec)
def _play_null_move(spec: Any, state: Any) -> Any:
    return None  # never called: null_move_safe is False (zugzwang is everywhere in draughts)


@implements(compiled.unplay_null_move, DraughtsSpec)
def _unplay_null_move(spec: Any, state: Any) -> Any:
    return None


@implements(compiled.in_check, DraughtsSpec)
def _in_check(spec: Any, state: Any) -> Any:
    return must_capture(spec, state)


@implements(compiled.player_to_move, DraughtsSpec)
def _player_to_move(spec: Any, state: Any) -> Any:
    return -1  # the players alternate, every move


@implements(compiled.no_moves_lose, DraughtsSpec)
def _no_moves_lose(spec: Any, state: Any) -> Any:
    return True


@implements(compiled.static_value, DraughtsSpec)
def _static_value(spec: Any, state: Any) -> Any:
    return evaluate(spec, state)


@implements(compiled.state_key, DraughtsSpec)
def _state_key(spec: Any, state: Any) -> Any:
    return state[HASH]


@implements(compiled.game_result, DraughtsSpec)
def _game_result(spec: Any, state: Any) -> Any:
    return ONGOING  # the game ends when the side to move has no legal move


@implements(compiled.drawn_by_rule, DraughtsSpec)
def _drawn_by_rule(spec: Any, state: Any) -> Any:
    return drawn(spec, state)


@implements(compiled.noisy_order, DraughtsSpec)
def _noisy_order(spec: Any, state: Any, move: Any) -> Any:
    return pieces_taken(taken_of(move))


@implements(compiled.noisy_moves_forced, DraughtsSpec)
def _noisy_moves_forced(spec: Any) -> Any:
    return True


@implements(compiled.material_gain, DraughtsSpec)
def _material_gain(spec: Any, state: Any, move: Any) -> Any:
    taken = taken_of(move)
    kings = kings_among(spec, state, taken)
    return KING * kings + 150 * (pieces_taken(taken) - kings)


@implements(compiled.null_move_safe, DraughtsSpec)
def _null_move_safe(spec: Any, state: Any) -> Any:
    return False


@implements(compiled.history_slot, DraughtsSpec)
def _history_slot(spec: Any, state: Any, move: Any) -> Any:
    return state[SIDE] * 2500 + (move & 63) * SQUARES + ((move >> 6) & 63)


@implements(compiled.continuation_slot, DraughtsSpec)
def _continuation_slot(spec: Any, state: Any, move: Any) -> Any:
    return -1  # no continuation history, so no pruning by history either (self-play: the stronger)


@implements(compiled.losing_capture, DraughtsSpec)
def _losing_capture(spec: Any, state: Any, move: Any) -> Any:
    return False  # captures are compulsory: none is skipped


@implements(compiled.gives_check, DraughtsSpec)
def _gives_check(spec: Any, state: Any, move: Any) -> Any:
    return leaves_capture(spec, state, move)


@implements(compiled.pruning_unit, DraughtsSpec)
def _pruning_unit(spec: Any) -> Any:
    return MAN_WORTH  # margins in men; nodes where a capture is due are never pruned (in_check)
