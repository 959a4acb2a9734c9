"""OpenSpiel's games (``pip install 'negamax[openspiel]'``): ``openspiel:tic_tac_toe``,
``openspiel:breakthrough(rows=6,columns=6)``, ... any OpenSpiel game that is two-player,
zero-sum, deterministic, sequential and perfect-information (the games OpenSpiel's own
minimax accepts).

* Terminal values come from ``returns()`` for the side that made the last move, as a win,
  a loss or a draw for the side to move.
* Make/unmake uses ``undo_action`` where the game implements it correctly (checked by
  playing random games when the game is loaded), and a stack of states otherwise.
* The key is the state's own text and the player to move for games whose text describes
  the whole position (``BOARD_KEYED``), and the history of actions otherwise (correct for
  any game, but no transposition is ever recognised).
* A move is one action, and the player to move is OpenSpiel's ``current_player()``: where
  a player acts several times in a row (amazons: pick, move, shoot; checkers: a multi-jump;
  dots and boxes: a completed box), the search takes each action as that player's own turn
  again, as OpenSpiel's own algorithms do.
* There is no evaluation (every unfinished position scores 0), so a search to a depth
  finds forced wins and losses within it; ``solve`` is for small games.

Positions are written as actions from the start (their numbers or OpenSpiel's names for
them), separated by spaces, or ``start``.
"""

from __future__ import annotations

import contextlib
import os
import random
from collections.abc import Hashable, Iterator
from typing import Any, cast

from negamax.core.errors import IllegalMoveError, UnknownGameError
from negamax.core.game import Position
from negamax.core.rules import BaseGame, play_move_texts
from negamax.core.score import DRAW, WIN

BOARD_KEYED = frozenset(
    ("tic_tac_toe", "connect_four", "breakthrough", "clobber", "othello", "hex", "mnk", "gomoku", "pentago", "nim")
)
"""Games whose state text (with the player to move) is the whole position."""
SOLVABLE_LENGTH = 64
SOLVABLE_ACTIONS = 64
"""Games no longer and no wider than this may be solved without a limit (tic-tac-toe,
Connect Four, Nim); others (chess, go, hex 11x11) only within a time or node limit."""
PROBE_GAMES = 4
PROBE_PLIES = 300


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        raise UnknownGameError("OpenSpiel's games need OpenSpiel: pip install 'negamax[openspiel]'") from None
    return pyspiel


def accepted(game: Any) -> str:
    """Why OpenSpiel's ``game`` cannot be searched here, or "" when it can (the test of
    OpenSpiel's own minimax)."""
    kinds = _pyspiel().GameType
    game_type = game.get_type()
    if game.num_players() != 2:
        return f"it has {game.num_players()} players, not 2"
    if game_type.chance_mode != kinds.ChanceMode.DETERMINISTIC:
        return "it has chance events"
    if game_type.information != kinds.Information.PERFECT_INFORMATION:
        return "it has hidden information"
    if game_type.dynamics != kinds.Dynamics.SEQUENTIAL:
        return "its players move simultaneously"
    if game_type.utility != kinds.Utility.ZERO_SUM:
        return f"it is not zero-sum ({game_type.utility.name.lower().replace('_', '-')})"
    return ""


class OpenSpielGame(BaseGame):
    """One OpenSpiel game, by its OpenSpiel name with optional parameters."""

    position_help = "actions from the start (numbers or OpenSpiel's names), separated by spaces, or start"

    def __init__(self, spiel_name: str) -> None:
        pyspiel = _pyspiel()
        spiel_name = spiel_name.strip()
        try:
            with _quiet_stderr():
                self.spiel = pyspiel.load_game(spiel_name)
        except Exception as error:
            message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            if message.startswith("Unknown game"):
                message = "no such game (see pyspiel.registered_names())"
            raise UnknownGameError(f"OpenSpiel cannot load {spiel_name!r}: {message}") from None
        refusal = accepted(self.spiel)
        if refusal:
            raise UnknownGameError(f"openspiel:{spiel_name} cannot be searched here: {refusal}")
        self.short_name = self.spiel.get_type().short_name
        self.name = f"openspiel:{spiel_name}"
        self.description = f"OpenSpiel's {self.spiel.get_type().long_name}"
        self.board_keyed = self.short_name in BOARD_KEYED
        self.solvable = self.spiel.max_game_length() <= SOLVABLE_LENGTH and (
            self.spiel.num_distinct_actions() <= SOLVABLE_ACTIONS
        )
        self.undo_works = _probe(self.spiel)

    has_evaluation = False
    """OpenSpiel's games come without an evaluation: ``search()`` runs Monte Carlo tree
    search on them (unless asked for another algorithm, or a depth)."""

    def new_position(self, text: str | None = None) -> Position[Any]:
        return play_move_texts(self, OpenSpielPosition(self, self.spiel.new_initial_state()), text, commas=False)

    def parse_move(self, position: Position[Any], text: str) -> Hashable:
        assert isinstance(position, OpenSpielPosition)
        if position.is_terminal():
            raise IllegalMoveError("the game is over")
        text = text.strip()
        legal = position.legal_moves()
        for move in legal:
            if text in (self.move_text(position, move), str(move)):
                return cast(Hashable, move)
        shown = ", ".join(self.move_text(position, move) for move in legal[:12])
        raise IllegalMoveError(f"{text!r} is not a legal move here; legal: {shown}{', ...' if len(legal) > 12 else ''}")

    def move_text(self, position: Position[Any], move: Hashable) -> str:
        assert isinstance(position, OpenSpielPosition) and isinstance(move, int)
        return str(position.state.action_to_string(position.state.current_player(), move))

    def position_text(self, position: Position[Any]) -> str:
        assert isinstance(position, OpenSpielPosition)
        return " ".join(str(action) for action in position.state.history()) or "start"

    def render(self, position: Position[Any]) -> str:
        assert isinstance(position, OpenSpielPosition)
        return str(position.state)


