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
MAX_LINES_SENT = 200
"""The most lines of a game (its main line and variations) a request sends."""
MAX_LINE_MOVES = 6_000
"""The most moves in all the lines of a game a PGN read gives (each line whole, from the
start): the page sends them back, and a request's body holds 64 KB (a UCI move and its
quotes and comma take 7 or 8 bytes)."""
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

    def split(self, name: str, start: str) -> dict[str, Any]:
        """A start position typed as a line of moves, as ``start`` (where the line begins)
        and ``moves`` (each move of it, as the game writes it), so that the page lists them
        and can take them back: ``startpos moves e2e4 e7e5`` in chess and draughts, ``4455``
        in Connect 4, ``048`` in tic-tac-toe, ``0 1 2`` in a game of spaced moves. Any other
        start (a FEN, a board, heaps) comes back whole, with no moves.

        :raises NegamaxError: for a start the game does not read."""
        game = self.game(name)
        typed = start.strip()
        whole = game.new_position(typed or None)  # refuses what the game does not read
        head, marker, tail = typed.partition(" moves")
        if marker:
            base, words = head.strip(), tail.split()
            base = "" if base in ("start", "startpos") else base
        else:
            base, words = "", typed.split()
            if len(words) == 1 and typed.lower() != "start":
                words = list(typed)  # a line without spaces: one character a move
        line = _line_of(game, game.new_position(base or None), words)
        if line is None or (not marker and line[1].key() != whole.key()):
            return {"start": start, "moves": []}
        return {"start": base, "moves": line[0]}

    def lines(self, name: str, start: str, lines: list[list[str]]) -> list[dict[str, list[Any]]]:
        """Each line of moves from ``start`` as a player reads them (``played``), and who
        played each (``movers``): the page lists a game's variations with them.

        :raises BadRequest: for a move a line cannot play."""
        named: list[dict[str, list[Any]]] = []
        for moves in lines:
            played: list[str] = []
            movers: list[int] = []
            self.replay(name, start, moves, played, movers=movers)
            named.append({"played": played, "movers": movers})
        return named

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


def _line_of(game: Game, position: Position[Any], words: list[str]) -> tuple[list[str], Position[Any]] | None:
    """``words`` played from ``position``, each as the game writes its move, and the
    position they reach; None if one of them is not a legal move there."""
    moves = []
    for word in words:
        if game_end(position) is not None:
            return None
        try:
            move = game.parse_move(position, word)
        except GameDefinitionError:
            raise
        except NegamaxError:
            return None
        moves.append(game.move_text(position, move))
        position.play(move)
    return moves, position


def _check_size(game: Game, position: Position[Any]) -> None:
    """The web app's own limits on positions, tighter than the library's where a page
    could not show the position anyway."""
    if boards.kind_of(game) == "nim":
        heaps = list(getattr(position, "heaps", []))
        if len(heaps) > MAX_NIM_HEAPS or any(size > MAX_NIM_HEAP for size in heaps):
            raise BadRequest(f"nim here has at most {MAX_NIM_HEAPS} heaps of at most {MAX_NIM_HEAP} objects")
