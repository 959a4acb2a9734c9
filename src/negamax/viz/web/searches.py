"""The web app's searches: every one capped in time and nodes, run on a thread of its own,
stopped when the page goes away, at most ``MAX_SEARCHES`` at once (a request beyond that is
refused with 429).

Each game has two ``Searcher``s: one for the engine's searches (small tables, one per search
running at once) and one for exact solves (a larger table). They run on the game's compiled
kernel once it is ready (loaded, or compiled by another process, in the background from the
server's start) and on the pure-Python search until then.
"""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from functools import partial
from typing import Any

from negamax.core.game import Position
from negamax.core.ranges import LEVEL
from negamax.core.rules import Game, game_score_or_none, pv_text
from negamax.core.score import (
    INF,
    WIN,
    WIN_THRESHOLD,
    Bound,
    describe,
    from_child,
    from_child_bounds,
    from_node,
    not_proven_text,
)
from negamax.core.types import Line, SearchLimits, SearchResult
from negamax.games.tree import ExplicitTree
from negamax.search import Searcher, presets, search, solve, warmup
from negamax.search.mcts_tree import MCTSTrace, PictureNode
from negamax.search.searcher import MULTIPV
from negamax.search.strength import Strength
from negamax.search.textbook import TEXTBOOK, textbook_search
from negamax.search.trace import SearchTrace, TracedNode, TraceLimitExceeded
from negamax.viz.labels import bound_text, move_labels, pruned_labels, value_text, window_text
from negamax.viz.steps import (
    all_leaves,
    for_max,
    full_names,
    is_max,
    max_bound,
    max_window,
    proven_bounds,
    pruned_count,
    visit_steps,
)
from negamax.viz.web.boards import advantage, kind_of, shown_move
from negamax.viz.web.scheduler import MAX_SEARCHES, QUICK_SECONDS, Scheduler

MAX_SECONDS = 5.0
"""The longest a page may ask one search to think."""
MAX_NODES = 50_000_000
TRACE_PLAYOUTS_PER_NODE = 5
"""A traced Monte Carlo search plays this many playouts for each node the picture may
show: enough for the tree's shape, few enough that a node's numbers can be followed."""
TRACE_MAX_NODES = 5_000
TRACE_SECONDS = 3.0
MAX_TRACE_DEPTH = 12
QUICK_SAFETY_SECONDS = 0.25
"""The most a one-ply answer may take (5 ms is usual): slow rules in pure Python stop there."""
MAX_SHOWN_DEPTH = 1_000
"""A traced node's depth left above this is a solve's sentinel, shown as "to the end"."""
SOLUTION_SECONDS = 5.0
SOLUTION_STREAM_SECONDS = 15.0
"""A streamed solution may take longer: its scores show as they come, the first at once."""
REPORT_SECONDS = 0.1
MAX_LINE = 24
"""The most moves of a principal variation the page shows."""
MAX_LINES = 8
"""The most root moves an engine search scores for the page (``multipv``)."""
WEAK_THINKING_SHARE = 0.4
"""The part of its time a level below 8 takes before it plays, however soon its shallow
search ends."""
SOLVE_SHARE = 0.6
"""The part of its time an engine move spends trying to solve the position first (games
with a solver), before it searches to a horizon for the rest: a solve that proves a win
plays it, finished or not (Connect 4 past the book is mostly solved in well under this)."""

OnReport = Callable[[dict[str, Any]], None]
"""What the page is sent for each iteration (a search result as the page shows it)."""
OpenBook = Callable[[Game], AbstractContextManager[Any]]
"""Opens a book of solved positions for a game (``negamax.parallel.book.Book``: its
``lookup`` and ``answer`` are used), or gives None."""


@dataclasses.dataclass
class _GameSearchers:
    """A game's searchers: the engine's (one table a search) and the solver's."""

    thinking: Searcher
    solving: Searcher


