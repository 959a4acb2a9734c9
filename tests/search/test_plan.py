"""A call's plan: decided once, by the searcher, from the position, the request and what is
loaded; refused there as the call would refuse it; followed by the call it is given to; and
the presets that make each front end's searcher. No kernel runs here: a plan never loads one."""

from __future__ import annotations

import time

import pytest

from negamax import InvalidOptionError, SearchLimits
from negamax.core.ranges import BATCH_ANALYSIS_HASH_MIB, BENCH_HASH_MIB, DEFAULT_HASH_MIB, PAGE_SEARCH_HASH_MIB
from negamax.games.chess.rules import ChessGame
from negamax.games.connect4.rules import Connect4Game
from negamax.games.nim import NimGame
from negamax.search import Searcher, presets, searcher, warmup
from negamax.search.backend_choice import MOVE_LIST, PLACEMENT, PYTHON, QUICK_PLIES, Plan

CONNECT4 = Connect4Game()


def test_the_plan_names_the_search_a_call_runs_on() -> None:
    game_searcher = Searcher(game=CONNECT4)
    long_solve = game_searcher.plan(CONNECT4.new_position("44455554221"), solving=True)
    assert (long_solve.kind, long_solve.backend, long_solve.monte_carlo) == (PLACEMENT, "compiled", False)
    assert game_searcher.plan(CONNECT4.new_position("4453"), SearchLimits(depth=3), solving=False).kind == MOVE_LIST
    near_the_end = CONNECT4.new_position("562154564361751726662253737734213275114")  # Pons' end-easy set
    assert near_the_end.plies_left() <= QUICK_PLIES
    assert game_searcher.plan(near_the_end, solving=True).kind == PYTHON  # fewer nodes than loading a kernel
    asked_for_python = game_searcher.plan(CONNECT4.new_position("44"), solving=True, algorithm="mtdf")
    assert asked_for_python.backend == "python" and not asked_for_python.quick
    monte_carlo = Searcher().plan(
        NimGame().new_position("3,4"), SearchLimits(nodes=100), solving=False, algorithm="mcts"
    )
    assert monte_carlo.monte_carlo and monte_carlo.kind == PYTHON  # Nim is no game written as rules


def test_the_quick_answer_is_planned_only_where_the_kernel_would_be_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    position = CONNECT4.new_position("44455554221")
    monkeypatch.setattr(warmup, "kernels_on_disk", lambda game: False)
    monkeypatch.setattr(searcher, "_LOADED", set())
    assert Searcher(game=CONNECT4).plan(position, solving=True).quick
    assert not Searcher("compiled", game=CONNECT4).plan(position, solving=True).quick  # insisted on
    assert not Searcher(game=CONNECT4).plan(position, solving=True, multipv=2).quick  # several lines
    assert not Searcher(game=CONNECT4).plan(position, SearchLimits(time=1.0), solving=False).quick  # no depth
    monkeypatch.setattr(warmup, "kernels_on_disk", lambda game: True)
    assert not Searcher(game=CONNECT4).plan(position, solving=True).quick


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Searcher().plan(ChessGame().new_position(None), solving=True), "cannot be solved exactly"),
        (lambda: Searcher().plan(NimGame().new_position("3"), SearchLimits(), solving=False), "give a depth"),
        (lambda: Searcher().plan(NimGame().new_position("3"), SearchLimits(depth=2), solving=True), "use search()"),
        (lambda: Searcher().plan(NimGame().new_position("3"), solving=True, multipv=0), "multipv"),
        (lambda: Searcher("compiled").plan(NimGame().new_position("3"), solving=True), "no compiled backend"),
    ],
)
def test_a_plan_refuses_what_the_call_would(call: object, message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        call()  # type: ignore[operator]


def test_a_call_follows_the_plan_it_is_given() -> None:
    nim = NimGame()
    position = nim.new_position("3,4,5")
    python = Searcher("python")
    plan = python.plan(position, solving=True)
    assert python.solve(position, plan=plan).score == python.solve(position).score
    with pytest.raises(InvalidOptionError, match="takes its limits from it"):
        python.solve(position, SearchLimits(nodes=10), plan=plan)
    with pytest.raises(InvalidOptionError, match="takes its limits from it"):
        python.search(position, plan=plan)  # a solve's plan
    shallow = python.plan(position, SearchLimits(depth=2), solving=False)
    assert python.search(position, plan=shallow).depth == 2  # the plan's limits are the call's


def test_a_searcher_that_does_not_wait_plans_python_until_its_kernel_is_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(searcher, "_LOADED", set())
    started: list[bool] = []
    waiting = Searcher(game=CONNECT4, wait_for_kernel=False, load_wait=0.2)
    monkeypatch.setattr(waiting, "prepare_in_background", lambda command_name=None: started.append(True))
    begun = time.perf_counter()
    plan = waiting.plan(CONNECT4.new_position("4453"), SearchLimits(depth=4, time=10.0), solving=False)
    waited = time.perf_counter() - begun
    assert plan.kind == PYTHON and started  # asked to load, answered meanwhile
    assert plan.limits.time is not None and plan.limits.time <= 10.0 - waited + 0.05  # the wait came off its time
    assert waited >= 0.2


def test_the_presets_take_the_named_table_sizes() -> None:
    chess = ChessGame()
    assert presets.for_library().hash_mib == DEFAULT_HASH_MIB
    assert presets.for_bench(CONNECT4).hash_mib == BENCH_HASH_MIB and presets.for_bench(CONNECT4).backend == "compiled"
    assert presets.for_page_thinking(chess).hash_mib == PAGE_SEARCH_HASH_MIB
    solving = presets.for_page_solving(chess)
    assert solving.keep_tables and solving.pv_plies == 1 and not solving.wait_for_kernel
    assert presets.for_batch(chess, solving=False).hash_mib == BATCH_ANALYSIS_HASH_MIB
    assert not presets.for_batch(chess, solving=False, keep_tables=True).keep_tables  # analyses never keep them
    assert presets.for_batch(CONNECT4, solving=True, keep_tables=True).keep_tables
    engine = presets.for_engine(chess)
    assert engine.backend == "compiled" and engine.keep_tables and engine.load_wait > 0
    assert presets.for_engine(chess, backend="python").backend == "python"
    assert presets.for_command(CONNECT4, solving=True).threads >= 1 and presets.for_command(chess).threads == 1
    assert presets.for_command(chess, playing=True).keep_tables


def test_a_plan_is_a_frozen_value() -> None:
    plan = Searcher("python").plan(NimGame().new_position("3"), solving=True)
    assert isinstance(plan, Plan)
    with pytest.raises(AttributeError):
        plan.kind = PLACEMENT  # type: ignore[misc]
