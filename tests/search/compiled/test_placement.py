"""The compiled kernel agrees with the pure-Python engine, and its node counts are the
ones it documents (deterministic for its fixed table)."""

from __future__ import annotations

import io
import itertools
import random
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from negamax.cli import progress
from negamax.core.errors import InvalidOptionError
from negamax.core.score import INF, MAX_PLY, WIN_THRESHOLD, Bound, loss_in, to_child_bounds, win_in
from negamax.core.types import SearchLimits, SearchResult
from negamax.games.connect4.board import mirror
from negamax.games.connect4.rules import Connect4Game, position_class
from negamax.games.tictactoe.rules import TicTacToe
from negamax.search import solve
from negamax.search.compiled import families, placement_table
from negamax.search.compiled import placement_kernel as kernel
from negamax.search.compiled import placement_layout as layout
from negamax.search.compiled.placement import CompiledSolver, pons_bounds, pons_to_distance, score_range, table_bits

DATA = Path(__file__).resolve().parents[2] / "data"
GAME = Connect4Game()
TABLE_BITS = 20


@pytest.fixture(scope="module")
def solver() -> CompiledSolver:
    return CompiledSolver()


def _cases(name: str) -> list[tuple[str, int]]:
    rows = (line.split() for line in (DATA / name).read_text().splitlines() if line.strip())
    return [(moves, int(score)) for moves, score in rows]


@pytest.mark.parametrize(
    ("name", "step"),
    [
        ("Test_L3_R1", 10),
        ("Test_L2_R1", 10),
        pytest.param("Test_L3_R1", 1, marks=pytest.mark.slow),
        pytest.param("Test_L2_R1", 1, marks=pytest.mark.slow),
    ],
)
def test_compiled_and_python_agree_on_every_easy_position(solver: CompiledSolver, name: str, step: int) -> None:
    """The compiled solver finds Pons' values; ``tests/games/connect4/test_rules.py`` holds the
    pure-Python search to the same values on the same positions (solving them here again in
    pure Python would double the run's slowest part)."""
    mismatches = []
    for moves, expected in _cases(name)[::step]:
        position = GAME.new_position(moves)
        value, _nodes = solver.solve_value(position)
        if value != expected:
            mismatches.append((moves, expected, value))
    assert mismatches == []


@pytest.mark.parametrize("name", ["Test_L2_R2", "Test_L1_R1", "Test_L1_R2"])
def test_compiled_samples_of_the_harder_sets(solver: CompiledSolver, name: str) -> None:
    for moves, expected in _cases(name)[:: 100 if name != "Test_L1_R2" else 250]:
        position = GAME.new_position(moves)
        assert solver.solve_value(position)[0] == expected


def test_a_crowded_table_keeps_the_values() -> None:
    # 131,072 entries for solves of about a million nodes: most stores replace an entry
    # of their bucket, and the values stay Pons'
    small = CompiledSolver(hash_mib=1)
    assert small.table_mib == 1
    for moves, expected in _cases("Test_L1_R2")[:8]:
        value, nodes = small.solve_value(GAME.new_position(moves))
        assert value == expected
    assert int(small.state[layout.STATE_EXPANDED]) < nodes


def test_table_sizes() -> None:
    assert table_bits(1) == 17 and table_bits(1.5) == 17 and table_bits(1024) == 27
    for bad in (0, 0.5, 8193):
        with pytest.raises(InvalidOptionError, match="MiB"):
            table_bits(bad)


def test_node_counts_are_deterministic_and_documented(solver: CompiledSolver) -> None:
    # On a table of the same size, a fresh solve of a position always visits the same
    # nodes; these figures are the ones the benchmark reports for these positions.
    position = GAME.new_position("2252576253462244111563365343671351441")
    first = solver.solve_value(position)
    assert first == solver.solve_value(position) == (-1, first[1])
    sample = [GAME.new_position(moves) for moves, _ in _cases("Test_L2_R2")[:20]]
    totals = [sum(solver.solve_value(position)[1] for position in sample) for _ in range(2)]
    assert totals[0] == totals[1]