class Searches:
    """The server's searches, on each game's searchers."""

    def __init__(
        self,
        backend: str = "auto",
        book: OpenBook | None = None,
        max_searches: int = MAX_SEARCHES,
        seed: int | None = None,
    ) -> None:
        self.backend = backend
        self.book = book
        self.scheduler = Scheduler(max_searches)
        """Runs the searches: a few at a time, each within its request's time."""
        self._games: dict[str, _GameSearchers] = {}
        self._games_lock = threading.Lock()
        self._generator = random.Random(seed)
        """The weaker levels' choices (``seed``: the same choices again, for one request at
        a time; requests at once draw from it in turn)."""

    def _searchers(self, game: Game) -> _GameSearchers:
        with self._games_lock:
            found = self._games.get(game.name)
            if found is None:
                found = _GameSearchers(
                    presets.for_page_thinking(game, self.backend), presets.for_page_solving(game, self.backend)
                )
                self._games[game.name] = found
            return found

    def close(self) -> None:
        """Let the running searches end (their pages have gone), free the threads, and stop
        any compilation still running elsewhere."""
        self.scheduler.close()
        with self._games_lock:
            searchers = list(self._games.values())
        for pair in searchers:
            pair.thinking.close()
            pair.solving.close()

    def prepare(self, game: Game, name: str | None = None) -> None:
        """Have ``game``'s compiled kernel ready in the background (compiled by another
        process if it is not on disk yet, which knows the game by ``name``, as the server
        was given it: ``path/to/game.py:MyGame``); searches use the python backend until then."""
        pair = self._searchers(game)
        pair.solving.prepare_in_background(name)  # one load serves both: kernels are the process's

    def games_opened(self) -> list[str]:
        """The games searched or prepared so far, in that order (the others have no kernel
        loaded or compiling)."""
        with self._games_lock:
            return list(self._games)

    def engine(self, game: Game, name: str) -> dict[str, Any]:
        """How ``game`` (asked for as ``name``) is searched now, for the page's banner:
        ``status`` ``compiled``, ``python`` (by choice, or a game with no compiled form),
        ``compiling`` (with the seconds ``elapsed`` since it began, the ``estimate``, the
        last compilation's time on this machine, and the ``seconds_left`` of it, 0 once the
        estimate is past), ``queued`` (another game compiles first) or ``loading`` (from
        the disk cache)."""
        with self._games_lock:
            pair = self._games.get(game.name)
        if self.backend == "python" or pair is None:
            return {"status": "python"}
        searcher = pair.solving  # the one prepare_in_background loads (for both)
        if searcher.ready():
            return {"status": "compiled" if searcher.compile_estimate() > 0 else "python"}
        estimate = round(searcher.compile_estimate())
        since = warmup.compiling_since(name)
        if since is not None:
            elapsed = time.monotonic() - since
            left = max(0, round(estimate - elapsed))
            return {"status": "compiling", "estimate": estimate, "elapsed": round(elapsed), "seconds_left": left}
        if not searcher.preparing:
            return {"status": "python"}  # nothing loads it (a server started not to prepare)
        return {"status": "queued" if searcher.compiling else "loading", "estimate": estimate}

    def ready(self, game_name: str) -> bool:
        """Whether ``game_name``'s searches run on its compiled kernel now."""
        with self._games_lock:
            pair = self._games.get(game_name)
        return pair is not None and self.backend != "python" and pair.thinking.ready()

    # -- the searches -------------------------------------------------------------------

    def think(
        self,
        game: Game,
        position: Position[Any],
        seconds: float,
        stop: threading.Event,
        on_iteration: OnReport,
        lines: int = 1,
        level: int = int(LEVEL.high),
    ) -> dict[str, Any]:
        """The engine's move: its best search for ``seconds``, each iteration reported;
        ``lines`` root moves scored, best first (``multipv``); below level 8 the move a
        weaker player picks (``negamax.search.strength``)."""
        limits = SearchLimits(time=seconds, nodes=MAX_NODES, stop=stop)
        report = _reporter(game, position, on_iteration)
        started = time.perf_counter()
        pair = self._searchers(game)
        strength = Strength.of_level(level)
        if strength.full and lines == 1:
            with _open_book(self.book, game) as book:
                answer = None if book is None else book.answer(position)
            if answer is not None and answer.best_move is not None:
                report(answer)
                return record(game, position, answer, solved=True)
        if not strength.full:
            # no solve first: a weaker player looks a few plies ahead, whatever the game
            # no iterations reported: they would show the best move and the candidates
            result = pair.thinking.search(
                position, strength.limits(limits, self._generator), multipv=strength.multipv(lines)
            )
            chosen = strength.choose(result, list(position.legal_moves()), self._generator, game.evaluation_unit)
            # a person across the board takes a moment: an instant reply reads as a machine's
            stop.wait(max(0.0, WEAK_THINKING_SHARE * seconds - (time.perf_counter() - started)))
            scored = [_line_record(game, position, line, False) for line in _best_first(result.lines)[:lines]]
            return {**record(game, position, chosen), "lines": scored}
        if seconds <= QUICK_SECONDS:
            # its time ran out while others searched: one ply, which dozens at once still
            # finish in time (a search stopped by the clock ends only at its next look, and
            # one stopped before its first ply ends has no move of its own)
            one_ply = SearchLimits(depth=1, nodes=MAX_NODES, time=QUICK_SAFETY_SECONDS, stop=stop)
            result = pair.thinking.search(position, one_ply, multipv=lines)
            report(result)
            return record(game, position, result)
        if game.solvable:
            # first a short solve: where it finishes, the move it proves is the best there is
            result = pair.solving.solve(
                position, dataclasses.replace(limits, time=seconds * SOLVE_SHARE), multipv=lines
            )
            if result.completed:
                report(result)
                return record(game, position, result, solved=True)
            if lines == 1 and result.best_move is not None and result.lower >= WIN_THRESHOLD:
                # a win proven, its length not yet: the proven move wins, whatever a search to
                # a horizon would guess
                report(result)
                return record(game, position, result)
            limits = dataclasses.replace(limits, time=max(0.05, seconds - (time.perf_counter() - started)))
        result = pair.thinking.search(position, limits, multipv=lines, on_iteration=report)
        return record(game, position, result)

    def solution(
        self,
        game: Game,
        position: Position[Any],
        seconds: float,
        stop: threading.Event,
        on_scores: Callable[[list[dict[str, Any]]], None] | None = None,
    ) -> list[dict[str, Any]]:
        """Every legal move's exact value, as Pascal Pons' solver shows Connect 4's columns:
        from the book where it knows, else solved (every move on one table, the time left
        given to the moves still unknown), within ``seconds`` in all (a move not solved in
        time has none). ``on_scores`` is given the list so far, first with what the book
        and the game's ends know, then each time one more move is solved."""
        moves = list(position.legal_moves())
        mover = position.player()
        known: dict[int, tuple[int, str]] = {}
        with _open_book(self.book, game) as book:
            for index, move in enumerate(moves):
                child = position.copy()
                child.play(move)
                if child.is_terminal():
                    known[index] = (from_child(child.terminal_value(), child.player() == mover), "end")
                elif book is not None and (child_entry := book.lookup(child)) is not None:
                    known[index] = (from_child(child_entry.score, child.player() == mover), "book")
            # the book's value of this position is its best move's: that column is known even
            # where the book holds nothing of the next ply (its deepest, or one it has not finished)
            entry = book.lookup(position) if book is not None else None
            if entry is not None and entry.best_move is not None:
                index = moves.index(game.parse_move(position, entry.best_move))
                known.setdefault(index, (entry.score, "book"))
        # no move is worth more than the position: its value bounds every move's solve
        bounds = None if entry is None else (entry.score, entry.score)
        unknown = tuple(move for index, move in enumerate(moves) if index not in known)
        solved: dict[Any, int] = {}

        def scores(pending: str) -> list[dict[str, Any]]:
            listed = []
            for index, move in enumerate(moves):
                value, source = known.get(index) or ((solved[move], "solver") if move in solved else (None, pending))
                listed.append(
                    {
                        "move": game.move_text(position, move),
                        "score": None if value is None else game.game_score(position, value),
                        "text": None if value is None else describe(value),
                        # the first player's, as the evaluation bar and graph draw it
                        "advantage": None if value is None else advantage(value if mover == 0 else -value),
                        "source": source,
                    }
                )
            return listed

        if on_scores is not None:
            on_scores(scores("solving"))

        def report(result: SearchResult[Any]) -> None:
            found = {line.move: line.score for line in result.lines if line.bound == Bound.EXACT}
            if on_scores is not None and found.keys() - solved.keys():
                solved.update(found)
                on_scores(scores("solving"))

        deadline = time.perf_counter() + seconds
        most = int(MULTIPV.high)  # the most moves one solve scores: more (Nim's 100,100,57) in turns
        for first in range(0, len(unknown), most):
            part, left = unknown[first : first + most], deadline - time.perf_counter()
            if stop.is_set() or left <= 0:
                break
            limits = SearchLimits(time=left, nodes=MAX_NODES, stop=stop)
            result = self._searchers(game).solving.solve(
                position, limits, multipv=len(part), root_moves=part, pv_plies=0, on_iteration=report, bounds=bounds
            )
            solved.update({line.move: line.score for line in result.lines if line.bound == Bound.EXACT})
        return scores("timeout")

    def trace(
        self,
        game: Game,
        position: Position[Any],
        max_nodes: int,
        depth: int | None,
        algorithm: str,
        seconds: float,
        stop: threading.Event,
        prune_equal: bool = False,
    ) -> dict[str, Any]:
        """The search of ``position``, node by node: to the end of the game if that fits in
        ``max_nodes`` nodes, else the deepest depth-limited search that does (said so in
        ``note``), all within ``seconds``; the textbook search prunes at alpha >= beta with
        ``prune_equal`` (AIMA), else only past it (CS188).

        :raises TraceLimitExceeded: when even depth 1 (or the ``depth`` asked for) does not fit.
        """
        started = time.perf_counter()
        limits = SearchLimits(time=seconds, stop=stop)
        if algorithm == "mcts":
            return self._monte_carlo_tree(game, position, max_nodes, limits)
        fitted: tuple[SearchTrace, SearchResult[Any], int | None] | None = None
        too_big: list[int | None] = []
        """The searches whose trees did not fit: None, the one to the end of the game."""
        stopped = False
        out_of_time: int | None = None
        """The depth whose search the time left did not let finish."""
        if depth is None and game.solvable:
            attempts: list[int | None] = [None]
        else:
            attempts = [depth] if depth is not None else []
        if depth is None:
            attempts += list(range(1, MAX_TRACE_DEPTH + 1))
        for attempt in attempts:
            if fitted is not None and fitted[2] is None:
                break  # the whole game fitted
            if attempt is not None and {attempt - 1, attempt - 2} <= set(too_big):
                # two depths in a row too big: the deeper ones are bigger still (one depth
                # too big may be followed by one that fits: the side to move's plies cost
                # more than the other's, and a forced end found shrinks the tree)
                break
            trace = SearchTrace(max_nodes=max_nodes)
            try:
                if algorithm == TEXTBOOK:
                    left = seconds - (time.perf_counter() - started)
                    if left <= 0:
                        out_of_time = attempt
                        break
                    limited = dataclasses.replace(limits, time=left, depth=attempt)
                    result = textbook_search(position, limited, trace, prune_equal=prune_equal)
                elif attempt is None:
                    result = solve(position, limits, algorithm=algorithm, trace=trace)
                else:
                    left = seconds - (time.perf_counter() - started)
                    if left <= 0:
                        out_of_time = attempt
                        break
                    limited = dataclasses.replace(limits, time=left, depth=attempt)
                    result = search(position, limited, algorithm=algorithm, trace=trace)
            except TraceLimitExceeded:
                if attempt is not None and fitted is None:
                    raise TraceLimitExceeded(
                        f"a search to depth {attempt} visits more than {max_nodes:,} nodes here; trace a later position"
                    ) from None
                too_big.append(attempt)
                continue
            if not result.completed:
                if fitted is None:
                    fitted, stopped = (trace, result, attempt), True
                out_of_time = attempt
                break
            # a forced end found at this depth goes on: the deepest tree that fits is shown
            fitted = (trace, result, attempt)
        if fitted is None:
            raise TraceLimitExceeded(f"no search of this position fits in {max_nodes:,} nodes")
        trace, result, reached = fitted
        if stopped:
            note = f"stopped after {seconds:.2g} s"
        else:
            note = _trace_note(algorithm, reached, len(trace.nodes), too_big, max_nodes, (out_of_time, seconds))
        # a search to the end of the game proved its value: no guess (a typed tree's leaves)
        solved = reached is None and not stopped
        return _tree(game, position, trace, result, note, time.perf_counter() - started, solved)

    def _monte_carlo_tree(
        self, game: Game, position: Position[Any], max_nodes: int, limits: SearchLimits
    ) -> dict[str, Any]:
        """A Monte Carlo tree search of ``position`` pictured: its ``max_nodes`` most visited
        nodes, each with its playouts and the share the player who moved there won."""
        started = time.perf_counter()
        trace = MCTSTrace(max_nodes)
        playouts = TRACE_PLAYOUTS_PER_NODE * max_nodes
        searcher = self._searchers(game).thinking
        result = searcher.search(position, dataclasses.replace(limits, nodes=playouts), algorithm="mcts", trace=trace)
        note = (
            f"Monte Carlo tree search: {trace.playouts:,} playouts (the most for {max_nodes:,} nodes), its"
            f" {len(trace.nodes):,} most visited nodes"
        )
        return {
            **_picture(game, position, trace),
            "value": _result_text(game, result),
            "note": note,
            "seconds": round(time.perf_counter() - started, 3),
        }


