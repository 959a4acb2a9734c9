"""Draughts on py-draughts' rules where they are right: the positions and games (``rules``),
American checkers' own moves (``checkers``: py-draughts makes its captures optional), the
evaluation and its fitted patterns (``evaluation``, ``patterns.npz``) and the compiled form
for the kernels (``compiled``)."""

from negamax.games.draughts.rules import (
    BrazilianGame,
    CheckersGame,
    DraughtsGame,
    DraughtsPosition,
    DraughtsUnavailableError,
    FrisianGame,
    RussianGame,
)

__all__ = [
    "BrazilianGame",
    "CheckersGame",
    "DraughtsGame",
    "DraughtsPosition",
    "DraughtsUnavailableError",
    "FrisianGame",
    "RussianGame",
]
