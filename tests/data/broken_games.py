"""Games that break the library's contract on purpose, for the tests of what a user sees
when their own game misbehaves (loops, raises, mutates, names its moves at length). Each
is a plain position class: take one or two stones, whoever takes the last one wins."""

import os
import time
from pathlib import Path

from negamax import WIN


def looping():
    """Say that a method is about to loop: touch the file ``BROKEN_GAMES_LOOPING`` names, if
    set, so that a test sends its Ctrl-C only once the loop runs, however slow the machine."""
    marker = os.environ.get("BROKEN_GAMES_LOOPING")
    if marker:
        Path(marker).touch()


class Stones:
    def __init__(self, stones=9, turn=0):
        self.stones, self.turn = stones, turn

    def legal_moves(self):
        return [take for take in (1, 2) if take <= self.stones]

    def play(self, take):
        self.stones -= take
        self.turn ^= 1

    def undo(self, take):
        self.stones += take
        self.turn ^= 1

    def is_terminal(self):
        return self.stones == 0

    def terminal_value(self):
        return -WIN

    def evaluate(self):
        return 0

    def key(self):
        return (self.stones, self.turn)

    def player(self):
        return self.turn

    def copy(self):
        return type(self)(self.stones, self.turn)

    def __str__(self):
        return f"{self.stones} stones"


class LoopsForever(Stones):
    def evaluate(self):
        looping()
        while True:
            pass


class LoopsMoves(Stones):
    def legal_moves(self):
        looping()
        while True:
            pass


class LoopsDeep(Stones):
    """Evaluates for half a second after its first evaluation, then loops: a search gets a
    few iterations done first (no two lines transpose: its key is the moves played)."""

    first = None

    def __init__(self, stones=1000, turn=0, played=()):
        super().__init__(stones, turn)
        self.played = list(played)

    def legal_moves(self):
        return [take for take in (1, 2, 3) if take <= self.stones]

    def play(self, take):
        super().play(take)
        self.played.append(take)

    def undo(self, take):
        super().undo(take)
        self.played.pop()

    def key(self):
        return tuple(self.played)

    def copy(self):
        return LoopsDeep(self.stones, self.turn, self.played)

    def evaluate(self):
        LoopsDeep.first = LoopsDeep.first or time.monotonic()
        if time.monotonic() > LoopsDeep.first + 0.5:
            looping()
        while time.monotonic() > LoopsDeep.first + 0.5:
            pass
        return len(self.played) % 3


class SwallowsInterrupts(Stones):
    def evaluate(self):
        looping()
        while True:
            try:
                while True:
                    pass
            except BaseException:
                pass


class RaisesKey(Stones):
    def legal_moves(self):
        table = {}
        return table["boom"]


class UnhashableKey(Stones):
    def key(self):
        return [self.stones, self.turn]


class Recurses(Stones):
    def evaluate(self):
        return self.evaluate()


class AssertsInUndo(Stones):
    def undo(self, take):
        assert self.stones + take <= 2, "undo cannot restore"
        self.stones += take
        self.turn ^= 1


class MutatingEvaluate(Stones):
    def evaluate(self):
        self.stones = max(0, self.stones - 1)
        return 0


class HugeMoveNames(Stones):
    """Its moves print as a megabyte each."""

    def legal_moves(self):
        return [HugeMove(take) for take in (1, 2) if take <= self.stones]

    def play(self, take):
        super().play(int(take))

    def undo(self, take):
        super().undo(int(take))


class HugeMove(int):
    def __str__(self):
        return str(int(self)) * 1_000_000

    __repr__ = __str__


class ManyMoves(Stones):
    """A million legal moves, all taking one stone (by a different name)."""

    def legal_moves(self):
        return list(range(1_000_000)) if self.stones else []

    def play(self, take):
        super().play(1)

    def undo(self, take):
        super().undo(1)
