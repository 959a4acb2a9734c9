"""Breakthrough on a 5x5 board, written twice: once as a plain Python position, once as a
``CompiledGame``. Both follow the same rules, evaluation and move order, so the searches
agree move for move; ``benchmarks/your_game.py`` measures them against each other.

The rules (Dan Troyka's game): each side starts with two rows of pieces, White at the
bottom, and moves first. A piece steps one row forward, straight onto an empty cell or
diagonally onto a cell that is not its own side's, capturing what is there. Whoever
reaches the far row, or takes every enemy piece, wins; a side left without a move loses.

Cells are numbered row by row from White's corner (``a1`` is cell 0, ``e5`` cell 24); a
move is ``from + 32 * to``, plus 1024 when it captures, so that ``undo`` knows.

    negamax analyze examples/breakthrough.py:Breakthrough --depth 8
    negamax solve examples/breakthrough.py:Breakthrough "a2a3 b4b3 ..."
"""

from __future__ import annotations

import numpy as np

from negamax import ONGOING, WIN, CompiledGame

SIZE = 5
CELLS = SIZE * SIZE
BOARD = (1 << CELLS) - 1
LEFT_COLUMN = sum(1 << (row * SIZE) for row in range(SIZE))
RIGHT_COLUMN = LEFT_COLUMN << (SIZE - 1)
WHITE_GOAL = ((1 << SIZE) - 1) << (SIZE * (SIZE - 1))  # the top row
BLACK_GOAL = (1 << SIZE) - 1  # the bottom row
CAPTURE = 1024
ROW_OF = np.array([cell // SIZE for cell in range(CELLS)], dtype=np.int64)
PIECE = 100
"""The evaluation: a piece is worth 100, and each row it has advanced 10 more."""
STEP = 10


# -- the plain Python version ---------------------------------------------------------


class BreakthroughPosition:
    """A position for the pure-Python search: two bitboards and the side to move."""

    def __init__(self, white: int = (1 << 2 * SIZE) - 1, black: int = BOARD ^ ((1 << 3 * SIZE) - 1), turn: int = 0):
        self.white, self.black, self.turn = white, black, turn

    def legal_moves(self) -> list[int]:
        mine, theirs = (self.white, self.black) if self.turn == 0 else (self.black, self.white)
        ahead = SIZE if self.turn == 0 else -SIZE
        moves = []
        for cell in range(CELLS) if self.turn == 0 else range(CELLS - 1, -1, -1):
            if not mine >> cell & 1:
                continue
            column, target = cell % SIZE, cell + ahead
            if not 0 <= target < CELLS:
                continue
            for to in (target - 1, target, target + 1):
                if (to < target and column == 0) or (to > target and column == SIZE - 1):
                    continue
                if mine >> to & 1 or (to == target and theirs >> to & 1):
                    continue
                moves.append(cell + 32 * to + (CAPTURE if theirs >> to & 1 else 0))
        return moves

    def play(self, move: int) -> None:
        origin, to = move & 31, (move >> 5) & 31
        shift = (1 << origin) | (1 << to)
        if self.turn == 0:
            self.white ^= shift
            if move & CAPTURE:
                self.black ^= 1 << to
        else:
            self.black ^= shift
            if move & CAPTURE:
                self.white ^= 1 << to
        self.turn ^= 1

    def undo(self, move: int) -> None:
        self.turn ^= 1
        origin, to = move & 31, (move >> 5) & 31
        shift = (1 << origin) | (1 << to)
        if self.turn == 0:
            self.white ^= shift
            if move & CAPTURE:
                self.black ^= 1 << to
        else:
            self.black ^= shift
            if move & CAPTURE:
                self.white ^= 1 << to

    def is_terminal(self) -> bool:
        return self.terminal_value() != ONGOING

    def terminal_value(self) -> int:
        if self.white & WHITE_GOAL or not self.black:
            return -WIN if self.turn == 1 else WIN
        if self.black & BLACK_GOAL or not self.white:
            return -WIN if self.turn == 0 else WIN
        mine, theirs = (self.white, self.black) if self.turn == 0 else (self.black, self.white)
        return ONGOING if can_move(mine, theirs, self.turn) else -WIN

    def evaluate(self) -> int:
        white = sum(PIECE + STEP * (cell // SIZE) for cell in range(CELLS) if self.white >> cell & 1)
        black = sum(PIECE + STEP * (SIZE - 1 - cell // SIZE) for cell in range(CELLS) if self.black >> cell & 1)
        return white - black if self.turn == 0 else black - white

    def key(self) -> int:
        return self.white | self.black << CELLS | self.turn << 2 * CELLS

    def player(self) -> int:
        return self.turn

    def copy(self) -> BreakthroughPosition:
        return BreakthroughPosition(self.white, self.black, self.turn)


# -- the compiled version: the same rules over an array --------------------------------
# state[0]: White's pieces, state[1]: Black's, state[2]: the side to move (0 White).


def side_moves(mine, theirs, turn, moves):
    """Write the moves of the side whose pieces are ``mine``; return how many."""
    count = 0
    ahead = SIZE if turn == 0 else -SIZE
    for index in range(CELLS):
        cell = index if turn == 0 else CELLS - 1 - index
        if not mine >> cell & 1:
            continue
        column, target = cell % SIZE, cell + ahead
        if target < 0 or target >= CELLS:
            continue
        for to in (target - 1, target, target + 1):
            if (to < target and column == 0) or (to > target and column == SIZE - 1):
                continue
            if mine >> to & 1 or (to == target and theirs >> to & 1):
                continue
            moves[count] = cell + 32 * to + (CAPTURE if theirs >> to & 1 else 0)
            count += 1
    return count


def can_move(mine, theirs, turn):
    """Whether the side whose pieces are ``mine`` has a move (bit operations, no list)."""
    empty = BOARD & ~(mine | theirs)
    if turn == 0:
        straight = (mine << SIZE) & empty
        diagonal = ((mine & ~LEFT_COLUMN) << (SIZE - 1)) | ((mine & ~RIGHT_COLUMN) << (SIZE + 1))
    else:
        straight = (mine >> SIZE) & empty
        diagonal = ((mine & ~RIGHT_COLUMN) >> (SIZE - 1)) | ((mine & ~LEFT_COLUMN) >> (SIZE + 1))
    return (straight | (diagonal & BOARD & ~mine)) != 0


def material(pieces, turn):
    total = 0
    for cell in range(CELLS):
        if pieces >> cell & 1:
            total += PIECE + STEP * (ROW_OF[cell] if turn == 0 else SIZE - 1 - ROW_OF[cell])
    return total


class Breakthrough(CompiledGame):
    """Breakthrough on a 5x5 board (Dan Troyka's game)."""

    name = "breakthrough5"
    state_size = 3
    max_moves = 3 * 2 * SIZE
    position_help = "moves from the start such as 'b2b3 c4c3', or 'start'"

    @staticmethod
    def start(state):
        state[0] = (1 << 2 * SIZE) - 1
        state[1] = BOARD ^ ((1 << 3 * SIZE) - 1)
        state[2] = 0

    @staticmethod
    def legal_moves(state, moves):
        if state[2] == 0:
            return side_moves(state[0], state[1], 0, moves)
        return side_moves(state[1], state[0], 1, moves)

    @staticmethod
    def play(state, move):
        mover, other = state[2], 1 - state[2]
        to = (move >> 5) & 31
        state[mover] ^= (1 << (move & 31)) | (1 << to)
        if move & CAPTURE:
            state[other] ^= 1 << to
        state[2] = other

    @staticmethod
    def undo(state, move):
        mover, other = 1 - state[2], state[2]
        to = (move >> 5) & 31
        state[mover] ^= (1 << (move & 31)) | (1 << to)
        if move & CAPTURE:
            state[other] ^= 1 << to
        state[2] = mover

    @staticmethod
    def outcome(state):
        white, black, turn = state[0], state[1], state[2]
        if white & WHITE_GOAL or black == 0:
            return -WIN if turn == 1 else WIN
        if black & BLACK_GOAL or white == 0:
            return -WIN if turn == 0 else WIN
        mine, theirs = (white, black) if turn == 0 else (black, white)
        if not can_move(mine, theirs, turn):
            return -WIN
        return ONGOING

    @staticmethod
    def evaluate(state):
        white, black = material(state[0], 0), material(state[1], 1)
        return white - black if state[2] == 0 else black - white

    @staticmethod
    def key(state):
        return state[0] | state[1] << CELLS | state[2] << 2 * CELLS

    @staticmethod
    def player(state):
        return state[2]

    def move_text(self, position, move):
        origin, to = move & 31, (move >> 5) & 31
        return f"{'abcde'[origin % SIZE]}{origin // SIZE + 1}{'abcde'[to % SIZE]}{to // SIZE + 1}"

    def render(self, position):
        white, black, turn = (int(value) for value in position.state)
        rows = []
        for row in range(SIZE - 1, -1, -1):
            cells = "".join(
                "W" if white >> cell & 1 else "B" if black >> cell & 1 else "."
                for cell in range(row * SIZE, row * SIZE + SIZE)
            )
            rows.append(f"{row + 1} {cells}")
        rows.append("  abcde")
        return "\n".join(rows) + f"\n{'White' if turn == 0 else 'Black'} to move"
