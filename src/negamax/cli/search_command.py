"""A command that searches (``analyze``, ``solve``, ``play``) as its arguments gave it: read
once from argparse's namespace into a frozen, typed record, so that the code that runs it
reads fields, not a namespace whose attributes depend on the subcommand."""

from __future__ import annotations

import argparse
import dataclasses


@dataclasses.dataclass(frozen=True)
class SearchCommand:
    """``analyze``, ``solve`` or ``play``, its flags as given (``None``: not given)."""

    command: str
    """``analyze``, ``solve`` or ``play``."""
    game: str
    """The game as the command line named it: how another process (a compiler, a worker)
    loads it (a game from a file has no other name)."""
    position: str | None = None
    algorithm: str = "auto"
    backend: str | None = None
    depth: int | None = None
    time: float | None = None
    nodes: int | None = None
    hash_mib: float | None = None
    multipv: int = 1
    json: bool = False
    book: str | None = None
    no_book: bool = False
    threads: int | None = None
    processes: bool = False
    file: str | None = None
    """``solve --file``: a position a line."""
    check: bool = False
    scheduler: str | None = None
    workers: int | None = None
    split: int | None = None
    side: str = "first"
    """``play``: the side the person plays."""
    self_play: bool = False

    @property
    def solving(self) -> bool:
        return self.command == "solve"

    @property
    def playing(self) -> bool:
        return self.command == "play"


_RENAMED = {"hash": "hash_mib"}
"""The namespace's names that the record spells out."""


def search_command(arguments: argparse.Namespace) -> SearchCommand:
    """The record of a searching subcommand's arguments (the only place that reads its
    namespace): every field its parser defines, the others left at their defaults."""
    fields = {field.name for field in dataclasses.fields(SearchCommand)}
    given = {_RENAMED.get(name, name): value for name, value in vars(arguments).items()}
    return SearchCommand(**{name: value for name, value in given.items() if name in fields})