@contextmanager
def _open_book(open_book: OpenBook | None, game: Game) -> Iterator[Any]:
    """The book for this thread (a book's SQLite connection stays in its thread)."""
    if open_book is None:
        yield None
        return
    with open_book(game) as book:
        yield book


def _reporter(game: Game, position: Position[Any], on_iteration: OnReport) -> Callable[[SearchResult[Any]], None]:
    """Reports iterations at most every ``REPORT_SECONDS`` (the shallow ones come by the
    dozen in a millisecond; the page could not show them, and each costs the server)."""
    last = -REPORT_SECONDS

    def report(result: SearchResult[Any]) -> None:
        nonlocal last
        now = time.perf_counter()
        if now - last >= REPORT_SECONDS:
            last = now
            on_iteration(record(game, position, result))

    return report


def record(game: Game, position: Position[Any], result: SearchResult[Any], solved: bool = False) -> dict[str, Any]:
    """An iteration (or the final result) as the page shows it (``solved``: by a solve,
    whose value is exact whatever its depth)."""
    moves = result.pv[:MAX_LINE]
    pv = pv_text(game, position, moves)
    line = pv_text(game, position, moves, partial(shown_move, game)) if kind_of(game) == "chess" else pv
    first_player = result.score if position.player() == 0 else -result.score
    return {
        "depth": result.depth,
        "score": game_score_or_none(game, position, result.score),
        "score_text": _result_text(game, result, solved),
        "advantage": advantage(first_player) if not result.unresolved or _decided(result) else 0.0,
        "pv": pv,
        "line": line,
        "nodes": result.nodes,
        "nps": round(result.nodes_per_second),
        "seconds": round(result.wall_time, 3),
        "best": game.move_text(position, result.best_move) if result.best_move is not None else None,
        "algorithm": result.algorithm,
        "seldepth": result.stats.seldepth,
        "completed": result.completed,
        "solved": solved,
        "lines": [_line_record(game, position, line, solved) for line in _best_first(result.lines)],
    }


