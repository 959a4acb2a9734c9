"""Two positions that one ``key()`` confuses, found by playing: the key check of
``negamax check`` for games written as plain position classes, and the quick one a search
with a transposition table runs first (``check_keys``).

A transposition table takes two positions with one key for one position. The library
cannot see a plain position's state, so it compares what a search sees of it: whose turn
it is, the legal moves (as a set), whether the game is over and its value then, the
evaluation. Two positions with one key that differ in one of these besides the turn are a
collision. Two that differ only in whose turn it is, or that were reached by different
moves, are played side by side, the same moves on both (each first move in turn, then
random moves to the end): where the key may leave something out (Nim's heaps are worth
the same to whoever is to move) the two play alike; where it forgets what matters (the
turn in a partisan game, a score) they part somewhere, and that is a collision too.

A position whose key occurred before on its own line is left out: what it answers may
depend on the repetition (chess and draughts score one as a draw), which the search
handles apart from the table.

Positions are rebuilt from their start by playing their moves again (never ``undo`` nor
``copy``, which ``negamax check`` checks on their own: a broken one is named as such, not
as a collision). Every bound below is a count, so a check finds the same thing on any
machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from negamax.core.errors import GameDefinitionError
from negamax.core.game import Position, checked_evaluation, checked_moves, checked_terminal_value

PLAYOUTS = 8
"""Lines played side by side from two positions with one key..."""
SIDE_BY_SIDE_PLAYS = 2_000
"""...within this many moves played for them, their rebuilding included. The moves played
side by side in all stay within one for each position visited plus ``side_plays`` (in a
long game, draughts, a pair can cost as much as a hundred positions)."""
MAX_PLIES = 400
"""A line longer than this is cut short (a check must end)."""
QUICK_POSITIONS = 200
"""The quick check before a search visits this many positions from its root..."""
QUICK_FIRST_PLIES = 60
"""...every one of the first plies while they hold no more than this many in all..."""
QUICK_COMPARISONS = 12
"""...and plays this many pairs with one key side by side (within as many moves again as
it visits positions). Measured: 2-11 ms for the small games of the tests, 7 ms for the
plain Breakthrough of ``examples/``, 74 ms for its plain Othello (0.4 ms a position)."""
QUICK_TRUSTED_KEYS = 50
"""A class is not checked again in the process once a check met this many keys."""

_checked_classes: set[type] = set()
"""The position classes whose keys passed a whole quick check in this process."""


@dataclass(frozen=True)
class Seen:
    """What a search sees of a position."""

    key: Hashable
    player: int
    terminal: bool
    value: Any
    """``terminal_value()`` when the game is over, else ``evaluate()``."""
    moves: tuple[Any, ...]
    """The legal moves (none once the game is over)."""


def seen(position: Position[Any]) -> Seen:
    """What a search sees of ``position``, its answers checked as the search checks them.

    :raises GameDefinitionError: for a value or a list of moves the search would refuse.
    """
    key, player = position.key(), position.player()
    if position.is_terminal():
        return Seen(key, player, True, checked_terminal_value(position.terminal_value)(), ())
    moves = tuple(checked_moves(position.legal_moves)())
    return Seen(key, player, False, checked_evaluation(position.evaluate)(), moves)


def shown_line(line: Sequence[Any]) -> str:
    """Where a position is, as the check reports say it."""
    shown = list(line) if len(line) <= 30 else ["...", *line[-30:]]
    return f"after the moves {shown}" if line else "at the start"


def _moves_text(moves: Sequence[Any]) -> str:
    shown = ", ".join(repr(move) for move in list(moves)[:12])
    return f"[{shown}{', ...' if len(moves) > 12 else ''}]"


def _short(value: Any, limit: int = 100) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def difference(first: Seen, second: Seen) -> str:
    """How a search sees two positions differently, whose turn aside ("": alike)."""
    if first.terminal != second.terminal:
        return f"is_terminal() {first.terminal} and {second.terminal}"
    if not first.terminal and set(first.moves) != set(second.moves):
        return f"legal_moves() {_moves_text(first.moves)} and {_moves_text(second.moves)}"
    if first.value == second.value:
        return ""
    rule = "terminal_value()" if first.terminal else "evaluate()"
    return f"{rule} {_short(first.value)} and {_short(second.value)}"


@dataclass(frozen=True)
class KeyCollision:
    """Two positions with one key that a search must tell apart."""

    key: Hashable
    first: str
    """The first position's ``repr`` ("" when it has none of its own)."""
    first_line: tuple[Any, ...]
    second: str
    second_line: tuple[Any, ...]
    difference: str
    further: tuple[Any, ...] | None = None
    """The moves played on both before they differed (``None``: they differ as they are)."""
    players: tuple[int, int] = (0, 0)

    def text(self) -> str:
        def position(shown: str, line: tuple[Any, ...]) -> str:
            return f"{shown} ({shown_line(line)})" if shown else shown_line(line)

        where = f"{position(self.first, self.first_line)} and {position(self.second, self.second_line)}"
        if self.further is None:
            how = f"they differ: {self.difference}"
        else:
            turns = self.players[0] != self.players[1]
            whose = f" (player() {self.players[0]} and {self.players[1]})" if turns else ""
            how = f"they play differently{whose}: {shown_line(self.further)} on both, {self.difference}"
        return (
            f"key() gave {_short(self.key)} to two positions a search must tell apart, {where}; {how}. A transposition"
            " table takes one for the other: the key leaves out part of the position (whose turn it is? a score?)"
        )


