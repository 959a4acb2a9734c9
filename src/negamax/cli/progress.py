"""What a long command shows while it works: a progress line every few seconds (live on a
terminal), the bounds proven so far, and Ctrl-C turned into a stop that keeps them."""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, TextIO

from negamax.core.game import Position
from negamax.core.rules import Game, pv_text
from negamax.core.score import INF
from negamax.core.types import SearchResult
from negamax.core.user_code import stack_of, user_place

STUCK_SECONDS = 1.0
"""After Ctrl-C, how long a game's own method may go on before it is interrupted."""


class UserCodeStuck(KeyboardInterrupt):
    """Raised inside a game's method that has not returned since Ctrl-C asked the search
    to stop; ``where`` names it (``Kalah.evaluate did not return (kalah.py:42)``)."""

    def __init__(self, where: str) -> None:
        super().__init__(where)
        self.where = where


@contextlib.contextmanager
def stop_on_interrupt(stream: TextIO | None = None) -> Iterator[threading.Event]:
    """Ctrl-C sets the event, so the search returns what it has proven instead of dying.
    A game's method still running ``STUCK_SECONDS`` later gets ``UserCodeStuck`` raised
    inside it; a second Ctrl-C ends the process at once, whatever runs (the signal's
    default action, which needs no Python code to run)."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    timer = hasattr(signal, "setitimer")

    def look(signum: int, frame: FrameType | None) -> None:
        found = user_place(stack_of(frame))
        if found is not None:
            raise UserCodeStuck(f"{found[0]} did not return ({found[1]})")
        signal.setitimer(signal.ITIMER_REAL, STUCK_SECONDS)  # the library's code: it stops soon

    def interrupted(signum: int, frame: FrameType | None) -> None:
        stop.set()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        with contextlib.suppress(OSError, ValueError):
            shown = stream or sys.stderr
            shown.write("\nnegamax: stopping (Ctrl-C again quits at once)\n")
            shown.flush()
        if timer:
            signal.signal(signal.SIGALRM, look)
            signal.setitimer(signal.ITIMER_REAL, STUCK_SECONDS)

    previous = signal.signal(signal.SIGINT, interrupted)
    previous_alarm = signal.getsignal(signal.SIGALRM) if timer else None
    try:
        yield stop
    finally:
        if timer:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous_alarm)
        signal.signal(signal.SIGINT, previous)


class Kept:
    """A progress callback that keeps the last result it was given (the best so far, for
    a search a stuck method ended), passing each on to ``show`` if given."""

    def __init__(self, show: Callable[[SearchResult[Any]], None] | None) -> None:
        self.show = show
        self.result: SearchResult[Any] | None = None

    def __call__(self, result: SearchResult[Any]) -> None:
        self.result = result
        if self.show is not None:
            self.show(result)


PROGRESS_LINE_SECONDS = 5.0
"""Off a terminal, a long search says how it is doing this often (and never before)."""


def progress_callback(as_json: bool, game: Game, position: Position[Any]) -> Any:
    """The progress callback of a search: live on a terminal; a line every few seconds of a
    long search otherwise (a log, a pipe); none with --json (``as_json``) on a terminal's
    behalf."""
    if as_json and sys.stderr.isatty():
        return None
    return progress_printer(game, position, sys.stderr, live=sys.stderr.isatty())


def progress_printer(game: Game, position: Position[Any], stream: TextIO, live: bool = True) -> Any:
    next_line: float | None = None  # counted from the search's first report (a kernel may load first)

    def show(result: SearchResult[Any]) -> None:
        nonlocal next_line
        if not live:
            now = time.perf_counter()
            if next_line is None:
                next_line = now + PROGRESS_LINE_SECONDS
            if now < next_line:
                return
            next_line = now + PROGRESS_LINE_SECONDS
        if result.unresolved:
            low, high = bound_text(game, position, result.lower), bound_text(game, position, result.upper)
            speed = f"{result.nodes_per_second:,.0f} n/s"
            window = ""
            if result.window is not None:
                below, above = (bound_text(game, position, value) for value in result.window)
                window = f"  window [{below}, {above}]"
            text = f"value in [{low}, {high}]{window}  nodes {result.nodes:,}  {speed}  {result.wall_time:.1f} s"
            stream.write(f"\r{text}\x1b[K" if live else f"negamax: {text}\n")
        elif not live:
            done = "" if "mcts" in result.algorithm else f"depth {result.depth}  "
            unit = "playouts" if "mcts" in result.algorithm else "nodes"
            stream.write(f"negamax: {done}{unit} {result.nodes:,}  {result.wall_time:.1f} s\n")
        elif "mcts" in result.algorithm:  # a Monte Carlo search's progress: playouts, not depths
            moves = " ".join(pv_text(game, position, result.pv))
            stream.write(
                f"\rplayouts {result.nodes:,}  score {game.game_score(position, result.score)}"
                f"  {result.nodes_per_second:,.0f} p/s  pv {moves}\x1b[K\n"
            )
        else:
            moves = " ".join(pv_text(game, position, result.pv))
            stream.write(
                f"\rdepth {result.depth}  score {game.game_score(position, result.score)}  nodes {result.nodes:,}"
                f"  {result.nodes_per_second:,.0f} n/s  pv {moves}\x1b[K\n"
            )
        stream.flush()

    return show


def bound_text(game: Game, position: Position[Any], value: int) -> str:
    if abs(value) >= INF:
        return "-inf" if value < 0 else "+inf"
    return str(game.game_score(position, value))


@contextlib.contextmanager
def announcer() -> Iterator[Callable[[str], None]]:
    """A one-line notice on stderr for a long wait, with the seconds passing on a terminal."""
    done = threading.Event()
    ticker: threading.Thread | None = None

    def announce(message: str) -> None:
        nonlocal ticker
        if not sys.stderr.isatty():
            print(f"negamax: {message}", file=sys.stderr, flush=True)
            return
        start = time.perf_counter()

        def tick() -> None:
            while not done.wait(0.5):
                sys.stderr.write(f"\r{message}: {time.perf_counter() - start:.0f} s\x1b[K")
                sys.stderr.flush()

        sys.stderr.write(f"{message}...")
        sys.stderr.flush()
        ticker = threading.Thread(target=tick, daemon=True)
        ticker.start()

    try:
        yield announce
    finally:
        done.set()
        if ticker is not None:
            ticker.join()
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def lock_notice(path: str, stream: TextIO | None = None) -> Callable[[float], None]:
    """What a command shows while a book is locked by another process: the wait, live on a
    terminal; off one, a line at once and one every ``PROGRESS_LINE_SECONDS`` (at least)."""
    shown = stream or sys.stderr
    live = shown.isatty()
    next_line = 0.0

    def show(waited: float) -> None:
        nonlocal next_line
        message = f"{path} is locked by another process; waiting (Ctrl-C to give up): {waited:.0f} s"
        if live:
            shown.write(f"\r{message}\x1b[K")
        elif waited >= next_line:
            next_line = waited + PROGRESS_LINE_SECONDS * 2
            shown.write(f"negamax: {message}\n")
        shown.flush()

    return show
