"""``negamax-uci``: the chess engine over the Universal Chess Interface.

Reads commands on stdin, one a line, and answers on stdout. The search runs on the
engine's worker thread, so ``isready`` and ``stop`` are answered while it thinks. A line
the engine cannot use (unknown command, bad option, malformed FEN, illegal move) gets an
``info string`` saying why, and the engine carries on.

Every ``go`` gets exactly one ``bestmove``: a parameter it cannot use gets an ``info
string`` and the search runs under the others; a ``go`` whose limits were all refused is
answered at once (a depth-1 search), never left to search without end.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

from negamax import __version__
from negamax.core.errors import InvalidOptionError, NegamaxError
from negamax.core.ranges import DEPTH, ENGINE_HASH_MIB, MAX_DEPTH, NODES, SKILL, THREADS, TIME, Range, hash_range
from negamax.core.score import WIN, Bound, is_decisive
from negamax.core.types import SearchResult
from negamax.engines.chess_levels import UCI_ELO, skill_for_elo
from negamax.engines.engine import Engine, GoLimits
from negamax.engines.session import clipped, parsed, protocol_lines, serve
from negamax.games import get_game
from negamax.games.chess.levels import LEVEL_ELO
from negamax.search.searcher import MULTIPV
from negamax.search.strength import FULL_SKILL, Strength

NAME = f"negamax {__version__}"
AUTHOR = "the negamax developers"
READY_WAIT_SECONDS = 5.0
MOST_MILLISECONDS = TIME.high * 1000
GO_FIELDS: dict[str, Range] = {
    "wtime": Range("wtime", 1, MOST_MILLISECONDS, unit="milliseconds"),
    "btime": Range("btime", 1, MOST_MILLISECONDS, unit="milliseconds"),
    "winc": Range("winc", 0, MOST_MILLISECONDS, unit="milliseconds"),
    "binc": Range("binc", 0, MOST_MILLISECONDS, unit="milliseconds"),
    "movetime": Range("movetime", 1, MOST_MILLISECONDS, unit="milliseconds"),
    "movestogo": Range("movestogo", 1, 100_000),
    "depth": DEPTH,
    "nodes": NODES,
    "mate": Range("mate", 1, MAX_DEPTH // 2, unit="moves"),
}
"""The numbers ``go`` takes, each read by ``negamax.core.ranges`` (the clocks in whole
milliseconds, as UCI writes them)."""
GO_FLAGS = {"infinite", "ponder"}
GO_WORDS = {*GO_FIELDS, *GO_FLAGS, "searchmoves"}
QUICK_DEPTH = 1
"""The depth of the answer to a ``go`` whose limits were all refused: a legal move at once."""


class UciProtocolError(NegamaxError, ValueError):
    """A line that is not a command the engine can carry out."""


def score_text(score: int) -> str:
    """``cp 35`` or ``mate 3`` / ``mate -2`` (moves, not plies)."""
    if is_decisive(score):
        plies = WIN - abs(score)
        moves = (plies + 1) // 2
        return f"mate {moves if score > 0 else -moves}"
    return f"cp {score}"


class UciSession:
    """One conversation with a GUI: parses its lines, drives an ``Engine``, writes replies."""

    def __init__(self, output: TextIO) -> None:
        self.output = output
        self.engine = Engine(get_game("chess"))
        self.engine.warm_up_in_background()
        self._lock = threading.Lock()
        self._infinite = False
        self._stopped = threading.Event()
        self._start = 0.0
        self._skill = FULL_SKILL
        self._limit_strength = False
        self._elo = LEVEL_ELO[-1]

    def send(self, line: str) -> None:
        with self._lock:
            self.output.write(line + "\n")
            self.output.flush()

    def refuse(self, message: str) -> None:
        self.send(f"info string {clipped(' '.join(message.split()))}")

    def handle(self, line: str) -> bool:
        """Carry out one line; False after ``quit``."""
        words = line.split()
        if not words:
            return True
        command, arguments = words[0], words[1:]
        if command == "quit":
            self._halt()
            return False
        handler = self._commands().get(command)
        if handler is None:
            self.send(f"info string unknown command: {clipped(line.strip(), 80)}")
            return True
        try:
            handler(arguments)
        except NegamaxError as error:
            self.refuse(str(error))
        return True

    def _commands(self) -> dict[str, Callable[[list[str]], None]]:
        """The protocol's commands; nothing else a GUI sends reaches a method."""
        return {
            "uci": self._uci,
            "isready": self._isready,
            "ucinewgame": self._ucinewgame,
            "debug": self._debug,
            "setoption": self._setoption,
            "position": self._position,
            "go": self._go,
            "stop": self._stop,
            "ponderhit": self._ponderhit,
        }

    def _uci(self, arguments: list[str]) -> None:
        self.send(f"id name {NAME}")
        self.send(f"id author {AUTHOR}")
        hashes = hash_range()  # what this machine can hold
        self.send(f"option name Hash type spin default {ENGINE_HASH_MIB} min {hashes.low:g} max {hashes.high:g}")
        self.send(f"option name Threads type spin default 1 min 1 max {THREADS.high:g}")
        self.send(f"option name MultiPV type spin default 1 min 1 max {MULTIPV.high:g}")
        self.send("option name Backend type combo default compiled var compiled var python")
        self.send(f"option name Skill Level type spin default {FULL_SKILL} min 0 max {FULL_SKILL}")
        self.send("option name UCI_LimitStrength type check default false")
        self.send(f"option name UCI_Elo type spin default {LEVEL_ELO[-1]} min {LEVEL_ELO[0]} max {LEVEL_ELO[-1]}")
        self.send("uciok")

    def _isready(self, arguments: list[str]) -> None:
        # Loading the compiled kernel takes well under a second once numba has cached it;
        # while another process compiles it (the first run), the python engine answers and
        # isready does not wait.
        self.engine.ready(READY_WAIT_SECONDS)
        self.send("readyok")

    def halt(self) -> None:
        """Stop any search and wait for it to report; give up any kernel still being
        compiled (the input has ended)."""
        self._halt()
        self.engine.close()

    def _halt(self) -> None:
        """End a search still running (a GUI should have sent ``stop``; not all do)."""
        self._stopped.set()
        self.engine.wait()

    def _ucinewgame(self, arguments: list[str]) -> None:
        self._halt()
        self.engine.new_game()

    def _debug(self, arguments: list[str]) -> None:
        pass

    def _setoption(self, arguments: list[str]) -> None:
        text = " ".join(arguments)
        if not text.startswith("name ") or " value " not in text:
            raise UciProtocolError(f"setoption needs 'name <id> value <x>', not {text[:60]!r}")
        name, value = text[5:].split(" value ", 1)
        self._halt()
        option = name.strip().lower()
        if option == "backend":
            if value.strip() not in ("compiled", "python"):
                raise UciProtocolError(f"Backend must be compiled or python, not {clipped(value.strip(), 40)!r}")
            self.engine = self.engine.with_backend(value.strip())
            return
        if option == "threads":
            self.engine.set_threads(int(parsed(THREADS, value, "setoption Threads")))
        elif option == "hash":
            self.engine.set_hash(parsed(hash_range(), value, "setoption Hash"))
        elif option == "multipv":
            self.engine.set_multipv(int(parsed(MULTIPV, value, "setoption MultiPV")))
        elif option == "skill level":
            self._skill = int(parsed(SKILL, value, "setoption Skill Level"))
        elif option == "uci_elo":
            self._elo = int(parsed(UCI_ELO, value, "setoption UCI_Elo"))
        elif option == "uci_limitstrength":
            if value.strip().lower() not in ("true", "false"):
                raise UciProtocolError(f"UCI_LimitStrength must be true or false, not {clipped(value.strip(), 40)!r}")
            self._limit_strength = value.strip().lower() == "true"
        else:
            raise UciProtocolError(
                f"unknown option {clipped(name.strip(), 40)!r}"
                " (options: Hash, Threads, MultiPV, Backend, Skill Level, UCI_LimitStrength, UCI_Elo)"
            )
        # as Stockfish: a limited strength plays at UCI_Elo, else at the skill level
        skill = skill_for_elo(self._elo) if self._limit_strength else self._skill
        self.engine.strength = Strength(skill)

    def _position(self, arguments: list[str]) -> None:
        if not arguments or arguments[0] not in ("startpos", "fen"):
            raise UciProtocolError("position needs 'startpos' or 'fen <FEN>', then optionally 'moves ...'")
        self._halt()
        self.engine.set_position(" ".join(arguments))

    def _go(self, arguments: list[str]) -> None:
        self._halt()
        values, infinite, named, limited = self._go_words(arguments)
        search_moves = self._search_moves(named)
        white = self.engine.position.player() == 0
        clock = values.get("wtime" if white else "btime")
        increment = values.get("winc" if white else "binc", 0)
        if "mate" in values and "depth" not in values:
            values["depth"] = 2 * values["mate"] - 1
        bounded = infinite or clock is not None or bool(values.keys() & {"depth", "nodes", "movetime"})
        if arguments and not bounded and (limited or search_moves is None):
            # what was asked cannot be searched by; searching without end instead would
            # leave the GUI waiting for a move that never comes
            self.refuse(f"go: no depth, nodes, time or clock left to search by; a depth-{QUICK_DEPTH} move")
            values, clock = {"depth": QUICK_DEPTH}, None
        limits = GoLimits(
            depth=values.get("depth"),
            nodes=values.get("nodes"),
            move_time=values["movetime"] / 1000 if "movetime" in values else None,
            infinite=infinite,
            time_left=None if clock is None else clock / 1000,
            increment=increment / 1000,
            moves_to_go=values.get("movestogo"),
            search_moves=search_moves,
        )
        self._infinite = infinite
        self._stopped.clear()
        self._start = time.perf_counter()
        self.engine.go(limits, self._info, self._done, self.refuse)

    def _go_words(self, arguments: list[str]) -> tuple[dict[str, int], bool, list[str] | None, bool]:
        """``go``'s numbers, whether it is infinite, the words after ``searchmoves`` (``None``
        without it), and whether any limit was asked for; each word it cannot use is told."""
        values: dict[str, int] = {}
        infinite = limited = False
        named: list[str] | None = None
        index = 0
        while index < len(arguments):
            word = arguments[index]
            index += 1
            if word in GO_FLAGS:
                # pondering searches until ponderhit or stop, like infinite: its best move
                # must not come before either, whatever the clock fields say
                infinite = limited = True
            elif word == "searchmoves":
                named = named or []
                while index < len(arguments) and arguments[index] not in GO_WORDS:
                    named.append(arguments[index])
                    index += 1
            elif word in GO_FIELDS:
                limited = True
                if index == len(arguments) or arguments[index] in GO_WORDS:
                    self.refuse(f"go: {word} needs a value")
                    continue
                try:
                    values[word] = int(parsed(GO_FIELDS[word], arguments[index], "go"))
                except InvalidOptionError as error:
                    self.refuse(str(error))
                index += 1
            else:
                limited = True
                self.refuse(f"go: unknown parameter {clipped(word, 40)!r}")
        return values, infinite, named, limited

    def _search_moves(self, named: list[str] | None) -> tuple[Any, ...] | None:
        """The legal moves among ``named`` (``go searchmoves``); the others are told and left
        out, and with none left every move is searched (``None``)."""
        if named is None:
            return None
        legal = {move.uci(): move for move in self.engine.position.legal_moves()}
        chosen = tuple(dict.fromkeys(legal[word] for word in named if word in legal))
        unknown = [word for word in named if word not in legal]
        if unknown:
            self.refuse(f"go searchmoves: not legal here, left out: {clipped(' '.join(unknown), 80)}")
        if not chosen:
            self.refuse("go searchmoves: no legal move named; every move is searched")
            return None
        return chosen

    def _stop(self, arguments: list[str]) -> None:
        self._stopped.set()
        self.engine.stop()

    def _ponderhit(self, arguments: list[str]) -> None:
        self._stop(arguments)

    def _info(self, result: SearchResult[Any]) -> None:
        elapsed = max(time.perf_counter() - self._start, 1e-6)
        hashfull = self.engine.hashfull()
        seldepth = f" seldepth {result.stats.seldepth}" if result.stats.seldepth else ""
        speed = f"nps {int(result.nodes / elapsed)} time {int(elapsed * 1000)}"
        common = f"nodes {result.nodes} {speed} hashfull {hashfull}"
        lines = result.lines[: self.engine.multipv]  # a weakened strength scores more than were asked for
        if len(lines) > 1:
            # as Stockfish prints MultiPV: one line a move, numbered best first
            for number, line in enumerate(lines, start=1):
                pv = " ".join(move.uci() for move in line.pv)
                self.send(
                    f"info depth {result.depth}{seldepth} multipv {number} score {score_text(line.score)}"
                    f"{_bound_word(line.bound)} {common} pv {pv}".rstrip()
                )
            return
        pv = " ".join(move.uci() for move in result.pv)
        self.send(f"info depth {result.depth}{seldepth} score {score_text(result.score)} {common} pv {pv}".rstrip())

    def _done(self, result: SearchResult[Any]) -> None:
        if self._infinite and not self._stopped.is_set():
            # "go infinite" ends only with "stop", even if the search has finished
            self._stopped.wait()
        best = result.best_move
        if best is None:
            self.send("bestmove 0000")
            return
        self.send(f"bestmove {best.uci()}")


def _bound_word(bound: Bound) -> str:
    """UCI's ``lowerbound``/``upperbound`` after a score that is only a bound."""
    return {Bound.LOWER: " lowerbound", Bound.UPPER: " upperbound"}.get(bound, "")


def main(argv: list[str] | None = None) -> int:
    return serve(UciSession(sys.stdout), protocol_lines(sys.stdin.buffer))


if __name__ == "__main__":
    sys.exit(main())
