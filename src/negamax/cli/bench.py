"""``negamax bench``: fixed searches whose total node count is a signature of the engine.

Any change to the search that changes a node count changes the signature, so a change
meant to be speed-only can be checked in one command (as Stockfish's ``bench``).
"""

from __future__ import annotations

import dataclasses
import json
import time

from negamax.core.types import SearchLimits
from negamax.games import get_game
from negamax.search import search, solve
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
)


def run(as_json: bool = False) -> int:
    total_nodes = 0
    total_cpu = 0.0
    rows = []
    for game_name, text, algorithm, depth in CASES:
        game = get_game(game_name)
        position = game.new_position(text)
        options = dataclasses.replace(options_for(algorithm), tt_entries=TABLE_ENTRIES)
        start = time.process_time()
        if depth is None:
            result = solve(position, algorithm=algorithm, options=options)
        else:
            result = search(position, SearchLimits(depth=depth), algorithm=algorithm, options=options)
        cpu = time.process_time() - start
        total_nodes += result.nodes
        total_cpu += cpu
        rows.append(
            {
                "game": game_name,
                "position": text,
                "algorithm": algorithm,
                "depth": depth,
                "score": game.game_score(position, result.score),
                "nodes": result.nodes,
                "cpu_s": round(cpu, 4),
            }
        )
        if not as_json:
            label = f"{game_name} {text[:24] or '(start)'} {algorithm} {'solve' if depth is None else f'depth {depth}'}"
            print(f"{label:<60} score {rows[-1]['score']:>6}  nodes {result.nodes:>9,}")
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
