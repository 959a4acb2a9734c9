"""A fresh install, as a GUI meets it: ``negamax-uci`` started by python-chess's own client
with empty caches (numba's and negamax's), then moves at ``Limit(time=1.0)``, several
times over. Prints each move's wall time and nodes per second, and when the compiled
kernel took over (the first move searched at more than ``--fast`` nodes per second).

    python benchmarks/cold_start.py [--installs 3] [--moves 40]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

import chess
import chess.engine


def one_install(moves: int, fast: float) -> tuple[list[float], float | None, float]:
    """Move times, seconds from the start until the compiled kernel answered, and the quit's."""
    with tempfile.TemporaryDirectory() as directory:
        environment = {**os.environ, "NUMBA_CACHE_DIR": f"{directory}/numba", "NEGAMAX_CACHE_DIR": directory}
        started = time.perf_counter()
        engine = chess.engine.SimpleEngine.popen_uci([sys.executable, "-m", "negamax.engines.uci"], env=environment)
        board = chess.Board()
        times: list[float] = []
        takeover = None
        try:
            for _ in range(moves):
                before = time.perf_counter()
                result = engine.play(board, chess.engine.Limit(time=1.0), info=chess.engine.INFO_ALL)
                times.append(time.perf_counter() - before)
                if takeover is None and (result.info.get("nps") or 0) > fast:
                    takeover = time.perf_counter() - started
                board.push(result.move)
                if board.is_game_over() or takeover is not None:
                    break
        finally:
            before = time.perf_counter()
            engine.quit()
            quit_seconds = time.perf_counter() - before
    return times, takeover, quit_seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--installs", type=int, default=3)
    parser.add_argument("--moves", type=int, default=60, help="at most this many moves an install")
    parser.add_argument("--fast", type=float, default=300_000, help="nodes per second that mean the compiled kernel")
    arguments = parser.parse_args()
    in_time = 0
    for install in range(1, arguments.installs + 1):
        times, takeover, quit_seconds = one_install(arguments.moves, arguments.fast)
        first_three = times[:3]
        in_time += all(seconds < 1.2 for seconds in first_three)
        shown = "not within the moves played" if takeover is None else f"{takeover:.1f} s after start"
        print(
            f"install {install}: first moves {', '.join(f'{seconds:.3f}' for seconds in first_three)} s;"
            f" slowest of {len(times)} moves {max(times):.3f} s; compiled kernel answered {shown};"
            f" quit in {quit_seconds:.2f} s"
        )
    print(f"{in_time}/{arguments.installs} installs answered their first three moves within 1.2 s")
    return 0 if in_time == arguments.installs else 1


if __name__ == "__main__":
    sys.exit(main())
