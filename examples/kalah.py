"""Kalah (Mancala), a game in which a player may move twice in a row, written twice: once as
a plain Python position, once as a ``CompiledGame``. Both follow the same rules and
evaluation, so their searches agree; ``tests/docs/test_examples.py`` checks both against a
brute force.

The rules (as in most sets sold, and on Wikipedia): each player owns a row of ``pits`` pits
holding ``seeds`` seeds each, and a store at the row's right end. A move takes every seed of
one of the mover's pits and sows them one by one into the following pits, counter-clockwise,
the mover's store included and the opponent's skipped.

* The last seed in the mover's own store: **the same player moves again**.
* The last seed in an empty pit of the mover's row, opposite a pit with seeds: those seeds
  and the last one go to the mover's store.
* When either row is empty the game ends; each player keeps the seeds left in their row.
  The value of a finished game is the mover's seeds less the opponent's.

So ``player()`` may be the same after a move as before it. The search reads it after every
move: a child position with the same player to move is its parent's own turn, searched with
the same window and not negated (``docs/your-own-game.md``, "A player who moves twice").

A move is the number of a pit, 1 to ``pits``, counted from the left of the mover's row.

    negamax solve 'examples/kalah.py:Kalah(3, 3)'             # plain Python
    negamax analyze 'examples/kalah.py:CompiledKalah(6, 4)' --depth 12  # compiled
"""

from __future__ import annotations

from typing import Any

from negamax import ONGOING, CompiledGame, IllegalMoveError
from negamax.core.rules import BaseGame, play_move_texts

MOST_PITS = 8
"""The largest row the compiled version holds (the state array is sized for it)."""


# -- the plain Python version ---------------------------------------------------------


class KalahPosition:
    """A Kalah position for the pure-Python search: the pits and stores in one list (the first
    player's pits, its store, the second player's pits, its store) and the side to move."""

    def __init__(self, pits: int = 6, seeds: int = 4) -> None:
        self.pits = pits
        self.board = ([seeds] * pits + [0]) * 2
        self.turn = 0
        self.history: list[tuple[tuple[int, ...], int, int]] = []
        """Each move played from the start, with the board and the turn before it (for ``undo``)."""

    def _row(self, player: int) -> range:
        start = player * (self.pits + 1)
        return range(start, start + self.pits)

    def _store(self, player: int) -> int:
        return player * (self.pits + 1) + self.pits

    def legal_moves(self) -> list[int]:
        if self.is_terminal():
            return []
        return [number for number, pit in enumerate(self._row(self.turn), start=1) if self.board[pit]]

    def play(self, move: int) -> None:
        self.history.append((tuple(self.board), self.turn, move))
        board, mover = self.board, self.turn
        pit = self._row(mover)[move - 1]
        seeds, board[pit] = board[pit], 0
        skipped = self._store(1 - mover)
        while seeds:
            pit = (pit + 1) % len(board)
            if pit != skipped:
                board[pit] += 1
                seeds -= 1
        if pit == self._store(mover):
            return  # the last seed in the mover's store: the mover moves again
        opposite = 2 * self.pits - pit
        if pit in self._row(mover) and board[pit] == 1 and board[opposite]:
            board[self._store(mover)] += board[opposite] + 1
            board[pit] = board[opposite] = 0
        self.turn = 1 - mover

    def undo(self, move: int) -> None:
        board, self.turn, _ = self.history.pop()
        self.board = list(board)

    def _final(self, player: int) -> int:
        """A player's seeds: the store and, at the end, what is left in the row."""
        return self.board[self._store(player)] + sum(self.board[pit] for pit in self._row(player))

    def is_terminal(self) -> bool:
        return not any(self.board[pit] for pit in self._row(0)) or not any(self.board[pit] for pit in self._row(1))

    def terminal_value(self) -> int:
        return self._final(self.turn) - self._final(1 - self.turn)

    def evaluate(self) -> int:
        return self.board[self._store(self.turn)] - self.board[self._store(1 - self.turn)]

    def key(self) -> tuple[int, ...]:
        return (*self.board, self.turn)  # whose turn it is belongs to the position

    def player(self) -> int:
        return self.turn

    def copy(self) -> KalahPosition:
        twin = KalahPosition.__new__(KalahPosition)
        twin.pits, twin.board, twin.turn, twin.history = self.pits, list(self.board), self.turn, list(self.history)
        return twin

    def __repr__(self) -> str:
        return f"KalahPosition(board={self.board}, turn={self.turn})"