@dataclass
class Exploration:
    """What an exploration played and what it found."""

    positions: int = 0
    distinct: int = 0
    """Distinct keys among them."""
    first_plies: int = 0
    """The first plies of which every position was visited."""
    games: int = 0
    """Random games played after them."""
    compared: int = 0
    """Pairs of positions with one key played side by side."""
    collisions: list[KeyCollision] = field(default_factory=list)

    def text(self) -> str:
        plies = f" and every position to ply {self.first_plies}" if self.first_plies else ""
        return (
            f"{self.games:,} random games{plies}, {self.positions:,} positions ({self.distinct:,} distinct keys,"
            f" {self.compared:,} pairs with one key played side by side)"
        )


class _Stop(Exception):
    """Enough explored, or enough found."""


Inspect = Callable[[Position[Any], Seen, list[Any]], bool]
"""Another check of each position visited (``negamax check``): ``False`` ends its line."""


class KeyExplorer:
    """Visits positions from ``start()`` (a fresh start position each call) and keeps one
    of each key; bounded by counts: ``positions`` in all, ``kept`` keys, ``comparisons``
    pairs played side by side, ``collisions`` found."""

    def __init__(
        self,
        start: Callable[[], Position[Any]],
        *,
        seed: int = 0,
        positions: int,
        kept: int,
        comparisons: int,
        collisions: int = 1,
        side_plays: int = SIDE_BY_SIDE_PLAYS,
        inspect: Inspect | None = None,
    ) -> None:
        self.start = start
        self.generator = random.Random(seed)
        self.side_generator = random.Random(seed + 1)
        self.limit = positions
        self.kept = kept
        self.comparisons = comparisons
        self.wanted = collisions
        self.inspect = inspect
        self.side_plays = side_plays
        self.found = Exploration()
        self._first: dict[Hashable, tuple[Seen, int]] = {}
        """key -> what was seen of the first position with it, and its path."""
        self._compared: set[Hashable] = set()
        self._side_plays = 0
        self._paths: list[tuple[int, Any]] = [(-1, None)]
        """Each path's parent path and last move; path 0 is the start."""
        self._path_of: dict[tuple[int, Any], int] = {}

    # -- exploring ---------------------------------------------------------------------

    def explore(self, games: int, first_positions: int) -> Exploration:
        """Every position of the first plies while a ply holds at most ``first_positions``
        in all, then up to ``games`` random games; stops at the position limit."""
        try:
            self._first_plies(first_positions)
            for _ in range(games):
                self.found.games += 1
                self._random_game()
        except _Stop:
            pass
        finally:
            self.found.distinct = len(self._first)
        return self.found

    def _first_plies(self, budget: int) -> None:
        level: list[tuple[tuple[Any, ...], int]] = [((), 0)]
        visited = 0
        while level and visited + len(level) <= budget:
            following: list[tuple[tuple[Any, ...], int]] = []
            for line, path in level:
                position, keys = self.rebuild(line)
                if position is None:
                    continue
                view = self.visit(position, path, list(line), keys)
                if view is not None and not view.terminal:
                    following += [((*line, move), self.step(path, move)) for move in view.moves]
            visited += len(level)
            self.found.first_plies = len(level[0][0])
            level = following

    def _random_game(self) -> None:
        position = self.start()
        line: list[Any] = []
        keys: set[Hashable] = set()
        path = 0
        for _ in range(MAX_PLIES):
            view = self.visit(position, path, line, keys)
            if view is None or view.terminal or not view.moves:
                return
            keys.add(view.key)
            move = self.generator.choice(view.moves)
            position.play(move)
            line.append(move)
            path = self.step(path, move)

    def visit(self, position: Position[Any], path: int, line: list[Any], earlier: set[Hashable]) -> Seen | None:
        """Look at one position (``earlier``: the keys before it on its line); ``None``
        when its line ends here."""
        if self.found.positions >= self.limit:
            raise _Stop
        self.found.positions += 1
        try:
            view = seen(position)
        except GameDefinitionError as error:
            raise GameDefinitionError(f"{error} ({shown_line(line)})") from None
        if self.inspect is not None and not self.inspect(position, view, line):
            return None
        if view.key in earlier:
            return None  # a repetition: its answers may be the draw rule's
        known = self._first.get(view.key)
        if known is None:
            if path >= 0 and len(self._first) < self.kept:
                self._first[view.key] = (view, path)
            return view
        first, first_path = known
        text = difference(first, view)
        if text:
            self._collided(KeyCollision(view.key, "", self.line(first_path), "", tuple(line), text))
        elif self._worth_comparing(first, first_path, view, path, line):
            self._compared.add(view.key)
            self.found.compared += 1
            self._side_by_side(first, self.line(first_path), view, tuple(line))
        return view

    def _worth_comparing(self, first: Seen, first_path: int, view: Seen, path: int, line: list[Any]) -> bool:
        """Whether to play two positions with one key side by side: once per key, within
        the bounds, when whose turn it is or the moves that led there differ."""
        if view.key in self._compared or len(self._compared) >= self.comparisons:
            return False
        if self._side_plays >= self.found.positions + self.side_plays:
            return False
        if first.player != view.player:
            return True
        return first_path != path if path >= 0 else self.line(first_path) != tuple(line)

    def _collided(self, collision: KeyCollision) -> None:
        first, _ = self.rebuild(collision.first_line)
        second, _ = self.rebuild(collision.second_line)
        named = KeyCollision(
            collision.key,
            _own_repr(first),
            collision.first_line,
            _own_repr(second),
            collision.second_line,
            collision.difference,
            collision.further,
            collision.players,
        )
        self.found.collisions.append(named)
        if len(self.found.collisions) >= self.wanted:
            raise _Stop

    # -- two positions with one key ------------------------------------------------------

    def _side_by_side(
        self, first: Seen, first_line: tuple[Any, ...], second: Seen, second_line: tuple[Any, ...]
    ) -> None:
        """Play the same moves on both; a collision where they part."""
        plays = 0
        try:
            for playout in range(PLAYOUTS):
                if plays >= SIDE_BY_SIDE_PLAYS:
                    return
                plays += len(first_line) + len(second_line)
                one, one_keys = self.rebuild(first_line)
                other, other_keys = self.rebuild(second_line)
                if one is None or other is None:
                    return
                further: list[Any] = []
                one_view, other_view = first, second
                while not one_view.terminal and len(further) < MAX_PLIES and plays < SIDE_BY_SIDE_PLAYS:
                    moves = one_view.moves
                    move = moves[playout % len(moves)] if not further else self.side_generator.choice(moves)
                    one_keys.add(one_view.key)
                    other_keys.add(other_view.key)
                    one.play(move)
                    other.play(move)
                    further.append(move)
                    plays += 2
                    one_view, other_view = seen(one), seen(other)
                    if one_view.key in one_keys or other_view.key in other_keys:
                        break  # a repetition on one side: the draw rule's business
                    text = difference(one_view, other_view)
                    if not text and (one_view.player == first.player) != (other_view.player == second.player):
                        text = "the turn passes in one and not in the other"
                    if text:
                        players = (first.player, second.player)
                        self._collided(
                            KeyCollision(first.key, "", first_line, "", second_line, text, tuple(further), players)
                        )
                        return
        finally:
            self._side_plays += plays

    # -- lines ---------------------------------------------------------------------------

    def step(self, path: int, move: Any) -> int:
        """The path one move longer (-1: not kept, past the limit)."""
        if path < 0:
            return -1
        found = self._path_of.get((path, move))
        if found is None:
            if len(self._paths) >= self.kept:
                return -1
            found = len(self._paths)
            self._paths.append((path, move))
            self._path_of[(path, move)] = found
        return found

    def line(self, path: int) -> tuple[Any, ...]:
        moves = []
        while path > 0:
            path, move = self._paths[path]
            moves.append(move)
        return tuple(reversed(moves))

    def rebuild(self, line: Sequence[Any]) -> tuple[Position[Any] | None, set[Hashable]]:
        """The position after ``line`` from a fresh start, and the keys before it (``None``
        if a move is no longer legal on the way: the game's answers changed)."""
        position = self.start()
        keys: set[Hashable] = set()
        for move in line:
            if position.is_terminal() or move not in position.legal_moves():
                return None, keys
            keys.add(position.key())
            position.play(move)
        return position, keys


