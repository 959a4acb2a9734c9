"""International draughts' compiled primitives for the compiled deepening kernel (imports
numba). The rules are py-draughts' (the tests compare every move list with its own):
men move forward and capture both ways, kings fly, captures are compulsory and the
longest capture must be played, pieces taken are removed after the capture (none is
jumped twice), and a man is crowned only when its move ends on the far row.

The position is one int64 array (``new_state``):

* ``0 .. 143``: a 12x12 mailbox, the 10x10 board with a border of ``OFF`` squares. Square
  ``s`` (0-49, py-draughts' numbering minus one) sits at ``MAILBOX[s]``; the diagonal
  steps are -13, -11, +11, +13. Men are 1 and kings 2, plus 8 for Black, so
  ``piece >> 3`` is the colour.
* ``SIDE`` .. ``ROOT``: the side to move (0 White), the clock (plies of king moves without
  a capture), the Zobrist key, the evaluation sum from White's side, the plies played
  since loading, and the ply at which the search began.
* ``KEYS``: the key after each ply (for repetitions); ``UNDO``: what each move destroyed.
* ``GENERATED`` .. : scratch for move generation.

A move is ``from | to << 6 | taken << 12``: squares 0-49, and the set of squares whose
pieces it takes as a 50-bit mask. Two captures with the same start, end and pieces taken
are one move, as in py-draughts.

The evaluation is the pure-Python ``DraughtsPosition.evaluate`` exactly.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from negamax.core import compiled
from negamax.core.compiled import implements
from negamax.core.numba_cache import call_without_compiling
from negamax.core.score import ONGOING
from negamax.games.draughts_evaluation import KING, TEMPO, weights_for


class DraughtsSpec(NamedTuple):
    """Selects international draughts' primitives in the compiled deepening kernel."""

    squares: int = 50


SPEC = DraughtsSpec()

EMPTY, MAN, KING_PIECE, BLACK_PIECE, OFF = 0, 1, 2, 8, 16
SIDE, CLOCK, HASH, EVALUATION, PLY, ROOT, GENERATED_FROM, GENERATED, LONGEST = range(144, 153)
MAX_PLIES = 1024
KEYS = 153
UNDO_WIDTH = 4
UNDO = KEYS + MAX_PLIES
STATE_SIZE = UNDO + MAX_PLIES * UNDO_WIDTH
SQUARES = 50
STEPS = np.array([-13, -11, 11, 13], dtype=np.int64)
DRAW_CLOCK = 50
"""py-draughts' 25-move rule: 25 moves each with kings only, no capture."""


def _mailbox(square: int) -> int:
    row = square // 5
    column = 2 * (square % 5) + (1 if row % 2 == 0 else 0)
    return (row + 1) * 12 + column + 1


MAILBOX = np.array([_mailbox(square) for square in range(SQUARES)], dtype=np.int64)
SQUARE_AT = np.full(144, -1, dtype=np.int64)
for _square in range(SQUARES):
    SQUARE_AT[MAILBOX[_square]] = _square


def _tables() -> tuple[Any, ...]:
    weights = weights_for(SQUARES)
    values = np.zeros((16, SQUARES), dtype=np.int64)
    for square in range(SQUARES):
        values[MAN, square] = weights.white_man[square]
        values[KING_PIECE, square] = KING
        values[MAN + BLACK_PIECE, square] = -weights.black_man[square]
        values[KING_PIECE + BLACK_PIECE, square] = -KING
    generator = np.random.default_rng(20261123)
    zobrist = generator.integers(1, 1 << 62, size=(16, SQUARES), dtype=np.int64)
    side_key = np.int64(generator.integers(1, 1 << 62))
    return values, zobrist, side_key


VALUES, ZOBRIST, SIDE_KEY = _tables()
"""Each piece's worth on each square from White's side (Black's negative), and Zobrist keys."""


# Step 1. Move generation: captures (the longest only), else quiet moves.


@njit(cache=True)
def pieces_taken(taken: int) -> int:
    """How many pieces a capture's ``taken`` mask holds."""
    count = 0
    while taken:
        taken &= taken - 1
        count += 1
    return count