class OpenSpielPosition:
    """An OpenSpiel state seen by the search: moves, make/unmake, values, a key."""

    __slots__ = ("_movers", "_stack", "game", "state")

    has_evaluation = False

    def __init__(self, game: OpenSpielGame, state: Any) -> None:
        self.game = game
        self.state = state
        self._movers: list[int] = []
        self._stack: list[Any] = []

    @property
    def solvable(self) -> bool:
        """Whether ``solve()`` may search this game to its end without a limit."""
        return bool(self.game.solvable)

    def legal_moves(self) -> list[int]:
        if self.state.is_terminal():
            return []
        return list(self.state.legal_actions())

    def play(self, move: int) -> None:
        self._movers.append(self.state.current_player())
        if self.game.undo_works:
            self.state.apply_action(move)
        else:
            self._stack.append(self.state)
            self.state = self.state.child(move)

    def undo(self, move: int) -> None:
        mover = self._movers.pop()
        if self.game.undo_works:
            self.state.undo_action(mover, move)
        else:
            self.state = self._stack.pop()

    def is_terminal(self) -> bool:
        return bool(self.state.is_terminal())

    def terminal_value(self) -> int:
        returns = self.state.returns()
        mover = self._last_mover()
        value = -returns[mover] if mover is not None else returns[0]
        return WIN if value > 0 else -WIN if value < 0 else DRAW

    def _last_mover(self) -> int | None:
        if self._movers:
            return self._movers[-1]
        history = self.state.history()
        if not history:
            return None
        # reached by new_position: replay to learn who made the last action
        replay = self.game.spiel.new_initial_state()
        mover = None
        for action in history:
            mover = replay.current_player()
            replay.apply_action(action)
        return mover

    def evaluate(self) -> int:
        return 0

    def key(self) -> Hashable:
        if self.game.board_keyed:
            return (self.state.current_player(), str(self.state))
        return tuple(self.state.history())

    def player(self) -> int:
        player = self.state.current_player()
        if player < 0:  # terminal: the side that would move next
            mover = self._last_mover()
            return 1 - mover if mover is not None else 0
        return int(player)

    def copy(self) -> OpenSpielPosition:
        clone = OpenSpielPosition(self.game, self.state.clone())
        clone._movers = list(self._movers)
        return clone

    def __repr__(self) -> str:
        return f"OpenSpielPosition({self.game.name}, history={list(self.state.history())})"


def _probe(spiel: Any) -> bool:
    """Random games through ``spiel``: whether ``undo_action`` restores every state it is
    asked to."""
    generator = random.Random(0)
    undo_works = True
    with _quiet_stderr():
        for _ in range(PROBE_GAMES):
            state = spiel.new_initial_state()
            for _ply in range(PROBE_PLIES):
                if state.is_terminal():
                    break
                mover = state.current_player()
                action = generator.choice(state.legal_actions())
                if undo_works:
                    undo_works = _undo_restores(state, mover)
                state.apply_action(action)
    return undo_works


def _undo_restores(state: Any, mover: int) -> bool:
    """Whether undoing each legal action of ``state`` gives ``state`` back, as far as the
    search can tell (its text, history, player to move and end of the game)."""

    def seen(this: Any) -> tuple[Any, ...]:
        return (str(this), tuple(this.history()), this.current_player(), this.is_terminal())

    before = seen(state)
    for action in state.legal_actions():
        trial = state.clone()
        try:
            trial.apply_action(action)
            trial.undo_action(mover, action)
            if seen(trial) != before:
                return False
        except Exception:  # OpenSpiel raises from a state its undo left inconsistent
            return False
    return True


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """OpenSpiel's C++ side prints to the process's stderr when a game has no undo."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "w") as sink:
            os.dup2(sink.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
