"""Hex, a game without an evaluation, written twice: once as a plain Python position, once as
a ``CompiledGame``. Both follow the same rules and move order, so their searches agree; the
tests hold both to each other and to OpenSpiel's ``hex``, and the Monte Carlo tree search
(``algorithm="mcts"``) is measured on it (``benchmarks/mcts_openspiel.py``).

The rules: two players take turns placing a stone of their colour on an empty cell of a
rhombus of hexagons, ``size`` by ``size``. The first player (``x``) wins by joining the top
row to the bottom row with a chain of their stones, the second (``o``) by joining the left
column to the right column. One of them always does by the time the board is full: Hex has
no draws. The cell in row ``r`` and column ``c`` touches the cells left and right of it, the
two above it (columns ``c`` and ``c + 1``) and the two below it (``c - 1`` and ``c``). A move
is its cell, ``r * size + c``, written as OpenSpiel writes it: the column's letter, then the
row's number (``a1`` is the top left corner). There is no swap rule.

No evaluation function is known that is both cheap and any good, so both versions declare
``has_evaluation = False``: ``search()`` runs Monte Carlo tree search on them (unless told an
``algorithm`` or a depth), whose random playouts need no evaluation at all. Each also gives
the playouts a cheaper way to end a game (``playout``): fill every empty cell at random,
half with each colour, and see who joined their sides. That is the same result as playing
random moves until someone wins (a chain, once made, stays made, and only one player can
make one), without looking for a winner after every move.

    negamax analyze 'examples/hex.py:CompiledHex(5)' --time 1
    negamax solve 'examples/hex.py:Hex(3)'
"""

from __future__ import annotations

import random
from typing import Any

from negamax import ONGOING, WIN, CompiledGame, IllegalMoveError
from negamax.core.rules import BaseGame, play_move_texts

MOST_SIZE = 7
"""The largest board: its cells fit one int64 bitboard per colour (49 bits)."""
KEY_PRIME = (1 << 61) - 1
"""Keys of boards above 5x5 write the board in base 3 modulo this prime: exact up to 6x6
(3**36 is below it)."""


def check_size(size: int) -> None:
    if not 1 <= size <= MOST_SIZE:
        raise ValueError(f"Hex takes a board of 1 to {MOST_SIZE} cells a side, not {size}")


def centre_first(size: int) -> list[int]:
    """The cells in the order moves are tried: nearest the centre first (hexagonal distance),
    then by number."""
    middle = size - 1

    def distance(cell: int) -> tuple[int, int]:
        row, column = divmod(cell, size)
        down, right = 2 * row - middle, 2 * column - middle
        return abs(down) + abs(right) + abs(down + right), cell

    return sorted(range(size * size), key=distance)


def cell_text(size: int, cell: int) -> str:
    row, column = divmod(cell, size)
    return f"{chr(ord('a') + column)}{row + 1}"


def parse_cell(size: int, legal: list[int], text: str) -> int:
    for move in legal:
        if cell_text(size, move) == text.strip():
            return int(move)
    last = cell_text(size, size * size - 1)
    raise IllegalMoveError(f"{text!r} is not an empty cell here (cells are written a1 to {last})")


def picture(size: int, stones: list[str], turn: int) -> str:
    """The rhombus as OpenSpiel draws it, each row one step further right."""
    header = "   " + " ".join(chr(ord("a") + column) for column in range(size))
    rows = [f"{' ' * row}{row + 1:>2} " + " ".join(stones[row * size : (row + 1) * size]) for row in range(size)]
    return "\n".join([header, *rows, f"{'xo'[turn]} to move (x joins top and bottom, o left and right)"])


# -- the plain Python version ---------------------------------------------------------


