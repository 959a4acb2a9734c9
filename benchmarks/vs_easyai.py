"""negamax against easyAI (PyPI ``easyAI``, the ``bench`` extra), measured in one run.

Cases: the tic-tac-toe full solve, and Connect 4 positions searched to equal depth with
each library's own game implementation. For each: nodes, CPU time, nodes per CPU-second,
and the ratio of negamax's nodes/s to easyAI's. easyAI's nodes are counted in a separate
instrumented run (every node but the root is entered by one ``make_move``), so the
timed run carries no counting overhead.

Run: ``pip install '.[bench]' && python benchmarks/vs_easyai.py``
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from typing import Any

from easyAI import AI_Player, Negamax
from easyAI.games import ConnectFour, TicTacToe

from negamax.core.types import SearchLimits
from negamax.games import get_game
from negamax.search import search, solve
from negamax.search.params import options_for

CONNECT4_POSITIONS = ["", "4453", "44455554221", "3344523"]


def _counted(cls: type) -> type:
    class Counted(cls):  # type: ignore[misc, valid-type]
        moves_made = 0

        def make_move(self, move: Any) -> None:
            Counted.moves_made += 1
            super().make_move(move)

    return Counted


def _easyai_game(cls: type, moves: str, one_based: bool) -> Any:
    game = cls([AI_Player(Negamax(1)), AI_Player(Negamax(1))])
    for char in moves:
        game.make_move(int(char) - (0 if one_based else 1))
        game.switch_player()
    return game


def easyai_run(cls: type, moves: str, depth: int, one_based: bool) -> tuple[int, float, Any]:
    counted = _counted(cls)
    game = _easyai_game(counted, moves, one_based)
    counted.moves_made = 0
    Negamax(depth)(game)
    nodes = counted.moves_made + 1
    game = _easyai_game(cls, moves, one_based)
    start = time.process_time()
    move = Negamax(depth)(game)
    return nodes, time.process_time() - start, move


def negamax_run(game_name: str, text: str, depth: int | None, algorithm: str) -> tuple[int, float, int]:
    game = get_game(game_name)
    position = game.new_position(text)
    options = options_for(algorithm)
    start = time.process_time()
    if depth is None:
        result = solve(position, options=options, algorithm=algorithm)
    else:
        result = search(position, SearchLimits(depth=depth), options=dataclasses.replace(options), algorithm=algorithm)
    return result.nodes, time.process_time() - start, result.score


def row(label: str, nodes: int, cpu: float) -> dict[str, Any]:
    return {"case": label, "nodes": nodes, "cpu_s": cpu, "nps": nodes / cpu if cpu > 0 else 0.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=6, help="Connect 4 search depth (default 6)")
    arguments = parser.parse_args()
    print(f"{'case':<44}{'nodes':>11}{'CPU s':>10}{'nodes/CPU-s':>14}{'nps ratio':>11}{'time ratio':>12}")
    cases: list[tuple[str, tuple[int, float, Any], list[tuple[str, tuple[int, float, int]]]]] = []
    cases.append(
        (
            "tictactoe solve (depth 9)",
            easyai_run(TicTacToe, "", 9, one_based=True),
            [(name, negamax_run("tictactoe", "", None, name)) for name in ("alphabeta", "auto")],
        )
    )
    for moves in CONNECT4_POSITIONS:
        cases.append(
            (
                f"connect4 '{moves}' depth {arguments.depth}",
                easyai_run(ConnectFour, moves, arguments.depth, one_based=False),
                [
                    (name, negamax_run("connect4", moves, arguments.depth, name))
                    for name in ("alphabeta", "pvs", "auto")
                ],
            )
        )
    for label, (peer_nodes, peer_cpu, _), ours in cases:
        peer = row(f"{label}: easyAI Negamax", peer_nodes, peer_cpu)
        print(f"{peer['case']:<44}{peer_nodes:>11,}{peer_cpu:>10.3f}{peer['nps']:>14,.0f}")
        for name, (nodes, cpu, _score) in ours:
            mine = row(f"{label}: negamax {name}", nodes, cpu)
            ratio = mine["nps"] / peer["nps"] if peer["nps"] else float("inf")
            speedup = peer_cpu / cpu if cpu > 0 else float("inf")
            print(f"{mine['case']:<44}{nodes:>11,}{cpu:>10.3f}{mine['nps']:>14,.0f}{ratio:>10.1f}x{speedup:>11.1f}x")


if __name__ == "__main__":
    main()
