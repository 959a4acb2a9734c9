"""What a search silently relies on, checked over random games before anything searches:
``negamax check GAME``, ``check_rules`` for a game written as rules (``CompiledGame``) and
``check_positions`` for a plain position class.

A search trusts the rules it is given. An ``undo`` that leaves one cell of the state
changed, two different positions with one key, an evaluation that is a float, or a copy that
shares its board with the original do not crash anything: they give wrong values, silently.
The checks here play random games and compare, at every position met:

* ``undo`` after ``play`` restores the state exactly (the first differing cell is named,
  with the moves that led there);
* equal states have equal keys, and equal keys belong to equal states (and players, for
  a game with a ``player`` rule), over all the positions seen (a collision is reported
  with both states; a game whose state holds more than the position, a move count or a
  stack of what ``undo`` needs, says how many leading cells the key stands for:
  ``CompiledGame.key_cells``);
* for a plain position, whose state it cannot see, positions with one key look alike to a
  search and play alike (``negamax.core.keys``: the first plies visited exhaustively, then
  the random games; a collision is reported with both positions and the moves to them);
* the move count is within ``max_moves`` and the moves are non-negative, and a game that
  goes on has a move;
* the outcome and the evaluation are integers within the score range;
* for a plain position, ``copy()`` is independent of the original, and ``undo`` restores
  its key and its moves;
* given the compiled rules (``compiled``), they return what the Python rules return.

>>> from negamax import get_game
>>> report = check_positions(get_game("tictactoe"), games=50)
>>> report.ok, report.positions > 100
(True, True)
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from negamax.core.errors import GameDefinitionError
from negamax.core.game import MOVE_LIST_MOVE_LIMIT, Position
from negamax.core.keys import KeyExplorer, Seen, shown_line
from negamax.core.rules import Game
from negamax.core.score import DRAW, ONGOING, WIN, WIN_THRESHOLD
from negamax.core.user_code import method_place, user_code_error

DEFAULT_GAMES = 1000
"""Random games a check plays unless told otherwise."""
MAX_PLIES = 400
"""A game longer than this is cut short (a check must end)."""
MAX_PROBLEMS = 10
"""A check stops once it has found this many problems."""
MAX_KEPT_STATES = 200_000
"""Past this many distinct positions, new ones are no longer kept for the key checks."""
FIRST_POSITIONS = 5_000
"""Every position of a plain game's first plies is visited, as long as they hold no more
than this many in all (tic-tac-toe: to ply 4; chess: to ply 2)..."""
KEY_COMPARISONS = 2_000
"""...and at most this many pairs of positions with one key are played side by side."""
MAX_KEY_COLLISIONS = 1
"""A check of a plain game stops once it has found this many key collisions (the same
mistake, met again and again)."""


@dataclass(frozen=True)
class CheckReport:
    """What a check played and what it found; ``ok`` when it found nothing."""

    game: str
    games: int
    positions: int
    distinct_positions: int
    problems: tuple[str, ...] = field(default=())
    explored: str = ""
    """What was explored, in words, where it says more than the counts."""
    moved_again: int = 0
    """Moves after which the same player was to move again (``player()`` unchanged)."""
    moves_played: int = 0
    """The moves played through the random games (what ``moved_again`` counts among)."""

    @property
    def ok(self) -> bool:
        return not self.problems

    def text(self) -> str:
        """The report as the command line prints it."""
        head = self.explored or (
            f"{self.games:,} random games, {self.positions:,} positions ({self.distinct_positions:,} distinct)"
        )
        head = f"{self.game}: {head}"
        notes = []
        if self.moved_again:
            # not a problem: said so that a game meant to alternate sees it does not
            notes.append(
                f"  the same player was to move again after {self.moved_again:,} of {self.moves_played:,} moves"
                " (player() unchanged): searched as that player's own turn"
            )
        if self.ok:
            return "\n".join([f"{head}: no problem found", *notes])
        lines = [f"{head}: {len(self.problems)} problem(s)", *(f"  - {problem}" for problem in self.problems)]
        return "\n".join([*lines, *notes])


class _Found(Exception):
    """Enough problems: stop playing."""


class _Problems:
    def __init__(self) -> None:
        self.found: list[str] = []

    def add(self, text: str) -> None:
        if text not in self.found:
            self.found.append(text)
        if len(self.found) >= MAX_PROBLEMS:
            raise _Found


def _first_difference(before: Any, after: Any) -> str:
    for index, (was, now) in enumerate(zip(before.tolist(), after.tolist(), strict=True)):
        if was != now:
            return f"cell {index} was {was}, is {now}"
    return "the state is equal but the key changed"


def _value_problem(rule: str, value: Any, low: int, high: int) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        return f"{rule} returned {value!r} ({type(value).__name__}); scores are integers"
    if not low <= int(value) <= high:
        return f"{rule} returned {int(value)}, outside [{low}, {high}]"
    return None


def _outcome_problem(value: Any) -> str | None:
    if isinstance(value, int | np.integer) and int(value) == ONGOING:
        return None
    problem = _value_problem("outcome", value, -WIN, WIN)
    if problem is None and int(value) not in (ONGOING, WIN, -WIN, DRAW) and abs(int(value)) >= WIN_THRESHOLD:
        problem = f"outcome returned {int(value)}: ONGOING, -WIN, DRAW, WIN or a score inside the heuristic range"
    return problem


def check_rules(
    rules: Any,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    compiled: Mapping[str, Callable[..., Any]] | None = None,
) -> CheckReport:
    """Play ``games`` random games through a game's rules (``CompiledGame().rules``) and check
    what a search relies on (the module says what); ``compiled`` maps rule names to the
    same rules compiled, to be compared with the Python ones at every position."""
    generator = random.Random(seed)
    buffer = np.zeros(rules.max_moves, dtype=np.int64)
    compiled_buffer = np.zeros(rules.max_moves, dtype=np.int64)
    problems = _Problems()
    key_of_state: dict[tuple[bytes, int | None], int] = {}
    state_of_key: dict[int, tuple[bytes, int | None]] = {}
    functions = rules.functions
    positions = played = moves_played = moved_again = 0

    def call(rule: str, *arguments: Any) -> Any:
        try:
            return functions[rule](*arguments)
        except Exception as error:  # a rule's own bug, named with where it happened
            problems.add(f"{rule} raised {type(error).__name__}: {error} ({where})")
            raise _Found from None

    def check_position(state: Any, line: list[int]) -> list[int]:
        count = call("legal_moves", state, buffer)
        problem = _value_problem("legal_moves", count, 0, rules.max_moves)
        if problem is not None:
            problems.add(f"{problem} (max_moves is {rules.max_moves}) ({where})")
            return []
        moves = [int(move) for move in buffer[: int(count)]]
        if any(not 0 <= move < MOVE_LIST_MOVE_LIMIT for move in moves):
            problems.add(f"legal_moves wrote a move outside [0, {MOVE_LIST_MOVE_LIMIT}): {moves} ({where})")
        problem = _value_problem("evaluate", call("evaluate", state), -WIN_THRESHOLD + 1, WIN_THRESHOLD - 1)
        if problem is not None:
            problems.add(f"{problem} ({where})")
        for rule in ("key", "canonical_key"):
            if rule in functions:
                problem = _value_problem(rule, call(rule, state), 0, (1 << 63) - 1)
                if problem is not None:
                    problems.add(f"{problem} ({where})")
        key = int(call("key", state))
        if "player" in functions:
            problem = _value_problem("player", call("player", state), 0, 1)
            if problem is not None:
                problems.add(f"{problem} ({where})")
        image = rules.key_image(state, int(call("player", state)) if "player" in functions else None)
        if len(key_of_state) < MAX_KEPT_STATES:
            known_key = key_of_state.setdefault(image, key)
            if known_key != key:
                problems.add(f"key gave {key} and {known_key} for equal states ({where})")
            known_state = state_of_key.setdefault(key, image)
            if known_state != image:
                problems.add(
                    f"key collision: {key} for {rules.image_text(known_state)} and {rules.image_text(image)}"
                    f" ({where}); the search would take one position for the other (if the cells that differ"
                    " are not the position, say how many are: key_cells)"
                )
        if compiled is not None:
            compare_compiled(compiled, state, moves)
        return moves

    def compare_compiled(compiled: Mapping[str, Callable[..., Any]], state: Any, moves: list[int]) -> None:
        for rule in ("outcome", "evaluate", "key", "canonical_key", "player"):
            if rule in compiled and rule in functions:
                python, fast = int(functions[rule](state.copy())), int(compiled[rule](state.copy()))
                if python != fast:
                    problems.add(f"compiled {rule} returned {fast}, Python {python} ({where})")
        count = int(compiled["legal_moves"](state.copy(), compiled_buffer))
        if [int(move) for move in compiled_buffer[:count]] != moves:
            problems.add(f"compiled legal_moves wrote {compiled_buffer[:count].tolist()}, Python {moves} ({where})")
        for move in moves[:4]:
            python_state, compiled_state = state.copy(), state.copy()
            functions["play"](python_state, move)
            compiled["play"](compiled_state, move)
            if not np.array_equal(python_state, compiled_state):
                change = _first_difference(python_state, compiled_state)
                problems.add(f"compiled play of {move} differs from Python's: {change} ({where})")

    where = "at the start"
    try:
        for _ in range(games):
            played += 1
            state = rules.new_state()
            line: list[int] = []
            for _ply in range(MAX_PLIES):
                where = shown_line(line)
                positions += 1
                outcome = call("outcome", state)
                problem = _outcome_problem(outcome)
                if problem is not None:
                    problems.add(f"{problem} ({where})")
                    break
                if int(outcome) != ONGOING:
                    break
                moves = check_position(state, line)
                if not moves:
                    problems.add(f"legal_moves returned no move, but outcome says the game goes on ({where})")
                    break
                move = generator.choice(moves)
                for tried in moves if len(line) < 2 else [move]:
                    before = state.copy()
                    call("play", state, tried)
                    call("undo", state, tried)
                    if not np.array_equal(state, before):
                        problems.add(
                            f"undo did not restore the state after move {tried} ({where}): "
                            f"{_first_difference(before, state)}"
                        )
                        state[:] = before
                mover = int(call("player", state)) if "player" in functions else None
                call("play", state, move)
                line.append(move)
                moves_played += 1
                if mover is not None and int(call("player", state)) == mover:
                    moved_again += 1
    except _Found:
        pass
    return CheckReport(
        rules.name,
        played,
        positions,
        len(key_of_state),
        tuple(problems.found),
        moved_again=moved_again,
        moves_played=moves_played,
    )


LOOKING_METHODS = ("is_terminal", "legal_moves", "evaluate", "terminal_value", "player", "key")
"""What a search asks a position without playing a move: none of them may change it."""


def _changer(position: Position[Any]) -> str:
    """The first method of ``LOOKING_METHODS`` that changes a copy of ``position`` (its
    key), named with its place (``Stones.evaluate (stones.py:30)``)."""
    for name in LOOKING_METHODS:
        copy = position.copy()
        before = copy.key()
        with contextlib.suppress(Exception):  # the method's own failure is not what is asked
            getattr(copy, name)()
        if copy.key() != before:
            return method_place(getattr(position, name))
    return "looking at it (legal_moves, evaluate, is_terminal...)"


def check_positions(game: Game, games: int = DEFAULT_GAMES, seed: int = 0) -> CheckReport:
    """Visit every position of a game's first plies, then play ``games`` random games, for
    a game whose positions are plain Python objects, and check what a search relies on:
    ``key()`` telling apart the positions the search must (``negamax.core.keys``), ``undo``
    restoring the key and the moves, ``copy()`` independent of the original, values that
    are integers within the score range (the first value the search would refuse ends the
    check, named as the search names it)."""
    generator = random.Random(seed)
    problems = _Problems()
    counted = {"moves": 0, "again": 0}

    def inspect(position: Position[Any], view: Seen, line: list[Any]) -> bool:
        where = shown_line(line)
        try:
            hash(view.key)
        except TypeError:
            problems.add(
                f"{method_place(position.key)} returned {type(view.key).__name__}, which is not hashable ({where})"
            )
            return False
        if position.key() != view.key:
            problems.add(f"{_changer(position)} changed the position it was asked about ({where})")
            return False
        if view.terminal:
            return True
        moves = list(view.moves)
        if not moves:
            problems.add(f"legal_moves is empty, but is_terminal says the game goes on ({where})")
            return False
        move = generator.choice(moves)
        copy = position.copy()
        copy.play(move)
        counted["moves"] += 1
        if copy.player() == position.player():
            counted["again"] += 1
        if position.key() != view.key or list(position.legal_moves()) != moves:
            problems.add(
                f"playing {move!r} on a copy changed the original: {method_place(position.copy)} shares its state"
                f" ({where})"
            )
            return False
        for tried in moves if len(line) < 2 else [move]:
            position.play(tried)
            position.undo(tried)
            if position.key() != view.key or list(position.legal_moves()) != moves:
                problems.add(
                    f"{method_place(position.undo)} of {tried!r} did not restore the key and the moves ({where})"
                )
                return False
        return True

    explorer = KeyExplorer(
        lambda: game.new_position(None),
        seed=seed,
        positions=games * MAX_PLIES + FIRST_POSITIONS,
        kept=MAX_KEPT_STATES,
        comparisons=KEY_COMPARISONS,
        collisions=MAX_KEY_COLLISIONS,
        inspect=inspect,
    )
    try:
        found = explorer.explore(games, FIRST_POSITIONS)
    except _Found:
        found = explorer.found
    except GameDefinitionError as error:  # a value or a list of moves a search refuses
        problems.found.append(str(error))
        found = explorer.found
    except Exception as error:  # raised by the game's own code: named as a search names it
        named = user_code_error(error)
        if named is None:
            raise
        problems.found.append(str(named))
        found = explorer.found
    for collision in found.collisions:
        problems.found.append(collision.text())
    name = getattr(game, "name", type(game).__name__)
    return CheckReport(
        name,
        found.games,
        found.positions,
        found.distinct,
        tuple(problems.found),
        found.text(),
        moved_again=counted["again"],
        moves_played=counted["moves"],
    )