def test_full_result_with_best_move_and_pv(solver: CompiledSolver) -> None:
    position = GAME.new_position("44455554221")
    result = solver.solve(position)
    assert GAME.game_score(position, result.score) == -15 and result.score_text == "loss in 2"
    assert result.bound == Bound.EXACT and result.completed
    assert [GAME.move_text(position, move) for move in result.pv][1:] == ["3"]
    winning = GAME.new_position("2252576253462244111563365343671351441")
    result = solver.solve(winning)
    python = solve(winning, backend="python")
    assert result.score == python.score
    # the PV played out ends the game with the promised result
    board = winning.copy()
    for move in result.pv:
        assert move in board.legal_moves()
        board.play(move)
    assert board.is_terminal()


def test_tictactoe_runs_on_the_same_kernel(solver: CompiledSolver) -> None:
    assert solver.solve(TicTacToe()).score == 0
    rng = random.Random(7)
    for _ in range(100):
        position = TicTacToe()
        for _ply in range(rng.randint(0, 7)):
            move = rng.choice(position.legal_moves())
            position.play(move)
            if position.is_terminal():
                position.undo(move)
                break
        assert solver.solve(position).score == solve(position, backend="python").score


def test_limits_and_stop_give_proven_bounds(solver: CompiledSolver) -> None:
    empty = GAME.new_position("")
    limited = solver.solve(empty, SearchLimits(nodes=200_000))
    assert not limited.completed and limited.lower <= pons_to_distance(empty, 1) <= limited.upper
    stop = threading.Event()
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    stopped = solver.solve(empty, SearchLimits(stop=stop))
    timer.join()
    assert not stopped.completed and stopped.wall_time < 5
    timed = solver.solve(empty, SearchLimits(time=0.3))
    assert not timed.completed and timed.lower <= timed.upper
    progress: list[object] = []
    solver.solve(GAME.new_position("4453"), SearchLimits(time=0.6), on_iteration=progress.append)
    assert progress  # reported while the kernel ran


def test_progress_shows_the_window_and_the_bounds_closing_in(solver: CompiledSolver) -> None:
    position = GAME.new_position("4")  # lost in Pons' -1 (the first player wins with stone 41); minutes to solve
    value = pons_to_distance(position, -1)
    reports: list[SearchResult[Any]] = []
    final = solver.solve(position, SearchLimits(time=1.5), on_iteration=reports.append)
    assert len(reports) >= 3
    lower, upper = reports[0].lower, reports[0].upper
    for report in [*reports, final]:
        assert lower <= report.lower <= report.upper <= upper  # never widens
        lower, upper = report.lower, report.upper
        assert report.lower <= value <= report.upper  # the value stays inside what was proven
        assert report.window is not None
        below, above = report.window
        assert report.lower <= below < above <= report.upper
    stream = io.StringIO()
    progress.progress_printer(GAME, position, stream)(reports[-1])
    low, high = (GAME.game_score(position, value) for value in reports[-1].window or ())
    assert f"window [{low}, {high}]" in stream.getvalue()


@pytest.mark.parametrize("processes", [False, True], ids=["threads", "processes"])
def test_two_workers_give_the_same_values(processes: bool) -> None:
    single = CompiledSolver(threads=1)
    with CompiledSolver(threads=2, processes=processes) as double:
        assert double.processes == processes, double.helper_note
        double.warm_up(GAME.new_position(""), wait_for_helpers=True)
        helped = 0
        for moves, expected in _cases("Test_L1_R2")[:4]:
            position = GAME.new_position(moves)
            assert single.solve_value(position)[0] == double.solve_value(position)[0] == expected
            helped += double.helper_nodes
        assert helped > 0  # the helper process searched, into the shared table
        position = GAME.new_position(_cases("Test_L1_R2")[5][0])
        assert double.solve(position).score == single.solve(position).score


