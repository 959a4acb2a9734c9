"""The rules checker (``negamax.games.checker``, ``negamax check``): a sound game passes, and
each mistake a search would take silently is named, with where it happened."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from negamax import ONGOING, WIN, CompiledGame, get_game
from negamax.cli.main import main
from negamax.games.checker import check_positions, check_rules
from negamax.games.nim import Nim, NimGame
from tests.core.test_keys import PartisanGame, Points, TurnKeyedPoints
from tests.games.test_compiled_game import take_away_rules


def start_with_15(state: Any) -> None:
    state[0] = 15


def stones(**changes: Any) -> type[CompiledGame]:
    """The take-away game of ``test_compiled_game`` from 15 stones; state[1] counts the moves
    played, which the key leaves out (``key_cells = 1``)."""
    namespace = {"state_size": 2, "max_moves": 3, "key_cells": 1, **take_away_rules(start=start_with_15, **changes)}
    return type("Stones", (CompiledGame,), namespace)


def test_a_sound_game_passes() -> None:
    report = stones()().check(games=200)
    assert report.ok, report.problems
    assert report.games == 200 and report.positions > 1000 and report.distinct_positions == 15  # 15 stones down to 1


def test_an_undo_that_forgets_a_cell_is_named_with_the_cell_and_the_moves() -> None:
    def undo(state: Any, move: int) -> None:
        state[0] += move  # the move count is not taken back

    report = stones(undo=undo)().check(games=5)
    assert not report.ok
    assert report.problems[0] == "undo did not restore the state after move 3 (at the start): cell 1 was 0, is 1"


def test_a_key_that_leaves_out_part_of_the_position_is_a_collision_with_both_states() -> None:
    def key(state: Any) -> int:
        return int(state[0]) % 4

    report = stones(key=key)().check(games=50)
    assert any(problem.startswith("key collision: ") and "[15]" in problem for problem in report.problems), report


def test_counting_the_moves_into_the_position_without_the_key_is_a_collision() -> None:
    game = type("Counted", (stones(),), {"key_cells": None})  # every cell is the position now
    report = game().check(games=50)
    assert any("key collision" in problem and "key_cells" in problem for problem in report.problems)


def test_values_that_are_not_integers_or_out_of_range_are_named() -> None:
    def evaluate(state: Any) -> float:
        return 0.5

    report = stones(evaluate=evaluate)().check(games=3)
    assert report.problems[0].startswith("evaluate returned 0.5 (float); scores are integers")

    def outcome(state: Any) -> int:
        return -WIN * 2 if state[0] == 0 else ONGOING

    report = stones(outcome=outcome)().check(games=3)
    assert "outcome returned -200000, outside" in report.problems[0]


def test_too_many_moves_and_no_move_while_the_game_goes_on_are_named() -> None:
    def none(state: Any, moves: Any) -> int:
        return 0

    assert (
        "legal_moves returned no move, but outcome says the game goes on" in stones(legal_moves=none)().check(2).text()
    )

    def many(state: Any, moves: Any) -> int:
        return 7

    assert "legal_moves returned 7, outside [0, 3] (max_moves is 3)" in stones(legal_moves=many)().check(2).text()


def test_a_rule_that_raises_is_named_with_where() -> None:
    def play(state: Any, move: int) -> None:
        if state[0] < 5:
            raise IndexError("no such cell")
        state[0] -= move
        state[1] += 1

    report = stones(play=play)().check(games=3)
    assert report.problems[0].startswith("play raised IndexError: no such cell (after the moves [")


def test_the_built_in_plain_games_pass() -> None:
    for name in ("tictactoe", "nim", "connect4"):
        report = check_positions(get_game(name), games=30)
        assert report.ok, (name, report.problems)


class SharedCopyNim(Nim):
    """A copy that shares its heaps with the original: the search's scratch copies would
    change the position it was asked about."""

    def copy(self) -> SharedCopyNim:
        twin = SharedCopyNim([1])
        twin.heaps = self.heaps
        return twin


class SharedCopyNimGame(NimGame):
    def new_position(self, text: str | None = None) -> SharedCopyNim:
        return SharedCopyNim([3, 4, 5])


def test_a_copy_that_shares_the_original_is_named() -> None:
    report = check_positions(SharedCopyNimGame(), games=5)
    line = SharedCopyNim.copy.__code__.co_firstlineno
    assert report.problems and f"SharedCopyNim.copy (test_checker.py:{line}) shares its state" in report.problems[0]


def test_the_compiled_rules_are_compared_with_python(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    from negamax.search import warmup

    def key(state: Any) -> int:
        # Python's integers grow; compiled ones wrap at 64 bits: the two keys differ
        return (int(state[0]) * 2**61 + int(state[1])) % 2**63

    game = stones(key=key)()
    report = check_rules(game.rules, games=20, compiled=warmup.compiled_rules(game.rules))
    assert any(problem.startswith("compiled key returned") for problem in report.problems), report


def test_the_command_checks_a_game_file_and_exits_1_on_a_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "tictactoe", "--games", "20"]) == 0
    assert "tictactoe: 20 random games" in capsys.readouterr().out
    source = tmp_path / "leaky.py"
    source.write_text(
        "from negamax import CompiledGame, ONGOING, WIN\n"
        "class Leaky(CompiledGame):\n"
        "    state_size, max_moves = 2, 2\n"
        "    @staticmethod\n"
        "    def start(state): state[0] = 6\n"
        "    @staticmethod\n"
        "    def legal_moves(state, moves):\n"
        "        moves[0] = 1\n"
        "        moves[1] = 2\n"
        "        return 2 if state[0] >= 2 else 1\n"
        "    @staticmethod\n"
        "    def play(state, move):\n"
        "        state[0] -= move\n"
        "        state[1] = move\n"
        "    @staticmethod\n"
        "    def undo(state, move): state[0] += move\n"
        "    @staticmethod\n"
        "    def outcome(state): return -WIN if state[0] == 0 else ONGOING\n"
        "    @staticmethod\n"
        "    def evaluate(state): return 0\n"
        "    @staticmethod\n"
        "    def key(state): return state[0]\n"
    )
    assert main(["check", f"{source}:Leaky", "--games", "20", "--python-only"]) == 1
    output = capsys.readouterr().out
    assert "undo did not restore the state after move 1 (at the start): cell 1 was 0, is 1" in output
    assert main(["check", "tictactoe", "--games", "0"]) == 2


def test_a_plain_key_that_forgets_whose_turn_it_is_is_named_with_both_positions() -> None:
    report = check_positions(PartisanGame(), games=50)
    assert not report.ok
    problem = report.problems[0]
    assert problem.startswith("key() gave 7 to two positions a search must tell apart"), problem
    assert "Partisan(7, turn=1) (after the moves [2])" in problem and "(after the moves [1, 1])" in problem
    assert "every position to ply" in report.text()


def test_a_plain_key_that_forgets_a_score_s_owner_is_found_by_playing_on() -> None:
    class PointsGame(PartisanGame):
        def new_position(self, text: str | None = None) -> Any:
            return Points(12)

    report = check_positions(PointsGame(), games=50)
    assert report.problems and "they play differently (player() " in report.problems[0], report.text()
    sound = type("TurnKeyedPointsGame", (PartisanGame,), {"new_position": lambda self, text=None: TurnKeyedPoints(12)})
    assert check_positions(sound(), games=50).ok


def test_the_command_names_a_plain_key_that_confuses_positions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "tests.core.test_keys:PartisanGame", "--games", "20"]) == 1
    output = capsys.readouterr().out
    assert "partisan: " in output and "key() gave 7 to two positions" in output
    assert main(["check", "tests.core.test_keys:TurnKeyedPartisanGame", "--games", "20"]) == 0
    assert "pairs with one key played side by side): no problem found" in capsys.readouterr().out


def test_a_compiled_key_that_forgets_the_player_is_a_collision() -> None:
    def player(state: Any) -> int:
        return int(state[1]) & 1  # the moves played: the key does not say whose turn it is

    report = stones(player=player)().check(games=50)
    collisions = [problem for problem in report.problems if problem.startswith("key collision: ")]
    assert collisions and "with player 0 to move" in collisions[0] and "with player 1" in collisions[0], report


class HalfNim(Nim):
    def evaluate(self) -> Any:
        return 0.5 if sum(self.heaps) < 10 else 0

    def copy(self) -> HalfNim:
        return HalfNim(self.heaps, self.turn)


def test_a_plain_value_the_search_would_refuse_is_named_as_the_search_names_it() -> None:
    class HalfNimGame(NimGame):
        def new_position(self, text: str | None = None) -> HalfNim:
            return HalfNim([3, 4, 5])

    report = check_positions(HalfNimGame(), games=5)
    line = HalfNim.evaluate.__code__.co_firstlineno
    named = f"HalfNim.evaluate (test_checker.py:{line}) returned 0.5 (float)"
    assert len(report.problems) == 1 and report.problems[0].startswith(named), report
    assert report.problems[0].endswith("(after the moves [(0, 3)])"), report
