"""The optimised node search: fail-soft alpha-beta with PVS, a transposition table,
move ordering, mate-distance pruning, the game's tactical knowledge and quiescence.

A ``NodeSearch`` is built once per search. It looks at the position's capabilities and
the options then, and binds everything the inner loop touches to local variables of
closures: in CPython that is what makes a node cheap. The drivers in ``driver.py`` call
``node`` (or ``plain``) at the root with the window they choose.

Window contract of ``node(depth, alpha, beta, ply)`` (fail-soft), for the true value ``v``
of the position searched ``depth`` plies deep: a result ``r <= alpha`` means ``v <= r``;
``r >= beta`` means ``v >= r``; otherwise ``r == v``. Requires ``alpha < beta``.

The player to move is ``player()``, read after every move: a child whose player is its
parent's (a player who moves twice, as in Kalah) is searched with the parent's own window
and its value is not negated; any other child with the negated window, negated. Every
node counts one ``player()`` call; a game that alternates searches the same nodes either way.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Hashable, Sequence
from typing import Any

from negamax.core.game import (
    HasCanonicalKey,
    HasNoisyMoves,
    HasSafeMoves,
    Position,
    checked_evaluation,
    checked_moves,
    checked_terminal_value,
)
from negamax.core.score import INF, MAX_PLY, WIN, Bound, from_node, mate_distance_window, to_node
from negamax.core.types import SearchLimits, SearchStats
from negamax.search.ordering import HistoryTable, KillerTable, order_moves
from negamax.search.params import SearchOptions
from negamax.search.trace import SearchTrace
from negamax.search.tt import TranspositionTable

EXACT, LOWER, UPPER = Bound.EXACT, Bound.LOWER, Bound.UPPER
EMPTY_PV: tuple[Any, ...] = ()
PV_PLIES = 4096
SOLVED_DEPTH = MAX_PLY
"""The depth stored for a subtree searched to the end of the game on every line: its
value is the game-theoretic one, valid at any depth."""


class SearchAborted(Exception):
    """Raised inside the search when a limit is reached; the driver catches it."""


class NodeSearch:
    """The search closures for one position, options and limits."""

    def __init__(
        self,
        position: Position[Any],
        options: SearchOptions,
        limits: SearchLimits,
        table: TranspositionTable | None,
        trace: SearchTrace | None = None,
        root_moves: Collection[Any] | None = None,
    ) -> None:
        """``root_moves``: the only moves searched at the root (all its legal moves if ``None``)."""
        self.options = options
        self.trace = trace
        self.table = table
        self.killers = KillerTable()
        self.history = HistoryTable()
        self.pv_table: list[tuple[Any, ...]] = [EMPTY_PV] * PV_PLIES
        self.movers: list[int] = [0] * PV_PLIES
        """The player to move at each ply of the line being searched."""
        self.start_wall = time.perf_counter()
        self.start_cpu = time.process_time()
        self._build(position, options, limits, table, trace, root_moves)

    def _build(
        self,
        position: Position[Any],
        options: SearchOptions,
        limits: SearchLimits,
        table: TranspositionTable | None,
        trace: SearchTrace | None,
        root_moves: Collection[Any] | None,
    ) -> None:
        # Step 0. Bind what the nodes use to locals, once (never probe capabilities per node);
        # the game's answers checked as they come (a NaN evaluation would be a silent wrong value).
        legal_moves = checked_moves(position.legal_moves)
        play = position.play
        undo = position.undo
        player = position.player
        is_terminal = position.is_terminal
        terminal_value = checked_terminal_value(position.terminal_value)
        evaluate = checked_evaluation(position.evaluate)
        # a root restricted to some moves takes no shortcut through the game's immediate wins
        use_safe = options.safe_moves and isinstance(position, HasSafeMoves) and root_moves is None
        allowed = None if root_moves is None else frozenset(root_moves)
        safe_moves = position.safe_moves if use_safe else None  # type: ignore[attr-defined]
        winning_move_exists = position.winning_move_exists if use_safe else None  # type: ignore[attr-defined]
        use_quiescence = options.quiescence and isinstance(position, HasNoisyMoves)
        noisy_moves = position.noisy_moves if use_quiescence else None  # type: ignore[attr-defined]
        use_tt = options.transposition_table and table is not None
        if options.canonical_keys and isinstance(position, HasCanonicalKey):
            key_of = position.canonical_key
        else:
            key_of = position.key
        probe = table.probe if table is not None else None
        store = table.store if table is not None else None
        use_pvs = options.pvs
        mate_pruning = options.mate_distance_pruning
        killer_table = self.killers if options.killers else None
        history_table = self.history if options.history else None
        reorder = use_tt or killer_table is not None or history_table is not None
        pv_table = self.pv_table
        movers = self.movers
        movers[0] = player()
        node_limit = limits.nodes
        start_wall = self.start_wall
        check_every = options.check_every
        perf_counter = time.perf_counter

        nodes = 0
        next_check = min(check_every, node_limit) if node_limit else check_every
        beta_cutoffs = first_move_cutoffs = tt_probes = tt_hits = tt_cutoffs = 0
        researches = quiescence_nodes = 0
        horizon_hits = 0  # heuristic values used so far: evaluations and unsolved TT entries
        root_move: Any = None
        root_hint: Any = None  # the previous iteration's best move, searched first at the root
        pv_node_cutoffs = not use_pvs

        def check_limits() -> None:
            nonlocal next_check
            if node_limit is not None and nodes >= node_limit:
                raise SearchAborted
            if limits.reached(start_wall, perf_counter()):
                raise SearchAborted
            next_check = nodes + check_every
            if node_limit is not None and next_check > node_limit:
                next_check = node_limit

        def terminal_score(ply: int) -> int:
            return from_node(terminal_value(), ply)

        def winning_move() -> Any:
            for move in legal_moves():
                play(move)
                won = is_terminal()
                undo(move)
                if won:
                    return move
            return None

        def quiesce(alpha: int, beta: int, ply: int) -> int:
            """Fail-soft quiescence: stand pat, then noisy moves only. The caller counted us."""
            nonlocal nodes, quiescence_nodes
            pv_table[ply] = EMPTY_PV
            if is_terminal():
                return terminal_score(ply)
            best = evaluate()
            if best >= beta:
                return best
            if best > alpha:
                alpha = best
            mover = movers[ply]
            for move in noisy_moves():  # type: ignore[misc]
                nodes += 1
                quiescence_nodes += 1
                if nodes >= next_check:
                    check_limits()
                play(move)
                child_mover = movers[ply + 1] = player()
                # the same player moving again keeps its value and its window
                score = quiesce(alpha, beta, ply + 1) if child_mover == mover else -quiesce(-beta, -alpha, ply + 1)
                undo(move)
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            break
            return best

        def node(depth: int, alpha: int, beta: int, ply: int) -> int:
            nonlocal nodes, beta_cutoffs, first_move_cutoffs, tt_probes, tt_hits, tt_cutoffs
            nonlocal researches, root_move, horizon_hits
            assert alpha < beta
            # Step 1. Count the node and, now and then, look at the clock and the stop flag.
            nodes += 1
            if nodes >= next_check:
                check_limits()
            pv_table[ply] = EMPTY_PV
            pv_node = beta - alpha > 1

            # Step 2. Game over, the horizon, and the game's tactical knowledge.
            moves: Sequence[Any] | None = None
            safe: Sequence[Any] | None = None
            if use_safe and depth >= 1:
                # Our parent (depth >= 2) searched only safe moves: no one has just won here.
                if winning_move_exists():  # type: ignore[misc]
                    if ply == 0:
                        root_move = winning_move()
                    return WIN - ply - 1
                if mate_pruning:
                    # Step 3. Mate-distance pruning: no immediate win, so no win before ply+3.
                    if beta > WIN - ply - 3:
                        beta = WIN - ply - 3
                        if alpha >= beta:
                            return beta
                    if alpha < -WIN + ply + 2:
                        alpha = -WIN + ply + 2
                        if alpha >= beta:
                            return alpha
            else:
                if is_terminal():
                    return terminal_score(ply)
                if depth <= 0:
                    horizon_hits += 1
                    if use_quiescence:
                        return quiesce(alpha, beta, ply)
                    return evaluate()
                if mate_pruning:
                    # Step 3. Mate-distance pruning (the policy both searches share).
                    narrowed_alpha, narrowed_beta = mate_distance_window(alpha, beta, ply, True)
                    if narrowed_alpha >= narrowed_beta:
                        return narrowed_beta if narrowed_beta < beta else narrowed_alpha
                    alpha, beta = narrowed_alpha, narrowed_beta

            # Step 4. Transposition table lookup (before the game's costlier threat analysis).
            tt_move = None
            if use_tt:
                key = key_of()
                tt_probes += 1
                entry = probe(key)  # type: ignore[misc]
                if entry is not None:
                    tt_hits += 1
                    tt_move = entry[4]
                    if entry[1] >= depth and ply > 0 and (pv_node_cutoffs or not pv_node):
                        value = from_node(entry[2], ply)
                        bound = entry[3]
                        if bound == EXACT or (value >= beta if bound == LOWER else value <= alpha):
                            tt_cutoffs += 1
                            if entry[1] != SOLVED_DEPTH:
                                horizon_hits += 1
                            return value

            # Step 4b. The moves that do not lose at once (depth 1 searches every move, as its
            # children are only evaluated).
            if use_safe and depth >= 2:
                safe = safe_moves()  # type: ignore[misc]
                if not safe:
                    if is_terminal():
                        return terminal_score(ply)
                    if ply == 0:
                        root_move = legal_moves()[0]
                    return -WIN + ply + 2
                moves = safe
                if mate_pruning and alpha < -WIN + ply + 4:
                    alpha = -WIN + ply + 4  # a safe move exists: no loss before ply+4
                    if alpha >= beta:
                        return alpha

            # Step 5. Generate and order the moves.
            if moves is None:
                moves = legal_moves()
                if not moves:
                    return terminal_score(ply)
            if ply == 0 and allowed is not None:
                moves = [move for move in moves if move in allowed]
                if tt_move is None:
                    tt_move = root_hint  # a restricted root is never stored: the hint stands in
            if ply == 0 and root_hint is not None:
                moves = order_moves(moves, root_hint, None, None)
            if reorder:
                if safe is not None:
                    # The game ordered its safe moves by threats; killers and history only
                    # spoil that order (measured: 2x and 12x the nodes on Pons' sets).
                    if tt_move is not None:
                        moves = order_moves(moves, tt_move, None, None)
                else:
                    killers = killer_table.get(ply) if killer_table is not None else None
                    moves = order_moves(moves, tt_move, killers, history_table)

            # Step 6. Search the moves: the first with the full window, the rest with a null
            # window that a re-search widens when a move turns out better (PVS).
            best = -INF
            best_move = None
            alpha_original = alpha
            hits_before = horizon_hits
            child_depth = depth - 1
            mover = movers[ply]
            for index, move in enumerate(moves):
                play(move)
                child_mover = movers[ply + 1] = player()
                if child_mover == mover:
                    # the same player moves again: the child is this node's own turn
                    if index == 0 or not use_pvs:
                        score = node(child_depth, alpha, beta, ply + 1)
                    else:
                        score = node(child_depth, alpha, alpha + 1, ply + 1)
                        if alpha < score < beta:
                            researches += 1
                            score = node(child_depth, alpha, beta, ply + 1)
                elif index == 0 or not use_pvs:
                    score = -node(child_depth, -beta, -alpha, ply + 1)
                else:
                    score = -node(child_depth, -alpha - 1, -alpha, ply + 1)
                    if alpha < score < beta:
                        researches += 1
                        score = -node(child_depth, -beta, -alpha, ply + 1)
                undo(move)
                if score > best:
                    best = score
                    best_move = move
                    if ply == 0:
                        root_move = move
                    if score > alpha:
                        alpha = score
                        pv_table[ply] = (move, *pv_table[ply + 1])
                        if alpha >= beta:
                            # Step 7. Beta cut-off: credit the move for ordering elsewhere.
                            beta_cutoffs += 1
                            if index == 0:
                                first_move_cutoffs += 1
                            if killer_table is not None:
                                killer_table.add(ply, move)
                            if history_table is not None:
                                history_table.add(move, depth)
                            break

            # Step 8. Store what this search proved (a restricted root's value is not the
            # position's).
            if use_tt and (ply > 0 or allowed is None):
                if best <= alpha_original:
                    bound = UPPER
                elif best >= beta:
                    bound = LOWER
                else:
                    bound = EXACT
                stored = to_node(best, ply)
                solved = horizon_hits == hits_before
                store(key, SOLVED_DEPTH if solved else depth, stored, bound, best_move)  # type: ignore[misc]
            return best

        def plain(depth: int, ply: int) -> int:
            """Plain negamax: every node searched, nothing pruned (counts every call)."""
            nonlocal nodes, root_move, horizon_hits
            nodes += 1
            if nodes >= next_check:
                check_limits()
            pv_table[ply] = EMPTY_PV
            if is_terminal():
                return terminal_score(ply)
            if depth <= 0:
                horizon_hits += 1
                return evaluate()
            best = -INF
            mover = movers[ply]
            for move in legal_moves():
                if ply == 0 and allowed is not None and move not in allowed:
                    continue
                play(move)
                child_mover = movers[ply + 1] = player()
                score = plain(depth - 1, ply + 1) if child_mover == mover else -plain(depth - 1, ply + 1)
                undo(move)
                if score > best:
                    best = score
                    pv_table[ply] = (move, *pv_table[ply + 1])
                    if ply == 0:
                        root_move = move
            return best

        def stats(iterations: tuple[int, ...]) -> SearchStats:
            return SearchStats(
                beta_cutoffs=beta_cutoffs,
                first_move_cutoffs=first_move_cutoffs,
                tt_probes=tt_probes,
                tt_hits=tt_hits,
                tt_cutoffs=tt_cutoffs,
                researches=researches,
                quiescence_nodes=quiescence_nodes,
                iterations_nodes=iterations,
            )

        def node_count() -> int:
            return nodes

        def horizon_count() -> int:
            return horizon_hits

        def best_root_move() -> Any:
            return root_move

        def forget_root_move() -> None:
            nonlocal root_move
            root_move = None

        def set_pv_node_cutoffs(allowed: bool) -> None:
            nonlocal pv_node_cutoffs
            pv_node_cutoffs = allowed

        def set_root_hint(move: Any) -> None:
            nonlocal root_hint
            root_hint = move

        def set_root_moves(moves: Collection[Any]) -> None:
            """Restrict the root to ``moves`` (a search built with root moves: a multipv line)."""
            nonlocal allowed
            assert allowed is not None  # the game's shortcuts were left out for a restricted root
            allowed = frozenset(moves)

        if trace is not None:
            # Recording: rebind the names the node functions call (their recursive calls
            # and their moves included) to wrappers that record. Without a trace none of
            # this exists, so the search runs exactly as it always does.
            untraced_node, untraced_plain = node, plain
            untraced_play, untraced_undo = play, undo

            def play(move: Any) -> None:
                trace.moved(move)
                untraced_play(move)

            def undo(move: Any) -> None:
                untraced_undo(move)
                trace.unmoved()

            def node(depth: int, alpha: int, beta: int, ply: int) -> int:
                record = trace.enter(depth, alpha, beta, list(legal_moves()), player())
                cutoffs_before = tt_cutoffs
                value = untraced_node(depth, alpha, beta, ply)
                trace.leave(record, value, tt_cutoffs > cutoffs_before)
                return value

            def plain(depth: int, ply: int) -> int:
                record = trace.enter(depth, None, None, list(legal_moves()), player())
                value = untraced_plain(depth, ply)
                trace.leave(record, value, False)
                return value

        self.node = node
        self.plain = plain
        self.stats = stats
        self.node_count = node_count
        self.horizon_count = horizon_count
        self.best_root_move = best_root_move
        self.forget_root_move = forget_root_move
        self.set_pv_node_cutoffs = set_pv_node_cutoffs
        self.set_root_hint = set_root_hint
        self.set_root_moves = set_root_moves

    def pv(self) -> tuple[Hashable, ...]:
        return self.pv_table[0]

    def elapsed(self) -> tuple[float, float]:
        """(CPU seconds, wall seconds) since the search began."""
        return time.process_time() - self.start_cpu, time.perf_counter() - self.start_wall
