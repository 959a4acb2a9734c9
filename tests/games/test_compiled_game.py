"""Games written as rules (``negamax.CompiledGame``): the contract checked with messages
that name the rule, the compiled search's values equal to the pure-Python search's, and
the example game of ``examples/``."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from negamax import ONGOING, WIN, CompiledGame, GameDefinitionError, SearchLimits, get_game, search, solve
from negamax.core.errors import InvalidPositionError
from negamax.core.game import HasPlayout

ROOT = Path(__file__).resolve().parents[2]


def take_away_rules(**changes: Any) -> dict[str, Any]:
    """A take-away game (take 1, 2 or 3 of state[0] stones; who takes the last one wins)."""

    def start(state: Any) -> None:
        state[0] = 9

    def legal_moves(state: Any, moves: Any) -> int:
        count = 0
        for take in (3, 2, 1):
            if take <= state[0]:
                moves[count] = take
                count += 1
        return count

    def play(state: Any, move: int) -> None:
        state[0] -= move
        state[1] += 1

    def undo(state: Any, move: int) -> None:
        state[0] += move
        state[1] -= 1

    def outcome(state: Any) -> int:
        return -WIN if state[0] == 0 else ONGOING

    def evaluate(state: Any) -> int:
        return 0

    def key(state: Any) -> int:
        return int(state[0])

    rules = {
        "start": start,
        "legal_moves": legal_moves,
        "play": play,
        "undo": undo,
        "outcome": outcome,
        "evaluate": evaluate,
        "key": key,
    }
    rules.update(changes)
    return {name: staticmethod(function) if callable(function) else function for name, function in rules.items()}


def take_away(name: str = "TakeAway", **changes: Any) -> type[CompiledGame]:
    """The take-away game; state[1] counts the moves played, which the key leaves out."""
    namespace = {"state_size": 2, "max_moves": 3, "key_cells": 1, **take_away_rules(**changes)}
    return type(name, (CompiledGame,), namespace)


class TakeAwayUpTo(CompiledGame):
    """Take 1 to ``most`` stones; whoever takes the last one wins (a game with parameters:
    ``most`` is in the state, which ``start`` fills, so every size has the same rules)."""

    def __init__(self, stones: int = 9, most: int = 3) -> None:
        self.stones, self.most = stones, most
        self.state_size = 2
        self.max_moves = most

    def start(self, state: Any) -> None:
        state[0] = self.stones
        state[1] = self.most

    @staticmethod
    def legal_moves(state: Any, moves: Any) -> int:
        count = 0
        for take in range(min(state[0], state[1]), 0, -1):
            moves[count] = take
            count += 1
        return count

    @staticmethod
    def play(state: Any, take: int) -> None:
        state[0] -= take

    @staticmethod
    def undo(state: Any, take: int) -> None:
        state[0] += take

    @staticmethod
    def outcome(state: Any) -> int:
        return -WIN if state[0] == 0 else ONGOING

    @staticmethod
    def evaluate(state: Any) -> int:
        return 0

    @staticmethod
    def key(state: Any) -> int:
        return int(state[0])


def take_away_value(stones: int, most: int) -> int:
    """The side to move's value by brute force: +1 a win, -1 a loss (the known answer: a
    loss exactly when ``stones`` is a multiple of ``most + 1``)."""
    values = [-1]
    for left in range(1, stones + 1):
        values.append(max(-values[left - take] for take in range(1, min(most, left) + 1)))
    return values[stones]


def test_a_game_with_parameters_has_its_sizes_and_name_per_instance() -> None:
    small, large = TakeAwayUpTo(9, 2), TakeAwayUpTo(most=5, stones=30)
    assert (small.name, large.name) == ("takeawayupto(stones=9,most=2)", "takeawayupto(stones=30,most=5)")
    assert TakeAwayUpTo().name == "takeawayupto(stones=9,most=3)" and TakeAwayUpTo.name == "takeawayupto"
    assert (small.rules.max_moves, large.rules.max_moves) == (2, 5)
    assert small.new_position().legal_moves() == [2, 1] and large.new_position("5").legal_moves() == [5, 4, 3, 2, 1]
    for stones, most in ((9, 2), (30, 5), (12, 3), (13, 3)):
        result = solve(TakeAwayUpTo(stones, most).new_position(), backend="python")
        assert (result.score > 0) - (result.score < 0) == take_away_value(stones, most)
    with pytest.raises(TypeError, match=r"TakeAwayUpTo takes \(stones=9, most=3\): too many"):
        TakeAwayUpTo(1, 2, 3)
    with pytest.raises(TypeError, match="TakeAway takes no arguments"):
        take_away()(3)
    with pytest.raises(GameDefinitionError, match=r"max_moves must be an integer from 1 to 256, not 0 \(in take"):
        TakeAwayUpTo(9, 0).new_position()


def test_the_sizes_of_a_game_share_one_compiled_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("numba")
    from negamax.search.compiled import families, move_list_kernel

    monkeypatch.setattr(families, "_families", {})  # nothing made in this process yet
    monkeypatch.setattr(families, "_rules_keys", {})
    compiled: list[str] = []
    compile_rules = families.compile_rules

    def counted(name: str, functions: Any, cache: Any) -> Any:
        compiled.append(name)
        return compile_rules(name, functions, cache)

    monkeypatch.setattr(families, "compile_rules", counted)
    small, large = TakeAwayUpTo(9, 2), TakeAwayUpTo(30, 5)
    family, small_spec = families.kernels_for(move_list_kernel, small.rules)
    again, large_spec = families.kernels_for(move_list_kernel, large.rules)
    # one family, compiled once; each size passes its own most moves to it
    assert again is family and compiled == ["TakeAwayUpTo"] and (small_spec, large_spec) == (2, 5)
    # other rules never share it (what it compiled is another game's)
    assert families.rules_digest(take_away()().rules) != families.rules_digest(small.rules)


@pytest.mark.compiles
def test_every_size_of_a_game_is_solved_on_the_one_kernel() -> None:
    pytest.importorskip("numba")
    from negamax.search.compiled import families

    def solved(stones: int, most: int) -> None:
        result = solve(TakeAwayUpTo(stones, most).new_position(), backend="compiled")
        assert result.algorithm == "compiled"
        assert (result.score > 0) - (result.score < 0) == take_away_value(stones, most)
        assert result.score == solve(TakeAwayUpTo(stones, most).new_position(), backend="python").score

    solved(9, 2)  # the smallest most moves first: the kernel must not keep the first size's
    made = families.family_count()
    for stones, most in ((30, 5), (25, 4), (40, 7)):
        solved(stones, most)
    assert families.family_count() == made


def test_the_pure_protocol_runs_the_rules_in_python() -> None:
    game = take_away()()
    position = game.new_position("3 2")
    assert position.legal_moves() == [3, 2, 1] and position.player() == 0
    assert game.position_text(position) == "3 2"
    result = solve(position, backend="python")
    assert result.score_text == "loss in 2"  # 4 stones left: whatever it takes, the rest goes next
    with pytest.raises(InvalidPositionError, match="move 2"):
        game.new_position("3 7")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"state_size": 0}, "state_size must be a positive integer"),
        ({"max_moves": 300}, "max_moves must be an integer from 1 to 256"),
        ({"outcome": None}, "must define outcome"),
        ({"evaluate": lambda: 0}, "evaluate must take (state); it takes 0"),
        ({"legal_moves": lambda self, state, moves: 0}, "without self"),
    ],
)
def test_a_malformed_game_is_refused_when_it_is_defined(changes: dict[str, Any], message: str) -> None:
    sizes = {key: changes.pop(key) for key in ("state_size", "max_moves") if key in changes}
    rules = take_away_rules()
    for name, value in changes.items():
        if value is None:
            del rules[name]
        else:
            rules[name] = staticmethod(value)
    with pytest.raises(GameDefinitionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        type("Bad", (CompiledGame,), {"state_size": 2, "max_moves": 3, **rules, **sizes})


def _too_many(state: Any, moves: Any) -> int:
    for index in range(4):
        moves[index] = 1
    return 4


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"legal_moves": _too_many}, "wrote past the end of its moves array"),
        ({"legal_moves": lambda state, moves: 0}, "returned no move, but outcome says the game goes on"),
        ({"outcome": lambda state: 5 * WIN if state[0] == 0 else ONGOING}, "outcome returned 500000"),
        ({"evaluate": lambda state: WIN}, "evaluate returned 100000, outside the heuristic range"),
        ({"undo": lambda state, move: None}, "undo did not restore the state after move 3 (at the start)"),
        ({"key": lambda state: -1}, "key must return an integer from 0"),
        ({"evaluate": lambda state: 1 // int(state[0] - state[0])}, "evaluate raised ZeroDivisionError"),
    ],
)
def test_a_broken_contract_is_named_before_anything_is_compiled(changes: dict[str, Any], message: str) -> None:
    game = take_away(**changes)()
    with pytest.raises(GameDefinitionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        solve(game.new_position())


def test_a_rule_numba_cannot_compile_is_named_with_its_line() -> None:
    pytest.importorskip("numba")

    def evaluate(state: Any) -> int:
        return len(state.tolist())  # numba has no ndarray.tolist

    game = take_away("Uncompilable", evaluate=lambda state: 0)()
    game.rules.functions["evaluate"] = evaluate
    with pytest.raises(GameDefinitionError, match=r"Uncompilable\.evaluate cannot be compiled: .*test_compiled_game"):
        solve(game.new_position())


def test_an_uncompilable_call_gets_a_hint_of_what_to_do() -> None:
    pytest.importorskip("numba")
    from negamax.search import warmup

    def evaluate(state: Any) -> int:
        return bin(state[0]).count("1")  # a built-in numba does not have

    game = take_away("Builtin", evaluate=lambda state: 0)()
    game.rules.functions["evaluate"] = evaluate
    with pytest.raises(GameDefinitionError, match=r"cannot call the built-in bin\(\): write it with integer"):
        warmup.compiled_rules(game.rules)

    def key(state: Any) -> int:
        return int(get_game is not None)  # a function of another module: not compiled with the rules

    game = take_away("Foreign", key=lambda state: 0)()
    game.rules.functions["key"] = key
    with pytest.raises(
        GameDefinitionError,
        match=r"Foreign\.key cannot be compiled: .*get_game is not a plain function of the game's own module",
    ):
        warmup.compiled_rules(game.rules)


@pytest.mark.compiles
def test_a_contract_broken_deep_in_the_search_is_reported_from_compiled_code() -> None:
    pytest.importorskip("numba")

    def legal_moves(state: Any, moves: Any) -> int:
        count = 0
        for take in (3, 2, 1):
            if take <= state[0] and state[0] != 2:  # bug: no move with 2 stones left
                moves[count] = take
                count += 1
        return count

    game = take_away("DeepBug", legal_moves=legal_moves)()
    game.rules._checked = True  # as if the random games had not met the bug
    with pytest.raises(GameDefinitionError, match=r"DeepBug: legal_moves returned no move.*in the state \[2, "):
        solve(game.new_position(), backend="compiled")


def partisan_rules(**changes: Any) -> dict[str, Any]:
    """A partisan take-away game: the first player takes 1 or 2 of state[0] stones, the
    second 1 or 3; who cannot move loses. state[1] is the player to move, which the key
    forgets."""

    def legal_moves(state: Any, moves: Any) -> int:
        count = 0
        for take in (1, 2 if state[1] == 0 else 3):
            if take <= state[0]:
                moves[count] = take
                count += 1
        return count

    def play(state: Any, move: int) -> None:
        state[0] -= move
        state[1] ^= 1

    def undo(state: Any, move: int) -> None:
        state[0] += move
        state[1] ^= 1

    return take_away_rules(legal_moves=legal_moves, play=play, undo=undo, **changes)


def partisan(name: str, **namespace: Any) -> CompiledGame:
    return type(name, (CompiledGame,), {"state_size": 2, "max_moves": 2, **partisan_rules(), **namespace})()


def test_a_key_that_forgets_the_player_is_refused_before_any_search() -> None:
    # the player in the state: two states, one key
    with pytest.raises(GameDefinitionError, match=r"Partisan\.key gave \d+ to two different positions, the state \["):
        solve(partisan("Partisan").new_position())

    def player(state: Any) -> int:
        return int(state[1])

    # the state declared to be the stones alone, the player a rule of its own
    game = partisan("PartisanPlayer", key_cells=1, player=staticmethod(player))
    with pytest.raises(GameDefinitionError, match=r"PartisanPlayer\.key gave \d+ .* with player (0|1) to move"):
        solve(game.new_position(), backend="python")


@pytest.mark.compiles
def test_a_compiled_solve_that_meets_a_confused_key_names_the_key() -> None:
    pytest.importorskip("numba")
    game = partisan("ConfusedPartisan")
    game.rules._checked = True  # as if the random games had not met two positions with one key
    refused = 0
    for text in ("start", "1", "1 1", "2 1", "1 3"):
        position = game.new_position(text)
        expected = solve(position, backend="python", algorithm="alphabeta").score  # no table: no key
        try:
            assert solve(position, backend="compiled").score == expected
        except GameDefinitionError as error:
            assert "two searches of the same position contradict each other" in str(error)
            assert "key()" in str(error) and str(error).startswith("ConfusedPartisan: ")
            refused += 1
    assert refused


@pytest.fixture(scope="module")
def breakthrough() -> Any:
    # loaded as the command line loads a game file, whose kernels the run's warm-up compiled
    game = get_game(f"{ROOT / 'examples' / 'breakthrough.py'}:Breakthrough")
    return sys.modules[type(game).__module__]


def random_positions(module: Any, count: int, seed: int, plies: range) -> list[tuple[Any, Any]]:
    """(compiled position, plain Python position) pairs after the same random moves."""
    game = module.Breakthrough()
    generator = random.Random(seed)
    pairs = []
    while len(pairs) < count:
        compiled, plain = game.new_position(), module.BreakthroughPosition()
        for _ in range(generator.choice(plies)):
            if compiled.is_terminal():
                break
            move = generator.choice(compiled.legal_moves())
            compiled.play(move)
            plain.play(move)
        if not compiled.is_terminal():
            assert compiled.legal_moves() == plain.legal_moves()
            pairs.append((compiled, plain))
    return pairs


def test_the_example_written_both_ways_searches_to_the_same_values(breakthrough: Any) -> None:
    pytest.importorskip("numba")
    from negamax.search.compiled import move_list_layout as layout
    from negamax.search.compiled.move_list import CompiledSearcher

    # no table on either side: both compute the plain fixed-depth minimax value
    searcher = CompiledSearcher(hash_mib=1, features=layout.PVS | layout.KILLER_MOVES)
    for compiled, plain in random_positions(breakthrough, 12, seed=1, plies=range(0, 14)):
        expected = search(plain, SearchLimits(depth=3), algorithm="alphabeta").score
        assert searcher.search(compiled, SearchLimits(depth=3)).score == expected
    for compiled, plain in random_positions(breakthrough, 4, seed=2, plies=range(16, 22)):
        assert solve(compiled).score == solve(plain, backend="python").score


def test_the_example_has_its_own_text(breakthrough: Any) -> None:
    game = breakthrough.Breakthrough()
    position = game.new_position("b2b3 c4c3")
    assert game.position_text(position) == "b2b3 c4c3"
    assert game.render(position).splitlines()[-1] == "White to move"
    assert np.array_equal(position.state, game.new_position(game.position_text(position)).state)


def test_a_game_with_noisy_moves_and_symmetries_offers_both_capabilities() -> None:
    from negamax.core.game import HasCanonicalKey, HasNoisyMoves

    game = take_away("Capable", noisy_moves=lambda state, moves: 0, canonical_key=lambda state: int(state[0]))()
    position = game.new_position()
    assert isinstance(position, HasNoisyMoves) and isinstance(position, HasCanonicalKey)
    assert not isinstance(take_away()().new_position(), HasNoisyMoves)


def test_a_game_without_an_evaluation_says_so_and_may_leave_evaluate_out() -> None:
    rules = take_away_rules()
    del rules["evaluate"]
    namespace = {"state_size": 2, "max_moves": 3, "key_cells": 1, "has_evaluation": False, **rules}
    game = type("NoEvaluation", (CompiledGame,), namespace)()
    position = game.new_position()
    assert not position.has_evaluation and position.evaluate() == 0
    assert take_away()().new_position().has_evaluation  # the default
    assert solve(position, backend="python").score_text == "win in 5"
    with pytest.raises(GameDefinitionError, match="must define evaluate"):
        type("NoEvaluationSaid", (CompiledGame,), {"state_size": 2, "max_moves": 3, **rules})


def _take_all_left(state: Any, numbers: Any) -> int:
    # a playout: the side to move takes turns with the other, one to three stones at random
    stones, mover_wins = int(state[0]), False
    for number in numbers:
        stones -= min(stones, 1 + int(number) % 3)
        mover_wins = not mover_wins
        if stones == 0:
            break
    while stones > 0:  # more stones than numbers: one at a time
        stones -= 1
        mover_wins = not mover_wins
    return WIN if mover_wins else -WIN


def test_a_playout_rule_is_the_positions_playout_and_is_checked() -> None:
    game = take_away(playout=_take_all_left)()
    position = game.new_position()
    assert isinstance(position, HasPlayout)
    results = {position.playout(seed) for seed in range(40)}
    assert results == {WIN, -WIN} and position.legal_moves() == [3, 2, 1]  # left as it was
    assert position.playout(7) == position.playout(7)  # its numbers come from the seed
    broken = take_away(name="Broken", playout=lambda state, numbers: ONGOING)()
    with pytest.raises(GameDefinitionError, match="playout returned ONGOING: it must finish the game"):
        broken.new_position()
