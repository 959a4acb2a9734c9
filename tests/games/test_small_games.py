import functools
import random

import pytest

from negamax.core.errors import IllegalMoveError, InvalidPositionError, UnknownGameError
from negamax.core.score import WIN_THRESHOLD
from negamax.core.types import SearchLimits
from negamax.games import available_games, get_game
from negamax.games.nim import Nim, NimGame
from negamax.games.random_tree import RandomTree, RandomTreeGame, TreeShape
from negamax.games.tictactoe import TicTacToe, TicTacToeGame
from negamax.games.tree import ExplicitTree, TreeGame
from negamax.search import search, solve


def test_registry() -> None:
    assert set(available_games()) >= {"tictactoe", "connect4", "nim", "tree", "random"}
    with pytest.raises(UnknownGameError, match="chekers"):
        get_game("chekers")


def test_tictactoe_is_a_draw_and_the_default_needs_few_nodes() -> None:
    result = solve(TicTacToe())
    assert result.score == 0
    assert result.nodes <= 2000
    plain = solve(TicTacToe(), algorithm="negamax")
    assert (plain.score, plain.nodes) == (0, 549_946)


def test_tictactoe_parsing() -> None:
    game = TicTacToeGame()
    assert game.new_position("x...o....").key() == game.new_position("04").key()
    for text, reason in [("0a", "not a cell"), ("00", "twice"), ("xx.......", "X moves first"), ("0314258", "over")]:
        with pytest.raises(InvalidPositionError, match=reason):
            game.new_position(text)
    with pytest.raises(IllegalMoveError, match="taken"):
        game.parse_move(game.new_position("4"), "4")


def test_tictactoe_symmetry_and_safe_moves() -> None:
    game = TicTacToeGame()
    corners = {game.new_position(str(cell)).canonical_key() for cell in (0, 2, 6, 8)}
    assert len(corners) == 1
    assert game.new_position("0314").safe_moves() is None  # X to move wins at 6
    assert game.new_position("04").safe_moves() is not None


@functools.cache
def _nim_wins(heaps: tuple[int, ...]) -> bool:
    """Brute force: the side to move wins if some move leaves a losing position."""
    return any(
        not _nim_wins(tuple(sorted((*heaps[:i], heaps[i] - take, *heaps[i + 1 :]))))
        for i in range(len(heaps))
        for take in range(1, heaps[i] + 1)
    )


@pytest.mark.parametrize("seed", range(30))
def test_nim_matches_the_xor_rule(seed: int) -> None:
    rng = random.Random(seed)
    heaps = [rng.randint(0, 5) for _ in range(rng.randint(1, 4))]
    if not any(heaps):
        heaps[0] = 1
    xor = 0
    for size in heaps:
        xor ^= size
    result = solve(Nim(heaps))
    assert (result.score > 0) == (xor != 0) == _nim_wins(tuple(sorted(heaps)))
    assert abs(result.score) >= WIN_THRESHOLD
    if xor:
        # the winning move leaves a zero XOR
        heap, take = result.best_move
        after = list(heaps)
        after[heap] -= take
        remaining = 0
        for size in after:
            remaining ^= size
        assert remaining == 0


def test_nim_text() -> None:
    game = NimGame()
    position = game.new_position("3, 4 5")
    assert position.heaps == [3, 4, 5]
    assert game.move_text(position, game.parse_move(position, "2:3")) == "2:3"
    with pytest.raises(IllegalMoveError, match="holds 3"):
        game.parse_move(position, "1:4")
    with pytest.raises(InvalidPositionError):
        game.new_position("3,x")


def test_explicit_textbook_tree() -> None:
    game = TreeGame()
    tree = game.new_position("[[3,12,8],[2,4,6],[14,5,2]]")
    result = solve(tree)
    assert (result.score, result.best_move, result.pv) == (3, 0, (0, 0))
    # max(min(max(1, 5), max(2)), min(max(-3, 9))) = max(2, 9)
    assert solve(ExplicitTree([[[1, 5], [2]], [[-3, 9]]])).score == 9
    for text in ("[[1,2],[]]", "[1, 'a']", "[[1,2]", "[[1, 200000]]"):
        with pytest.raises(InvalidPositionError):
            game.new_position(text)


def test_random_trees_are_deterministic() -> None:
    shape = TreeShape(branching=3, depth=5, seed=42, transpositions=10)
    first, second = RandomTree(shape), RandomTree(shape)
    assert solve(first).score == solve(second).score
    assert search(first, SearchLimits(depth=3)).nodes == search(second, SearchLimits(depth=3)).nodes
    game = RandomTreeGame()
    position = game.new_position(game.position_text(first))
    assert position.shape == shape
    with pytest.raises(InvalidPositionError, match="unknown setting"):
        game.new_position("branchin=3")
    with pytest.raises(InvalidPositionError, match="whole number"):
        game.new_position("depth=x")
