"""The read loop shared by the protocol layers: one line in, the session answers, until
``quit`` or the end of input; nothing a GUI sends can end the engine, hold it up, or make
it read without bound.

Lines are read with a bounded ``readline``: one longer than ``MAX_LINE_BYTES`` is refused
whole (its rest read in chunks and dropped, never kept), so a GUI that sends megabytes on
one line gets one error and the engine answers the next line at once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from typing import IO, Any, Protocol

from negamax.core.errors import InvalidOptionError
from negamax.core.ranges import MAX_LINE_BYTES, Range

REPLY_LIMIT = 160
"""The longest error text sent back: a GUI that sends 100 kB of garbage gets a line."""
DISCARD_CHUNK = 64 * 1024
"""How much of an over-long line is read at a time while it is dropped."""


def clipped(text: str, limit: int = REPLY_LIMIT) -> str:
    """``text`` cut to ``limit`` characters (with ``...``), for replies that quote input,
    anything but printable ASCII escaped (``\\x00``): a GUI reads our lines as text, and a
    NUL or a byte a decoder replaced must not reach it raw."""
    shown = "".join(
        character if " " <= character <= "~" else character.encode("unicode_escape").decode("ascii")
        for character in text
    )
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


def parsed(value_range: Range, text: str, what: str) -> int | float:
    """``text`` read by ``value_range`` (``negamax.core.ranges``, the rule every part of
    negamax uses), its refusal prefixed with the protocol's name for the value, ``what``.

    :raises InvalidOptionError: naming ``what``, the range and the value.
    """
    try:
        return value_range.parse(text)
    except InvalidOptionError as error:
        raise InvalidOptionError(f"{what}: {error}") from None


@dataclasses.dataclass(frozen=True)
class OverlongLine:
    """A line longer than the limit, dropped unread: ``size`` is its length in bytes (or
    characters, from a text stream), without its line ending."""

    size: int


def protocol_lines(stream: IO[Any], limit: int = MAX_LINE_BYTES) -> Iterator[str | OverlongLine]:
    """The lines of ``stream`` (bytes are decoded as UTF-8, bad bytes replaced), without
    their line ending; a line longer than ``limit`` comes as an ``OverlongLine``."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        ending = b"\n" if isinstance(line, bytes) else "\n"
        if len(line) > limit and not line.endswith(ending):
            size = len(line)
            while line and not line.endswith(ending):  # the rest, a chunk at a time, dropped
                line = stream.readline(DISCARD_CHUNK)
                size += len(line)
            yield OverlongLine(size - len(ending) if line else size)
            continue
        text = line.decode("utf-8", errors="replace") if isinstance(line, bytes) else line
        yield text.rstrip("\r\n")


class Session(Protocol):
    def handle(self, line: str) -> bool:
        """Carry out one line; False after ``quit``."""
        ...

    def send(self, line: str) -> None: ...

    def refuse(self, message: str) -> None:
        """Tell the GUI that a line could not be used, and why (one line)."""
        ...

    def halt(self) -> None:
        """Stop any search (the input has ended)."""
        ...


def serve(session: Session, lines: Iterable[str | OverlongLine]) -> int:
    """Feed ``lines`` to ``session``; an over-long line is refused unread, an unexpected
    error is reported and the engine goes on. Returns the exit status."""
    for line in lines:
        try:
            if isinstance(line, OverlongLine):
                session.refuse(f"a line of {line.size} bytes is over the limit of {MAX_LINE_BYTES}; it was not read")
                continue
            if not session.handle(line):
                break
        except Exception as error:  # the engine must outlive anything a GUI sends
            session.refuse(f"internal error {type(error).__name__}: {error}")
    session.halt()
    return 0
