"""One exact solve split over a pool of workers (local processes or a Dask cluster).

The tree's first ``plies`` plies stay here; each distinct position at that depth is a
subproblem. The root's value is narrowed as a solve narrows it (the same ``probe_point``
policy): each step asks "is the root's value at least t?". That holds when some move
reaches t: a move that ends the game, by its value, or a move to a position whose own
value answers the question turned around (``negamax.core.score.child_threshold``: with the
opponent to move there, its value must *not* be at least some t'; with the same player
moving again, it must be at least some t''); and so on down to the subproblems, each asked
one null-window question ("at least u?") on a worker. The answers are combined as they
come (true, false or not yet known, per node). The questions go out in move order, a few
per worker at a time, and only while the nodes they are for are still undecided: as in
alpha-beta, a move that settles its node spares the questions of the moves after it. The
step ends as soon as the root's answer is known; the questions still out are cancelled.
Workers keep their tables from one question to the next.

Placement games (Connect 4) are split in the compiled placement solver's scores (Pons'),
whose workers' questions go to that solver; every other game that can be solved exactly
in distance scores over ``[-WIN + 1, WIN - 1]``, as ``solve()`` bisects them, its workers'
questions going to the backend a solve of the game runs on (``Searcher.value_at_least``).

Null-window questions cost far less than exact values (a refuted move is refuted, not
measured), so the split's overhead over one process is the speculation (questions a
sequential search would have cut) and the tables the workers do not share.

A worker that dies loses only the questions it held: the pool gives them to another
worker (Dask's own retries; a local process pool fails, and the solve says so).
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from negamax.core.errors import InvalidOptionError
from negamax.core.game import PlacementPosition, Position, checked_terminal_value
from negamax.core.ranges import DEFAULT_SPLIT_PLIES, SPLIT_PLIES
from negamax.core.rules import Game
from negamax.core.score import WIN, child_threshold, from_child, pons_to_distance
from negamax.games import get_game
from negamax.parallel.pools import WorkerPool
from negamax.search import presets
from negamax.search.searcher import Searcher
from negamax.search.windows import probe_point

QUESTIONS_PER_WORKER = 2
"""Questions out per worker: one running, one waiting, so no worker waits for this process."""

NodeKey = tuple[int, str]
"""A node of the split tree: its ply below the root and its position's book key (a ply in
the key keeps the tree free of cycles, whatever the game)."""


@dataclasses.dataclass
class _Node:
    moves: tuple[str, ...]
    """The texts of the moves that lead to it from the root (a game's text of a position
    need not say whose turn it is, nor how it was reached: a random tree's does not)."""
    known: list[int]
    """The values (for this node's side to move) of its moves that end the game."""
    children: list[tuple[NodeKey, bool]]
    """Its other moves' positions, each with whether its player to move is this node's
    (none at the split depth)."""


@dataclasses.dataclass(frozen=True)
class _Scores:
    """The scores a split solve works in: the placement solver's (Pons', for the root of
    ``cells`` cells with ``played`` stones down), or distance scores (``pons`` is ``None``)."""

    lower: int
    upper: int
    """The root's value lies in [lower, upper]."""
    pons: tuple[int, int] | None

    def question(self, threshold: int, same_player: bool) -> tuple[int, bool]:
        """A child's question for its parent's "at least ``threshold``?", and the child's
        answer that makes the move reach it."""
        if self.pons is not None:
            return 1 - threshold, False  # a placement game alternates; its scores carry no plies
        return child_threshold(threshold, same_player), same_player

    def finished(self, child: Position[Any], same_player: bool) -> int:
        """A move that ends the game, valued for its mover."""
        value = checked_terminal_value(child.terminal_value)()
        if self.pons is None:
            return from_child(value, same_player)
        if value == 0:
            return 0
        # the placement solver's scores: the mover won with the n-th stone (the game gives
        # the loser to move, who has lost), worth (cells + 2 - n) // 2
        assert isinstance(child, PlacementPosition)
        return (self.pons[0] + 2 - int(child.placement_form()[3])) // 2

    def distance(self, value: int) -> int:
        """The root's value as a distance score."""
        if self.pons is None:
            return value
        cells, played = self.pons
        return pons_to_distance(value, cells, played)


def _scores(position: Position[Any]) -> _Scores:
    if isinstance(position, PlacementPosition):
        spec, _, _, moves = position.placement_form()
        cells, played = int(spec.width * spec.height), int(moves)
        return _Scores(-((cells - played) // 2), (cells + 1 - played) // 2, (cells, played))
    return _Scores(-WIN + 1, WIN - 1, None)


@dataclasses.dataclass(frozen=True)
class SplitProgress:
    lower: int
    upper: int
    """The root's value is known to lie in [lower, upper] (in the scores of
    ``SplitResult.value``)."""
    threshold: int
    """The question being asked: is the root's value at least this?"""
    answered: int
    asked: int
    """Questions answered and asked in this step."""
    elapsed: float


@dataclasses.dataclass(frozen=True)
class SplitResult:
    value: int
    """The root's exact value for the side to move, in the scores the split worked in:
    the placement solver's for a placement game (Pons' for Connect 4: ``game.game_score``),
    else distance scores (``score``)."""
    score: int
    """The same as a distance score (``win in 7``), as ``solve()`` gives it."""
    levels: list[int]
    """Distinct unfinished positions per ply below the root (0: the root)."""
    questions: int
    """Null-window questions answered by the workers, in every step."""
    cancelled: int
    """Questions cancelled (or whose answers came after their step ended)."""
    cpu_seconds: list[float]
    """Each answered question's CPU time on its worker (its thread's)."""
    elapsed: float


def split_solve(
    game: Game,
    position: Position[Any],
    pool: WorkerPool,
    plies: int = DEFAULT_SPLIT_PLIES,
    on_progress: Callable[[SplitProgress], None] | None = None,
    stop: threading.Event | None = None,
    reference: str | None = None,
) -> SplitResult:
    """The exact value of ``position`` (for the side to move), its tree split ``plies``
    plies down over ``pool``'s workers. ``reference``: how a worker loads the game
    (``get_game``), when ``game.name`` does not (a game from a file with its parameters:
    what the user wrote, ``path/to/kalah.py:Kalah(3, 3)``).

    :raises InvalidOptionError: for a game that cannot be solved exactly, a finished
        position, or a split depth out of range.
    """
    SPLIT_PLIES.check(plies)
    refuse_split(game, position)
    start = time.perf_counter()
    scores = _scores(position)
    nodes, root = _tree(game, position, plies, scores)
    levels = [0] * (plies + 1)
    for depth, _ in nodes:
        levels[depth] += 1
    solve = _Solve(reference or game.name, game.position_text(position), secrets.token_hex(8))
    asking = _Asking(solve, nodes, scores, pool, stop, on_progress, start)
    lower, upper = scores.lower, scores.upper
    while lower < upper:
        if stop is not None and stop.is_set():
            raise KeyboardInterrupt
        threshold = probe_point(lower, upper) + 1
        if asking.step(root, threshold, lower, upper):
            lower = threshold
        else:
            upper = threshold - 1
    return SplitResult(
        lower,
        scores.distance(lower),
        levels,
        len(asking.seconds),
        asking.cancelled,
        asking.seconds,
        time.perf_counter() - start,
    )


def refuse_split(game: Game, position: Position[Any]) -> None:
    """Refuse a position a split solve cannot take: a finished one, or one of a game that
    cannot be solved exactly (its ``solvable`` is false: chess, draughts).

    :raises InvalidOptionError:
    """
    if not game.solvable:
        raise InvalidOptionError(
            f"{game.name} cannot be solved exactly (its game tree is far too large), split or not;"
            " analyze it to a limit instead"
        )
    if position.is_terminal():
        raise InvalidOptionError("the game is over in this position: nothing to solve")


def _tree(game: Game, position: Position[Any], plies: int, scores: _Scores) -> tuple[dict[NodeKey, _Node], NodeKey]:
    """Every distinct (up to symmetry) unfinished position at each ply down to ``plies``."""
    root = (0, game.book_key(position)[0])
    nodes = {root: _Node((), [], [])}
    frontier = [(root, position)]
    for depth in range(1, plies + 1):
        following = []
        for key, parent in frontier:
            node = nodes[key]
            mover = parent.player()
            for move in parent.legal_moves():
                child = parent.copy()
                child.play(move)
                same_player = child.player() == mover
                if child.is_terminal():
                    node.known.append(scores.finished(child, same_player))
                    continue
                child_key = (depth, game.book_key(child)[0])
                node.children.append((child_key, same_player))
                if child_key not in nodes:
                    nodes[child_key] = _Node((*node.moves, game.move_text(parent, move)), [], [])
                    following.append((child_key, child))
        frontier = following
    return nodes, root


Question = tuple[NodeKey, int]
"""A subproblem and the threshold it is asked about: is its value at least this?"""


class _Asking:
    """The questions of a split solve: asked of the pool, answered, and combined up the tree."""

    def __init__(
        self,
        solve: _Solve,
        nodes: dict[NodeKey, _Node],
        scores: _Scores,
        pool: WorkerPool,
        stop: threading.Event | None,
        on_progress: Callable[[SplitProgress], None] | None,
        start: float,
    ) -> None:
        self.solve, self.nodes, self.scores, self.pool = solve, nodes, scores, pool
        self.stop, self.on_progress, self.start = stop, on_progress, start
        self.answers: dict[Question, bool] = {}
        self.seconds: list[float] = []
        self.cancelled = 0

    def step(self, root: NodeKey, threshold: int, lower: int, upper: int) -> bool:
        """Whether the root's value is at least ``threshold``: the questions this needs,
        asked a few per worker at a time in move order, combined as the answers come."""
        out: dict[concurrent.futures.Future[Any], Question] = {}
        asked = answered = 0
        capacity = QUESTIONS_PER_WORKER * self.pool.workers
        try:
            while True:
                verdict = self.holds(root, threshold, {})
                if verdict is not None:
                    return verdict
                if self.stop is not None and self.stop.is_set():
                    raise KeyboardInterrupt
                if len(out) < capacity:
                    wanted: dict[Question, None] = {}  # (ordered, and quick to look in)
                    self.questions(root, threshold, set(out.values()), wanted, {})
                    for key, value in list(wanted)[: capacity - len(out)]:
                        moves = self.nodes[key].moves
                        future = self.pool.executor.submit(_answer, self.solve, moves, value)
                        out[future] = (key, value)
                        asked += 1
                if not out:
                    raise RuntimeError("the root is unknown and nothing is left to ask")  # a bug
                done, _ = concurrent.futures.wait(list(out), timeout=0.25, return_when="FIRST_COMPLETED")
                for future in done:
                    holds, used = future.result()
                    self.answers[out.pop(future)] = holds
                    self.seconds.append(used)
                    answered += 1
                if self.on_progress is not None:
                    elapsed = time.perf_counter() - self.start
                    self.on_progress(SplitProgress(lower, upper, threshold, answered, asked, elapsed))
        finally:
            for future in out:
                future.cancel()
                self.cancelled += 1

    def questions(
        self,
        key: NodeKey,
        threshold: int,
        out: set[Question],
        wanted: dict[Question, None],
        memo: dict[Question, bool | None],
    ) -> None:
        """The questions still worth asking to know whether ``key``'s value is at least
        ``threshold``, in move order: none under a node already decided (those out and
        those listed once left out)."""
        node = self.nodes[key]
        if not node.children and not node.known:
            question = (key, threshold)
            if question not in self.answers and question not in out and question not in wanted:
                wanted[question] = None
            return
        if self.holds(key, threshold, memo) is not None:
            return
        for child, same_player in node.children:
            asked, _ = self.scores.question(threshold, same_player)
            if self.holds(child, asked, memo) is None:
                self.questions(child, asked, out, wanted, memo)

    def holds(self, key: NodeKey, threshold: int, memo: dict[Question, bool | None]) -> bool | None:
        """Whether ``key``'s value is at least ``threshold`` from the answers so far
        (``None``: not known yet). A node's value is at least t when one of its moves
        reaches t: a move that ends the game, by its value, or one whose position answers
        its question (``_Scores.question``) the way that makes it reach t."""
        if (key, threshold) in memo:
            return memo[(key, threshold)]
        node = self.nodes[key]
        verdict: bool | None
        if not node.children and not node.known:
            verdict = self.answers.get((key, threshold))
        elif any(value >= threshold for value in node.known):
            verdict = True
        else:
            verdict = False
            for child, same_player in node.children:
                asked, reaching = self.scores.question(threshold, same_player)
                answer = self.holds(child, asked, memo)
                if answer is reaching:
                    verdict = True
                    break
                if answer is None:
                    verdict = None
        memo[(key, threshold)] = verdict
        return verdict


@dataclasses.dataclass(frozen=True)
class _Solve:
    """What a worker needs to know of the split solve a question is for."""

    reference: str
    """How the worker loads the game (``get_game``)."""
    root: str
    """The text of the root position (``game.position_text``)."""
    token: str
    """This split solve's own: a worker starts each solve on clean tables, as a searcher
    starts each call, so that no answer depends on the solves asked before (two random
    trees of one game share keys)."""


@dataclasses.dataclass
class _Worker:
    game: Game
    searcher: Searcher
    token: str


_workers: dict[tuple[str, int], _Worker] = {}
"""Each worker thread's game and searcher, by the game's reference: kept, with its tables,
from one question of a solve to the next (one searcher a thread: the pure-Python search's
table is not for two threads at once)."""
_workers_lock = threading.Lock()


def _answer(solve: _Solve, moves: tuple[str, ...], threshold: int) -> tuple[bool, float]:
    """On a worker: whether the value of the position ``moves`` lead to from the root is
    at least ``threshold``, and the CPU time the question took (this thread's)."""
    place = (solve.reference, threading.get_ident())
    with _workers_lock:
        worker = _workers.get(place)
    if worker is None:
        game = get_game(solve.reference)
        worker = _Worker(game, presets.for_split_solve(game), solve.token)
        with _workers_lock:
            _workers[place] = worker
    start = time.thread_time()
    if worker.token != solve.token:
        worker.searcher.clear()
        worker.token = solve.token
    game = worker.game
    position = game.new_position(solve.root)
    for text in moves:
        position.play(game.parse_move(position, text))
    holds = worker.searcher.value_at_least(position, threshold)
    return holds, time.thread_time() - start
