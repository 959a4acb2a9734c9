"""The ``negamax`` command: list games, analyse, solve, play and benchmark.

Every user mistake (unknown game, malformed position, illegal move, bad option) prints
one line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import NoReturn

from negamax.cli import bulk, commands
from negamax.cli.report import one_line
from negamax.core.errors import InvalidOptionError, NegamaxError
from negamax.core.ranges import (
    BOOK_PLIES,
    CHUNK_SIZE,
    DEFAULT_HASH_MIB,
    DEFAULT_SPLIT_PLIES,
    DEPTH,
    NODES,
    SPLIT_PLIES,
    THREADS,
    TIME,
    TRACE_NODES,
    Range,
    hash_range,
    workers_range,
)
from negamax.core.user_code import user_code_error
from negamax.search.searcher import MULTIPV
from negamax.search.trace import DEFAULT_MAX_NODES

EXIT_FAILURE = 1
COMPARE_NODES = 5_000_000
"""How far ``compare`` lets one algorithm go unless told otherwise."""
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
BACKEND_CHOICES = ("auto", "compiled", "python")
GAME_HELP = (
    "a built-in game (negamax games), connect4:WIDTHxHEIGHT, openspiel:NAME, or a game of your own,"
    " module.path:GameClass or path/to/file.py:GameClass, with the arguments its class takes, if any, in quotes"
    " (the shell reads parentheses): 'kalah.py:Kalah(3, seeds=3)'"
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        print(f"negamax: error: {one_line(message)} (see negamax --help)", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _add_search_options(command: argparse.ArgumentParser, limits: bool) -> None:
    from negamax.search.params import ALGORITHM_HELP

    command.add_argument(
        "--algorithm",
        "-a",
        default="auto",
        metavar="NAME",
        help="one of: " + "; ".join(f"{name} ({text})" for name, text in ALGORITHM_HELP.items()),
    )
    if limits:
        command.add_argument("--depth", "-d", type=_in(DEPTH), help="search this many plies")
        command.add_argument(
            "--backend",
            choices=BACKEND_CHOICES,
            help="auto (the default: compiled where the game has it and --algorithm is auto), compiled (numba)"
            " or python (every algorithm)",
        )
    command.add_argument("--time", "-t", type=_in(TIME), help="stop after this many seconds")
    command.add_argument("--nodes", "-n", type=_in(NODES), help="stop after about this many nodes")
    command.add_argument(
        "--hash",
        type=_in(hash_range()),
        metavar="MIB",
        help=f"transposition table size in MiB (default: {DEFAULT_HASH_MIB}; the compiled solver takes more for a"
        " board whose keys need it)",
    )
    command.add_argument(
        "--multipv",
        type=_in(MULTIPV),
        default=1,
        metavar="K",
        help="score the K best moves, each with its own line (K at least the moves: every move)",
    )
    command.add_argument("--json", action="store_true", help="print the result as JSON")
    books = command.add_mutually_exclusive_group()
    books.add_argument(
        "--book",
        metavar="FILE",
        help="answer from this book of solved positions when it knows (default: the book shipped for the game,"
        " Connect 4's first plies)",
    )
    books.add_argument("--no-book", action="store_true", help="search every position, even those a book knows")


def _add_pool_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--workers", "-w", type=_in(workers_range()), help="local worker processes (default: all cores)"
    )
    command.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="send the work to the Dask cluster at ADDRESS (tcp://host:8786), or 'local' for a Dask cluster of"
        " --workers processes here",
    )
    command.add_argument(
        "--chunk-size", type=_in(CHUNK_SIZE), metavar="N", help="positions per task (default: chosen by measurement)"
    )
    command.add_argument("--overwrite", action="store_true", help="replace an errors file this command did not write")
    command.add_argument(
        "--backend",
        choices=BACKEND_CHOICES,
        help="auto (the default: compiled where the game has it), compiled or python",
    )


def _in(rule: Range) -> Callable[[str], int | float]:
    """An argument type that reads a number by ``rule`` (``negamax.core.ranges``), so the
    command line refuses exactly what the library refuses, with the same words."""

    def read(text: str) -> int | float:
        try:
            return rule.parse(text)
        except InvalidOptionError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return read


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number (0-65535)")
    return port


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="negamax",
        description="Negamax search for two-player, zero-sum, perfect-information games.",
        epilog="Examples: negamax solve connect4 44455554221 | negamax analyze tictactoe 04 --depth 5"
        " | negamax play nim 3,4,5 | negamax solve 'kalah.py:Kalah(3, 3)' (a game of your own with its class's"
        " arguments, in quotes for the shell)",
    )
    from negamax import __version__

    parser.add_argument("--version", action="version", version=f"negamax {__version__}")
    subcommands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subcommands.required = True

    games = subcommands.add_parser("games", help="list the built-in games and how to write their positions")
    games.set_defaults(handler=commands.run_games)

    analyze = subcommands.add_parser("analyze", help="search a position to a depth, time or node limit")
    analyze.set_defaults(handler=commands.run_analyze)
    analyze.add_argument("game", help=GAME_HELP)
    analyze.add_argument("position", nargs="?", default=None)
    analyze.add_argument(
        "--threads",
        type=_in(THREADS),
        metavar="N",
        help="compiled backend: search threads sharing one table (default 1; more search deeper, not repeatably)",
    )
    _add_search_options(analyze, limits=True)

    solve = subcommands.add_parser("solve", help="search to the end of the game: the exact value")
    solve.set_defaults(handler=commands.run_solve)
    solve.add_argument("game", help=GAME_HELP)
    solve.add_argument("position", nargs="?", default=None)
    solve.add_argument("--file", "-f", help="solve every '<position> [expected score]' line of a file")
    solve.add_argument("--check", action="store_true", help="with --file: compare with the expected scores")
    solve.add_argument(
        "--backend",
        choices=BACKEND_CHOICES,
        help="auto (the default: compiled where the game has it and --algorithm is auto), compiled (numba)"
        " or python (every algorithm)",
    )
    solve.add_argument(
        "--threads",
        type=_in(THREADS),
        metavar="N",
        help="compiled backend: workers sharing one table (default: all cores)",
    )
    solve.add_argument(
        "--processes",
        action="store_true",
        help="compiled backend: run the helper workers as processes sharing the table through shared memory"
        " (threads are the default: faster here)",
    )
    solve.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="split the solve over the Dask cluster at ADDRESS (tcp://host:8786), or 'local' for a Dask cluster"
        " of --workers processes here",
    )
    solve.add_argument(
        "--workers", "-w", type=_in(workers_range()), help="with --scheduler local: its processes (default: all cores)"
    )
    solve.add_argument(
        "--split",
        type=_in(SPLIT_PLIES),
        metavar="PLIES",
        help=f"with --scheduler: split the tree this many plies below the position (default {DEFAULT_SPLIT_PLIES})",
    )
    _add_search_options(solve, limits=False)

    play = subcommands.add_parser("play", help="play against the engine in the terminal")
    play.set_defaults(handler=commands.run_play)
    play.add_argument("game", help=GAME_HELP)
    play.add_argument("position", nargs="?", default=None)
    play.add_argument("--side", choices=("first", "second"), default="first", help="the side you play")
    play.add_argument("--self", dest="self_play", action="store_true", help="let the engine play both sides")
    _add_search_options(play, limits=True)

    trace = subcommands.add_parser("trace", help="record a search node by node and draw it")
    trace.set_defaults(handler=commands.run_trace)
    trace.add_argument("game", help=GAME_HELP)
    trace.add_argument("position", nargs="?", default=None)
    trace.add_argument(
        "--algorithm",
        "-a",
        default="alphabeta",
        metavar="NAME",
        help="default: alphabeta; textbook: the moves in order, a cut-off only past beta (as CS188 grades)",
    )
    trace.add_argument("--depth", "-d", type=_in(DEPTH), help="search this many plies (default: to the end)")
    trace.add_argument("--format", "-f", default="text", choices=("text", "json", "dot", "svg", "html"))
    trace.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of standard output")
    trace.add_argument(
        "--max-nodes",
        type=_in(TRACE_NODES),
        default=DEFAULT_MAX_NODES,
        help=f"refuse traces larger than this (default {DEFAULT_MAX_NODES}, at most {TRACE_NODES.high:,.0f})",
    )
    trace.add_argument("--overwrite", action="store_true", help="replace the --output file if it exists")

    compare = subcommands.add_parser("compare", help="the same position under several algorithms")
    compare.set_defaults(handler=commands.run_compare)
    compare.add_argument("game", help=GAME_HELP)
    compare.add_argument("position", nargs="?", default=None)
    compare.add_argument(
        "--algorithms", default="negamax,alphabeta,alphabeta-tt,pvs,mtdf,auto", help="comma-separated names"
    )
    compare.add_argument("--depth", "-d", type=_in(DEPTH), help="search this many plies (default: to the end)")
    compare.add_argument(
        "--nodes",
        "-n",
        type=_in(NODES),
        default=COMPARE_NODES,
        help=f"give up when an algorithm passes about this many nodes (default {COMPARE_NODES:,}: a minute or so"
        " of plain negamax in Python)",
    )

    serve = subcommands.add_parser(
        "serve", help="play in a browser, watch the engine think, read its search (pip install 'negamax[web]')"
    )
    serve.set_defaults(handler=commands.run_serve)
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only; 0.0.0.0: everyone)"
    )
    serve.add_argument("--port", type=_port, default=8000, help="0-65535 (0: any free port; default 8000)")
    serve.add_argument("--backend", choices=("auto", "python"), default="auto", help="auto (the default) or python")
    serve.add_argument(
        "--game",
        action="append",
        metavar="NAME",
        help="serve this game too, named as the page will name it (openspiel:NAME, module:Class, file.py:Class, a"
        " plug-in; a class's arguments in quotes: --game 'kalah.py:Kalah(3, 3)'); repeatable",
    )
    books = serve.add_mutually_exclusive_group()
    books.add_argument(
        "--book",
        metavar="FILE",
        help="answer the solution mode from this book where it knows (default: the books shipped with the package)",
    )
    books.add_argument("--no-book", action="store_true", help="solve every position, even those a book knows")

    batch = subcommands.add_parser(
        "batch", help="analyse or solve every position of a file on all cores or a Dask cluster (resumable)"
    )
    batch.set_defaults(handler=bulk.run_batch_command)
    batch.add_argument("game", help=GAME_HELP)
    batch.add_argument("input", help="one position a line, optionally followed by its expected score")
    batch.add_argument("--out", "-o", metavar="FILE", help="results: .jsonl, .csv or .sqlite (re-running resumes)")
    batch.add_argument("--book", metavar="FILE", help="with --solve: store the exact values in this book too")
    batch.add_argument("--solve", action="store_true", help="solve each position exactly (default: analyse)")
    batch.add_argument("--depth", "-d", type=_in(DEPTH), help="analyse each position this many plies")
    batch.add_argument("--time", "-t", type=_in(TIME), help="seconds per position")
    batch.add_argument("--nodes", "-n", type=_in(NODES), help="about this many nodes per position")
    batch.add_argument("--errors", metavar="FILE", help="where failed positions are listed (default: OUT.errors)")
    batch.add_argument("--json", action="store_true", help="print the summary as JSON")
    _add_pool_options(batch)

    book = subcommands.add_parser("book", help="build, inspect and export a book of solved positions")
    book_commands = book.add_subparsers(dest="book_command", metavar="ACTION", parser_class=_Parser)
    book_commands.required = True
    build = book_commands.add_parser("build", help="solve every position N plies below a root, then back up")
    build.set_defaults(handler=bulk.run_book_build)
    build.add_argument("game", help=GAME_HELP)
    build.add_argument("--root", action="append", metavar="POSITION", help="a root (repeatable; default: the start)")
    build.add_argument(
        "--plies", type=_in(BOOK_PLIES), required=True, help="solve the positions this many plies below the root"
    )
    build.add_argument("--book", required=True, metavar="FILE", help="the book (SQLite; created if missing)")
    build.add_argument("--time", "-t", type=_in(TIME), help="give up on a position after this many seconds")
    build.add_argument("--nodes", "-n", type=_in(NODES), help="give up on a position after about this many nodes")
    build.add_argument("--errors", metavar="FILE", help="where failed positions are listed (default: BOOK.errors)")
    build.add_argument(
        "--seed",
        metavar="FILE",
        help="first copy in what this book (SQLite or packed .npz) knows of the positions to build: go on from"
        " a shipped book instead of solving its positions again (a book you trust: the new positions' solves"
        " start from its values)",
    )
    _add_pool_options(build)
    stats = book_commands.add_parser("stats", help="what a book holds")
    stats.set_defaults(handler=bulk.run_book_stats)
    stats.add_argument("game", help=GAME_HELP)
    stats.add_argument("--book", required=True, metavar="FILE")
    stats.add_argument("--json", action="store_true")
    export = book_commands.add_parser("export", help="every position of a book as JSON Lines")
    export.set_defaults(handler=bulk.run_book_export)
    export.add_argument("game", help=GAME_HELP)
    export.add_argument("--book", required=True, metavar="FILE")
    export.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of standard output")
    export.add_argument("--overwrite", action="store_true", help="replace the --output file if it exists")
    pack = book_commands.add_parser(
        "pack", help="a book packed for shipping: keys, values and best moves in compressed arrays (.npz)"
    )
    pack.set_defaults(handler=bulk.run_book_pack)
    pack.add_argument("game", help=GAME_HELP)
    pack.add_argument("--book", required=True, metavar="FILE", help="the SQLite book a build wrote")
    pack.add_argument("--output", "-o", required=True, metavar="FILE", help="the packed book to write (.npz)")
    pack.add_argument("--overwrite", action="store_true", help="replace the --output file if it exists")

    warmup = subcommands.add_parser(
        "warmup", help="compile the compiled kernels now, not on first use (default: every built-in game's)"
    )
    warmup.set_defaults(handler=commands.run_warmup)
    warmup.add_argument(
        "games", nargs="*", metavar="GAME", help="the games (default: connect4 tictactoe chess draughts)"
    )
    warmup.add_argument("--quiet", "-q", action="store_true", help="print nothing")
    warmup.add_argument(
        "--jobs", "-j", type=_in(THREADS), metavar="N", help="games compiled at once (default: the cores)"
    )
    warmup.add_argument(
        "--nice", action="store_true", help="at a low priority (on a machine that has other work to do)"
    )

    check = subcommands.add_parser(
        "check", help="play random games through a game's rules and report what a search would get wrong"
    )
    check.set_defaults(handler=commands.run_check)
    check.add_argument("game", help=GAME_HELP)
    check.add_argument("--games", type=int, default=1000, help="random games to play (default 1000)")
    check.add_argument("--seed", type=int, default=0, help="the random games' seed")
    check.add_argument(
        "--python-only", action="store_true", help="do not compile the rules to compare them with Python's"
    )

    bench = subcommands.add_parser("bench", help="fixed searches; prints the node signature and speed")
    bench.set_defaults(handler=commands.run_bench)
    bench.add_argument("--json", action="store_true")
    bench.add_argument(
        "--compiled",
        action="store_true",
        help="also the compiled kernels: chess and draughts to a depth, Connect 4 solved (the first run compiles them)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; whatever happens, the user sees one line, never a traceback
    (``NEGAMAX_TRACEBACK=1`` shows it, for a bug report)."""
    parser = build_parser()
    arguments = parser.parse_args(argv)
    with _second_interrupt_ends_at_once():
        return _run(arguments)


