"""How long ``stop`` takes to bring the move, at each table size: negamax-uci (``go
infinite``, ``stop`` 50 ms later, until ``bestmove``) and negamax-hub (``go analyze``,
``stop``, until ``done``), twice each (the first search of a new table, then another),
and how long setting the table size took (until ``readyok`` / the ``pong`` after it).

    PYTHONPATH=src python benchmarks/stop_latency.py --hash 1 1024 8192

Each engine runs in a process of its own, one at a time: a table of 8192 MiB is 8 GiB
once the search has touched it all (it rarely does in a second).

Measured on this project's machine (2 cores shared, 24 GiB), stop to the move, first search
on the new table then a second one, in ms:

    table      UCI before     UCI after    HUB before    HUB after
    1 MiB      16, 15         13, 9        13, 30        19, 13
    1024 MiB   2169, 18       20, 18       117, 14       8, 17
    4096 MiB   -              15, 13       -             23, 17
    8192 MiB   16567, 13      19, 20       5678, 14      25, 10

Before: the first search of a new table wrote zeros over all of it (17 s for 8 GiB) before
looking at its stop flag. With that gone (b0f11b8) it was still 690 ms at 1024 MiB and 402 ms
at 8192 MiB: the search met fresh 2 MiB pages, 5.4 ms each to be zeroed here, a thousand
nodes between looks at the flag; the kernel now looks at every node (48b0383).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

GIVE_UP_SECONDS = 120.0


class Pipe:
    """An engine process driven line by line."""

    def __init__(self, module: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", module], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix: str) -> float:
        """Seconds until a line starting with ``prefix`` comes."""
        assert self.process.stdout is not None
        started = time.perf_counter()
        while time.perf_counter() - started < GIVE_UP_SECONDS:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine quit before {prefix!r}")
            if line.startswith(prefix):
                return time.perf_counter() - started
        raise RuntimeError(f"no {prefix!r} within {GIVE_UP_SECONDS} s")

    def close(self) -> None:
        self.send("quit")
        try:
            self.process.wait(GIVE_UP_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()


def uci(hash_mib: int) -> tuple[float, list[float]]:
    pipe = Pipe("negamax.engines.uci")
    pipe.send("uci")
    pipe.until("uciok")
    pipe.send("isready")
    pipe.until("readyok")  # the kernel loaded
    started = time.perf_counter()
    pipe.send(f"setoption name Hash value {hash_mib}")
    pipe.send("isready")
    pipe.until("readyok")
    setting = time.perf_counter() - started
    stops = []
    for _ in range(2):
        pipe.send("position startpos")
        pipe.send("go infinite")
        time.sleep(0.05)
        pipe.send("stop")
        stops.append(pipe.until("bestmove"))
    pipe.close()
    return setting, stops


def hub(hash_mib: int) -> tuple[float, list[float]]:
    pipe = Pipe("negamax.engines.hub")
    pipe.send("hub")
    pipe.until("wait")
    pipe.send("init")
    pipe.until("ready")
    started = time.perf_counter()
    pipe.send(f"set-param name=hash value={hash_mib}")
    pipe.send("ping")
    pipe.until("pong")
    setting = time.perf_counter() - started
    stops = []
    for _ in range(2):
        pipe.send("pos pos=W" + "b" * 20 + "e" * 10 + "w" * 20)
        pipe.send("go analyze")
        time.sleep(0.05)
        pipe.send("stop")
        stops.append(pipe.until("done"))
    pipe.close()
    return setting, stops


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hash", type=int, nargs="+", default=[1, 1024, 8192], help="table sizes in MiB")
    parser.add_argument("--protocol", choices=("uci", "hub", "both"), default="both")
    arguments = parser.parse_args()
    for name, run in (("uci", uci), ("hub", hub)):
        if arguments.protocol not in (name, "both"):
            continue
        for hash_mib in arguments.hash:
            try:
                setting, stops = run(hash_mib)
            except RuntimeError as error:
                print(f"{name} hash {hash_mib:>5} MiB: {error}", flush=True)
                continue
            shown = ", ".join(f"{stop * 1000:.0f}" for stop in stops)
            print(f"{name} hash {hash_mib:>5} MiB: set in {setting * 1000:.0f} ms, stop to move {shown} ms", flush=True)


if __name__ == "__main__":
    main()
