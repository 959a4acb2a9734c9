"""The ``negamax`` command: list games, analyse, solve, play and benchmark.

Every user mistake (unknown game, malformed position, illegal move, bad option) prints
one line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from negamax.core.errors import NegamaxError

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        print(f"negamax: error: {message} (see negamax --help)", file=sys.stderr)
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
        command.add_argument("--depth", "-d", type=int, help="search this many plies")
    command.add_argument("--time", "-t", type=float, help="stop after this many seconds")
    command.add_argument("--nodes", "-n", type=int, help="stop after about this many nodes")
    command.add_argument("--hash", type=float, metavar="MIB", help="transposition table size in MiB (default 64)")
    command.add_argument("--json", action="store_true", help="print the result as JSON")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="negamax",
        description="Negamax search for two-player, zero-sum, perfect-information games.",
        epilog="Examples: negamax solve connect4 44455554221 | negamax analyze tictactoe 04 --depth 5"
        " | negamax play nim 3,4,5",
    )
    from negamax import __version__

    parser.add_argument("--version", action="version", version=f"negamax {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    commands.add_parser("games", help="list the built-in games and how to write their positions")

    analyze = commands.add_parser("analyze", help="search a position to a depth, time or node limit")
    analyze.add_argument("game")
    analyze.add_argument("position", nargs="?", default=None)
    _add_search_options(analyze, limits=True)

    solve = commands.add_parser("solve", help="search to the end of the game: the exact value")
    solve.add_argument("game")
    solve.add_argument("position", nargs="?", default=None)
    solve.add_argument("--file", "-f", help="solve every '<position> [expected score]' line of a file")
    solve.add_argument("--check", action="store_true", help="with --file: compare with the expected scores")
    solve.add_argument(
        "--engine",
        choices=("compiled", "python"),
        help="compiled (numba; the default for games that have it, such as connect4 and tictactoe)"
        " or python (every algorithm)",
    )
    solve.add_argument(
        "--threads",
        type=int,
        metavar="N",
        help="compiled engine: worker threads sharing one table (default: all cores)",
    )
    _add_search_options(solve, limits=False)

    play = commands.add_parser("play", help="play against the engine in the terminal")
    play.add_argument("game")
    play.add_argument("position", nargs="?", default=None)
    play.add_argument("--side", choices=("first", "second"), default="first", help="the side you play")
    play.add_argument("--self", dest="self_play", action="store_true", help="let the engine play both sides")
    _add_search_options(play, limits=True)

    trace = commands.add_parser("trace", help="record a search node by node and draw it")
    trace.add_argument("game")
    trace.add_argument("position", nargs="?", default=None)
    trace.add_argument("--algorithm", "-a", default="alphabeta", metavar="NAME", help="default: alphabeta")
    trace.add_argument("--depth", "-d", type=int, help="search this many plies (default: to the end)")
    trace.add_argument("--format", "-f", default="text", choices=("text", "json", "dot", "svg", "html"))
    trace.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of standard output")
    trace.add_argument("--max-nodes", type=int, default=20_000, help="refuse traces larger than this (default 20000)")

    compare = commands.add_parser("compare", help="the same position under several algorithms")
    compare.add_argument("game")
    compare.add_argument("position", nargs="?", default=None)
    compare.add_argument(
        "--algorithms", default="negamax,alphabeta,alphabeta-tt,pvs,mtdf,auto", help="comma-separated names"
    )
    compare.add_argument("--depth", "-d", type=int, help="search this many plies (default: to the end)")

    serve = commands.add_parser("serve", help="play in a browser and watch the engine think")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=int, default=8000)

    bench = commands.add_parser("bench", help="fixed searches; prints the node signature and speed")
    bench.add_argument("--json", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    arguments = parser.parse_args(argv)
    try:
        from negamax.cli import commands

        handler = getattr(commands, f"run_{arguments.command}")
        status: int = handler(arguments)
        return status
    except NegamaxError as error:
        print(f"negamax: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("negamax: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