@contextlib.contextmanager
def _second_interrupt_ends_at_once() -> Iterator[None]:
    """Ctrl-C interrupts the command (a search turns it into a stop of its own:
    ``cli.progress.stop_on_interrupt``); a second one ends the process at once, by the
    signal's default action, whatever runs (a game's code that swallows the first)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupted(signum: int, frame: object) -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _run(arguments: argparse.Namespace) -> int:
    try:
        status: int = arguments.handler(arguments)
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not at exit
        return status
    except NegamaxError as error:
        return _fail(f"negamax: error: {error}", EXIT_USAGE)
    except KeyboardInterrupt as interruption:
        where = getattr(interruption, "where", "")  # a game's method that did not return
        return _fail(f"negamax: interrupted{': ' + where if where else ''}", EXIT_INTERRUPTED)
    except BrokenPipeError:
        _silence_stdout()  # the reader left: nothing more to say, to it or at exit
        return 0
    except OSError as error:
        _silence_stdout()
        where = f": {error.filename}" if error.filename else ""
        return _fail(f"negamax: error: {error.strerror or error}{where}", EXIT_FAILURE)
    except Exception as error:
        if os.environ.get("NEGAMAX_TRACEBACK"):
            raise
        named = user_code_error(error)  # the game's own code raised it: said so, with where
        if named is not None:
            return _fail(f"negamax: error: {named}", EXIT_USAGE)
        text = str(error).splitlines()[0][:200] if str(error) else ""
        return _fail(
            f"negamax: internal error {type(error).__name__}: {text} (NEGAMAX_TRACEBACK=1 shows where)", EXIT_FAILURE
        )


def _fail(message: str, status: int) -> int:
    with contextlib.suppress(OSError):
        print(one_line(message), file=sys.stderr)
    return status


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last flush cannot fail."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
