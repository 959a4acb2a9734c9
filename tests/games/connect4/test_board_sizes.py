"""Connect 4 on boards other than 7x6 (``connect4:WIDTHxHEIGHT``): the values of every
board with width + height <= 11, the two engines agreeing, and the notation of wide boards."""

import random

import pytest

from negamax import get_game
from negamax.core.errors import InvalidOptionError, InvalidPositionError, UnknownGameError
from negamax.core.game import MoveListPosition, PlacementPosition
from negamax.core.types import SearchLimits
from negamax.games.connect4.board import STANDARD, geometry, mirror, mirror_on
from negamax.games.connect4.rules import Connect4, Connect4Game
from negamax.search import search, solve
from negamax.search.compiled.move_list import CompiledSearcher
from negamax.search.searcher import Searcher

PUBLISHED = {"4x4": 0, "5x4": 0, "4x5": 0, "5x5": 0, "6x5": 0, "6x4": -1}
"""Tromp's outcomes (confirmed by Steininger's solver) in Pons' scores: 0 a draw; -1 the
second player wins with the board's last stone."""

SMALL_BOARDS = [f"{width}x{total - width}" for total in range(2, 12) for width in range(1, total)]


def expected_value(size: str) -> int:
    """Every board with width + height <= 11 is a draw but 6x4 (published). Where no
    outcome is published (the boards narrower or lower than four, 4x6, 4x7, 5x6, 7x4, ...),
    the pure-Python search checks the compiled one below, on the boards it solves fast."""
    return PUBLISHED.get(size, 0)


def solved_value(size: str, engine: str) -> int:
    game = Connect4Game(size)
    position = game.new_position()
    return game.game_score(position, solve(position, backend=engine).score)


@pytest.mark.parametrize("size", SMALL_BOARDS)
def test_every_board_up_to_eleven_has_its_value_on_the_compiled_solver(size: str) -> None:
    assert solved_value(size, "compiled") == expected_value(size)


PYTHON_BOARDS = [size for size in SMALL_BOARDS if sum(map(int, size.split("x"))) <= 10]
SLOW_PYTHON = {"4x6", "5x5", "6x4"}  # 2-3.5 s each in pure Python


@pytest.mark.parametrize(
    "size", [pytest.param(size, marks=pytest.mark.slow) if size in SLOW_PYTHON else size for size in PYTHON_BOARDS]
)
def test_the_pure_python_search_finds_the_same_values(size: str) -> None:
    assert solved_value(size, "python") == expected_value(size)


def test_every_position_two_plies_into_5x4_has_the_same_value_on_both_engines() -> None:
    game = Connect4Game("5x4")
    for first in "123":  # columns 4 and 5 are the mirror images of 2 and 1
        for second in "12345":
            position = game.new_position(first + second)
            python = solve(position, backend="python")
            compiled = solve(position, backend="compiled")
            assert (first + second, compiled.score) == (first + second, python.score)


def test_scores_follow_pons_generalised() -> None:
    game = Connect4Game("5x4")
    position = game.new_position("112233")  # X completes the bottom row with its 7th stone
    result = solve(position)
    assert result.score_text == "win in 1"
    assert game.game_score(position, result.score) == (20 + 2 - 7) // 2
    assert game.render(position).splitlines()[-3:-1] == ["O O O . .", "X X X . ."]


def test_each_size_gets_the_engines_its_board_fits() -> None:
    assert type(Connect4Game().new_position()) is Connect4
    # the backend named: "auto" answers a search this short in Python while no kernel is on disk
    six_by_seven = Connect4Game("6x7").new_position()  # 48 bits: both compiled searches
    assert isinstance(six_by_seven, PlacementPosition)
    assert isinstance(six_by_seven, MoveListPosition)
    assert search(six_by_seven, SearchLimits(depth=4), backend="compiled").algorithm == "compiled"
    eight_by_seven = Connect4Game("8x7").new_position()  # 64 bits: both compiled searches
    assert isinstance(eight_by_seven, PlacementPosition)
    assert isinstance(eight_by_seven, MoveListPosition)
    assert search(eight_by_seven, SearchLimits(depth=4), backend="compiled").algorithm == "compiled"
    sixteen_by_two = Connect4Game("16x2").new_position()  # 16 columns: pure Python only
    assert not isinstance(sixteen_by_two, PlacementPosition | MoveListPosition)
    with pytest.raises(InvalidOptionError, match="no compiled backend"):
        solve(sixteen_by_two, backend="compiled")
    assert solve(sixteen_by_two, SearchLimits(nodes=2_000)).completed is False


