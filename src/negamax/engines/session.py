"""The read loop shared by the protocol layers: one line in, the session answers, until
``quit`` or the end of input; nothing a GUI sends can end the engine."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol


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
