"""The position a request names, replayed from its start and moves, and what the page is
told about it: the part of each answer that runs the game's own code. The app runs it on a
thread for the built-in games, and a plug-in's worker process runs the same for a user's
game (``negamax.viz.web.isolation``)."""

from __future__ import annotations

from typing import Any

from negamax.core.errors import GameDefinitionError, NegamaxError, UnknownGameError
from negamax.core.game import Position, checked_moves
from negamax.core.rules import Game, game_end
from negamax.viz.web import boards
from negamax.viz.web.searches import Searches

MAX_START = 2_000
"""The longest start position (a FEN followed by some moves fits)."""
MAX_MOVES = 1_000
MAX_MOVE_TEXT = 64
MAX_NIM_HEAPS = 20
MAX_NIM_HEAP = 100
MAX_SOLUTION_MOVES = boards.MAX_MOVES_SHOWN
"""The most moves a solution scores (a page could not show more)."""


class BadRequest(NegamaxError, ValueError):
    """A request the server refuses (answered with 400 and the message)."""


class Positions:
    """Replays requests on ``games`` (served name -> game), having ``searches`` prepare each
    game's kernel once a page opens it (with ``prepare``)."""

    def __init__(self, games: dict[str, Game], searches: Searches, prepare: bool = True) -> None:
        self.games = games
        self.searches = searches
        self.prepare = prepare

    def game(self, name: str) -> Game:
        found = self.games.get(name)
        if found is None:
            raise UnknownGameError(f"this server does not serve {name!r}; it serves {', '.join(self.games)}")
        return found

    def replay(
        self,
        name: str,
        start: str,
        moves: list[str],
        played: list[str] | None = None,
        before: list[Position[Any]] | None = None,
        movers: list[int] | None = None,
    ) -> tuple[Game, Position[Any]]:
        """The position ``start`` and ``moves`` name in the game served as ``name``
        (``played``: filled with its moves as shown; ``before``: given the position before
        the last move, if there was one; ``movers``: filled with who played each move,
        where a player may move twice). Called on a thread: a thousand moves of chess, or
        of a user's slow game, would hold the event loop and every other request with it."""
        game = self.game(name)
        if self.prepare:
            self.searches.prepare(game, name)  # the page opened it: its kernel loads from now on (once)
        position = game.new_position(start or None)
        _check_size(game, position)
        for number, text in enumerate(moves, start=1):
            if game_end(position) is not None:
                raise BadRequest(f"move {number} ({text}) comes after the end of the game")
            try:
                move = game.parse_move(position, text)
            except GameDefinitionError:
                raise  # the game's fault, not the move's
            except NegamaxError as error:
                raise BadRequest(f"move {number} ({text}): {error}") from None
            if played is not None:
                played.append(boards.shown_move(game, position, move))
            if movers is not None:
                movers.append(position.player())
            if before is not None and number == len(moves):
                before.append(position.copy())
            position.play(move)
        # The moves are the game's history, not a search's: a copy is where a search starts
        # (chess scores a repetition inside its search as a draw, and one before it is not).
        return game, position.copy()

    def playable(self, name: str, start: str, moves: list[str]) -> tuple[Game, Position[Any]]:
        """The position named, where the game goes on (for a search)."""
        game, position = self.replay(name, start, moves)
        if game_end(position) is not None:
            raise BadRequest("the game is over")
        return game, position

    def solvable(self, name: str, start: str, moves: list[str]) -> tuple[Game, Position[Any]]:
        """The position named, in a game the server solves (for a solution)."""
        game, position = self.playable(name, start, moves)
        if not game.solvable:
            raise BadRequest(f"{game.name} cannot be solved exactly here; ask the engine to think instead")
        count = len(checked_moves(position.legal_moves)())
        if count > MAX_SOLUTION_MOVES:
            raise BadRequest(f"{count:,} legal moves here: a solution lists at most {MAX_SOLUTION_MOVES}")
        return game, position

    def state(self, name: str, start: str, moves: list[str], flipped: bool) -> dict[str, Any]:
        """What ``POST /api/state`` answers: the board, the legal moves, the result."""
        played: list[str] = []
        before: list[Position[Any]] = []
        movers: list[int] = []
        game, position = self.replay(name, start, moves, played, before, movers)
        shown = boards.state(game, position, flipped, played, before[0] if before else None, movers)
        return {**shown, "engine": self.searches.engine(game, name)}


def _check_size(game: Game, position: Position[Any]) -> None:
    """The web app's own limits on positions, tighter than the library's where a page
    could not show the position anyway."""
    if boards.kind_of(game) == "nim":
        heaps = list(getattr(position, "heaps", []))
        if len(heaps) > MAX_NIM_HEAPS or any(size > MAX_NIM_HEAP for size in heaps):
            raise BadRequest(f"nim here has at most {MAX_NIM_HEAPS} heaps of at most {MAX_NIM_HEAP} objects")
