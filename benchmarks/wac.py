"""The Win At Chess suite at a fixed time per position: how many of the 300 best moves
the engine finds (sunfish, the best-known pure-Python engine, finds about 112 at about one
CPU-second each).

A position counts as solved when the move the engine would play when the time is up is
one of the EPD's ``bm`` moves (and none of its ``am`` moves).

Run: ``python benchmarks/wac.py --time 1`` (300 positions: about 5 minutes); ``--nodes
1000000`` limits nodes instead, which gives the same answers however busy the machine is (with
one thread), to compare builds side by side.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import chess

from negamax.core.types import SearchLimits
from negamax.engines.engine import Engine
from negamax.games.chess.rules import ChessGame
from negamax.search import BACKENDS
from negamax.search.compiled import move_list_layout as layout

FEATURES = {
    "check-extension": layout.CHECK_EXTENSION,
    "null-move": layout.NULL_MOVE,
    "late-move-reductions": layout.LATE_MOVE_REDUCTIONS,
    "delta-pruning": layout.DELTA_PRUNING,
    "reverse-futility": layout.REVERSE_FUTILITY,
    "futility": layout.FUTILITY,
    "late-move-pruning": layout.LATE_MOVE_PRUNING,
    "static-exchange": layout.STATIC_EXCHANGE,
    "counter-moves": layout.COUNTER_MOVES,
    "internal-reduction": layout.INTERNAL_REDUCTION,
    "adaptive-null-move": layout.ADAPTIVE_NULL_MOVE,
    "singular-extension": layout.SINGULAR_EXTENSION,
    "table-evaluation": layout.TABLE_EVALUATION,
    "quiescence-evasions": layout.QUIESCENCE_EVASIONS,
    "history-pruning": layout.HISTORY_PRUNING,
    "killers": layout.KILLER_MOVES,
    "history": layout.HISTORY_HEURISTIC,
    "pvs": layout.PVS,
    "table": layout.TRANSPOSITION_TABLE,
    "quiescence": layout.QUIESCENCE,
}
SUITE = Path(__file__).resolve().parents[1] / "tests" / "data" / "chess" / "wac.epd"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0, help="seconds per position")
    parser.add_argument(
        "--nodes", type=int, help="nodes per position instead of a time: with one thread, the same on a busy machine"
    )
    parser.add_argument("--first", type=int, default=300, help="only the first N positions")
    parser.add_argument("--verbose", action="store_true", help="print every position")
    parser.add_argument("--backend", choices=BACKENDS, default="auto", help="search engine (default: compiled)")
    parser.add_argument("--hash", type=float, default=64, help="table size in MiB")
    parser.add_argument("--threads", type=int, default=1, help="compiled engine: search threads")
    parser.add_argument(
        "--without",
        action="append",
        default=[],
        choices=sorted(FEATURES),
        help="compiled engine: switch a search feature off (repeatable), to measure what it is worth",
    )
    arguments = parser.parse_args()
    engine = Engine(ChessGame(), hash_mib=arguments.hash, backend=arguments.backend, threads=arguments.threads)
    engine.searcher.prepare()  # the kernel loaded (or compiled) before the first timed search
    if arguments.without:
        from negamax.search.compiled.move_list import CompiledSearcher

        features = layout.ALL_FEATURES
        for name in arguments.without:
            features &= ~FEATURES[name]
        searcher = CompiledSearcher(arguments.hash, features=features, threads=arguments.threads)
        analyse = searcher.search
    else:
        analyse = engine.analyse
    lines = [line for line in SUITE.read_text().splitlines() if line and not line.startswith("#")][: arguments.first]
    solved = nodes = 0
    cpu = 0.0
    for number, line in enumerate(lines, start=1):
        board, operations = chess.Board.from_epd(line)
        engine.new_game()
        position = engine.game.new_position(board.fen())
        start = time.process_time()
        if arguments.without:
            searcher.clear()
        limits = SearchLimits(nodes=arguments.nodes) if arguments.nodes else SearchLimits(time=arguments.time)
        result = analyse(position, limits)
        cpu += time.process_time() - start
        nodes += result.nodes
        good = result.best_move in operations.get("bm", [result.best_move]) and result.best_move not in operations.get(
            "am", []
        )
        solved += good
        if arguments.verbose:
            print(
                f"{operations.get('id', number)}: {'ok ' if good else 'no '} {board.san(result.best_move)}"
                f" depth {result.depth} {result.nodes} nodes, {result.cpu_time:.2f} CPU-s"
            )
    print(
        f"WAC: {solved}/{len(lines)} solved at "
        f"{f'{arguments.nodes:,} nodes' if arguments.nodes else f'{arguments.time} s'} per position"
        f"{f', {arguments.threads} threads' if arguments.threads != 1 else ''}"
        f"{' without ' + ', '.join(arguments.without) if arguments.without else ''};"
        f" {nodes / cpu:,.0f} nodes per CPU-second, {cpu / len(lines):.2f} CPU-s per position"
    )


if __name__ == "__main__":
    main()