@pytest.mark.parametrize("processes", [False, True], ids=["threads", "processes"])
def test_positions_solved_side_by_side_have_their_own_values(processes: bool) -> None:
    single = CompiledSolver(threads=1)
    cases = _cases("Test_L2_R2")[:6]
    positions = [GAME.new_position(moves) for moves, _ in cases]
    assert not single.solve_each(positions, lambda index: SearchLimits(), lambda index, result: None)
    with CompiledSolver(threads=2, processes=processes, pv_plies=3) as double:
        solved: dict[int, SearchResult[Any]] = {}
        threads = set()

        def on_solved(index: int, result: SearchResult[Any]) -> None:
            solved[index] = result
            threads.add(threading.get_ident())

        assert double.solve_each(positions, lambda index: SearchLimits(), on_solved)
        assert threads == {threading.get_ident()}  # reported on the calling thread
        for index, (_, expected) in enumerate(cases):
            result, position = solved[index], positions[index]
            assert result.completed and result.score == pons_to_distance(position, expected)
            alone = single.solve(position, pv_plies=3)
            assert result.nodes > 0 and result.pv == alone.pv and result.best_move == alone.best_move
            assert result.score == alone.score


def test_side_by_side_solves_keep_their_limits_and_raise_what_goes_wrong() -> None:
    with CompiledSolver(threads=2) as double:
        hard = [GAME.new_position(moves) for moves in ("", "4", "44", "43")]
        solved: dict[int, SearchResult[Any]] = {}
        started = time.perf_counter()
        double.solve_each(hard, lambda index: SearchLimits(time=0.2), solved.__setitem__)
        assert time.perf_counter() - started < 3  # 0.2 s each, two at a time
        assert sorted(solved) == [0, 1, 2, 3] and not any(result.completed for result in solved.values())
        stop = threading.Event()
        stop.set()
        double.solve_each(hard, lambda index: SearchLimits(stop=stop), solved.__setitem__)
        for result in solved.values():  # none started: nothing proven, nothing left of the solves before
            assert (result.lower, result.upper, result.nodes) == (-INF, INF, 0)

        def refuse(index: int) -> SearchLimits:
            raise ValueError(f"no limits for {index}")

        with pytest.raises(ValueError, match="no limits for"):
            double.solve_each(hard, refuse, solved.__setitem__)


def test_helpers_take_work_off_the_main_worker() -> None:
    # The main worker finds what helpers proved below its split points in the table, so it
    # visits fewer nodes than a worker alone (about 70 % on these); values stay exact.
    single = CompiledSolver(threads=1)
    with CompiledSolver(threads=2) as double:
        double.warm_up(GAME.new_position(""), wait_for_helpers=True)
        alone = main = put_off = 0
        # six positions, and more while the helper has not met the main worker yet (on a busy
        # machine it may get little time)
        for number, (moves, expected) in enumerate(_cases("Test_L1_R2")[:24]):
            if number >= 6 and put_off > 0:
                break
            position = GAME.new_position(moves)
            value, nodes = single.solve_value(position)
            shared_value, shared_nodes = double.solve_value(position)
            assert value == shared_value == expected
            alone += nodes
            main += shared_nodes - double.helper_nodes
            put_off += int(double.state[layout.STATE_PUT_OFF])
        assert main < 0.9 * alone
        assert put_off > 0  # the workers met at transpositions, and one gave way


def _mark_as_busy(position: object, plies: int, marks: dict[int, int]) -> None:
    """Marks as if worker area 1 were in every position up to ``plies`` moves down."""
    assert isinstance(position, type(GAME.new_position("")))
    for move in position.legal_moves():
        position.play(move)
        if not position.is_terminal():
            key = position.key()
            index = placement_table.bucket_index(min(key, mirror(key)), TABLE_BITS, 49)
            marks[layout.BUSY_BASE + (index >> 1) % layout.BUSY_SIZE] = index * layout.BUSY_FACTOR + 2
            if plies > 1:
                _mark_as_busy(position, plies - 1, marks)
        position.undo(move)