def _best_first(lines: Sequence[Line[Any]]) -> list[Line[Any]]:
    """A search's scored root moves, best first by their score from the side to move (a
    solve's cut short: by the value it proved): a multipv search scores each move after the
    ones above it, on the same table, and a later one may come out a little higher (+0.22
    under +0.21). Equals keep the search's order; a Monte Carlo search's lines keep theirs,
    ranked by playouts."""
    if any(line.visits is not None for line in lines):
        return list(lines)
    return sorted(lines, key=lambda line: line.score, reverse=True)


def _line_record(game: Game, position: Position[Any], line: Line[Any], solved: bool) -> dict[str, Any]:
    """One scored root move of a ``multipv`` search, as the page lists it (a Monte Carlo
    search's with its playouts and win rate)."""
    moves = line.pv[:MAX_LINE]
    shown = pv_text(game, position, moves, partial(shown_move, game)) if kind_of(game) == "chess" else None
    exact = line.bound == Bound.EXACT
    text = _score_text(game, line.score)
    if line.unresolved:
        text = _bounds_text(game, line.lower, line.upper)
    elif not exact:
        text = f"{'>=' if line.bound == Bound.LOWER else '<='} {text}"
    return {
        "move": game.move_text(position, line.move),
        "score": game_score_or_none(game, position, line.score),
        "score_text": text,
        "exact": exact or solved,
        "line": shown if shown is not None else pv_text(game, position, moves),
        "visits": line.visits,
        "win_rate": line.win_rate,
    }