def random_position(game: Connect4Game, rng: random.Random, empty: int, full_column: int | None = None) -> Connect4:
    """A random position with ``empty`` cells left and no winner yet (with column
    ``full_column`` filled first, if given)."""
    while True:
        position = game.new_position()
        column = game.geometry.height * [full_column] if full_column is not None else []
        for move_column in column:
            position.play(position.column_move(move_column))
        while position.moves < game.geometry.cells - empty and not position.is_terminal():
            position.play(rng.choice(list(position.legal_moves())))
        if not position.is_terminal():
            return position


WIDE_BOARDS = ["7x7", "8x6", "6x8", "9x5", "5x9", "10x4", "9x6", "8x7", "4x15"]
"""Boards whose keys take more than 49 bits: 56, 56, 54, 54, 50, 50, 63, 64 and 64."""


@pytest.mark.parametrize("size", WIDE_BOARDS)
def test_boards_of_up_to_64_bits_are_solved_as_the_pure_python_search_solves_them(size: str) -> None:
    """The compiled solver's table tells apart keys of up to 64 bits: on boards past 49
    bits it finds the pure-Python values, also with the last column full, where a key of
    64 bits has its top bit (the last column's sentinel) set."""
    game = Connect4Game(size)
    rng = random.Random(size)
    searcher = Searcher(backend="compiled", hash_mib=128)
    last = game.geometry.width - 1
    positions = [random_position(game, rng, rng.randrange(16, 20)) for _ in range(4)]
    positions += [random_position(game, rng, rng.randrange(14, 18), full_column=last) for _ in range(2)]
    for position in positions:
        found = searcher.solve(position.copy())
        assert found.algorithm == "compiled"
        assert found.score == solve(position, backend="python").score, game.position_text(position)


WIDTH_PLUS_HEIGHT_14 = {"5x9": 0, "10x4": -1}
"""Published outcomes (Tromp) of two width + height = 14 boards past 49 bits, in Pons'
scores: 5x9 a draw, 10x4 a second-player win (with the board's last stone)."""


@pytest.mark.slow
@pytest.mark.parametrize("size", WIDTH_PLUS_HEIGHT_14)
def test_width_plus_height_14_boards_have_their_published_values_on_the_compiled_solver(size: str) -> None:
    """30 and 390 CPU-s here (``benchmarks/connect4_sizes.py --only 5x9 10x4``)."""
    assert solved_value(size, "compiled") == WIDTH_PLUS_HEIGHT_14[size]


def test_a_solver_moves_between_key_widths_without_mixing_their_entries() -> None:
    """One solver, boards of 49, 64 and again 49 bits: each solve's value and node count
    are those of a fresh solver (the table is emptied when the keys' width changes)."""
    from negamax.search.compiled.placement import CompiledSolver

    rng = random.Random(64)
    standard = random_position(Connect4Game(), rng, 22)
    wide = random_position(Connect4Game("8x7"), rng, 22)
    shared = CompiledSolver(hash_mib=128)
    for position in (standard, wide, standard):
        assert shared.solve_value(position) == CompiledSolver(hash_mib=128).solve_value(position)


def test_a_64_bit_board_gets_a_table_of_128_mib_unless_told_a_smaller_one() -> None:
    position = Connect4Game("8x7").new_position("4444")
    with pytest.raises(InvalidOptionError, match=r"at least 128 MiB \(--hash 128\), not 64"):
        Searcher(backend="compiled", hash_mib=64).solve(position, SearchLimits(nodes=10_000))
    from negamax.search.compiled.placement import CompiledSolver

    for threads in (1, 2):
        solver = CompiledSolver(threads=threads)  # the default 64 MiB grows, helpers and all
        try:
            assert solver.solve(position, SearchLimits(nodes=200_000)).nodes > 0
            assert solver.table_mib == 128 and solver.threads == threads
        finally:
            solver.close()


def test_the_widest_compiled_boards_keep_their_table_entries_apart() -> None:
    """A table entry keeps the best column's slot + 1 in 4 bits: 15 columns at most."""
    assert not isinstance(Connect4Game("16x2").new_position(), PlacementPosition)
    rng = random.Random(15)
    for size, stones in (("15x1", 0), ("15x2", 16), ("15x2", 18), ("15x2", 22)):
        game = Connect4Game(size)
        position = game.new_position()
        while position.moves < stones:
            position = game.new_position()
            for _ in range(stones):
                moves = list(position.legal_moves())
                if position.is_terminal() or not moves:
                    break
                position.play(rng.choice(moves))
        assert solve(position, backend="compiled").score == solve(position, backend="python").score