class HexPosition:
    """A Hex position for the pure-Python search: the owner of each cell (``None``, 0 or 1)."""

    has_evaluation = False
    """No evaluation: ``search()`` runs Monte Carlo tree search here."""

    def __init__(self, size: int = 5) -> None:
        check_size(size)
        self.size = size
        self.cells: list[int | None] = [None] * (size * size)
        self.played: list[int] = []
        self.winner: int | None = None
        self.order = centre_first(size)
        self.neighbours = [self._neighbours(cell) for cell in range(size * size)]

    def _neighbours(self, cell: int) -> list[int]:
        size = self.size
        row, column = divmod(cell, size)
        steps = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0))
        return [
            (row + down) * size + column + right
            for down, right in steps
            if 0 <= row + down < size and 0 <= column + right < size
        ]

    def _joins(self, cell: int) -> bool:
        """Whether the chain through ``cell`` joins its owner's two sides (a search of the chain)."""
        owner, size = self.cells[cell], self.size
        seen, waiting = {cell}, [cell]
        ends = set()
        while waiting:
            here = waiting.pop()
            row, column = divmod(here, size)
            line = row if owner == 0 else column
            if line == 0:
                ends.add("start")
            if line == size - 1:
                ends.add("end")
            for near in self.neighbours[here]:
                if near not in seen and self.cells[near] == owner:
                    seen.add(near)
                    waiting.append(near)
        return len(ends) == 2

    def player(self) -> int:
        return len(self.played) % 2

    def legal_moves(self) -> list[int]:
        if self.winner is not None:
            return []
        return [cell for cell in self.order if self.cells[cell] is None]

    def play(self, move: int) -> None:
        self.cells[move] = self.player()
        self.played.append(move)
        if self._joins(move):
            self.winner = 1 - self.player()

    def undo(self, move: int) -> None:
        self.cells[move] = None
        self.played.pop()
        self.winner = None  # a winning move is always the last one

    def is_terminal(self) -> bool:
        return self.winner is not None

    def terminal_value(self) -> int:
        return -WIN  # the player who just moved joined their sides

    def evaluate(self) -> int:
        return 0

    def key(self) -> tuple[Any, ...]:
        return tuple(self.cells)

    def copy(self) -> HexPosition:
        twin = HexPosition.__new__(HexPosition)
        twin.size, twin.order, twin.neighbours = self.size, self.order, self.neighbours
        twin.cells, twin.played, twin.winner = list(self.cells), list(self.played), self.winner
        return twin

    def playout(self, seed: int) -> int:
        """A random game to its end, by filling every empty cell at once: the side to move
        takes the larger half (it places first), at random. Its value for the side to move."""
        empty = [cell for cell in range(self.size * self.size) if self.cells[cell] is None]
        mine = set(random.Random(seed).sample(empty, (len(empty) + 1) // 2))
        mover = self.player()
        owners = [
            owner if owner is not None else mover if cell in mine else 1 - mover
            for cell, owner in enumerate(self.cells)
        ]
        # the first player joins top and bottom on the full board, or the second joins left and right
        size = self.size
        waiting = [cell for cell in range(size) if owners[cell] == 0]
        seen = set(waiting)
        while waiting:
            here = waiting.pop()
            for near in self.neighbours[here]:
                if near not in seen and owners[near] == 0:
                    seen.add(near)
                    waiting.append(near)
        first_wins = any(cell >= size * (size - 1) for cell in seen)
        return WIN if first_wins == (mover == 0) else -WIN

    def __repr__(self) -> str:
        return f"HexPosition(size={self.size}, played={self.played})"


class Hex(BaseGame):
    """Hex in plain Python: join your two sides of the board."""

    position_help = "the cells played from the start, as a1 b2 (column letter, row number), or 'start'"

    def __init__(self, size: int = 5) -> None:
        check_size(size)
        self.size = size
        self.name = f"hex({size})"

    def new_position(self, text: str | None = None) -> HexPosition:
        return play_move_texts(self, HexPosition(self.size), text)  # type: ignore[return-value]

    def parse_move(self, position: Any, text: str) -> int:
        return parse_cell(self.size, position.legal_moves(), text)

    def move_text(self, position: Any, move: Any) -> str:
        return cell_text(self.size, int(move))

    def position_text(self, position: Any) -> str:
        return " ".join(cell_text(self.size, move) for move in position.played) or "start"

    def render(self, position: Any) -> str:
        stones = ["." if owner is None else "xo"[owner] for owner in position.cells]
        return picture(self.size, stones, position.player())


# -- the compiled version: the same rules over an array --------------------------------
# One kernel serves every size: start (Python only) writes the size, the masks of the
# board's edges and the order of the cells into the state, where the rules read them. The
# stones are two bitboards, bit r * size + c for the cell in row r and column c.

SIZE = 0
STONES = 1
"""The first player's bitboard, then the second's."""
COUNT = 3
"""Stones played: the side to move is its parity."""
WINNER = 4
"""0 while the game goes on, else the winner plus one."""
BOARD = 5
FIRST_COLUMN = 6
LAST_COLUMN = 7
TOP_ROW = 8
BOTTOM_ROW = 9
ORDER = 10
"""The cells in the order moves are tried (``centre_first``)."""


def grow(bits, state):
    """``bits`` with every cell next to one of them, on the board."""
    size = state[SIZE]
    left_ok = bits & ~state[FIRST_COLUMN]
    right_ok = bits & ~state[LAST_COLUMN]
    near = bits | (right_ok << 1) | (left_ok >> 1) | (bits << size) | (bits >> size)
    near |= (left_ok << (size - 1)) | (right_ok >> (size - 1))
    return near & state[BOARD]


def chain(start, stones, state):
    """Every stone of ``stones`` joined to ``start`` (a flood fill)."""
    reached = start & stones
    while True:
        grown = grow(reached, state) & stones
        if grown == reached:
            return reached
        reached = grown


def joins(player, stones, chained, state):
    """Whether the ``chained`` stones of ``player`` touch both of that player's sides."""
    if player == 0:
        return (chained & state[TOP_ROW]) != 0 and (chained & state[BOTTOM_ROW]) != 0
    return (chained & state[FIRST_COLUMN]) != 0 and (chained & state[LAST_COLUMN]) != 0


class CompiledHex(CompiledGame):
    """Hex: join your two sides of the board (no evaluation: searched by MCTS)."""

    name = "hex"
    position_help = "the cells played from the start, as a1 b2 (column letter, row number), or 'start'"
    has_evaluation = False
    """No evaluation (and no ``evaluate`` rule): ``search()`` runs Monte Carlo tree search here."""
    key_cells = BOARD

    def __init__(self, size: int = 5) -> None:
        check_size(size)
        self.size = size
        self.state_size = ORDER + size * size
        self.max_moves = size * size

    def start(self, state: Any) -> None:
        size = self.size
        state[SIZE] = size
        state[BOARD] = (1 << (size * size)) - 1
        for line in range(size):
            state[FIRST_COLUMN] |= 1 << (line * size)
            state[LAST_COLUMN] |= 1 << (line * size + size - 1)
            state[TOP_ROW] |= 1 << line
            state[BOTTOM_ROW] |= 1 << ((size - 1) * size + line)
        for index, cell in enumerate(centre_first(size)):
            state[ORDER + index] = cell

    @staticmethod
    def legal_moves(state, moves):
        if state[WINNER] != 0:
            return 0
        taken = state[STONES] | state[STONES + 1]
        count = 0
        for index in range(state[SIZE] * state[SIZE]):
            cell = state[ORDER + index]
            if (taken >> cell) & 1 == 0:
                moves[count] = cell
                count += 1
        return count

    @staticmethod
    def play(state, move):
        mover = state[COUNT] & 1
        stones = state[STONES + mover] | (1 << move)
        state[STONES + mover] = stones
        state[COUNT] += 1
        if joins(mover, stones, chain(1 << move, stones, state), state):
            state[WINNER] = mover + 1

    @staticmethod
    def undo(state, move):
        state[COUNT] -= 1
        mover = state[COUNT] & 1
        state[STONES + mover] &= ~(1 << move)
        state[WINNER] = 0  # a winning move is always the last one

    @staticmethod
    def outcome(state):
        return -WIN if state[WINNER] != 0 else ONGOING  # the player who just moved has won

    @staticmethod
    def key(state):
        cells = state[SIZE] * state[SIZE]
        if cells <= 31:  # up to 5x5: both bitboards side by side
            return state[STONES] | (state[STONES + 1] << cells)
        # each cell a digit in base 3 (empty, first player's, second player's)
        value = 0
        for cell in range(cells - 1, -1, -1):
            digit = ((state[STONES] >> cell) & 1) + 2 * ((state[STONES + 1] >> cell) & 1)
            value = (value * 3 + digit) % KEY_PRIME
        return value

    @staticmethod
    def playout(state, numbers):
        # fill the empty cells at once: the side to move places first, so takes the larger
        # half, a random subset of them (each empty cell in turn is the mover's with the
        # chance that leaves every subset equally likely: Knuth's selection sampling)
        size = state[SIZE]
        mover = state[COUNT] & 1
        taken = state[STONES] | state[STONES + 1]
        left = size * size - state[COUNT]
        wanted = (left + 1) // 2
        mine = state[STONES + mover]
        theirs = state[STONES + 1 - mover]
        drawn = 0
        for cell in range(size * size):
            if (taken >> cell) & 1 == 0:
                if numbers[drawn] % left < wanted:
                    mine |= 1 << cell
                    wanted -= 1
                else:
                    theirs |= 1 << cell
                left -= 1
                drawn += 1
        first = mine if mover == 0 else theirs
        # on a full board the first player has joined top and bottom, or else the second has won
        first_wins = (chain(state[TOP_ROW], first, state) & state[BOTTOM_ROW]) != 0
        return WIN if first_wins == (mover == 0) else -WIN

    def move_text(self, position: Any, move: Any) -> str:
        return cell_text(self.size, int(move))

    def parse_move(self, position: Any, text: str) -> int:
        return parse_cell(self.size, position.legal_moves(), text)

    def render(self, position: Any) -> str:
        state = position.state
        stones = [
            "x" if (int(state[STONES]) >> cell) & 1 else "o" if (int(state[STONES + 1]) >> cell) & 1 else "."
            for cell in range(self.size * self.size)
        ]
        return picture(self.size, stones, int(state[COUNT]) & 1)