def _score_text(game: Game, score: int) -> str:
    """A score as players read it: chess in pawns (+0.32), draughts in men (+1.25 men: a
    man is 100 in its evaluation), wins as ``win in N``."""
    if kind_of(game) == "chess" and abs(score) < WIN_THRESHOLD:
        return f"{score / 100:+.2f}"
    if kind_of(game) == "draughts" and abs(score) < WIN_THRESHOLD:
        return f"{score / 100:+.2f} men"
    return describe(score)


def _decided(result: SearchResult[Any]) -> bool:
    """Whether a solve cut short proved a win or a loss (not yet its length)."""
    return result.lower >= WIN_THRESHOLD or result.upper <= -WIN_THRESHOLD


def _result_text(game: Game, result: SearchResult[Any], solved: bool = False) -> str:
    """A result's value as players read it: for a solve cut short, the bounds it proved (a
    win proven as such); in a game that can be solved, a value a search to a horizon
    guessed is said to be a guess, so that it never reads as an exact score."""
    if result.unresolved:
        if result.lower >= WIN_THRESHOLD:
            return f"win, proven (in at most {WIN - result.lower} plies)"
        if result.upper <= -WIN_THRESHOLD:
            return f"loss, proven (in at least {WIN + result.upper} plies)"
        return _bounds_text(game, result.lower, result.upper)
    text = _score_text(game, result.score)
    if game.solvable and not solved and abs(result.score) < WIN_THRESHOLD:
        return f"{text} (a guess, depth {result.depth})"
    return text


