"""Finding two positions one ``key()`` confuses (``negamax.core.keys``): games whose keys
forget what matters are caught, with both positions named; keys that may leave the turn
out (an impartial game) pass.

The games here are also used by the checker's, the searches' and the command line's tests
(``tests.core.test_keys:PartisanGame``)."""

from __future__ import annotations

from typing import Any

import pytest

from negamax import WIN, GameDefinitionError, SearchLimits, search, solve
from negamax.core import keys
from negamax.core.keys import KeyExplorer, check_keys
from negamax.core.rules import BaseGame
from negamax.games.nim import Nim


class Partisan:
    """A partisan take-away game: the first player takes 1 or 2 stones, the second 1 or 3;
    who cannot move loses. The key forgets whose turn it is, which decides the moves."""

    def __init__(self, stones: int = 9, turn: int = 0) -> None:
        self.stones, self.turn = stones, turn

    def legal_moves(self) -> list[int]:
        return [take for take in (1, 2 if self.turn == 0 else 3) if take <= self.stones]

    def play(self, move: int) -> None:
        self.stones -= move
        self.turn ^= 1

    def undo(self, move: int) -> None:
        self.stones += move
        self.turn ^= 1

    def is_terminal(self) -> bool:
        return not self.legal_moves()

    def terminal_value(self) -> int:
        return -WIN

    def evaluate(self) -> int:
        return 0

    def key(self) -> Any:
        return self.stones

    def player(self) -> int:
        return self.turn

    def copy(self) -> Partisan:
        return type(self)(self.stones, self.turn)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.stones}, turn={self.turn})"


class TurnKeyedPartisan(Partisan):
    def key(self) -> Any:
        return self.stones, self.turn


class Points:
    """Take 1, 2 or 3 stones; taking 3 scores a point; the game is worth my points minus
    yours at the end. The key forgets whose turn it is: two positions with one key have
    the same moves and evaluation, and differ only in what they are worth at the end."""

    def __init__(self, stones: int = 12) -> None:
        self.stones, self.turn, self.points = stones, 0, [0, 0]

    def legal_moves(self) -> list[int]:
        return [take for take in (1, 2, 3) if take <= self.stones]

    def play(self, move: int) -> None:
        self.points[self.turn] += move == 3
        self.stones -= move
        self.turn ^= 1

    def undo(self, move: int) -> None:
        self.turn ^= 1
        self.stones += move
        self.points[self.turn] -= move == 3

    def is_terminal(self) -> bool:
        return self.stones == 0

    def terminal_value(self) -> int:
        return self.points[self.turn] - self.points[1 - self.turn]

    def evaluate(self) -> int:
        return 0

    def key(self) -> Any:
        return self.stones, *self.points

    def player(self) -> int:
        return self.turn

    def copy(self) -> Points:
        twin = type(self)(self.stones)
        twin.turn, twin.points = self.turn, list(self.points)
        return twin

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.stones}, points={self.points}, turn={self.turn})"


class TurnKeyedPoints(Points):
    def key(self) -> Any:
        return self.stones, *self.points, self.turn


class PartisanGame(BaseGame):
    """The partisan take-away game as a ``Game`` (``negamax check``, the command line)."""

    name = "partisan"
    position = Partisan

    def new_position(self, text: str | None = None) -> Partisan:
        return self.position(int(text) if text and text != "start" else 9)

    def parse_move(self, position: Any, text: str) -> int:
        return int(text)

    def move_text(self, position: Any, move: Any) -> str:
        return str(move)

    def position_text(self, position: Any) -> str:
        return str(position.stones)

    def render(self, position: Any) -> str:
        return repr(position)


class TurnKeyedPartisanGame(PartisanGame):
    position = TurnKeyedPartisan


