"""Every algorithm returns plain negamax's root value, with and without a transposition
table (including a tiny one forced into collisions), on random trees and on random
positions of the small games."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from negamax.core.game import Position
from negamax.core.types import SearchLimits
from negamax.games.connect4.rules import Connect4Game
from negamax.games.nim import Nim
from negamax.games.random_tree import RandomTree, TreeShape
from negamax.games.tictactoe.rules import TicTacToeGame
from negamax.search import mcts, reference, search, solve
from negamax.search.params import ALGORITHMS, options_for
from tests import oracle

ALGORITHM_NAMES = [name for name in ALGORITHMS if name != mcts.ALGORITHM]
"""Alpha-beta and its variants: searched to a depth (MCTS has none: tests/search/test_mcts.py)."""
PLAIN = ("negamax", "alphabeta")
"""The algorithms without a transposition table."""
TABLES: list[dict[str, Any]] = [
    {},  # the default table
    {"tt_entries": 1},  # every position shares one slot
    {"tt_entries": 3, "tt_policy": "always"},
    {"tt_entries": 2, "tt_policy": "two-tier"},
]

shapes = st.builds(
    TreeShape,
    branching=st.integers(1, 4),
    depth=st.integers(1, 6),
    seed=st.integers(0, 2**32),
    low=st.integers(-60, 0),
    high=st.integers(0, 60),
    transpositions=st.sampled_from([0, 0, 2, 5, 20]),
    variable=st.booleans(),
    leaves=st.sampled_from([0, 0, 10, 30]),
    again=st.sampled_from([0, 0, 0, 30, 70]),
)


def _options(algorithm: str, table: dict[str, Any], quiescence: bool = False) -> Any:
    options = options_for(algorithm)
    return dataclasses.replace(options, quiescence=quiescence and options.quiescence, **table)


def _check_all(position: Position[Any], depth: int, expected: int) -> None:
    for algorithm in ALGORITHM_NAMES:
        for table in TABLES:
            result = search(
                position, SearchLimits(depth=depth), options=_options(algorithm, table), algorithm=algorithm
            )
            assert result.score == expected, (algorithm, table, depth)
            assert result.completed


@settings(max_examples=220, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=shapes, data=st.data())
def test_random_trees_at_fixed_depth(shape: TreeShape, data: st.DataObject) -> None:
    tree = RandomTree(shape)
    depth = data.draw(st.integers(1, shape.depth))
    expected = reference.negamax(tree, depth)
    assert expected == oracle.minimax(tree, depth)  # the same player may move twice (shape.again)
    _check_all(tree, depth, expected)
    # The other seed variants agree too.
    assert reference.alphabeta(tree, depth) == expected
    assert reference.alphabeta_tt(tree, depth) == expected
    assert reference.negmax(tree, depth).score == expected
    clamped = reference.alphabeta_fail_hard(tree, depth, -30, 30)
    assert clamped == min(max(expected, -30), 30)


@settings(max_examples=60, deadline=None)
@given(shape=shapes)
def test_random_trees_solved(shape: TreeShape) -> None:
    tree = RandomTree(shape)
    expected = reference.negamax(tree, shape.depth + 1)
    assert expected == oracle.minimax(tree)
    for algorithm in ALGORITHM_NAMES:
        for table in TABLES[:2]:
            result = solve(tree, options=_options(algorithm, table), algorithm=algorithm)
            assert result.score == expected, (algorithm, table)
            assert result.lower == result.upper == expected


@settings(max_examples=60, deadline=None)
@given(shape=shapes, noisy=st.integers(20, 80), data=st.data())
def test_quiescence_matches_plain_quiescence(shape: TreeShape, noisy: int, data: st.DataObject) -> None:
    tree = RandomTree(dataclasses.replace(shape, noisy=noisy))
    depth = data.draw(st.integers(1, tree.shape.depth))
    expected = reference.negamax_with_quiescence(tree, depth)
    assert expected == oracle.minimax(tree, depth, quiescence=True)
    for algorithm in ("pvs", "mtdf", "auto"):
        for table in TABLES[:2]:
            options = _options(algorithm, table, quiescence=True)
            result = search(tree, SearchLimits(depth=depth), options=options, algorithm=algorithm)
            assert result.score == expected, (algorithm, table)


def _random_position(game: Any, rng: random.Random, plies: int) -> Position[Any]:
    position = game.new_position("")
    for _ in range(plies):
        if position.is_terminal():
            break
        move = rng.choice(list(position.legal_moves()))
        position.play(move)
        if position.is_terminal():
            position.undo(move)
            break
    return position


@pytest.mark.parametrize("seed", range(12))
def test_tictactoe_midgame_positions(seed: int) -> None:
    rng = random.Random(seed)
    position = _random_position(TicTacToeGame(), rng, rng.randint(0, 6))
    for depth in (1, 2, 3, 4):
        _check_all(position, depth, reference.negamax(position, depth))
    exact = reference.negamax(position, 9)
    for algorithm in ALGORITHM_NAMES:
        assert solve(position, algorithm=algorithm).score == exact


@pytest.mark.parametrize("seed", range(25))
def test_connect4_midgame_positions(seed: int) -> None:
    rng = random.Random(1000 + seed)
    position = _random_position(Connect4Game(), rng, rng.randint(4, 30))
    for depth in (1, 2, 3):
        _check_all(position, depth, reference.negamax(position, depth))


@pytest.mark.parametrize("heaps", [[1, 2], [2, 3, 4], [2, 2, 3], [1, 1, 1, 4], [5, 6]])
def test_nim_positions(heaps: list[int]) -> None:
    position = Nim(heaps)
    exact = reference.negamax(position, sum(heaps) + 1)
    for algorithm in ALGORITHM_NAMES:
        for table in TABLES:
            assert solve(position, options=_options(algorithm, table), algorithm=algorithm).score == exact
    # Nim meets one position at different depths, so depth-limited values are compared
    # only for the searches without a table.
    for depth in (1, 2, 3):
        expected = reference.negamax(position, depth)
        for algorithm in PLAIN:
            assert search(position, SearchLimits(depth=depth), algorithm=algorithm).score == expected


@pytest.mark.parametrize("case", oracle.positions())
def test_kalah_where_a_player_moves_twice(case: tuple[int, int, tuple[int, ...]]) -> None:
    """Every algorithm, with and without a table, gives the max/min oracle's values, exact and
    at each depth, in a game whose player may move again after a move."""
    position = oracle.kalah(*case)
    exact = oracle.minimax(position)
    pits, seeds, _ = case
    # the searches without a table visit the whole tree: millions of nodes from 3 pits of 3
    small = pits * seeds <= 6
    for algorithm in ALGORITHM_NAMES if small else [name for name in ALGORITHM_NAMES if name not in PLAIN]:
        for table in TABLES[:2]:
            result = solve(position, options=_options(algorithm, table), algorithm=algorithm)
            assert (result.score, result.lower, result.upper) == (exact, exact, exact), (algorithm, table)
    # one position may be met at several depths (a move again makes a line a ply longer), so
    # depth-limited values are compared for the searches without a table, as for Nim
    for depth in (1, 2, 4):
        expected = oracle.minimax(position, depth)
        for algorithm in PLAIN:
            assert search(position, SearchLimits(depth=depth), algorithm=algorithm).score == expected
