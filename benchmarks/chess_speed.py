"""The compiled chess's speed: what a move costs, and the nodes and CPU time to a fixed depth.

Two figures. A move's cost: playing, evaluating and unplaying every move of one middlegame
position in a compiled loop, the best of five rounds (the evaluation's share is the
difference from the same loop without it). To a depth: the 24 Bratko-Kopec positions, each
searched from an empty table with one thread; the node count changes only when the search or
the evaluation does, so a change meant to be only faster must leave it alone.

Run: ``python benchmarks/chess_speed.py --depth 11`` (about half a minute once compiled).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import chess
import numpy as np
from numba import njit

from negamax.core.types import SearchLimits
from negamax.games.chess import compiled as chess_compiled
from negamax.games.chess.kernel import evaluation, layout, make_move
from negamax.games.chess.rules import ChessPosition
from negamax.search.compiled.move_list import CompiledSearcher

SUITE = Path(__file__).resolve().parents[1] / "tests" / "data" / "chess" / "bk.epd"
MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 9"
ROUNDS = 20_000


@njit  # not cached: a cached copy would keep the chess code of whichever build compiled it
def _moves(state: np.ndarray, moves: np.ndarray, count: int, rounds: int, evaluate: bool) -> int:
    total = 0
    for _ in range(rounds):
        for index in range(count):
            make_move.play(state, moves[index])
            total += evaluation.evaluate(state) if evaluate else state[layout.HASH] & 1
            make_move.unplay(state, moves[index])
    return total


def best_time(work: Callable[[], object], repeats: int = 5) -> float:
    """The least CPU time of ``repeats`` runs of ``work``."""
    times = []
    for _ in range(repeats):
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return min(times)


def move_cost() -> tuple[float, float]:
    """Nanoseconds per move played, evaluated and unplayed, and per move without evaluating."""
    state = chess_compiled.new_state(chess.Board(MIDDLEGAME))
    moves = np.zeros(256, dtype=np.int64)
    count = moves.generate(state, moves, 0, False)
    costs = []
    for evaluate in (True, False):
        _moves(state, moves, count, 1, evaluate)
        seconds = best_time(lambda evaluate=evaluate: _moves(state, moves, count, ROUNDS, evaluate))
        costs.append(seconds / (ROUNDS * count) * 1e9)
    return costs[0], costs[1]


def to_depth(depth: int) -> tuple[int, float]:
    """Nodes and CPU-seconds for the Bratko-Kopec positions to ``depth``, one thread, 64 MiB."""
    lines = [line for line in SUITE.read_text().splitlines() if line.strip() and not line.startswith("#")]
    boards = [chess.Board.from_epd(line)[0] for line in lines]
    searcher = CompiledSearcher(64, threads=1)
    searcher.warm_up(ChessPosition(chess.Board()))
    nodes = 0
    started = time.process_time()
    for board in boards:
        searcher.clear()
        nodes += searcher.search(ChessPosition(board), SearchLimits(depth=depth)).nodes
    return nodes, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=10, help="Bratko-Kopec search depth")
    arguments = parser.parse_args()
    with_evaluation, without = move_cost()
    print(f"a move played, evaluated and unplayed: {with_evaluation:.0f} ns ({without:.0f} ns without evaluating)")
    nodes, seconds = to_depth(arguments.depth)
    print(
        f"Bratko-Kopec to depth {arguments.depth}, one thread: {nodes:,} nodes in {seconds:.2f} CPU-s "
        f"({nodes / seconds / 1e6:.2f} M nodes per CPU-second)"
    )


if __name__ == "__main__":
    main()
