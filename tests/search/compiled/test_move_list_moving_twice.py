"""The compiled deepening kernel where a player may move twice (Kalah, ``examples/kalah.py``
as a ``CompiledGame``): exact values and fixed-depth values equal to the max/min oracle,
every feature the kernel has for such a game on, and several lines of a solve."""

from __future__ import annotations

import random
from typing import Any

import pytest

from negamax import Searcher, SearchLimits
from negamax.games import get_game
from tests import oracle

pytest.importorskip("numba")
pytestmark = pytest.mark.compiles  # Kalah's own kernel: about 20 CPU-s the first time

from negamax.search.compiled import move_list_layout as layout  # noqa: E402
from negamax.search.compiled.move_list import CompiledSearcher  # noqa: E402


@pytest.fixture(scope="module")
def kalah() -> Any:
    return get_game(f"{oracle.EXAMPLE}:CompiledKalah")


def pairs(game: Any, count: int, seed: int, seeds_left: int) -> list[tuple[Any, Any]]:
    """(compiled, plain) Kalah positions after the same random moves from the start (6 pits of
    4), played on until at most ``seeds_left`` seeds are left in the rows."""
    generator = random.Random(seed)
    found = []
    while len(found) < count:
        compiled, plain = game.new_position(), oracle.kalah(6, 4)
        while not plain.is_terminal() and sum(plain.board) - plain.board[6] - plain.board[13] > seeds_left:
            pit = generator.choice(plain.legal_moves())
            compiled.play(game.parse_move(compiled, str(pit)))
            plain.play(pit)
        if not plain.is_terminal():
            assert compiled.player() == plain.player()
            found.append((compiled, plain))
    return found


def test_every_size_on_one_kernel_has_its_known_value() -> None:
    searcher = Searcher("compiled")
    for (pits, seeds), value in oracle.FIRST_PLAYER_VALUES.items():
        game = get_game(f"{oracle.EXAMPLE}:CompiledKalah({pits}, {seeds})")
        assert searcher.solve(game.new_position()).score == value == oracle.minimax(oracle.kalah(pits, seeds))


def test_exact_values_are_the_oracles(kalah: Any) -> None:
    searcher = Searcher("compiled")
    for compiled, plain in pairs(kalah, 8, seed=3, seeds_left=14):
        result = searcher.solve(compiled)
        assert result.completed and result.score == oracle.minimax(plain)
        assert result.best_move in compiled.legal_moves()


def test_fixed_depth_values_are_the_oracles(kalah: Any) -> None:
    # no table: a position met at several depths (a move again lengthens a line) keeps
    # each depth's value
    searcher = CompiledSearcher(hash_mib=1, features=layout.PVS | layout.KILLER_MOVES)
    for compiled, plain in pairs(kalah, 6, seed=4, seeds_left=30):
        for depth in (1, 2, 5):
            assert searcher.search(compiled, SearchLimits(depth=depth)).score == oracle.minimax(plain, depth), depth


def test_every_move_of_a_solve_has_the_oracles_value(kalah: Any) -> None:
    compiled, plain = pairs(kalah, 1, seed=6, seeds_left=12)[0]
    result = Searcher("compiled").solve(compiled, multipv=8)
    assert result.completed and len(result.lines) == len(plain.legal_moves())
    for line in result.lines:
        pit = int(kalah.move_text(compiled, line.move))
        child = plain.copy()
        child.play(pit)
        value = oracle.minimax(child)
        assert line.score == (value if child.player() == plain.player() else -value), pit