class Kalah(BaseGame):
    """Kalah (Mancala) in plain Python: the last seed in one's own store earns another move."""

    position_help = "the pits played from the start (1 is the leftmost of the mover's row), or 'start'"

    def __init__(self, pits: int = 6, seeds: int = 4) -> None:
        if not 1 <= pits <= MOST_PITS or seeds < 1:
            raise ValueError(f"Kalah takes 1 to {MOST_PITS} pits and at least one seed a pit")
        self.pits, self.seeds = pits, seeds

    def new_position(self, text: str | None = None) -> KalahPosition:
        return play_move_texts(self, KalahPosition(self.pits, self.seeds), text)  # type: ignore[return-value]

    def parse_move(self, position: Any, text: str) -> int:
        if text.strip() not in [str(move) for move in position.legal_moves()]:
            raise IllegalMoveError(f"{text!r} is not a pit with seeds of the side to move: {position.legal_moves()}")
        return int(text)

    def move_text(self, position: Any, move: Any) -> str:
        return str(move)

    def position_text(self, position: Any) -> str:
        return " ".join(str(move) for _, _, move in position.history) or "start"

    def render(self, position: Any) -> str:
        return picture(position.board, position.pits, position.turn)


def picture(board: list[int], pits: int, turn: int) -> str:
    """The board as players see it: the second player's row on top, the stores at the ends."""
    top = " ".join(f"{seeds:2}" for seeds in reversed(board[pits + 1 : 2 * pits + 1]))
    bottom = " ".join(f"{seeds:2}" for seeds in board[:pits])
    return (
        f"   {top}\n{board[2 * pits + 1]:2}{' ' * (3 * pits)} {board[pits]:2}\n   {bottom}\nplayer {turn + 1} to move"
    )


# -- the compiled version: the same rules over an array --------------------------------
# Every size runs on one compiled kernel: the rules read the size from the state, where
# start (Python only) writes it. state[0]: the pits of a row; then the board as above
# (state[BOARD + ...]); then the side to move. A move code carries what undo needs besides
# the pit (its number, bits 0-3): the mover (bit 4), the seeds the pit held (bits 8-23) and
# the seeds a capture took (from bit 24), so the state keeps no stack.

PITS = 0
BOARD = 1
TURN = BOARD + 2 * (MOST_PITS + 1)
MOVER_SHIFT = 4
SEED_SHIFT = 8
CAPTURE_SHIFT = 24
KEY_PRIME = (1 << 55) - 55


def store_of(pits, player):
    return player * (pits + 1) + pits


def last_cell(pits, pit, seeds, mover):
    """The cell the last of ``seeds`` sown from ``pit`` falls in (the opponent's store skipped)."""
    cells = 2 * (pits + 1)
    skipped = store_of(pits, 1 - mover)
    while seeds > 0:
        pit = (pit + 1) % cells
        if pit != skipped:
            seeds -= 1
    return pit


def sow(state, pit, seeds, mover, step):
    """Add ``step`` (1 to sow, -1 to take back) to each cell ``seeds`` sown from ``pit`` reach."""
    pits = state[PITS]
    cells = 2 * (pits + 1)
    skipped = store_of(pits, 1 - mover)
    while seeds > 0:
        pit = (pit + 1) % cells
        if pit != skipped:
            state[BOARD + pit] += step
            seeds -= 1


def row_seeds(state, player):
    pits = state[PITS]
    total = 0
    for pit in range(player * (pits + 1), player * (pits + 1) + pits):
        total += state[BOARD + pit]
    return total


