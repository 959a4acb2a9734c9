"""``negamax-hub``: the draughts engine over the HUB protocol (version 2, as Scan documents
it), for international draughts (``variant normal``) and Frisian (``variant frisian``).

Lines are ``command name=value name="quoted value" ...``. The GUI sends ``hub`` (we answer
``id``, ``param`` lines and ``wait``), ``set-param``, ``init`` (``ready``), ``new-game``,
``pos pos=<side + 50 squares> [moves="32-28 19x28"]``, ``level depth=|move-time=|time=
inc= moves=|infinite``, ``go think|ponder|analyze``, ``stop``, ``ponder-hit``, ``ping``
(``pong``) and ``quit``. While searching we send ``info depth= score= nodes= time= nps=
pv=`` lines, then ``done move=<move>``; a capture is written ``from x to x taken x ...``.

The search runs on the engine's worker thread, so ``stop`` and ``ping`` are answered at
once. A line we cannot use gets ``error message="..."`` and the engine goes on.
"""

from __future__ import annotations

import math
import shlex
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

from negamax import __version__
from negamax.core.errors import NegamaxError
from negamax.core.score import is_decisive
from negamax.core.types import SearchResult
from negamax.engines.engine import DEFAULT_HASH_MIB, Engine, GoLimits, time_budget
from negamax.engines.session import bounded_count, bounded_number, clipped, serve
from negamax.engines.spaced_output import SpacedOutput
from negamax.games.draughts import DraughtsGame, DraughtsPosition
from negamax.search.params import MAX_THREADS

NAME = "negamax"
AUTHOR = "the negamax developers"
HUB_VARIANTS = {"normal": "draughts", "frisian": "frisian"}
SQUARES = 50
LINE_GAP_SECONDS = 0.02
READY_WAIT_SECONDS = 5.0
MAX_DEPTH = 64
MAX_SECONDS = 7 * 24 * 3600.0


class HubProtocolError(NegamaxError, ValueError):
    """A line that is not a command the engine can carry out."""


def parse_line(line: str) -> tuple[str, dict[str, str]]:
    """``go think`` -> ("go", {"think": ""}); ``pos pos=W... moves="a b"`` -> ("pos", {...})."""
    try:
        words = shlex.split(line)
    except ValueError as error:
        raise HubProtocolError(f"cannot read {line.strip()[:60]!r}: {error}") from None
    if not words:
        return "", {}
    arguments: dict[str, str] = {}
    for word in words[1:]:
        name, _, value = word.partition("=")
        arguments[name] = value
    return words[0], arguments


def hub_to_fen(text: str) -> str:
    """A HUB position (side to move, then squares 1-50 as ``w b W B e``) as a FEN."""
    if len(text) != SQUARES + 1 or text[0].upper() not in "WB" or set(text[1:]) - set("wbWBe"):
        raise HubProtocolError(f"a position is W or B then 50 of w, b, W, B, e; not {text[:60]!r}")
    white = [("K" if piece == "W" else "") + str(square) for square, piece in enumerate(text[1:], 1) if piece in "wW"]
    black = [("K" if piece == "B" else "") + str(square) for square, piece in enumerate(text[1:], 1) if piece in "bB"]
    return f"{text[0].upper()}:W{','.join(white)}:B{','.join(black)}"


def hub_move_text(position: DraughtsPosition, move: str) -> str:
    """Our move (every square visited) in HUB notation (from, to, then every piece taken)."""
    played = position.played(move)
    squares = played.square_list
    if not played.captured_list:
        return f"{squares[0] + 1}-{squares[-1] + 1}"
    return "x".join(str(square + 1) for square in [squares[0], squares[-1], *played.captured_list])


