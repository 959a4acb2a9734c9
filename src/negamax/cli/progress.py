"""What a long command shows while it works: a progress line every few seconds (live on a
terminal), the bounds proven so far, and Ctrl-C turned into a stop that keeps them."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from negamax.core.game import Position
from negamax.core.rules import Game, pv_text
from negamax.core.score import INF
from negamax.core.types import SearchResult


@contextlib.contextmanager
def stop_on_interrupt() -> Iterator[threading.Event]:
    """Ctrl-C sets the event, so the search returns what it has proven instead of dying."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: stop.set())
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


PROGRESS_LINE_SECONDS = 5.0
"""Off a terminal, a long search says how it is doing this often (and never before)."""


def progress_callback(arguments: argparse.Namespace, game: Game, position: Position[Any]) -> Any:
    """The progress callback of a search: live on a terminal; a line every few seconds of a
    long search otherwise (a log, a pipe); none with --json on a terminal's behalf."""
    if arguments.json and sys.stderr.isatty():
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
