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
        solve(game.new_position())


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