def _bounds_text(game: Game, lower: int, upper: int) -> str:
    """What is known of a value only bounded: the bounds proven, or nothing at all where
    neither side is bounded (a move a low level picked at random, a search stopped before
    its first depth): an infinite bound is no score."""
    if lower <= -INF and upper >= INF:
        return ""
    return not_proven_text(lower, upper, partial(_score_text, game))


def _trace_note(
    algorithm: str,
    reached: int | None,
    nodes: int,
    too_big: list[int | None],
    max_nodes: int,
    out_of_time: tuple[int | None, float],
) -> str:
    """What the note above a traced tree says: which search it is, and why not a deeper one
    (the shallowest search past it whose tree is too big, or the one the time left, its
    depth and the seconds given, did not let finish)."""
    if reached is None:
        return ""  # the search to the end of the game
    deeper = [attempt for attempt in too_big if attempt is not None and attempt > reached]
    unfinished, seconds = out_of_time
    if unfinished is not None and (not deeper or unfinished < min(deeper)):
        prefix = f"the search to depth {unfinished} did not finish within {seconds:.2g} s: "
    elif deeper:
        prefix = f"the search to depth {min(deeper)} visits more than {max_nodes:,} nodes: "
    elif None in too_big:
        prefix = f"the search to the end of the game visits more than {max_nodes:,} nodes: "
    else:
        prefix = ""  # the deepest depth the page offers, or the time ran out
    return f"{prefix}this is {algorithm} to depth {reached} ({nodes:,} nodes)"


def _tree(
    game: Game,
    position: Position[Any],
    trace: SearchTrace,
    result: SearchResult[Any],
    note: str,
    seconds: float,
    solved: bool,
) -> dict[str, Any]:
    unit = game.evaluation_unit
    moves = move_labels(trace, game, position)  # as the game reads them: the page replays them
    typed = isinstance(position, ExplicitTree)
    written = partial(shown_move, game)
    labels = move_labels(trace, game, position, written)  # as players write them: SAN, a typed tree's a b c
    pruned = pruned_labels(trace, game, position, written)
    separator = "-" if typed else " "  # a typed tree's "b-a": every level reuses a, b, c
    names = full_names(trace, labels, separator)
    proven = proven_bounds(trace)
    sizes = _pruned_sizes(trace, position) if typed else None
    nodes = [
        {
            "index": node.index,
            "parent": node.parent,
            "move": moves.get(node.index, ""),
            "label": labels.get(node.index, ""),
            "depth": node.depth if node.depth <= MAX_SHOWN_DEPTH else None,  # a solve's: to the end
            "player": node.player,  # whose turn: the same player may move twice (Kalah)
            "window": window_text(node, unit),
            "value": value_text(node.value, unit),
            "bound": node.bound.name.lower(),
            "name": names[node.index],
            # what its value proves, from what was searched below it: a node past the
            # window whose moves were all searched is exact, whatever its window said
            "proven": proven[node.index].name.lower() if node.index in proven else node.bound.name.lower(),
            "table": node.tt_cutoff,
            "children": node.children,
            "pruned": pruned.get(node.index, []),
            # "2 leaves", "1 move (2 leaves)": what the tree's "pruned" branch stands for
            "pruned_count": pruned_count(pruned[node.index], all_leaves(trace, node), (sizes or {}).get(node.index))
            if node.index in pruned
            else "",
            # the minimax view: max (the root's player) and min, values and window from max's side
            "max": is_max(trace, node),
            "minimax_value": value_text(for_max(trace, node, node.value), unit),
            "minimax_bound": max_bound(trace, node, proven.get(node.index, node.bound)).name.lower(),
            "minimax_window": _max_window_text(trace, node, unit),
        }
        for node in trace.nodes
    ]
    root_player = trace.root.player
    leaves = [
        # a leaf's value from the root player's side, as textbooks write their trees
        {"index": node.index, "value": value_text(node.value if node.player == root_player else -node.value, unit)}
        for node in trace.nodes
        if not node.children and not node.tt_cutoff and node.value is not None
    ]
    return {
        "nodes": nodes,
        "leaves": leaves,
        "pv": trace.principal_variation(),
        "steps": [step.as_dict() for step in visit_steps(trace, labels, pruned, unit, separator, sizes)],
        "value": _result_text(game, result, solved),  # chess in pawns, as the engine panel
        "note": note,
        "seconds": round(seconds, 3),
    }


