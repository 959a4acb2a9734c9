"""``negamax-hub``: the draughts engine over the HUB protocol (version 2, as Scan documents
it), for international draughts (``variant normal``) and Frisian (``variant frisian``).

Lines are ``command name=value name="quoted value" ...``. The GUI sends ``hub`` (we answer
``id``, ``param`` lines and ``wait``), ``set-param`` (``variant``, ``hash``, ``threads``, and
``strength``: the page's levels 1 to 8, 8 full strength), ``init`` (``ready``), ``new-game``,
``pos pos=<side + 50 squares> [moves="32-28 19x28"]``, ``level depth=|move-time=|time=
inc= moves=|infinite``, ``go think|ponder|analyze``, ``stop``, ``ponder-hit``, ``ping``
(``pong``) and ``quit``. While searching we send ``info depth= score= nodes= time= nps=
pv=`` lines, then ``done move=<move>``; a capture is written ``from x to x taken x ...``.

The search runs on the engine's worker thread, so ``stop`` and ``ping`` are answered at
once. A line we cannot use gets ``error message="..."`` and the engine goes on; every
``go think`` gets exactly one ``done``, and a ``level`` value we cannot use gets an error
and the others (or, with none left, ``DEFAULT_LIMITS``) are played by.
"""

from __future__ import annotations

import math
import re
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

from negamax import __version__
from negamax.core.errors import InvalidOptionError, NegamaxError
from negamax.core.ranges import DEPTH, ENGINE_HASH_MIB, LEVEL, NODES, THREADS, TIME, Range, hash_range
from negamax.core.score import is_decisive
from negamax.core.types import SearchResult
from negamax.engines.engine import Engine, GoLimits, time_budget
from negamax.engines.session import clipped, parsed, protocol_lines, serve
from negamax.engines.spaced_output import SpacedOutput
from negamax.games.draughts.rules import DraughtsGame, DraughtsPosition
from negamax.search.strength import Strength

NAME = "negamax"
AUTHOR = "the negamax developers"
HUB_VARIANTS = {"normal": "draughts", "frisian": "frisian"}
SQUARES = 50
LINE_GAP_SECONDS = 0.02
READY_WAIT_SECONDS = 5.0
DEFAULT_LIMITS = GoLimits(move_time=1.0)
"""How the engine plays until a ``level`` it can use says otherwise: a second a move."""
LEVEL_FIELDS: dict[str, Range] = {
    "depth": DEPTH,
    "nodes": NODES,
    "move-time": TIME,
    "time": TIME,
    "inc": Range("inc", 0, TIME.high, whole=False, unit="seconds"),
    "moves": Range("moves", 1, 100_000),
}
"""The numbers ``level`` takes, each read by ``negamax.core.ranges``."""
WORD = re.compile(r'\s+|"([^"]*)"|[^\s"]+')
"""A run of spaces, a quoted text, or a run of anything else: the pieces of a HUB line."""


class HubProtocolError(NegamaxError, ValueError):
    """A line that is not a command the engine can carry out."""


def split_words(line: str) -> list[str]:
    """The words of ``line``: separated by spaces, except inside double quotes, which are
    taken off (``moves="32-28 19-23"`` is one word). One pass over the line, whatever it
    holds (``shlex.split`` took 16 s over a 1 MB line).

    :raises HubProtocolError: for a quote that is not closed.
    """
    words: list[str] = []
    parts: list[str] = []  # of the word being read: joined once, not added to piece by piece
    in_word = False
    position = 0
    while position < len(line):
        match = WORD.match(line, position)
        if match is None:  # only a lone quote matches nothing
            raise HubProtocolError(f"cannot read {clipped(line.strip(), 60)!r}: a quote is not closed")
        piece = match.group()
        if piece[0].isspace():
            if in_word:
                words.append("".join(parts))
                parts, in_word = [], False
        else:
            parts.append(match.group(1) if piece[0] == '"' else piece)
            in_word = True
        position = match.end()
    if in_word:
        words.append("".join(parts))
    return words


