"""A game's rules seen from outside the search: names, parsing and display.

The search only needs a ``Position``. Command lines, engines and pictures also need to
read positions and moves from text and to show them; a ``Game`` does that, one per game.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Protocol

from negamax.core.game import Position


class Game(Protocol):
    """Text in and out for one game."""

    name: str
    """The registry name, as typed on the command line."""

    description: str
    """One line for ``negamax games``."""

    position_help: str
    """How positions are written, with an example."""

    def new_position(self, text: str | None = None) -> Position[Any]:
        """The start position, or the position ``text`` describes.

        :raises InvalidPositionError: if ``text`` is malformed or unreachable.
        """
        ...

    def parse_move(self, position: Position[Any], text: str) -> Hashable:
        """The legal move ``text`` names in ``position``.

        :raises IllegalMoveError: if ``text`` is malformed or not legal there.
        """
        ...

    def move_text(self, position: Position[Any], move: Hashable) -> str:
        """How ``move`` (legal in ``position``) is written."""
        ...

    def position_text(self, position: Position[Any]) -> str:
        """A text that ``new_position`` reads back into the same position."""
        ...

    def render(self, position: Position[Any]) -> str:
        """A multi-line picture of the position for a terminal."""
        ...

    def game_score(self, position: Position[Any], score: int) -> int:
        """The game's own convention for a search score from ``position`` (for most games
        the search score itself; Connect 4 uses Pascal Pons' convention)."""
        ...


class BaseGame:
    """Defaults shared by the built-in games."""

    name = ""
    description = ""
    position_help = ""

    def game_score(self, position: Position[Any], score: int) -> int:
        return score
