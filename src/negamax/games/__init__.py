"""The games, looked up by name: the built-in ones (each module imported only when used;
Connect 4 on any board, ``connect4:WIDTHxHEIGHT``), OpenSpiel's (``openspiel:NAME``), and
games from outside (``module.path:GameClass``, ``path/to/file.py:GameClass``, or
registered by an installed package; see ``plugins``), with the arguments a game class
takes, if any (``path/to/file.py:GameClass(3, size=4)``; see ``parameters``)."""

from __future__ import annotations

import importlib

from negamax.core.errors import InvalidOptionError, UnknownGameError
from negamax.core.rules import Game

_REGISTRY = {
    "tictactoe": ("negamax.games.tictactoe.rules", "TicTacToeGame"),
    "connect4": ("negamax.games.connect4.rules", "Connect4Game"),
    "nim": ("negamax.games.nim", "NimGame"),
    "chess": ("negamax.games.chess.rules", "ChessGame"),
    "draughts": ("negamax.games.draughts.rules", "DraughtsGame"),
    "checkers": ("negamax.games.draughts.rules", "CheckersGame"),
    "russian": ("negamax.games.draughts.rules", "RussianGame"),
    "brazilian": ("negamax.games.draughts.rules", "BrazilianGame"),
    "frisian": ("negamax.games.draughts.rules", "FrisianGame"),
    "tree": ("negamax.games.tree", "TreeGame"),
    "random": ("negamax.games.random_tree", "RandomTreeGame"),
}
OPENSPIEL_PREFIX = "openspiel:"
CONNECT4_PREFIX = "connect4:"


def available_games() -> list[str]:
    """The built-in games' names."""
    return list(_REGISTRY)


def installed_games() -> list[str]:
    """The names of the games installed packages register (``negamax.games`` entry points)."""
    from negamax.games import plugins

    return sorted(plugins.entry_point_games())


def get_game(name: str) -> Game:
    """The game ``name`` names: a built-in game, Connect 4 on another board
    (``connect4:WIDTHxHEIGHT``), ``openspiel:GAME`` (with OpenSpiel's
    parameters, ``openspiel:breakthrough(rows=6,columns=6)``), a game an installed package
    registers, or ``module.path:GameClass`` / ``path/to/file.py:GameClass``; a game
    class that takes parameters with its arguments (``file.py:Kalah(3, seeds=3)``,
    ``registered_name(pits=4)``).

    :raises UnknownGameError: if there is none, or the arguments do not fit its class.
    """
    found = _REGISTRY.get(name.lower())
    if found is not None:
        module_name, class_name = found
        game: Game = getattr(importlib.import_module(module_name), class_name)()
        return game
    if name.lower().startswith(CONNECT4_PREFIX):
        from negamax.games.connect4.rules import Connect4Game

        try:
            return Connect4Game(name[len(CONNECT4_PREFIX) :])
        except InvalidOptionError as error:
            raise UnknownGameError(str(error)) from None
    if name.lower().startswith(OPENSPIEL_PREFIX):
        from negamax.games.openspiel import OpenSpielGame

        return OpenSpielGame(name[len(OPENSPIEL_PREFIX) :])
    from negamax.games import plugins

    if plugins.is_reference(name):
        return plugins.load_reference(name)
    registered = plugins.load_entry_point(name)
    if registered is not None:
        return registered
    base = name.partition("(")[0].strip().lower()
    if base in _REGISTRY:
        raise UnknownGameError(
            f"{name!r}: the built-in game {base} takes no arguments (Connect 4 on another board: connect4:WIDTHxHEIGHT)"
        )
    known = ", ".join([*_REGISTRY, *installed_games()])
    raise UnknownGameError(
        f"unknown game {name!r}; known games: {known}; or connect4:WIDTHxHEIGHT, openspiel:NAME, module.path:GameClass,"
        " path/to/file.py:GameClass, with its arguments if it takes any: path/to/file.py:GameClass(3, size=4)"
    )
