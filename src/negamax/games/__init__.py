"""The built-in games, looked up by name; each game module is imported only when used."""

from __future__ import annotations

import importlib

from negamax.core.errors import UnknownGameError
from negamax.core.rules import Game

_REGISTRY = {
    "tictactoe": ("negamax.games.tictactoe", "TicTacToeGame"),
    "connect4": ("negamax.games.connect4", "Connect4Game"),
    "nim": ("negamax.games.nim", "NimGame"),
    "chess": ("negamax.games.chess", "ChessGame"),
    "draughts": ("negamax.games.draughts", "DraughtsGame"),
    "checkers": ("negamax.games.draughts", "CheckersGame"),
    "russian": ("negamax.games.draughts", "RussianGame"),
    "brazilian": ("negamax.games.draughts", "BrazilianGame"),
    "frisian": ("negamax.games.draughts", "FrisianGame"),
    "tree": ("negamax.games.tree", "TreeGame"),
    "random": ("negamax.games.random_tree", "RandomTreeGame"),
}


def available_games() -> list[str]:
    return list(_REGISTRY)


def get_game(name: str) -> Game:
    """The game registered as ``name``.

    :raises UnknownGameError: if there is none.
    """
    try:
        module_name, class_name = _REGISTRY[name.lower()]
    except KeyError:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(_REGISTRY)}") from None
    game: Game = getattr(importlib.import_module(module_name), class_name)()
    return game
