"""A searching command's arguments, read once from argparse's namespace into a typed record:
each subcommand's flags as given, the ones it does not define at their defaults."""

from __future__ import annotations

import dataclasses

import pytest

from negamax.cli.main import build_parser
from negamax.cli.search_command import SearchCommand, search_command


def read(*words: str) -> SearchCommand:
    return search_command(build_parser().parse_args(list(words)))


def test_a_solve_reads_its_flags() -> None:
    command = read("solve", "connect4", "4453", "--hash", "32", "--threads", "2", "--processes", "--multipv", "3")
    assert (command.command, command.game, command.position) == ("solve", "connect4", "4453")
    assert (command.hash_mib, command.threads, command.processes, command.multipv) == (32, 2, True, 3)
    assert command.solving and not command.playing
    assert command.depth is None  # solve has no --depth: left at its default


def test_analyze_and_play_read_theirs() -> None:
    analyze = read("analyze", "chess", "--depth", "4", "--backend", "python", "--algorithm", "pvs", "--json")
    assert (analyze.depth, analyze.backend, analyze.algorithm, analyze.json) == (4, "python", "pvs", True)
    assert analyze.file is None and not analyze.processes  # solve's flags
    play = read("play", "nim", "3,4,5", "--side", "second", "--no-book")
    assert play.playing and play.side == "second" and play.no_book and play.threads is None


def test_the_record_is_frozen() -> None:
    command = read("solve", "tictactoe")
    with pytest.raises(dataclasses.FrozenInstanceError):
        command.multipv = 2  # type: ignore[misc]
