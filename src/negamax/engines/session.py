"""The read loop shared by the protocol layers: one line in, the session answers, until
``quit`` or the end of input; nothing a GUI sends can end the engine."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Protocol

REPLY_LIMIT = 160
"""The longest error text sent back: a GUI that sends 100 kB of garbage gets a line."""


def clipped(text: str, limit: int = REPLY_LIMIT) -> str:
    """``text`` cut to ``limit`` characters (with ``...``), for replies that quote input."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def bounded_number(text: str, what: str, low: float, high: float) -> float:
    """``text`` as a finite number from ``low`` to ``high``.

    :raises ValueError: with a message naming ``what`` and the range.
    """
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{what} needs a number, not {clipped(text, 40)!r}") from None
    if not math.isfinite(value) or not low <= value <= high:
        raise ValueError(f"{what} must be from {low:g} to {high:g}, not {clipped(text, 40)}")
    return value


def bounded_count(text: str, what: str, low: int, high: int) -> int:
    """``text`` as a whole number from ``low`` to ``high``.

    :raises ValueError: with a message naming ``what`` and the range.
    """
    value = bounded_number(text, what, low, high)
    if value != int(value):
        raise ValueError(f"{what} needs a whole number, not {clipped(text, 40)}")
    return int(value)


class Session(Protocol):
    def handle(self, line: str) -> bool:
        """Carry out one line; False after ``quit``."""
        ...

    def send(self, line: str) -> None: ...

    def halt(self) -> None:
        """Stop any search (the input has ended)."""
        ...


def serve(session: Session, lines: Iterable[str], internal_error: Callable[[Exception], str]) -> int:
    """Feed ``lines`` to ``session``; an unexpected error is reported as ``internal_error``
    says and the engine goes on. Returns the exit status."""
    for line in lines:
        try:
            if not session.handle(line):
                break
        except Exception as error:  # the engine must outlive anything a GUI sends
            session.send(internal_error(error))
    session.halt()
    return 0
