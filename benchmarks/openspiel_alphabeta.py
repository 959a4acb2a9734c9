"""OpenSpiel's games: our search against OpenSpiel's own ``alpha_beta_search``, same
positions, same depth, one run (``pip install 'negamax[openspiel]'``).

OpenSpiel's search is plain alpha-beta in Python over its C++ states, copying the state at
every node, with no table, ordering or deepening. Ours runs through ``openspiel:NAME``
(make/unmake by ``undo_action`` where it works), with the default engine (``auto``:
the pure-Python search's table, killers and null-window solving). Values are compared as
OpenSpiel gives them: 1, -1 or 0 for the player to move (0 also for "nothing decided
within the depth": neither side evaluates). Nodes of OpenSpiel's search are its calls of
``_alpha_beta``, counted in a separate run from the one timed.

    python benchmarks/openspiel_alphabeta.py
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from open_spiel.python.algorithms import minimax

from negamax import SearchLimits, get_game, search, solve
from negamax.core.score import WIN_THRESHOLD

CASES = (
    # (game, random plies before the position, positions, depth or None to solve)
    ("tic_tac_toe", 0, 1, None),
    ("tic_tac_toe", 2, 4, None),
    ("connect_four", 24, 3, None),
    ("nim", 0, 1, None),
    ("breakthrough(rows=6,columns=6)", 8, 5, 5),
)


def outcome(score: int) -> int:
    return 1 if score >= WIN_THRESHOLD else -1 if score <= -WIN_THRESHOLD else 0


def sample(name: str, plies: int, count: int, seed: int) -> list[Any]:
    game = get_game(f"openspiel:{name}")
    generator = random.Random(seed)
    found = []
    while len(found) < count:
        position = game.new_position()
        for _ in range(plies):
            if position.is_terminal():
                break
            position.play(generator.choice(position.legal_moves()))
        if not position.is_terminal():
            found.append(position)
    return found


def theirs(position: Any, depth: int | None) -> float:
    value_function = None if depth is None else (lambda state: 0.0)
    value, _ = minimax.alpha_beta_search(
        position.game.spiel, position.state.clone(), value_function=value_function, maximum_depth=depth or 1000
    )
    return float(value)


def their_nodes(position: Any, depth: int | None) -> int:
    counted = 0
    original = minimax._alpha_beta

    def counting(*arguments: Any, **keywords: Any) -> Any:
        nonlocal counted
        counted += 1
        return original(*arguments, **keywords)

    minimax._alpha_beta = counting
    try:
        theirs(position, depth)
    finally:
        minimax._alpha_beta = original
    return counted


def main() -> int:
    columns = ("value", 7), ("OpenSpiel nodes", 17), ("CPU s", 9), ("our nodes", 12), ("CPU s", 9), ("nodes", 8)
    print(f"{'case':<40}" + "".join(f"{name:>{width}}" for name, width in columns) + f"{'time':>8}")
    agree = True
    for name, plies, count, depth in CASES:
        for number, position in enumerate(sample(name, plies, count, seed=11)):
            start = time.process_time()
            expected = theirs(position, depth)
            their_cpu = time.process_time() - start
            counted = their_nodes(position, depth)
            start = time.process_time()
            result = solve(position) if depth is None else search(position, SearchLimits(depth=depth))
            our_cpu = time.process_time() - start
            same = outcome(result.score) == expected
            agree &= same
            label = f"{name} {'solve' if depth is None else f'depth {depth}'} #{number + 1}"
            print(
                f"{label:<40}{expected:>7.0f}{counted:>17,}{their_cpu:>9.3f}{result.nodes:>12,}{our_cpu:>9.3f}"
                f"{counted / max(result.nodes, 1):>7.1f}x{their_cpu / max(our_cpu, 1e-6):>7.1f}x"
                + ("" if same else "  VALUES DIFFER")
            )
    print("every value equals OpenSpiel's" if agree else "values differ: a bug")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
