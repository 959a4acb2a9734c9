"""A game written by a user, both ways: plain Python against ``CompiledGame``, in one run.

* Breakthrough 5x5 (``examples/breakthrough.py``): the same value on every one of
  ``--positions`` random positions (a depth-4 search with no table on both sides: the
  plain fixed-depth minimax value), the same exact value on ``--solves`` late positions,
  then nodes per CPU-second of each engine's default search on the same positions.
* Othello 6x6 (``examples/othello.py``, ``--game othello``): the same checks, on a game
  whose ``undo`` needs more than the move.
* 4x4 tic-tac-toe (``docs/your-own-game.md``): the empty board solved both ways.

    python benchmarks/your_game.py [--game othello] [--positions 200] [--solves 20] [--depth 8]

The compiled kernels are compiled (or loaded) before any clock starts.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

from negamax import SearchLimits, search, solve

ROOT = Path(__file__).resolve().parents[1]


def load_module(name: str, path: Path, source: str | None = None) -> Any:
    if source is not None:
        path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def guide_module(directory: Path) -> Any:
    """The code of the guide's blocks (not its interactive examples), as a module."""
    text = (ROOT / "docs" / "your-own-game.md").read_text()
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    source = "\n\n".join(block for block in blocks if not block.lstrip().startswith(">>>"))
    return load_module("your_own_game", directory / "your_own_game.py", source)


GAMES = {
    # name: (file in examples/, the CompiledGame, the plain position, its title, plies of the
    # random positions, of the solved ones)
    "breakthrough": ("breakthrough.py", "Breakthrough", "BreakthroughPosition", "Breakthrough 5x5", 20, range(16, 24)),
    "othello": ("othello.py", "Othello6", "OthelloPosition", "Othello 6x6", 20, range(22, 26)),
}


def random_pairs(module: Any, count: int, plies: range, seed: int, game_name: str = "breakthrough") -> list[Any]:
    _, compiled_class, plain_class, *_ = GAMES[game_name]
    game = getattr(module, compiled_class)()
    generator = random.Random(seed)
    pairs = []
    while len(pairs) < count:
        compiled, plain = game.new_position(), getattr(module, plain_class)()
        for _ in range(generator.choice(plies)):
            if compiled.is_terminal():
                break
            move = generator.choice(compiled.legal_moves())
            compiled.play(move)
            plain.play(move)
        if not compiled.is_terminal():
            pairs.append((compiled, plain))
    return pairs


def timed(function: Any) -> tuple[Any, float]:
    start = time.process_time()
    result = function()
    return result, time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=list(GAMES), default="breakthrough")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--solves", type=int, default=20)
    parser.add_argument("--depth", type=int, default=8, help="depth of the speed comparison's searches")
    parser.add_argument("--speed-positions", type=int, default=20)
    arguments = parser.parse_args()

    from negamax.search.compiled import move_list_layout as layout
    from negamax.search.compiled.move_list import CompiledSearcher

    file, compiled_class, _, title, plies, solved_plies = GAMES[arguments.game]
    module = load_module(file.removesuffix(".py"), ROOT / "examples" / file)
    no_table = CompiledSearcher(hash_mib=1, features=layout.PVS | layout.KILLER_MOVES)
    warm = getattr(module, compiled_class)().new_position()
    no_table.search(warm, SearchLimits(depth=2))
    solve(warm, SearchLimits(nodes=1000))

    mismatches = 0
    for compiled, plain in random_pairs(module, arguments.positions, range(0, plies), 1, arguments.game):
        expected = search(plain, SearchLimits(depth=4), algorithm="alphabeta").score
        mismatches += no_table.search(compiled, SearchLimits(depth=4)).score != expected
    print(f"{title}, depth 4, no table: {arguments.positions - mismatches}/{arguments.positions} equal")
    solved_equal = 0
    for compiled, plain in random_pairs(module, arguments.solves, solved_plies, 2, arguments.game):
        solved_equal += solve(compiled).score == solve(plain, backend="python").score
    print(f"{title}, exact solves: {solved_equal}/{arguments.solves} equal")

    plain_nodes = compiled_nodes = 0
    plain_cpu = compiled_cpu = 0.0
    for compiled, plain in random_pairs(module, arguments.speed_positions, range(0, 10), 3, arguments.game):
        limits = SearchLimits(depth=arguments.depth)
        result, cpu = timed(lambda plain=plain, limits=limits: search(plain, limits))
        plain_nodes, plain_cpu = plain_nodes + result.nodes, plain_cpu + cpu
        result, cpu = timed(lambda compiled=compiled, limits=limits: search(compiled, limits))
        compiled_nodes, compiled_cpu = compiled_nodes + result.nodes, compiled_cpu + cpu
    plain_rate, compiled_rate = plain_nodes / plain_cpu, compiled_nodes / compiled_cpu
    print(f"{title}, depth {arguments.depth} from {arguments.speed_positions} positions, default engines:")
    print(f"  plain Python  {plain_nodes:>12,} nodes {plain_cpu:8.2f} CPU-s {plain_rate:>12,.0f} nodes/CPU-s")
    print(f"  compiled      {compiled_nodes:>12,} nodes {compiled_cpu:8.2f} CPU-s {compiled_rate:>12,.0f} nodes/CPU-s")
    ratio, time_ratio = compiled_rate / plain_rate, plain_cpu / compiled_cpu
    print(f"  ratio of nodes per CPU-second: {ratio:.1f}x; of CPU time: {time_ratio:.1f}x")
    if arguments.game != "breakthrough":
        return 0 if mismatches == 0 and solved_equal == arguments.solves else 1

    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        guide = guide_module(Path(directory))
        game = guide.FourInARow()
        solve(game.new_position("5 6 9 10 0 3 12 15"))  # compile or load before the clock
        plain_result, plain_cpu = timed(lambda: solve(guide.FourInARowPosition(), backend="python"))
        # the default searcher clears its table after each call: this solve starts empty
        compiled_result, compiled_cpu = timed(lambda: solve(game.new_position(), backend="compiled"))
    print("4x4 tic-tac-toe, the empty board solved:")
    print(f"  plain Python  {plain_result.score_text:>6} {plain_result.nodes:>10,} nodes {plain_cpu:7.3f} CPU-s")
    print(
        f"  compiled      {compiled_result.score_text:>6} {compiled_result.nodes:>10,} nodes {compiled_cpu:7.3f} CPU-s"
    )
    print(f"  ratio of CPU time: {plain_cpu / compiled_cpu:.1f}x")
    return 0 if mismatches == 0 and solved_equal == arguments.solves else 1


if __name__ == "__main__":
    sys.exit(main())