@njit(cache=True)
def _record(state: Any, out: Any, origin: int, target: int, taken: int) -> None:
    count = pieces_taken(taken)
    if count < state[LONGEST]:
        return
    if count > state[LONGEST]:
        state[LONGEST] = count
        state[GENERATED] = state[GENERATED_FROM]  # shorter captures found so far are dropped
    code = origin | (target << 6) | (taken << 12)
    for index in range(state[GENERATED_FROM], state[GENERATED]):
        if out[index] == code:
            return  # the same capture by another route
    out[state[GENERATED]] = code
    state[GENERATED] += 1


@njit(cache=True)
def _jumps(state: Any, out: Any, origin: int, box: int, taken: int, king: bool, them: int) -> None:
    """Extends a capture that has reached ``box`` having taken ``taken`` (the moving piece
    is lifted off the board meanwhile)."""
    extended = False
    for step in STEPS:
        victim = box + step
        if king:
            while state[victim] == EMPTY:
                victim += step
        piece = state[victim]
        if piece == EMPTY or piece == OFF or piece >> 3 != them:  # noqa: SIM109 (numba: compares)
            continue
        if (taken >> SQUARE_AT[victim]) & 1:
            continue  # a piece is taken once, and blocks the way until the capture ends
        landing = victim + step
        while state[landing] == EMPTY:
            extended = True
            _jumps(state, out, origin, landing, taken | (1 << SQUARE_AT[victim]), king, them)
            if not king:
                break
            landing += step
    if not extended and taken != 0:
        _record(state, out, origin, SQUARE_AT[box], taken)


@njit(cache=True)
def generate(state: Any, out: Any, start: int, noisy_only: bool) -> int:
    """Writes the legal moves (``noisy_only``: the captures) from ``out[start]`` on; returns
    the end index."""
    side = state[SIDE]
    them = 1 - side
    state[GENERATED] = state[GENERATED_FROM] = start
    state[LONGEST] = 1
    none = side - side  # a typed zero: numba's cache breaks on literal arguments to recursion
    for square in range(SQUARES):
        box = MAILBOX[square]
        piece = state[box]
        if piece == EMPTY or piece >> 3 != side:
            continue
        state[box] = EMPTY
        _jumps(state, out, square, box, none, piece & 7 == KING_PIECE, them)
        state[box] = piece
    end = state[GENERATED]
    if end > start or noisy_only:
        return end
    forward_low, forward_high = (0, 1) if side == 0 else (2, 3)  # White moves up the board
    for square in range(SQUARES):
        box = MAILBOX[square]
        piece = state[box]
        if piece == EMPTY or piece >> 3 != side:
            continue
        king = piece & 7 == KING_PIECE
        for direction in range(4):
            if not king and direction != forward_low and direction != forward_high:
                continue
            step = STEPS[direction]
            target = box + step
            while state[target] == EMPTY:
                out[end] = square | (SQUARE_AT[target] << 6)
                end += 1
                if not king:
                    break
                target += step
    return end


# Step 2. Make and unmake.


@njit(cache=True)
def play(state: Any, move: int) -> bool:
    origin, target, taken = move & 63, (move >> 6) & 63, move >> 12
    side = state[SIDE]
    ply = state[PLY]
    undo = UNDO + ply * UNDO_WIDTH
    piece = state[MAILBOX[origin]]
    state[undo] = piece
    state[undo + 1] = state[CLOCK]
    state[undo + 2] = state[EVALUATION]
    kings_taken = 0
    key = state[HASH] ^ SIDE_KEY
    evaluation = state[EVALUATION]
    bits = taken
    while bits:
        low = bits & -bits
        square = 0
        while (low >> square) != 1:
            square += 1
        victim = state[MAILBOX[square]]
        if victim & 7 == KING_PIECE:
            kings_taken |= low
        key ^= ZOBRIST[victim, square]
        evaluation -= VALUES[victim, square]
        state[MAILBOX[square]] = EMPTY
        bits ^= low
    state[undo + 3] = kings_taken
    key ^= ZOBRIST[piece, origin]
    evaluation -= VALUES[piece, origin]
    state[MAILBOX[origin]] = EMPTY
    placed = piece
    last_row = 0 if side == 0 else 9
    if piece & 7 == MAN and target // 5 == last_row:
        placed = KING_PIECE + side * BLACK_PIECE
    state[MAILBOX[target]] = placed
    key ^= ZOBRIST[placed, target]
    evaluation += VALUES[placed, target]
    state[CLOCK] = state[CLOCK] + 1 if (piece & 7 == KING_PIECE and taken == 0) else 0
    state[EVALUATION] = evaluation
    state[SIDE] = 1 - side
    state[HASH] = key
    state[PLY] = ply + 1
    state[KEYS + ply + 1] = key
    return True