@pytest.mark.parametrize("number", range(4))
def test_a_child_another_worker_is_in_is_put_off_and_still_searched(number: int) -> None:
    # Marks planted as if another worker were in every position two plies down: the
    # worker puts those children off, comes back to them, and still finds the exact value.
    # It leaves no marks of its own behind (it may replace a planted one while it is in
    # that position, and then clears it).
    moves, expected = _cases("Test_L1_R2")[number]
    root = GAME.new_position(moves)
    marks: dict[int, int] = {}
    _mark_as_busy(root, 2, marks)
    table = np.zeros(placement_table.table_length(TABLE_BITS), dtype=np.int64)
    work = np.zeros(layout.WORK_SIZE, dtype=np.int64)
    for slot, mark in marks.items():
        table[slot] = mark
    work[layout.STATE_PUBLISH] = 1  # area 0: the shared search, alone
    spec, current, mask, count = root.placement_form()
    kernels, spec = families.kernels_for(kernel, spec)  # the game's own kernels, as the solver runs them
    lower, upper = score_range(root)
    assert kernels.solve(spec, current, mask, count, 1, 1 << 62, lower, upper, table, work) == expected
    assert work[layout.STATE_PUT_OFF] > 0
    busy = table[layout.BUSY_BASE : layout.BUSY_BASE + layout.BUSY_SIZE]
    left = {int(slot) + layout.BUSY_BASE: int(busy[slot]) for slot in np.flatnonzero(busy)}
    assert left.items() <= marks.items()


def test_three_workers_share_one_table() -> None:
    single = CompiledSolver(threads=1)
    with CompiledSolver(threads=3) as triple:
        triple.warm_up(GAME.new_position(""), wait_for_helpers=True)
        for moves, expected in _cases("Test_L1_R2")[6:9]:
            position = GAME.new_position(moves)
            assert single.solve_value(position)[0] == triple.solve_value(position)[0] == expected


def test_helpers_join_a_solve_that_starts_while_they_load(monkeypatch: pytest.MonkeyPatch) -> None:
    # The CLI's case: warm_up starts the helpers loading the kernel (from numba's disk
    # cache in a new process: a fraction of a second) and the solve begins at once, so
    # the helper is not ready when the main worker would split. The main worker goes on
    # alone a while, then looks again (it once went on alone to the end).
    from negamax.search.compiled import placement_helper_pool as solver_helpers

    moves, expected = _cases("Test_L1_R3")[3]  # 9.6 M nodes: about a second alone
    position = GAME.new_position(moves)
    with CompiledSolver(threads=2) as compiling:  # compile first: the delay below stands for loading
        compiling.warm_up(position, wait_for_helpers=True)
    help_when_loaded = solver_helpers._help

    def slow_help(spec: object, area: int, table: object, work: object) -> int:
        time.sleep(0.1)
        return help_when_loaded(spec, area, table, work)

    monkeypatch.setattr(solver_helpers, "_help", slow_help)
    with CompiledSolver(threads=2) as double:
        double.warm_up(position)
        assert double.solve_value(position)[0] == expected
        assert double.helper_nodes > 0


@pytest.mark.parametrize("hash_mib", [1, 64])
def test_games_with_narrow_keys_still_use_the_table(hash_mib: int) -> None:
    """Tic-tac-toe's keys take 18 bits and 4x4's 20: the table is laid out for 49 at least,
    so its stored quotient never has a negative width (which left the table unused)."""
    from negamax.games import get_game

    solver = CompiledSolver(hash_mib=hash_mib)
    for name in ("tictactoe", "connect4:4x4"):
        game = get_game(name)
        result = solver.solve(game.new_position(None))
        assert result.stats.tt_hits > 0 and result.stats.tt_cutoffs > 0, name
    assert placement_table.bucket_index(12345, 23, 18) == placement_table.bucket_index(12345, 23, 49)