def parse_line(line: str) -> tuple[str, dict[str, str]]:
    """``go think`` -> ("go", {"think": ""}); ``pos pos=W... moves="a b"`` -> ("pos", {...})."""
    words = split_words(line)
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
    parts = text.split(separator)
    # ASCII digits only: int() also reads "3_2" and Arabic-Indic digits as 32
    if not all(re.fullmatch(r"[0-9]{1,2}", part) for part in parts):
        raise HubProtocolError(f"{clipped(text, 60)!r} is not a move (write 32-28 or 28x19x23)")
    numbers = [int(part) - 1 for part in parts]
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
        self.limits = DEFAULT_LIMITS
        self.lines = SpacedOutput(output, LINE_GAP_SECONDS)
        self._analysing = False
        self._stopped = threading.Event()
        self._start = 0.0
        self._quiet_from = math.inf

    def send(self, line: str) -> None:
        self.lines.send(line)

    def refuse(self, message: str) -> None:
        text = clipped(" ".join(message.split())).replace(chr(34), chr(39))  # a quote would end the message
        self.send(f'error message="{text}"')

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
            self.refuse(str(error))
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
        hashes = hash_range()  # what this machine can hold
        self.send(f"param name=hash value={ENGINE_HASH_MIB} type=int min={hashes.low:g} max={hashes.high:g}")
        self.send(f"param name=threads value=1 type=int min=1 max={THREADS.high:g}")
        # the page's levels, named so as not to be read as the protocol's own `level` (the
        # limits of a search): 1 looks two plies ahead and errs often, 8 is full strength
        self.send(f"param name=strength value={LEVEL.high:g} type=int min={LEVEL.low:g} max={LEVEL.high:g}")
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
            strength = self.engine.strength
            self.engine.close()
            self.engine = Engine(DraughtsGame(HUB_VARIANTS[value]), self.engine.hash_mib, threads=self.engine.threads)
            self.engine.strength = strength  # a level set before the variant still holds
            self.engine.warm_up_in_background()
        elif name == "hash":
            self.engine.set_hash(parsed(hash_range(), value, "set-param hash"))
        elif name == "threads":
            self.engine.set_threads(int(parsed(THREADS, value, "set-param threads")))
        elif name == "strength":
            self.engine.strength = Strength.of_level(int(parsed(LEVEL, value, "set-param strength")))
        else:
            raise HubProtocolError(
                f"unknown parameter {clipped(name, 40)!r} (parameters: variant, hash, threads, strength)"
            )

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

    def _level(self, arguments: dict[str, str]) -> None:
        """The limits of the next searches: each value we cannot use gets an error, and the
        others are kept; with none left, ``DEFAULT_LIMITS``."""
        values: dict[str, float] = {}
        for name, text in arguments.items():
            if name in LEVEL_FIELDS:
                try:
                    values[name] = parsed(LEVEL_FIELDS[name], text, f"level {name}")
                except InvalidOptionError as error:
                    self.refuse(str(error))
            elif name != "infinite":
                self.refuse(f"level: unknown parameter {clipped(name, 40)!r}")
        bounded = "infinite" in arguments or values.keys() & {"depth", "nodes", "move-time", "time"}
        if not bounded:
            self.refuse("level needs depth=, nodes=, move-time=, time= or infinite; playing a second a move")
            self.limits = DEFAULT_LIMITS
            return
        self.limits = GoLimits(
            depth=int(values["depth"]) if "depth" in values else None,
            nodes=int(values["nodes"]) if "nodes" in values else None,
            move_time=values.get("move-time"),
            infinite="infinite" in arguments,
            time_left=values.get("time"),
            increment=values.get("inc", 0.0),
            moves_to_go=int(values["moves"]) if "moves" in values else None,
        )

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
        self.engine.go(limits, self._info, self._done, self.refuse)

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
    return serve(HubSession(sys.stdout), protocol_lines(sys.stdin.buffer))


if __name__ == "__main__":
    sys.exit(main())