@njit(cache=True)
def unplay(state: Any, move: int) -> None:
    origin, target, taken = move & 63, (move >> 6) & 63, move >> 12
    ply = state[PLY] - 1
    side = 1 - state[SIDE]
    undo = UNDO + ply * UNDO_WIDTH
    state[MAILBOX[target]] = EMPTY
    state[MAILBOX[origin]] = state[undo]
    kings_taken = state[undo + 3]
    bits = taken
    square = 0
    while bits:
        if bits & 1:
            kind = KING_PIECE if (kings_taken >> square) & 1 else MAN
            state[MAILBOX[square]] = kind + (1 - side) * BLACK_PIECE
        bits >>= 1
        square += 1
    state[CLOCK] = state[undo + 1]
    state[EVALUATION] = state[undo + 2]
    state[SIDE] = side
    state[PLY] = ply
    state[HASH] = state[KEYS + ply]


# Step 3. Evaluation, draws, and what move ordering needs.


@njit(cache=True)
def evaluate(state: Any) -> int:
    value = state[EVALUATION]
    return (value if state[SIDE] == 0 else -value) + TEMPO


@njit(cache=True)
def drawn(state: Any) -> bool:
    """The 25-move rule, or a repetition inside the search (both need kings moving)."""
    clock = state[CLOCK]
    if clock >= DRAW_CLOCK:
        return True
    ply = state[PLY]
    if ply > state[ROOT] and clock >= 4:
        key = state[HASH]
        for earlier in range(ply - 2, max(0, ply - clock) - 1, -2):
            if state[KEYS + earlier] == key:
                return True
    return False


@njit(cache=True)
def perft(state: Any, depth: int, buffer: Any, start: int) -> int:
    """Leaf nodes of the move tree ``depth`` plies deep (tests the move generator)."""
    end = generate(state, buffer, start, False)
    if depth == 1:
        return end - start
    total = 0
    for index in range(start, end):
        play(state, buffer[index])
        total += perft(state, depth - 1, buffer, end)
        unplay(state, buffer[index])
    return total


# Step 4. The kernel's view.


@implements(compiled.generate_moves, DraughtsSpec)
def _generate_moves(spec: Any, state: Any, out: Any, start: Any, noisy_only: Any) -> Any:
    return generate(state, out, start, noisy_only)


@implements(compiled.play_move, DraughtsSpec)
def _play_move(spec: Any, state: Any, move: Any) -> Any:
    return play(state, move)


@implements(compiled.unplay_move, DraughtsSpec)
def _unplay_move(spec: Any, state: Any, move: Any) -> Any:
    unplay(state, move)


@implements(compiled.play_null_move, DraughtsSpec)
def _play_null_move(spec: Any, state: Any) -> Any:
    return None  # never called: null_move_safe is False (zugzwang is everywhere in draughts)


@implements(compiled.unplay_null_move, DraughtsSpec)
def _unplay_null_move(spec: Any, state: Any) -> Any:
    return None


@implements(compiled.in_check, DraughtsSpec)
def _in_check(spec: Any, state: Any) -> Any:
    return False


@implements(compiled.no_moves_lose, DraughtsSpec)
def _no_moves_lose(spec: Any, state: Any) -> Any:
    return True


@implements(compiled.static_value, DraughtsSpec)
def _static_value(spec: Any, state: Any) -> Any:
    return evaluate(state)


@implements(compiled.state_key, DraughtsSpec)
def _state_key(spec: Any, state: Any) -> Any:
    return state[HASH]


@implements(compiled.game_result, DraughtsSpec)
def _game_result(spec: Any, state: Any) -> Any:
    return ONGOING  # the game ends when the side to move has no legal move