def parse_hub_move(position: DraughtsPosition, text: str) -> str:
    """The legal move a HUB move names (captures by their start, end and pieces taken)."""
    separator = "x" if "x" in text else "-"
    try:
        numbers = [int(part) - 1 for part in text.split(separator)]
    except ValueError:
        raise HubProtocolError(f"{text!r} is not a move (write 32-28 or 28x19x23)") from None
    for move in position.legal_moves():
        played = position.played(move)
        squares = played.square_list
        if len(numbers) < 2 or squares[0] != numbers[0] or squares[-1] != numbers[1]:
            continue
        if separator == "-" and not played.captured_list:
            return move
        if separator == "x" and played.captured_list and set(numbers[2:]) <= set(played.captured_list):
            return move
    raise HubProtocolError(f"{text!r} is not a legal move here")


class HubSession:
    """One conversation with a GUI: parses its lines, drives an ``Engine``, writes replies."""

    def __init__(self, output: TextIO) -> None:
        self.engine = Engine(DraughtsGame("draughts"))
        self.engine.warm_up_in_background()
        self.limits = GoLimits(move_time=1.0)
        self.lines = SpacedOutput(output, LINE_GAP_SECONDS)
        self._analysing = False
        self._stopped = threading.Event()
        self._start = 0.0
        self._quiet_from = math.inf

    def send(self, line: str) -> None:
        self.lines.send(line)

    def handle(self, line: str) -> bool:
        """Carry out one line; False after ``quit``."""
        try:
            command, arguments = parse_line(line)
            if not command:
                return True
            if command == "quit":
                self._halt()
                return False
            handler = self._commands().get(command)
            if handler is None:
                raise HubProtocolError(f"unknown command {clipped(command, 40)!r}")
            handler(arguments)
        except NegamaxError as error:
            self.send(f'error message="{clipped(str(error)).replace(chr(34), chr(39))}"')
        return True

    def _commands(self) -> dict[str, Callable[[dict[str, str]], None]]:
        return {
            "hub": self._hub,
            "init": self._init,
            "set-param": self._set_param,
            "new-game": self._new_game,
            "pos": self._pos,
            "level": self._level,
            "go": self._go,
            "stop": self._stop,
            "ponder-hit": self._stop,
            "ping": self._ping,
        }

    def _hub(self, arguments: dict[str, str]) -> None:
        self.send(f'id name={NAME} version={__version__} author="{AUTHOR}"')
        self.send('param name=variant value=normal type=enum values="normal frisian"')
        self.send(f"param name=hash value={DEFAULT_HASH_MIB} type=int min=1 max=65536")
        self.send(f"param name=threads value=1 type=int min=1 max={MAX_THREADS}")
        self.send("wait")

    def _init(self, arguments: dict[str, str]) -> None:
        # the compiled kernel loads in well under a second once numba has cached it; until
        # then (its first compilation) searches use the python engine
        self.engine.ready(READY_WAIT_SECONDS)
        self.send("ready")

    def _set_param(self, arguments: dict[str, str]) -> None:
        name, value = arguments.get("name", ""), arguments.get("value", "")
        self._halt()
        if name == "variant":
            if value not in HUB_VARIANTS:
                raise HubProtocolError(f"variant must be one of {', '.join(HUB_VARIANTS)}, not {value!r}")
            self.engine.close()
            self.engine = Engine(DraughtsGame(HUB_VARIANTS[value]), self.engine.hash_mib, threads=self.engine.threads)
            self.engine.warm_up_in_background()
        elif name == "hash":
            self.engine.set_hash(self._number(value, "hash (MiB)", 1, 65536))
        elif name == "threads":
            try:
                self.engine.set_threads(bounded_count(value, "threads", 1, MAX_THREADS))
            except ValueError as error:
                raise HubProtocolError(str(error)) from None
        else:
            raise HubProtocolError(f"unknown parameter {name!r} (parameters: variant, hash, threads)")

    def _new_game(self, arguments: dict[str, str]) -> None:
        self._halt()
        self.engine.new_game()

    def _pos(self, arguments: dict[str, str]) -> None:
        self._halt()
        game = self.engine.game
        text = arguments.get("pos")
        position = game.new_position(hub_to_fen(text) if text else None)
        assert isinstance(position, DraughtsPosition)
        for word in arguments.get("moves", "").split():
            position.play(parse_hub_move(position, word))
        position.root_length = len(position.keys)
        self.engine.position = position

    @staticmethod
    def _number(text: str, what: str, low: float, high: float) -> float:
        try:
            return bounded_number(text, what, low, high)
        except ValueError as error:
            raise HubProtocolError(str(error)) from None

    def _level(self, arguments: dict[str, str]) -> None:
        def number(name: str, low: float, high: float) -> float:
            return self._number(arguments[name], f"level {name}", low, high)

        if "depth" in arguments:
            self.limits = GoLimits(depth=int(number("depth", 1, MAX_DEPTH)))
        elif "move-time" in arguments:
            self.limits = GoLimits(move_time=number("move-time", 0.001, MAX_SECONDS))
        elif "time" in arguments:
            moves = int(number("moves", 1, 10_000)) if "moves" in arguments else None
            increment = number("inc", 0, MAX_SECONDS) if "inc" in arguments else 0.0
            self.limits = GoLimits(time_left=number("time", 0, MAX_SECONDS), increment=increment, moves_to_go=moves)
        elif "infinite" in arguments:
            self.limits = GoLimits(infinite=True)
        else:
            raise HubProtocolError("level needs depth=, move-time=, time= or infinite")

    def _go(self, arguments: dict[str, str]) -> None:
        if not arguments.keys() & {"think", "ponder", "analyze"}:
            raise HubProtocolError("go needs think, ponder or analyze")
        self._halt()
        self._analysing = "think" not in arguments
        limits = GoLimits(infinite=True) if self._analysing else self.limits
        self._stopped.clear()
        self._start = time.perf_counter()
        budget = time_budget(limits)
        # a progress line written this close to the end would hold ``done`` back a line gap
        self._quiet_from = math.inf if budget is None else self._start + budget - LINE_GAP_SECONDS
        self.engine.go(limits, self._info, self._done)

    def _stop(self, arguments: dict[str, str]) -> None:
        self._stopped.set()
        self.engine.stop()

    def _ping(self, arguments: dict[str, str]) -> None:
        self.send("pong")

    def halt(self) -> None:
        """Stop any search and wait for it to report, and for every line to be written; give
        up any kernel still being compiled (the input has ended)."""
        self._halt()
        self.engine.close()
        self.lines.drain()

    def _halt(self) -> None:
        self._stopped.set()
        self.engine.wait()

    def _info(self, result: SearchResult[Any]) -> None:
        now = time.perf_counter()
        if now >= self._quiet_from:
            return
        elapsed = max(now - self._start, 1e-6)
        position = self.engine.position.copy()
        assert isinstance(position, DraughtsPosition)
        line = []
        for move in result.pv:
            if move not in position.legal_moves():
                break
            line.append(hub_move_text(position, move))
            position.play(move)
        score = f"{result.score / 100:.2f}" if not is_decisive(result.score) else ("+99" if result.score > 0 else "-99")
        self.lines.send(
            f"info depth={result.depth} score={score} nodes={result.nodes} time={elapsed:.3f}"
            f' nps={result.nodes / elapsed / 1e6:.3f} pv="{" ".join(line)}"',
            replaceable=True,
        )

    def _done(self, result: SearchResult[Any]) -> None:
        if self._analysing and not self._stopped.is_set():
            self._stopped.wait()  # pondering and analysis end only with "stop"
        position = self.engine.position
        assert isinstance(position, DraughtsPosition)
        if result.best_move is None:
            self.lines.send_last("done")
            return
        self.lines.send_last(f"done move={hub_move_text(position, result.best_move)}")


def main(argv: list[str] | None = None) -> int:
    return serve(
        HubSession(sys.stdout), sys.stdin, lambda error: f'error message="internal error {type(error).__name__}"'
    )


if __name__ == "__main__":
    sys.exit(main())
