"""A UCI engine driven by lines over its pipes, for the benchmarks that talk to Stockfish
or negamax-uci many times a second (python-chess's engine client costs a millisecond a
call)."""

from __future__ import annotations

import subprocess
import time


class UciPipe:
    """A UCI engine driven by lines over its pipes (``best_move`` and ``static_value`` ask
    Stockfish: its ``eval`` command is its own)."""

    def __init__(self, command: str, threads: int = 1, hash_mib: int | None = 16) -> None:
        """``hash_mib`` None leaves the engine's own table size."""
        self.process = subprocess.Popen([command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.read_until("uciok")
        self.send(f"setoption name Threads value {threads}")
        if hash_mib is not None:
            self.send(f"setoption name Hash value {hash_mib}")
        self.send("isready")
        self.read_until("readyok")

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def lines_until(self, prefix: str) -> list[tuple[float, str]]:
        """The lines up to the first starting with ``prefix``, each with when it came
        (``time.perf_counter``)."""
        assert self.process.stdout is not None
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine quit before {prefix!r}")
            lines.append((time.perf_counter(), line.strip()))
            if line.startswith(prefix):
                return lines

    def read_until(self, prefix: str) -> tuple[str, list[str]]:
        """The first line starting with ``prefix``, and the lines before it."""
        lines = self.lines_until(prefix)
        return lines[-1][1], [line for _, line in lines[:-1]]

    def best_move(self, fen: str, nodes: int) -> tuple[str, int | None]:
        """Stockfish's move and its last score (centipawns for the side to move; None for
        a mate) at ``nodes`` nodes."""
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        line, before = self.read_until("bestmove")
        score: int | None = None
        for info in reversed(before):
            words = info.split()
            if "score" in words:
                kind, value = words[words.index("score") + 1 : words.index("score") + 3]
                score = int(value) if kind == "cp" else None
                break
        return line.split()[1], score

    def static_value(self, fen: str) -> int | None:
        """Stockfish's static evaluation in centipawns from White's side (None in check)."""
        self.send(f"position fen {fen}")
        self.send("eval")
        line, _ = self.read_until("Final evaluation")
        words = line.split()
        if words[2] == "none":
            return None
        return round(float(words[2]) * 100)

    def close(self) -> None:
        self.send("quit")
        self.process.wait()