@implements(compiled.drawn_by_rule, DraughtsSpec)
def _drawn_by_rule(spec: Any, state: Any) -> Any:
    return drawn(state)


@implements(compiled.noisy_order, DraughtsSpec)
def _noisy_order(spec: Any, state: Any, move: Any) -> Any:
    return pieces_taken(move >> 12)


@implements(compiled.noisy_moves_forced, DraughtsSpec)
def _noisy_moves_forced(spec: Any) -> Any:
    return True


@implements(compiled.material_gain, DraughtsSpec)
def _material_gain(spec: Any, state: Any, move: Any) -> Any:
    taken = move >> 12
    gain = 0
    square = 0
    while taken:
        if taken & 1:
            gain += KING if state[MAILBOX[square]] & 7 == KING_PIECE else 150
        taken >>= 1
        square += 1
    return gain


@implements(compiled.null_move_safe, DraughtsSpec)
def _null_move_safe(spec: Any, state: Any) -> Any:
    return False


@implements(compiled.history_slot, DraughtsSpec)
def _history_slot(spec: Any, state: Any, move: Any) -> Any:
    return state[SIDE] * 2500 + (move & 63) * 50 + ((move >> 6) & 63)


@implements(compiled.losing_capture, DraughtsSpec)
def _losing_capture(spec: Any, state: Any, move: Any) -> Any:
    return False  # captures are compulsory: there is no choosing to lose one


@implements(compiled.pruning_unit, DraughtsSpec)
def _pruning_unit(spec: Any) -> Any:
    return 0  # compulsory captures make a quiet position's value a poor guide: not measured yet


# Step 5. Loading a py-draughts board, and moves both ways.


@njit(cache=True)
def _refresh(state: Any) -> None:
    key = SIDE_KEY if state[SIDE] == 1 else 0
    evaluation = 0
    for square in range(SQUARES):
        piece = state[MAILBOX[square]]
        if piece != EMPTY:
            key ^= ZOBRIST[piece, square]
            evaluation += VALUES[piece, square]
    state[HASH] = key
    state[EVALUATION] = evaluation
    state[KEYS + state[PLY]] = key


def new_state(position: Any) -> Any:
    """The compiled state of an international draughts position, with the game's recent
    history for repetitions."""
    board = position.board
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[:144] = OFF
    for square in range(SQUARES):
        bit = 1 << square
        piece = EMPTY
        if board.white_men & bit:
            piece = MAN
        elif board.white_kings & bit:
            piece = KING_PIECE
        elif board.black_men & bit:
            piece = MAN + BLACK_PIECE
        elif board.black_kings & bit:
            piece = KING_PIECE + BLACK_PIECE
        state[MAILBOX[square]] = piece
    state[SIDE] = position.player()
    state[CLOCK] = min(board.halfmove_clock, DRAW_CLOCK)
    call_without_compiling(_refresh, state)
    # the earlier positions within the clock, for repetitions (their keys, in order)
    earlier = [_key_of(key) for key in position.keys[-1 - min(board.halfmove_clock, 200) : -1]]
    for index, key in enumerate(earlier):
        state[KEYS + index] = key
    state[KEYS + len(earlier)] = state[HASH]
    state[PLY] = state[ROOT] = len(earlier)
    return state


def _key_of(key: Any) -> int:
    """The Zobrist key of a position key ``(white men, white kings, black men, black kings,
    White to move)``."""
    white_men, white_kings, black_men, black_kings, white = key
    value = 0 if white else int(SIDE_KEY)
    for mask, piece in (
        (white_men, MAN),
        (white_kings, KING_PIECE),
        (black_men, MAN + BLACK_PIECE),
        (black_kings, KING_PIECE + BLACK_PIECE),
    ):
        for square in range(SQUARES):
            if mask >> square & 1:
                value ^= int(ZOBRIST[piece, square])
    return value


def code_of(position: Any, move: str) -> int:
    """The compiled code of the legal ``move`` (py-draughts' notation)."""
    played = position.played(move)
    taken = 0
    for square in played.captured_list:
        taken |= 1 << square
    return int(played.square_list[0] | (played.square_list[-1] << 6) | (taken << 12))
