"""Every short opening of international draughts scored by a search, so that self-play can
leave out the lines that are lost from the start.

Random three-move lines include blunders: about a quarter of them give a man away for
nothing (White pushes a man onto a square where it is taken with no recapture). A pair of
games from such a line is decided by the line, not by the engines, whichever of them plays
it, and pulls every self-play measure towards an even score. ``draughts_sprt.py
--balanced`` reads the scores written here and plays only the lines within a bound.

    python benchmarks/draughts_openings.py --nodes 1000000

searches every line of ``--plies`` moves (658 lines of three) to ``--nodes`` nodes on the
compiled search from an empty table (``presets.for_bench``) and writes
``benchmarks/draughts_openings.txt``: the line, its score from White's side (a man is
100) and the depth the search completed. About four minutes of CPU at a million nodes a
line (658 searches at some 3 M nodes a second).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from draughts_sprt import SCORES_FILE, head_commit, openings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=3, help="the lines' length (default 3, as draughts_sprt.py)")
    parser.add_argument("--nodes", type=int, default=1_000_000, help="each line's search (default 1,000,000)")
    parser.add_argument("--output", type=Path, default=SCORES_FILE)
    arguments = parser.parse_args()
    if not 1 <= arguments.plies <= 6 or arguments.nodes < 1000:
        raise SystemExit("draughts_openings: --plies must be 1 to 6 and --nodes at least 1000")
    # imported here: --help and the argument errors need no kernel
    from negamax.core.types import SearchLimits
    from negamax.games.draughts.rules import DraughtsGame
    from negamax.search import presets

    game = DraughtsGame("draughts")
    searcher = presets.for_bench(game)
    lines = sorted(openings(arguments.plies, 1))
    commit = head_commit()
    rows = [
        f"# every {arguments.plies}-move line of international draughts, searched to {arguments.nodes:,} nodes",
        f"# `python benchmarks/draughts_openings.py --plies {arguments.plies} --nodes {arguments.nodes}`"
        f" at {commit or 'an unknown commit'}, {time.strftime('%Y-%m-%d')}",
        "# line\tscore from White's side (a man is 100)\tdepth completed",
    ]
    started = time.time()
    for number, line in enumerate(lines, 1):
        position = game.new_position(None)
        for text in line.split():
            position.play(game.parse_move(position, text))
        result = searcher.search(position, SearchLimits(nodes=arguments.nodes))
        white_score = result.score if arguments.plies % 2 == 0 else -result.score
        rows.append(f"{line}\t{white_score}\t{result.depth}")
        if number % 50 == 0 or number == len(lines):
            print(f"{number}/{len(lines)} lines, {time.time() - started:.0f} s", file=sys.stderr, flush=True)
    arguments.output.write_text("\n".join(rows) + "\n")
    print(f"wrote {arguments.output} ({len(lines)} lines)")


if __name__ == "__main__":
    main()