def _own_repr(position: Position[Any] | None) -> str:
    """A position's ``repr``, when its class has one of its own."""
    if position is None or type(position).__repr__ is object.__repr__:
        return ""
    return _short(position, 200)


def check_keys(position: Position[Any]) -> None:
    """The quick key check a search with a transposition table runs first: about
    ``QUICK_POSITIONS`` positions from ``position`` (milliseconds for a small game). A
    class whose keys pass a check that met ``QUICK_TRUSTED_KEYS`` keys is not checked again
    in this process; one checked from positions with fewer ahead is checked at each call. The
    library's own games are not: their tests check them (``negamax check``'s fuller check).

    :raises GameDefinitionError: naming the two positions one key confuses.
    """
    kind = type(position)
    if kind in _checked_classes or kind.__module__.startswith("negamax."):
        return  # the library's own games have their keys checked by its tests
    root = position.copy()
    explorer = KeyExplorer(
        root.copy,
        positions=QUICK_POSITIONS,
        kept=QUICK_POSITIONS,
        comparisons=QUICK_COMPARISONS,
        side_plays=QUICK_POSITIONS,
    )
    found = explorer.explore(games=QUICK_POSITIONS, first_positions=QUICK_FIRST_PLIES)
    if found.collisions:
        raise GameDefinitionError(
            f"{found.collisions[0].text()} (found before searching; negamax check explores further)"
        )
    if found.distinct >= QUICK_TRUSTED_KEYS:
        _checked_classes.add(kind)


