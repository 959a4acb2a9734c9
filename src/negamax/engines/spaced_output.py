"""Output lines written at least a fixed gap apart by a thread of their own.

py-draughts' HUB client waits with ``select()`` on the pipe and then reads one line: two
lines arriving together leave the second in its buffer, unseen until more output comes.
Spacing the lines lets it read each one in time, and writing them from a separate thread
keeps that pause out of the search, which produces its ``info`` lines between iterations
(sleeping there cost a 0.3 s move two thirds of its nodes).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import TextIO


class SpacedOutput:
    """Queues lines and writes them ``gap`` seconds apart, in order.

    A line sent as ``replaceable`` (progress) gives way to the next replaceable line if it
    is still waiting, so a fast search never builds a backlog that delays its final line.
    """

    def __init__(self, output: TextIO, gap: float) -> None:
        self.output = output
        self.gap = gap
        self._waiting: deque[tuple[str, bool]] = deque()
        self._writing = False
        self._condition = threading.Condition()
        self._last_write = 0.0
        threading.Thread(target=self._write_lines, name="spaced-output", daemon=True).start()

    def send(self, line: str, replaceable: bool = False) -> None:
        with self._condition:
            if replaceable and self._waiting and self._waiting[-1][1]:
                self._waiting[-1] = (line, True)
            else:
                self._waiting.append((line, replaceable))
            self._condition.notify_all()

    def send_last(self, line: str) -> None:
        """Queues ``line`` in place of any progress line still waiting: a search's result
        should not wait its turn behind a report of its progress."""
        with self._condition:
            while self._waiting and self._waiting[-1][1]:
                self._waiting.pop()
            self._waiting.append((line, False))
            self._condition.notify_all()

    def drain(self) -> None:
        """Return once every line sent so far is written."""
        with self._condition:
            self._condition.wait_for(lambda: not self._waiting and not self._writing)

    def _write_lines(self) -> None:
        while True:
            with self._condition:
                self._condition.wait_for(lambda: bool(self._waiting))
                self._writing = True
            pause = self._last_write + self.gap - time.perf_counter()
            if pause > 0:
                time.sleep(pause)  # the line stays queued meanwhile: newer progress may replace it
            with self._condition:
                line, _ = self._waiting.popleft()
            try:
                self.output.write(line + "\n")
                self.output.flush()
            except (OSError, ValueError):  # the GUI closed our output: nobody is left to tell
                pass
            self._last_write = time.perf_counter()
            with self._condition:
                self._writing = False
                self._condition.notify_all()
