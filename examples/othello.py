"""Othello (Reversi) on a 6x6 board, written twice: once as a plain Python position, once as
a ``CompiledGame``. Both follow the same rules, evaluation and move order, so the searches
agree move for move; ``benchmarks/your_game.py --game othello`` measures them against each
other.

Its ``undo`` needs more than the move: which discs the move turned over. The plain version
keeps them on a list; the compiled one keeps them in its state, on a stack after the
position (``key_cells`` says where the position ends, and ``undo`` clears the slot it pops,
so that a state after play and undo is exactly the state before).

The rules: Black moves first. A disc is placed on an empty cell so that it closes at least
one straight line of the opponent's discs with a disc of the mover's own; those discs turn
over. A side without such a move passes; the game ends when neither side can move, and the
side with more discs wins. Cells are numbered row by row from a1 (cell 0) to f6 (cell 35);
a move is its cell, or 36 for a pass.

    negamax check examples/othello.py:Othello6
    negamax analyze examples/othello.py:Othello6 --depth 8
"""

from __future__ import annotations

import numpy as np

from negamax import DRAW, ONGOING, WIN, CompiledGame

SIZE = 6
CELLS = SIZE * SIZE
PASS = CELLS
START_BLACK = (1 << (2 * SIZE + 3)) | (1 << (3 * SIZE + 2))  # d3 and c4
START_WHITE = (1 << (2 * SIZE + 2)) | (1 << (3 * SIZE + 3))  # c3 and d4
CORNERS = (1 << 0) | (1 << (SIZE - 1)) | (1 << (CELLS - SIZE)) | (1 << (CELLS - 1))
CORNER = 10
"""The evaluation: the disc difference, and each corner 10 more."""
STEPS = np.array([(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)], dtype=np.int64)
ORDER = np.array(
    sorted(range(CELLS), key=lambda cell: (-(1 << cell & CORNERS != 0), -(cell // SIZE in (0, SIZE - 1)), cell)),
    dtype=np.int64,
)
"""The cells in the order moves are tried: corners first, then the first and last rows."""
POWERS = np.array([3**cell for cell in range(CELLS)], dtype=np.int64)
"""The key writes the board in base 3 (an empty cell 0, Black 1, White 2): exact, and below
2**63 with the side to move (two discs per cell would take 72 bits)."""


def flips(mine, theirs, cell):
    """The discs of ``theirs`` that a disc of ``mine`` on ``cell`` turns over (0: not a move)."""
    row, column = cell // SIZE, cell % SIZE
    turned = 0
    for index in range(8):
        step_row, step_column = STEPS[index, 0], STEPS[index, 1]
        line = 0
        r, c = row + step_row, column + step_column
        while 0 <= r < SIZE and 0 <= c < SIZE and theirs >> (r * SIZE + c) & 1:
            line |= 1 << (r * SIZE + c)
            r, c = r + step_row, c + step_column
        if line != 0 and 0 <= r < SIZE and 0 <= c < SIZE and mine >> (r * SIZE + c) & 1:
            turned |= line
    return turned


def has_move(mine, theirs):
    empty = ~(mine | theirs)
    for cell in range(CELLS):  # noqa: SIM110 (numba compiles a loop, not a generator)
        if empty >> cell & 1 and flips(mine, theirs, cell) != 0:
            return True
    return False


def board_key(black, white, turn):
    key = 0
    for cell in range(CELLS):
        if black >> cell & 1:
            key += POWERS[cell]
        elif white >> cell & 1:
            key += 2 * POWERS[cell]
    return key * 2 + turn


def disc_score(mine, theirs):
    """The evaluation from the side whose discs are ``mine``."""
    corners = CORNER * (bin_count(mine & CORNERS) - bin_count(theirs & CORNERS))
    return bin_count(mine) - bin_count(theirs) + corners


def bin_count(bits):
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


def final_value(mine, theirs):
    difference = bin_count(mine) - bin_count(theirs)
    return WIN if difference > 0 else -WIN if difference < 0 else DRAW


# -- the plain Python version ---------------------------------------------------------


class OthelloPosition:
    """A position for the pure-Python search: two bitboards, the side to move (0 Black), and
    the discs each move turned over (what ``undo`` needs besides the move)."""

    def __init__(self, black: int = START_BLACK, white: int = START_WHITE, turn: int = 0) -> None:
        self.black, self.white, self.turn = black, white, turn
        self.turned: list[int] = []

    def _sides(self) -> tuple[int, int]:
        return (self.black, self.white) if self.turn == 0 else (self.white, self.black)

    def legal_moves(self) -> list[int]:
        mine, theirs = self._sides()
        empty = ~(mine | theirs)
        moves = [int(cell) for cell in ORDER if empty >> int(cell) & 1 and flips(mine, theirs, int(cell))]
        if not moves and has_move(theirs, mine):
            return [PASS]
        return moves

    def play(self, move: int) -> None:
        mine, theirs = self._sides()
        turned = 0 if move == PASS else flips(mine, theirs, move)
        if move != PASS:
            mine |= turned | 1 << move
            theirs &= ~turned
        self.black, self.white = (mine, theirs) if self.turn == 0 else (theirs, mine)
        self.turned.append(turned)
        self.turn ^= 1

    def undo(self, move: int) -> None:
        self.turn ^= 1
        turned = self.turned.pop()
        mine, theirs = self._sides()
        if move != PASS:
            mine &= ~(turned | 1 << move)
            theirs |= turned
        self.black, self.white = (mine, theirs) if self.turn == 0 else (theirs, mine)

    def is_terminal(self) -> bool:
        return self.terminal_value() != ONGOING

    def terminal_value(self) -> int:
        mine, theirs = self._sides()
        if has_move(mine, theirs) or has_move(theirs, mine):
            return ONGOING
        return final_value(mine, theirs)

    def evaluate(self) -> int:
        return disc_score(*self._sides())

    def key(self) -> int:
        return int(board_key(self.black, self.white, self.turn))

    def player(self) -> int:
        return self.turn

    def copy(self) -> OthelloPosition:
        twin = OthelloPosition(self.black, self.white, self.turn)
        twin.turned = list(self.turned)
        return twin


# -- the compiled version: the same rules over an array --------------------------------
# state[0]: Black's discs, state[1]: White's, state[2]: the side to move (0 Black): the
# position (key_cells = 3). Then state[3]: the moves played, and from state[4] the discs
# each of them turned over: what undo needs, a stack whose popped slots are cleared.

STACK = 4
MOST_PLIES = 2 * CELLS  # every cell filled, and a pass before each move at most


class Othello6(CompiledGame):
    """Othello (Reversi) on a 6x6 board."""

    name = "othello6"
    state_size = STACK + MOST_PLIES
    key_cells = 3
    max_moves = CELLS
    position_help = "moves from the start such as 'b3 b4', 'pass' for a pass, or 'start'"

    @staticmethod
    def start(state):
        state[0], state[1], state[2] = START_BLACK, START_WHITE, 0

    @staticmethod
    def legal_moves(state, moves):
        turn = state[2]
        mine, theirs = state[turn], state[1 - turn]
        empty = ~(mine | theirs)
        count = 0
        for index in range(CELLS):
            cell = ORDER[index]
            if empty >> cell & 1 and flips(mine, theirs, cell) != 0:
                moves[count] = cell
                count += 1
        if count == 0 and has_move(theirs, mine):
            moves[0] = PASS
            count = 1
        return count

    @staticmethod
    def play(state, move):
        turn = state[2]
        turned = 0
        if move != PASS:
            turned = flips(state[turn], state[1 - turn], move)
            state[turn] |= turned | 1 << move
            state[1 - turn] &= ~turned
        state[STACK + state[3]] = turned
        state[3] += 1
        state[2] = 1 - turn

    @staticmethod
    def undo(state, move):
        state[3] -= 1
        turned = state[STACK + state[3]]
        state[STACK + state[3]] = 0  # cleared: after play and undo, the state is as before
        turn = 1 - state[2]
        if move != PASS:
            state[turn] &= ~(turned | 1 << move)
            state[1 - turn] |= turned
        state[2] = turn

    @staticmethod
    def outcome(state):
        turn = state[2]
        mine, theirs = state[turn], state[1 - turn]
        if has_move(mine, theirs) or has_move(theirs, mine):
            return ONGOING
        return final_value(mine, theirs)

    @staticmethod
    def evaluate(state):
        turn = state[2]
        return disc_score(state[turn], state[1 - turn])

    @staticmethod
    def key(state):
        return board_key(state[0], state[1], state[2])

    @staticmethod
    def player(state):
        return state[2]

    def move_text(self, position, move):
        return "pass" if move == PASS else f"{'abcdef'[move % SIZE]}{move // SIZE + 1}"

    def render(self, position):
        black, white, turn = (int(value) for value in position.state[:3])
        rows = []
        for row in range(SIZE - 1, -1, -1):
            cells = "".join(
                "X" if black >> cell & 1 else "O" if white >> cell & 1 else "."
                for cell in range(row * SIZE, row * SIZE + SIZE)
            )
            rows.append(f"{row + 1} {cells}")
        rows.append("  abcdef")
        return "\n".join(rows) + f"\n{'Black (X)' if turn == 0 else 'White (O)'} to move"