class CompiledKalah(CompiledGame):
    """Kalah (Mancala): the last seed in one's own store earns another move."""

    name = "kalah"
    position_help = "the pits played from the start (1 is the leftmost of the mover's row), or 'start'"

    def __init__(self, pits: int = 6, seeds: int = 4) -> None:
        if not 1 <= pits <= MOST_PITS or seeds < 1:
            raise ValueError(f"Kalah takes 1 to {MOST_PITS} pits and at least one seed a pit")
        self.pits, self.seeds = pits, seeds
        self.state_size = TURN + 1
        self.max_moves = pits

    def start(self, state: Any) -> None:
        state[PITS] = self.pits
        for player in range(2):
            for pit in range(self.pits):
                state[BOARD + player * (self.pits + 1) + pit] = self.seeds

    @staticmethod
    def legal_moves(state, moves):
        if row_seeds(state, 0) == 0 or row_seeds(state, 1) == 0:
            return 0
        pits = state[PITS]
        mover = state[TURN]
        count = 0
        for number in range(pits):
            pit = mover * (pits + 1) + number
            seeds = state[BOARD + pit]
            if seeds > 0:
                state[BOARD + pit] = 0
                sow(state, pit, seeds, mover, 1)
                last = last_cell(pits, pit, seeds, mover)
                captured = 0
                first = mover * (pits + 1)
                if first <= last < first + pits and state[BOARD + last] == 1:
                    captured = state[BOARD + 2 * pits - last]
                sow(state, pit, seeds, mover, -1)
                state[BOARD + pit] = seeds
                moves[count] = number + (mover << MOVER_SHIFT) + (seeds << SEED_SHIFT) + (captured << CAPTURE_SHIFT)
                count += 1
        return count

    @staticmethod
    def play(state, move):
        pits = state[PITS]
        mover = (move >> MOVER_SHIFT) & 1
        pit = mover * (pits + 1) + (move & 15)
        seeds = (move >> SEED_SHIFT) & 0xFFFF
        state[BOARD + pit] = 0
        sow(state, pit, seeds, mover, 1)
        last = last_cell(pits, pit, seeds, mover)
        if last == store_of(pits, mover):
            return  # the mover moves again
        captured = move >> CAPTURE_SHIFT
        if captured > 0:
            state[BOARD + store_of(pits, mover)] += captured + 1
            state[BOARD + last] = 0
            state[BOARD + 2 * pits - last] = 0
        state[TURN] = 1 - mover

    @staticmethod
    def undo(state, move):
        pits = state[PITS]
        mover = (move >> MOVER_SHIFT) & 1
        pit = mover * (pits + 1) + (move & 15)
        seeds = (move >> SEED_SHIFT) & 0xFFFF
        captured = move >> CAPTURE_SHIFT
        if captured > 0:
            last = last_cell(pits, pit, seeds, mover)
            state[BOARD + store_of(pits, mover)] -= captured + 1
            state[BOARD + last] = 1
            state[BOARD + 2 * pits - last] = captured
        sow(state, pit, seeds, mover, -1)
        state[BOARD + pit] = seeds
        state[TURN] = mover

    @staticmethod
    def outcome(state):
        mover = state[TURN]
        mine_row = row_seeds(state, mover)
        theirs_row = row_seeds(state, 1 - mover)
        if mine_row > 0 and theirs_row > 0:
            return ONGOING
        pits = state[PITS]
        return state[BOARD + store_of(pits, mover)] + mine_row - state[BOARD + store_of(pits, 1 - mover)] - theirs_row

    @staticmethod
    def evaluate(state):
        pits = state[PITS]
        mover = state[TURN]
        return state[BOARD + store_of(pits, mover)] - state[BOARD + store_of(pits, 1 - mover)]

    @staticmethod
    def key(state):
        # the side to move and each cell's seeds as digits in base 64, modulo a prime below
        # 2**55 (no product overflows): exact while the digits fit (rows of up to 3 pits
        # with fewer than 64 seeds a cell), a hash beyond
        pits = state[PITS]
        value = state[TURN]
        for cell in range(2 * (pits + 1)):
            value = (value * 64 + state[BOARD + cell]) % KEY_PRIME
        return value

    @staticmethod
    def player(state):
        return state[TURN]

    def move_text(self, position: Any, move: Any) -> str:
        return str((int(move) & 15) + 1)

    def render(self, position: Any) -> str:
        state = [int(value) for value in position.state]
        pits = state[PITS]
        return picture(state[BOARD : BOARD + 2 * (pits + 1)], pits, state[TURN])