def value(position: Any, ply: int = 0) -> int:
    """The game's value for the side to move, by plain minimax (no key involved), a win or
    loss ``ply`` plies from the root scored ``WIN - ply`` or ``ply - WIN``."""
    if position.is_terminal():
        result = int(position.terminal_value())
        return result - ply if result == WIN else result + ply if result == -WIN else result
    best = -2 * WIN
    for move in position.legal_moves():
        position.play(move)
        best = max(best, -value(position, ply + 1))
        position.undo(move)
    return best


def explore(position: Any, positions: int = 2000) -> Any:
    explorer = KeyExplorer(position.copy, positions=positions, kept=positions, comparisons=100)
    return explorer.explore(games=100, first_positions=100)


def test_a_key_that_forgets_the_turn_that_decides_the_moves_is_named_with_both_positions() -> None:
    found = explore(Partisan(9))
    assert found.collisions, found.text()
    text = found.collisions[0].text()
    # one key for the two sides' positions with the same stones, each shown with its moves
    assert text.startswith("key() gave 7 to two positions a search must tell apart"), text
    assert "Partisan(7, turn=1) (after the moves [2])" in text
    assert "Partisan(7, turn=0) (after the moves [1, 1])" in text
    assert "legal_moves() [1, 3] and [1, 2]" in text


def test_a_key_that_forgets_a_turn_only_the_end_tells_is_found_by_playing_both_alike() -> None:
    found = explore(Points(12))
    assert found.collisions and found.compared > 0, found.text()
    collision = found.collisions[0]
    assert collision.players[0] != collision.players[1] and collision.further
    # the moves played on both lead to ends worth different amounts to the side to move
    first = Points(12)
    second = Points(12)
    for move in collision.first_line + collision.further:
        first.play(move)
    for move in collision.second_line + collision.further:
        second.play(move)
    assert first.is_terminal() and second.is_terminal()
    assert first.terminal_value() != second.terminal_value()
    assert "terminal_value()" in collision.text() and "they play differently" in collision.text()


@pytest.mark.parametrize("position", [TurnKeyedPartisan(9), TurnKeyedPoints(12), Nim([2, 3, 4])])
def test_keys_that_tell_apart_what_matters_pass(position: Any) -> None:
    # Nim's key leaves the turn out: the same heaps are worth the same to either side
    found = explore(position)
    assert not found.collisions, found.collisions[0].text()
    assert found.compared > 0 and found.first_plies >= 2


def test_the_quick_check_refuses_a_confusing_key_and_remembers_a_class_that_passed() -> None:
    with pytest.raises(GameDefinitionError, match=r"key\(\) gave .* \(found before searching"):
        check_keys(Partisan(9))
    keys._checked_classes.discard(TurnKeyedPartisan)
    check_keys(TurnKeyedPartisan(3))  # a few positions: not enough to trust the class
    assert TurnKeyedPartisan not in keys._checked_classes
    check_keys(TurnKeyedPartisan(40))
    assert TurnKeyedPartisan in keys._checked_classes


def test_the_brute_force_values_differ_from_what_the_confused_positions_would_share() -> None:
    # the two positions the first test names are worth different amounts: taking one
    # for the other gives a wrong value
    assert value(Partisan(7, turn=1)) != value(Partisan(7, turn=0))
    first, second = Points(7), Points(7)
    first.points, second.points, second.turn = [1, 0], [1, 0], 1
    assert value(first) != value(second)


def test_a_solve_with_a_table_refuses_a_confusing_key_before_searching() -> None:
    with pytest.raises(GameDefinitionError, match=r"key\(\) gave 7 .* \(found before searching"):
        solve(Partisan(9))
    with pytest.raises(GameDefinitionError, match=r"key\(\) gave"):
        search(Points(12), SearchLimits(depth=3))
    # no table, no key: the search needs no check and finds the value
    assert solve(Partisan(9), algorithm="alphabeta").score == value(Partisan(9))
    assert solve(TurnKeyedPartisan(9)).score == value(Partisan(9))