def _pruned_sizes(trace: SearchTrace, position: Position[Any]) -> dict[int, list[int | None]]:
    """A typed tree's pruned moves, node by node: None for a leaf, else its leaves' count
    (the search never looked, but the tree was typed whole)."""

    def leaves(tree: Any) -> int:
        return sum(leaves(child) for child in tree) if isinstance(tree, list) else 1

    assert isinstance(position, ExplicitTree)
    sizes: dict[int, list[int | None]] = {}
    for node in trace.nodes:
        if node.cut_moves:
            below: Any = position.nodes[-1]
            for move in node.path:
                below = below[move]
            sizes[node.index] = [
                leaves(below[move]) if isinstance(below[move], list) else None for move in node.cut_moves
            ]
    return sizes


def _max_window_text(trace: SearchTrace, node: TracedNode, unit: int) -> str:
    alpha, beta = max_window(trace, node)
    if alpha is None or beta is None:
        return ""
    return f"[{bound_text(alpha, unit)}, {bound_text(beta, unit)}]"


def _picture(game: Game, position: Position[Any], trace: MCTSTrace) -> dict[str, Any]:
    """A Monte Carlo tree as the page draws it: each node's playouts (``visits``) and the
    share of them the player who moved there won (its ``value``), or, once the solver has
    proven it, its value for that player (from the root, as a traced alpha-beta search's:
    ``W3``: that player wins, the game ending 3 plies after the root)."""
    unit = game.evaluation_unit
    boards: dict[int, Position[Any]] = {0: position}
    nodes = []
    for node in trace.nodes:
        parent = None if node.parent is None else trace.nodes[node.parent]
        move = label = ""
        if parent is not None:
            board = boards[parent.index]
            move, label = game.move_text(board, node.move), shown_move(game, board, node.move)
            if node.children:
                child = board.copy()
                child.play(node.move)
                boards[node.index] = child
        nodes.append(
            {
                "index": node.index,
                "parent": node.parent,
                "move": move,
                "label": label,
                "depth": None,
                "player": node.player,
                "window": "",
                "value": _picture_value(node, parent, unit),
                "bound": "exact" if node.lower == node.upper else "playouts",
                "table": False,
                "children": node.children,
                "pruned": [],
                "visits": node.visits,
                "win_rate": node.win_rate,
            }
        )
    return {"nodes": nodes, "leaves": [], "pv": trace.pv, "steps": []}


def _picture_value(node: PictureNode, parent: PictureNode | None, unit: int) -> str:
    if parent is None:  # the root: its value for its player to move, once proven
        return value_text(node.lower, unit) if node.lower == node.upper else ""
    if node.lower == node.upper and node.player is not None:
        value, _ = from_child_bounds(node.lower, node.upper, node.player == parent.player)
        return value_text(from_node(value, len(parent.path)), unit)
    return "?" if node.win_rate is None else f"{round(100 * node.win_rate)}%"
