"""negamax-hub against the draughts engines above TurboEngine: ``dame-rs`` (a Rust engine
that speaks HUB; ``pip install dame-rs``) and py-draughts' ``TurboEngine``, at equal time
per move or on equal clocks, both HUB engines driven by py-draughts' own client,
colour-swapped pairs from short openings. Every game's moves go to a text file, one game a line.

    python benchmarks/draughts_ladder.py --opponents dame-rs turbo --games 30 --time 0.3
    python benchmarks/draughts_ladder.py --opponents dame-rs --games 30 --clock 30+0.3

On a clock (``BASE+INCREMENT`` seconds) the HUB engines are sent ``level time= inc=`` before
each move; TurboEngine, which has no clock of its own, gets a fortieth of its time left
plus the increment a move. A side whose time runs out loses.

``--opponent COMMAND`` plays another HUB engine instead (a path, or a name on the PATH),
such as another build's ``negamax-hub`` (an A/B match: run ``negamax warmup draughts`` with
each build first, or a build whose kernel is not on disk plays its first moves on the
pure-Python search).

An opponent that is not installed is skipped with a line that says how to get it.
"""

from __future__ import annotations

import argparse
import logging
import queue
import shutil
import threading
from pathlib import Path
from typing import Any

from draughts import TurboEngine
from draughts.engines.hub import HubEngine
from loguru import logger

from match_tally import Tally, parse_clock
from vs_pydraughts import OPENINGS, hub_command, play_game, warm


class LineQueueHubEngine(HubEngine):
    """py-draughts' HUB client with lines read on a thread of their own. The stock client
    waits for the pipe to be readable, then reads one line: lines that arrive together (dame
    sends its id and parameters in one write) wait in Python's buffer while the client
    waits on the empty pipe: the handshake times out, and a move waits a second for the
    next line (a 0.3 s game of 140 plies took three minutes)."""

    _lines: queue.Queue[str] | None = None

    def _read_line(self, timeout: float = 1.0) -> str | None:
        if self.process is None or self.process.stdout is None:
            return None
        if self._lines is None:
            lines: queue.Queue[str] = queue.Queue()
            stream = self.process.stdout
            threading.Thread(target=lambda: [lines.put(line) for line in stream], daemon=True).start()
            self._lines = lines
        try:
            return self._lines.get(timeout=timeout).strip()
        except queue.Empty:
            return None

    clock: tuple[float, float] | None = None

    def set_clock(self, time_left: float, increment: float) -> None:
        """Search the next move on a clock (``level time= inc=``) instead of a fixed time."""
        self.clock = (time_left, increment)

    def _send(self, command: str) -> None:
        if self.clock is not None and command.startswith("level move-time="):
            command = f"level time={self.clock[0]:.3f} inc={self.clock[1]:g}"
        super()._send(command)

    def set_param(self, name: str, value: object) -> None:
        """A ``set-param`` after the handshake (the stock client sends none)."""
        self._send(f"set-param name={name} value={value}")


class ClockedTurboEngine(TurboEngine):
    """TurboEngine on a clock: it has none of its own, so it gets a fortieth of its time
    left plus the increment for each move."""

    def set_clock(self, time_left: float, increment: float) -> None:
        self.time_limit = max(0.01, time_left / 40 + increment)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponents", nargs="+", choices=("dame-rs", "turbo"), default=["dame-rs", "turbo"])
    parser.add_argument("--games", type=int, default=30, help="games per opponent (pairs, colours swapped)")
    timing = parser.add_mutually_exclusive_group()
    timing.add_argument("--time", type=float, default=0.3, help="seconds per move, both engines")
    timing.add_argument("--clock", help="a clock instead: BASE+INCREMENT seconds, e.g. 30+0.3")
    parser.add_argument("--games-file", type=Path, default=Path("draughts_ladder.txt"), help="where the moves go")
    parser.add_argument("--threads", type=int, default=1, help="negamax-hub's threads (the opponents keep one)")
    parser.add_argument("--opponent", metavar="COMMAND", help="another HUB engine to play instead (run as COMMAND hub)")
    arguments = parser.parse_args()
    clock = parse_clock(arguments.clock) if arguments.clock else None
    control = f"{arguments.clock} clock" if clock else f"{arguments.time} s/move"
    logger.remove()  # py-draughts logs every board it makes
    logging.disable(logging.INFO)
    summaries = []
    warm()
    with (
        LineQueueHubEngine(hub_command(), time_limit=arguments.time, init_timeout=60) as ours,
        arguments.games_file.open("a") as record,
    ):
        if arguments.threads != 1:
            ours.set_param("threads", arguments.threads)
        for name in [arguments.opponent] if arguments.opponent else arguments.opponents:
            opponent: Any
            if name == arguments.opponent:
                path = shutil.which(name)  # the client wants a file that exists
                if path is None:
                    print(f"draughts_ladder: {name}: no such command")
                    continue
                opponent = LineQueueHubEngine(path, time_limit=arguments.time, init_timeout=120)
                opponent.start()
                label = name
            elif name == "turbo":
                opponent = ClockedTurboEngine(depth_limit=None, time_limit=arguments.time)
                label = "py-draughts TurboEngine"
            else:
                command = shutil.which("dame")  # the client runs it as "dame hub"
                if command is None:
                    print("draughts_ladder: dame-rs not found; install it with pip install dame-rs")
                    continue
                opponent = LineQueueHubEngine(command, time_limit=arguments.time, init_timeout=60)
                opponent.start()
                label = "dame-rs"
            tally = Tally()
            for number in range(arguments.games):
                opening = OPENINGS[(number // 2) % len(OPENINGS)]
                ours_white = number % 2 == 0
                ours.new_game()
                if isinstance(opponent, HubEngine):
                    opponent.new_game()
                white, black = (ours, opponent) if ours_white else (opponent, ours)
                moves: list[str] = []
                result, plies, illegal = play_game(white, black, opening, moves, clock)
                tally.record(result, ours_white)
                side = "white" if ours_white else "black"
                print(f"{name} game {number + 1}: negamax {side}, {result} in {plies} plies{illegal}", flush=True)
                white_name, black_name = ("negamax", label) if ours_white else (label, "negamax")
                record.write(f"{white_name} - {black_name} {result} {control}: {opening} {' '.join(moves)}\n")
                record.flush()
            if isinstance(opponent, HubEngine):
                opponent.quit()
            summaries.append(tally.summary(label, control))
            print(summaries[-1], flush=True)
    print("\n".join(summaries))


if __name__ == "__main__":
    main()
