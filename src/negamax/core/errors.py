"""The library's exceptions: every user mistake is a ``ValueError`` subclass."""

from __future__ import annotations


class NegamaxError(Exception):
    """Root of every exception raised by negamax."""


class InvalidPositionError(NegamaxError, ValueError):
    """A position could not be parsed, or describes a state the rules cannot reach."""


class IllegalMoveError(NegamaxError, ValueError):
    """A move could not be parsed, or is not legal in the position."""


class UnknownGameError(NegamaxError, ValueError):
    """No game of that name is registered."""


class InvalidOptionError(NegamaxError, ValueError):
    """A search option or limit is out of range or unknown."""


class GameDefinitionError(NegamaxError, ValueError):
    """A game's definition breaks the library's contract (a compiled game's rules that do
    not compile, return the wrong kind of value, or misbehave when played)."""