def contradiction(detail: str, table: bool = True, game: str = "") -> GameDefinitionError:
    """The error for two searches of one position that contradict each other (``detail``
    says how), by a search with a table (``table``) or without, of ``game`` if named."""
    if table:
        cause = (
            "the likely cause is the game's key(), giving one key to positions that differ (whose turn"
            " it is? a score?), so that the transposition table took one for the other; negamax check"
            " looks for such positions"
        )
    else:
        cause = "the game answered the same question differently (legal_moves, evaluate or terminal_value)"
    whose = f"{game}: " if game else ""
    return GameDefinitionError(f"{whose}two searches of the same position contradict each other ({detail}): {cause}")


def mixed(key: int) -> int:
    """A key below 2**63 spread over 63 bits (a bijection: no new collisions), so that a
    table's slots, taken from the low bits, fill evenly for keys such as small bitboards:
    the compiled searches' key of a game written as rules, computed alike in Python.
    Every constant stays below 2**63: numba would make a larger one unsigned, and mixed
    arithmetic floating point."""
    key = (key + 0x1E3779B97F4A7C15) & 0x7FFFFFFFFFFFFFFF
    key = ((key ^ (key >> 30)) * 0x3F58476D1CE4E5B9) & 0x7FFFFFFFFFFFFFFF
    key = ((key ^ (key >> 27)) * 0x14D049BB133111EB) & 0x7FFFFFFFFFFFFFFF
    key ^= key >> 31
    return key if key != 0 else 1
