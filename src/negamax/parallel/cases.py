"""Position files: one position a line, optionally followed by its expected score (the
format of Pascal Pons' Connect 4 test sets)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from negamax.core.errors import InvalidOptionError


@dataclasses.dataclass(frozen=True)
class Case:
    """One position of the input: its line number, text and the expected score if given."""

    line: int
    text: str
    expected: int | None = None


def read_cases(path: str) -> Iterator[Case]:
    """The positions of a file: one a line, optionally followed by the expected score;
    blank lines and ``#`` comments skipped.

    :raises InvalidOptionError: if the file cannot be read.
    """
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise InvalidOptionError(f"cannot read {path}: {reason}") from None
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        parts = stripped.rsplit(None, 1)
        if len(parts) == 2 and parts[1].lstrip("+-").isdigit():
            yield Case(number, parts[0], int(parts[1]))
        else:
            yield Case(number, stripped)
