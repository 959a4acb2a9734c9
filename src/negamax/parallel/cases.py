"""Position files: one position a line, optionally followed by its expected score (the
format of Pascal Pons' Connect 4 test sets, ``<moves> <score>``).

A position may itself hold spaces (a chess FEN, moves separated by spaces): a last field
that is a number is the expected score unless the whole line is a position of the game.
A tab before the score settles any doubt."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator

from negamax.core.errors import InvalidOptionError
from negamax.core.ranges import MAX_LINE_BYTES
from negamax.core.rules import Game


@dataclasses.dataclass(frozen=True)
class Case:
    """One position of the input: its line number, text and the expected score if given."""

    line: int
    text: str
    expected: int | None = None
    problem: str | None = None
    """Why the line cannot be a position at all (too long), if it cannot."""
    bounds: tuple[int, int] | None = None
    """What is already proven of the position's value, ``(lower, upper)`` in the engine's
    distance scores, where a solve may start (a book build's: from the values of the
    positions one ply above)."""


EXPECTED_SCORE = re.compile(r"[+-]?[0-9]{1,15}")
"""An expected score: ASCII digits only (``"²".isdigit()`` is true in Python), and short
enough to be a score; anything else after the position belongs to the position's text."""


def read_cases(path: str, is_position: Callable[[str], bool] | None = None) -> Iterator[Case]:
    """The positions of a file: one a line, optionally followed by the expected score;
    blank lines and ``#`` comments skipped. ``is_position`` tells whether a text is a
    position of the game (without it, a score is read only after a tab or as the second of
    exactly two fields).

    The file is read a line at a time, lines ending at ``\\n`` only (a form feed or a
    Unicode line separator inside a line does not shift the line numbers); a line longer
    than ``MAX_LINE_BYTES`` characters is a case with a ``problem``, and the rest of it is
    skipped unread into memory.

    :raises InvalidOptionError: if the file cannot be read.
    """
    try:
        handle = open(path, encoding="utf-8", newline="\n")  # noqa: SIM115 (closed below)
    except OSError as error:
        raise InvalidOptionError(f"cannot read {path}: {error.strerror}") from None
    with handle:
        number = 0
        while True:
            try:
                line = handle.readline(MAX_LINE_BYTES + 1)
            except UnicodeDecodeError:
                raise InvalidOptionError(f"cannot read {path}: not UTF-8 text (line {number + 1})") from None
            except OSError as error:
                raise InvalidOptionError(f"cannot read {path}: {error.strerror}") from None
            if not line:
                return
            number += 1
            if len(line) > MAX_LINE_BYTES and not line.endswith("\n"):
                while (rest := handle.readline(MAX_LINE_BYTES)) and not rest.endswith("\n"):
                    pass
                yield Case(number, line[:40] + "...", problem=f"longer than {MAX_LINE_BYTES} characters")
                continue
            case = _case(number, line, is_position)
            if case is not None:
                yield case


def _case(number: int, line: str, is_position: Callable[[str], bool] | None) -> Case | None:
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return None
    if "\t" in stripped:
        text, _, score = stripped.rpartition("\t")
    else:
        text, _, score = stripped.rpartition(" ")
        if is_position is not None:
            if is_position(stripped):
                text, score = stripped, ""
        elif len(stripped.split()) != 2:
            text, score = stripped, ""
    score = score.strip()
    if text.strip() and EXPECTED_SCORE.fullmatch(score):
        return Case(number, text.strip(), int(score))
    return Case(number, stripped)


def position_test(game: Game) -> Callable[[str], bool]:
    """Whether a text is a position of ``game`` (for ``read_cases``)."""

    def is_position(text: str) -> bool:
        try:
            game.new_position(text)
        except Exception:  # any failure says "not a position": the batch reports it per line
            return False
        return True

    return is_position
