"""Position files: one position a line, optionally followed by its expected score (the
format of Pascal Pons' Connect 4 test sets, ``<moves> <score>``).

A position may itself hold spaces (a chess FEN, moves separated by spaces): a last field
that is a number is the expected score unless the whole line is a position of the game.
A tab before the score settles any doubt."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

from negamax.core.errors import InvalidOptionError, NegamaxError
from negamax.core.rules import Game


@dataclasses.dataclass(frozen=True)
class Case:
    """One position of the input: its line number, text and the expected score if given."""

    line: int
    text: str
    expected: int | None = None


def read_cases(path: str, is_position: Callable[[str], bool] | None = None) -> Iterator[Case]:
    """The positions of a file: one a line, optionally followed by the expected score;
    blank lines and ``#`` comments skipped. ``is_position`` tells whether a text is a
    position of the game (without it, a score is read only after a tab or as the second of
    exactly two fields).

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
        if text.strip() and score.lstrip("+-").isdigit():
            yield Case(number, text.strip(), int(score))
        else:
            yield Case(number, stripped)


def position_test(game: Game) -> Callable[[str], bool]:
    """Whether a text is a position of ``game`` (for ``read_cases``)."""

    def is_position(text: str) -> bool:
        try:
            game.new_position(text)
        except NegamaxError:
            return False
        return True

    return is_position