@pytest.mark.parametrize(
    ("size", "count"), [("7x6", 25), ("6x7", 8), ("5x4", 8), ("10x3", 8), ("4x9", 8), ("8x7", 8), ("4x15", 6)]
)
def test_the_compiled_search_to_a_depth_finds_the_python_value_on_every_size(size: str, count: int) -> None:
    """Connect 4's rules for the compiled search (``connect4_compiled.RULES``) against the
    pure-Python game: the same fixed-depth values from random positions, and a legal move
    that heads its line."""
    game = Connect4Game(size)
    searcher = CompiledSearcher(hash_mib=1)
    rng = random.Random(size)
    compared = 0
    while compared < count:
        position = game.new_position(None)
        for _ in range(rng.randrange(0, game.geometry.cells // 2)):
            if position.is_terminal():
                break
            position.play(rng.choice(list(position.legal_moves())))
        if position.is_terminal():
            continue
        depth = rng.randrange(1, 7)
        expected = search(position, SearchLimits(depth=depth), backend="python", algorithm="alphabeta-tt")
        found = searcher.search(position, SearchLimits(depth=depth))
        assert found.score == expected.score, (game.position_text(position), depth)
        assert found.best_move in position.legal_moves()
        assert found.pv and found.pv[0] == found.best_move
        compared += 1


def test_the_compiled_search_to_a_depth_fills_and_empties_the_last_column_of_a_64_bit_board() -> None:
    """On 8x7 the last column's sentinel is bit 63: the compiled rules take back a move that
    filled that column without touching it (a sum would carry into it)."""
    game = Connect4Game("8x7")
    searcher = CompiledSearcher(hash_mib=1)
    for start in ("8888881", "88888812", "1888888"):
        position = game.new_position(start)
        for depth in (2, 3, 4):
            expected = search(position, SearchLimits(depth=depth), backend="python", algorithm="alphabeta-tt")
            assert searcher.search(position, SearchLimits(depth=depth)).score == expected.score, (start, depth)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("connect4:8x8", "does not fit: .* at most 64, here 72"),
        ("connect4:7", "write it as WIDTHxHEIGHT"),
        ("connect4:0x6", "at least one column"),
        ("connect4:axb", "write it as WIDTHxHEIGHT"),
    ],
)
def test_bad_sizes_are_refused_in_one_line(name: str, message: str) -> None:
    with pytest.raises(UnknownGameError, match=message) as raised:
        get_game(name)
    assert "\n" not in str(raised.value)


def test_wide_boards_write_columns_past_nine_as_letters() -> None:
    game = get_game("connect4:10x5")
    assert game.name == "connect4:10x5"
    position = game.new_position("1a")
    assert game.render(position).splitlines()[-1] == "1 2 3 4 5 6 7 8 9 a"
    assert [game.move_text(position, move) for move in position.legal_moves()][-1] == "a"  # centre first
    assert game.move_text(position, game.parse_move(position, "A")) == "a"
    assert game.new_position(game.position_text(position)).key() == position.key()
    assert game.symmetric_move_text("1", 1) == "a"
    reflected = game.new_position("a1")
    assert game.book_key(position)[0] == game.book_key(reflected)[0]
    with pytest.raises(InvalidPositionError, match="is not a column 1-a"):
        game.new_position("1b")


def test_the_unrolled_7x6_mirror_is_the_general_one() -> None:
    position = Connect4Game().new_position("1122337")
    key = position.key()
    assert mirror(key) == mirror_on(key, STANDARD.width, STANDARD.stride)
    assert geometry(7, 6) is STANDARD


@pytest.mark.parametrize("size", ["5x4", "6x4", "4x6"])
def test_the_claimeven_ceiling_never_falls_below_the_value_the_pure_python_search_finds(size: str) -> None:
    """The solver's rule (``claimeven_ceiling``, step 6 of a node) against exact values from
    the pure-Python search, which knows nothing of it: never below the value, and sharp
    (equal to it) on most positions where it says anything."""
    from negamax.games.connect4.compiled import NO_CEILING, claimeven_ceiling

    game = Connect4Game(size)
    shape = game.geometry
    rng = random.Random(size)
    bounded = sharp = 0
    for _ in range(400):
        position = random_position(game, rng, rng.randrange(6, 14))
        if position.moves % 2:
            continue
        ceiling = claimeven_ceiling(
            position.current, position.mask, position.moves, shape.bottom, shape.board, shape.even_rows, shape.stride
        )
        if ceiling == NO_CEILING:
            continue
        value = game.game_score(position, solve(position, backend="python").score)
        assert value <= ceiling, game.position_text(position)
        bounded += 1
        sharp += value == ceiling
    assert bounded >= 20 and sharp > bounded // 2
