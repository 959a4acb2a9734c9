"""``negamax bench``: fixed searches whose total node count is a signature of the engine.

Any change to the search that changes a node count changes the signature, so a change
meant to be speed-only can be checked in one command (as Stockfish's ``bench``).
``--compiled`` adds the compiled kernels: chess and international draughts to a fixed
depth, Connect 4 solved (each from an empty table, on one thread; the first run compiles
the kernels).
"""

from __future__ import annotations

import dataclasses
import json
import time
from typing import Any

from negamax.core.types import SearchLimits
from negamax.games import get_game
from negamax.search import Searcher, presets, search, solve
from negamax.search.params import options_for

TABLE_ENTRIES = 100_003
"""A fixed table size, so the signature does not depend on the default size."""

CASES = (
    # (game, position, algorithm, depth or None to solve)
    ("tictactoe", "", "auto", None),
    ("tictactoe", "", "alphabeta", None),
    ("nim", "3,4,5", "auto", None),
    ("connect4", "", "auto", 8),
    ("connect4", "4453", "pvs", 8),
    ("connect4", "2252576253462244111563365343671351441", "auto", None),
    ("connect4", "44455554221", "auto", None),
    ("connect4", "7422341735647741166133573473242566", "mtdf", None),
    ("random", "branching=4,depth=8,seed=1,transpositions=300", "auto", 8),
    # a tree in which a player moves again at about a third of the nodes
    ("random", "branching=4,depth=8,seed=2,transpositions=300,again=30", "auto", None),
)

COMPILED_CASES = (
    # (game, position, depth or None to solve): the Bratko-Kopec test's first positions,
    # draughts' usual first moves, Connect 4 positions of Pascal Pons' test sets (Middle-Medium,
    # Begin-Medium)
    ("chess", "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1", 12),
    ("chess", "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1", 12),
    ("chess", "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1", 12),
    ("chess", "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1", 12),
    ("draughts", "start", 14),
    ("draughts", "start moves 32-28 18-23", 14),
    ("draughts", "start moves 33-29 17-21", 14),
    ("connect4", "274552224131661", None),
    ("connect4", "32751571231557", None),
    ("connect4", "335662333565", None),
)


def _python_case(game_name: str, text: str, algorithm: str, depth: int | None) -> tuple[Any, Any]:
    game = get_game(game_name)
    position = game.new_position(text)
    options = dataclasses.replace(options_for(algorithm), tt_entries=TABLE_ENTRIES)
    if depth is None:
        return game, (position, solve(position, algorithm=algorithm, options=options))
    return game, (position, search(position, SearchLimits(depth=depth), algorithm=algorithm, options=options))


def run(as_json: bool = False, compiled: bool = False) -> int:
    total_nodes = 0
    total_cpu = 0.0
    rows = []

    def record(game: Any, position: Any, text: str, algorithm: str, depth: int | None, result: Any, cpu: float) -> None:
        nonlocal total_nodes, total_cpu
        total_nodes += result.nodes
        total_cpu += cpu
        rows.append(
            {
                "game": game.name,
                "position": text,
                "algorithm": algorithm,
                "depth": depth,
                "score": game.game_score(position, result.score),
                "nodes": result.nodes,
                "cpu_s": round(cpu, 4),
            }
        )
        if not as_json:
            label = f"{game.name} {text[:24] or '(start)'} {algorithm} {'solve' if depth is None else f'depth {depth}'}"
            print(f"{label:<60} score {rows[-1]['score']:>6}  nodes {result.nodes:>9,}", flush=True)

    for game_name, text, algorithm, depth in CASES:
        start = time.process_time()
        game, (position, result) = _python_case(game_name, text, algorithm, depth)
        record(game, position, text, algorithm, depth, result, time.process_time() - start)
    if compiled:
        searchers: dict[str, Searcher] = {}
        for game_name, text, depth in COMPILED_CASES:
            game = get_game(game_name)
            position = game.new_position(text)
            searcher = searchers.setdefault(game_name, presets.for_bench(game))
            searcher.prepare(position)  # compiled or loaded outside the time counted
            start = time.process_time()
            limits = SearchLimits(depth=depth)
            result = searcher.solve(position) if depth is None else searcher.search(position, limits)
            record(game, position, text, "compiled", depth, result, time.process_time() - start)
    speed = total_nodes / total_cpu if total_cpu > 0 else 0.0
    if as_json:
        print(
            json.dumps(
                {"cases": rows, "nodes": total_nodes, "cpu_s": round(total_cpu, 4), "nodes_per_second": round(speed)}
            )
        )
    else:
        print(f"Bench: {total_nodes} nodes, {total_cpu:.2f} s CPU, {speed:,.0f} nodes/s")
    return 0