@pytest.mark.parametrize(
    ("size", "pairs"),
    [("4x4", 60), ("5x4", 400), ("4x5", 400)],  # (400 each: about 6 s; a wrong lost move shows by 150)
)
def test_small_boards_have_the_values_a_plain_minimax_finds(size: str, pairs: int) -> None:
    """Independent values for the solver's rules (dead stones in its keys, claimeven, the
    static look's wins, caps and lost moves: each made wrong fails here): a plain minimax
    written apart from the library, on random positions and the same positions with some
    dead stones recoloured, solved one after another on one table (they share its entries)."""
    from tests.games.connect4.plain_minimax import PlainConnect4
    from tests.games.connect4.test_dead_stones import recolourings

    game = Connect4Game(size)
    shape = game.geometry
    plain = PlainConnect4(shape.width, shape.height)
    solver = CompiledSolver(hash_mib=1)
    make = position_class(shape)
    for current, recoloured, mask in itertools.islice(recolourings(shape, random.Random(size), range(3, 12)), pairs):
        for stones in (current, recoloured):
            value, _nodes = solver.solve_value(make(stones, mask, mask.bit_count()))
            assert value == plain.value(plain.columns(stones, mask)), (size, stones, mask)


def test_true_bounds_give_the_plain_minimax_values_in_fewer_nodes() -> None:
    """A position's value bounds its children's (a book's value, say): solved from there,
    every child still gets the value an independent minimax finds, in fewer nodes; bounds
    between the decisive scores say only on which side of a draw the value lies."""
    from tests.games.connect4.plain_minimax import PlainConnect4
    from tests.games.connect4.test_dead_stones import recolourings

    game = Connect4Game("5x4")
    shape = game.geometry
    plain = PlainConnect4(shape.width, shape.height)
    solver = CompiledSolver(hash_mib=1, pv_plies=0)
    make = position_class(shape)
    nodes = {"from the bounds": 0, "from the score range": 0}
    for current, _, mask in itertools.islice(recolourings(shape, random.Random(5), range(3, 10)), 60):
        position = make(current, mask, mask.bit_count())
        value = pons_to_distance(position, plain.value(plain.columns(current, mask)))
        # at least a little more than a draw, or a win later than the game can last: a win
        if value > 0:
            heuristic, far = (3, INF), (win_in(MAX_PLY), INF)
        elif value < 0:
            heuristic, far = (-INF, -3), (-INF, loss_in(MAX_PLY))
        else:
            heuristic, far = (-3, 3), (loss_in(MAX_PLY), win_in(MAX_PLY))
        for bounds in ((value, value), (value, INF), (-INF, value), heuristic, far):
            result = solver.solve(position, bounds=bounds)
            assert result.completed and result.lower == result.upper == value, (current, mask, bounds)
        for move in position.legal_moves():
            child = position.copy()
            child.play(move)
            if child.is_terminal():
                continue
            _, child_current, child_mask, _ = child.placement_form()
            expected = pons_to_distance(child, plain.value(plain.columns(child_current, child_mask)))
            from_bounds = solver.solve(child, bounds=to_child_bounds(value, value, False))
            from_range = solver.solve(child)
            assert from_bounds.completed and from_bounds.score == from_range.score == expected
            nodes["from the bounds"] += from_bounds.nodes
            nodes["from the score range"] += from_range.nodes
    assert nodes["from the bounds"] < 0.9 * nodes["from the score range"], nodes


@pytest.mark.parametrize(("size", "moves"), [("7x6", ""), ("7x6", "444444353"), ("5x4", "3"), ("5x4", "12345123")])
def test_bounds_in_pons_units_hold_every_value_the_distance_bounds_hold(size: str, moves: str) -> None:
    """Every pair of distance bounds, decisive (up to wins later than the game can last),
    heuristic or infinite, becomes Pons' bounds that keep each value within them; bounds
    that hold no value of the position are refused."""
    position = Connect4Game(size).new_position(moves)
    first, last = score_range(position)
    scores = [0, 3, -3, WIN_THRESHOLD - 1, -WIN_THRESHOLD + 1, -INF, INF]
    scores += [win_in(distance) for distance in range(0, 60, 3)] + [loss_in(distance) for distance in range(0, 60, 3)]
    for lower in scores:
        for upper in (upper for upper in scores if upper >= lower):
            within = [value for value in range(first, last + 1) if lower <= pons_to_distance(position, value) <= upper]
            if not within:
                continue
            start, end = pons_bounds(position, lower, upper)
            assert start <= min(within) and max(within) <= end, (lower, upper)
    with pytest.raises(InvalidOptionError, match="no value"):
        pons_bounds(position, INF, INF)
