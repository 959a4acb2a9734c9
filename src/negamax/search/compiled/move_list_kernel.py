"""The compiled deepening kernel (numba): heuristic alpha-beta for move-list games.

One call searches the root to a fixed depth with a window; ``move_list.CompiledSearcher``
deepens, sets aspiration windows, watches the clock and turns results into
``SearchResult``. The kernel calls only the move-list stubs of ``negamax.core.compiled``,
which each game registers for its spec type, so it is compiled (and cached on disk) once
per game with the game's primitives inlined, and never imports a game.

One idea per module: the work array's layout, the features and the policies' constants
(``move_list_layout``), the transposition table (``move_list_table``), the move ordering's
histories (``move_list_ordering``), and here the node itself (``search``) and the root.

Scores are the library's (``negamax.core.score``): from the side to move, a mate found at
ply ``p`` scores ``WIN - p``. A child whose player to move is its parent's (``player_to_move``:
a player who moves twice) is searched with the parent's own window and not negated
(``score.child_window``); a game whose players always alternate says so with -1, a constant
the kernel is compiled with, so its nodes neither ask nor test. Window contract of ``search`` (fail-soft, as in
``alphabeta.py``): for the value ``v`` this search computes, ``r <= alpha`` means
``v <= r``, ``r >= beta`` means ``v >= r``, otherwise ``r == v``. Null-move pruning and
late-move reductions make ``v`` a heuristic value, not the fixed-depth minimax value;
with ``FEATURES`` reduced to ``EXACT_FEATURES`` it is the fixed-depth value with
quiescence that the pure-Python search computes (the tests hold the two to it).

Memory, allocated by the caller and reused between searches (the kernel never allocates):

* ``table``: the transposition table, a power-of-two number of entries of two words, the
  key xor its data, then the data (one cache line for both): searches in other threads
  share the table, and an entry one thread reads while another writes it fails the key
  test instead of pairing one position's key with another's data. The slot is
  ``key & (entries - 1)``. The data (never 0) packs from bit 0: the best move's key (20 bits,
  see ``_move_key``), the
  depth + 1 (8 bits), the bound (2 bits), the search's generation (8 bits) and the score +
  2**20 (21 bits). An entry from an earlier generation is always replaced; one from this
  generation only by a search at least as deep.
* ``work``: counters and controls at the ``W_*`` offsets, killers, history, counter moves,
  per-ply move and score buffers, static values and moves played, and the continuation
  history (8 MiB, last; used only by games with a ``continuation_slot``). Another thread
  may set ``work[W_STOP]`` (the kernel holds no interpreter lock); the search then unwinds
  at once and ``work[W_ABORTED]`` is 1.
"""

from __future__ import annotations

from typing import Any

from negamax.core.compiled import (
    continuation_slot,
    drawn_by_rule,
    game_result,
    generate_moves,
    gives_check,
    history_slot,
    in_check,
    losing_capture,
    material_gain,
    no_moves_lose,
    noisy_moves_forced,
    noisy_order,
    null_move_safe,
    play_move,
    play_null_move,
    player_to_move,
    pruning_unit,
    search_function,
    state_key,
    static_value,
    unplay_move,
    unplay_null_move,
)
from negamax.core.score import INF, ONGOING, WIN, WIN_THRESHOLD
from negamax.search.compiled import move_list_ordering, move_list_table
from negamax.search.compiled.move_list_layout import (
    ADAPTIVE_NULL_MOVE,
    CHECK_EVERY,
    CHECK_EXTENSION,
    COUNTER_MOVES,
    COUNTERS,
    CUT_NODES,
    DELTA_MARGIN,
    DELTA_PRUNING,
    DOUBLE_EXTENSIONS,
    EXACT,
    EXACT_TERMINALS,
    EXCLUDED,
    FORCED_NOISY_MOVES,
    FUTILITY,
    FUTILITY_DEPTH,
    HISTORY_HEURISTIC,
    HISTORY_PER_REDUCTION,
    HISTORY_PRUNING,
    HISTORY_PRUNING_DEPTH,
    HISTORY_PRUNING_PER_PLY,
    INTERNAL_REDUCTION,
    KILLER_MOVES,
    KILLER_ORDER,
    LATE_MOVE_PRUNING,
    LATE_MOVE_PRUNING_DEPTH,
    LATE_MOVE_REDUCTIONS,
    LATE_MOVE_REDUCTIONS_TABLE,
    LOWER,
    MAX_MOVES,
    MAX_PLY,
    MOST_DOUBLE_EXTENSIONS,
    MOVE_BITS,
    MOVES,
    NOISY_ORDER,
    NULL_MOVE,
    PLAYED,
    PLAYED_NOISY,
    PLAYED_PIECES,
    PV,
    PV_LENGTHS,
    PVS,
    QUIESCENCE,
    QUIESCENCE_EVASIONS,
    REVERSE_FUTILITY,
    REVERSE_FUTILITY_DEPTH,
    ROOT_MOVES,
    SCORES,
    SINGULAR_DEPTH,
    SINGULAR_EXTENSION,
    SOLVING,
    STATIC_EXCHANGE,
    STATICS,
    TABLE_EVALUATION,
    TABLE_PREFETCH,
    TRANSPOSITION_TABLE,
    TT_MOVE_ORDER,
    UNSCORED_ORDER,
    UPPER,
    W_ABORTED,
    W_BEST_MOVE,
    W_BEST_SCORE,
    W_BETA_CUTOFFS,
    W_FEATURES,
    W_FIRST_MOVE_CUTOFFS,
    W_HORIZON,
    W_NEXT_CHECK,
    W_NODE_LIMIT,
    W_NODES,
    W_NULL_CUTOFFS,
    W_PRUNED,
    W_QUIESCENCE_NODES,
    W_REDUCED,
    W_RESEARCHES,
    W_ROOT_HINT,
    W_ROOT_MOVES,
    W_SELDEPTH,
    W_STOP,
    W_TT_CUTOFFS,
    W_TT_HITS,
    W_TT_PROBES,
    child_window,
    from_node,
    mate_distance_window,
    to_node,
)
from negamax.search.compiled.move_list_ordering import (
    SCORES_DIFFER,
    TT_MOVE_NOISY,
    _pick,
    _quiet_order,
    _reward_prior_move,
    _reward_quiet_cutoff,
    score_moves,
)
from negamax.search.compiled.move_list_table import (
    _entry_bound,
    _entry_decides,
    _entry_depth,
    _entry_value,
    _move_key,
    _prefetch_entry,
    _probe,
    _store,
    store_result,
)

KERNEL_PARTS = (move_list_table, move_list_ordering)
"""The modules this kernel is made of besides this one (``families.kernel_parts``): the
transposition table and the move ordering's histories."""


@search_function
def _count_node(work: Any) -> bool:
    """Counts a node; True when the search must stop. The stop flag is read at every node:
    a node can take milliseconds where it first touches a page of a large table (5 ms for a
    2 MiB page here), so a thousand of them could hold a stop back for seconds."""
    nodes = work[W_NODES] + 1
    work[W_NODES] = nodes
    if work[W_STOP] != 0:
        work[W_ABORTED] = 1
    elif nodes >= work[W_NEXT_CHECK]:
        work[W_NEXT_CHECK] = min(nodes + CHECK_EVERY, work[W_NODE_LIMIT])
        if nodes >= work[W_NODE_LIMIT]:
            work[W_ABORTED] = 1
    return work[W_ABORTED] != 0


@search_function
def _has_legal_move(spec: Any, state: Any, work: Any, start: int) -> bool:
    end = generate_moves(spec, state, work, start, False)
    for index in range(start, end):
        move = work[index]
        legal = play_move(spec, state, move)
        unplay_move(spec, state, move)
        if legal:
            return True
    return False


@search_function
def _horizon_node(spec: Any, state: Any, work: Any, alpha: int, beta: int, ply: int) -> int:
    """What ``search`` returns for a node at depth 0 when neither quiescence nor check
    extensions are on, step for step, without its call: most nodes of a search are these,
    and the whole of ``search`` (its frame, its features) cost a user's small game a tenth
    of its speed there (``benchmarks/native_rules.py``)."""
    if _count_node(work):
        return 0
    work[PV_LENGTHS + ply] = 0
    result = game_result(spec, state)
    if result != ONGOING:
        return from_node(result, ply)
    if drawn_by_rule(spec, state):
        return 0
    if ply >= MAX_PLY - 1:
        work[W_HORIZON] += 1
        return static_value(spec, state)
    narrowed_alpha, narrowed_beta = mate_distance_window(alpha, beta, ply, False)
    if narrowed_alpha >= narrowed_beta:
        return narrowed_beta if narrowed_beta < beta else narrowed_alpha
    if work[W_FEATURES] & EXACT_TERMINALS and not _has_legal_move(spec, state, work, MOVES + ply * MAX_MOVES):
        return from_node(-WIN, ply) if no_moves_lose(spec, state) else 0
    return static_value(spec, state)


@search_function
def _listed(work: Any, move: int) -> bool:
    """Whether ``move`` is one of the root's ``W_ROOT_MOVES`` allowed moves."""
    for index in range(ROOT_MOVES, ROOT_MOVES + work[W_ROOT_MOVES]):  # noqa: SIM110 (any() needs numba's runtime)
        if work[index] == move:
            return True
    return False


@search_function
def list_root_moves(spec: Any, state: Any, work: Any) -> int:
    """Writes the legal moves of ``state`` at ``ROOT_MOVES`` and returns how many there are
    (the caller picks the ones the root may search from them: moves are codes only here)."""
    end = generate_moves(spec, state, work, MOVES, False)
    count = 0
    for index in range(MOVES, end):
        move = work[index]
        legal = play_move(spec, state, move)
        unplay_move(spec, state, move)
        if legal:
            work[ROOT_MOVES + count] = move
            count += 1
    return count


@search_function
def search(spec: Any, state: Any, table: Any, work: Any, depth: int, alpha: int, beta: int, ply: int) -> int:
    """Fail-soft principal-variation search of ``depth`` plies (see the module's contract)."""
    assert alpha < beta
    # Step 1. Count the node, now and then look at the stop flag and the node limit.
    if _count_node(work):
        return 0
    work[PV_LENGTHS + ply] = 0
    features = work[W_FEATURES]
    pv_node = beta - alpha > 1
    cut_node = not pv_node and work[CUT_NODES + ply] != 0

    # Step 2. The game over by its rules, draws by rule, the ply limit, and mate-distance
    # pruning.
    result = game_result(spec, state)
    if result != ONGOING:
        return from_node(result, ply)
    if ply > 0 and drawn_by_rule(spec, state):
        return 0
    if ply >= MAX_PLY - 1:
        work[W_HORIZON] += 1
        return static_value(spec, state)
    in_quiescence = depth < 0
    checked = False
    if not in_quiescence:
        if ply > 0:
            # the node may still turn out to have no move: its floor is a loss right here
            narrowed_alpha, narrowed_beta = mate_distance_window(alpha, beta, ply, False)
            if narrowed_alpha >= narrowed_beta:
                return narrowed_beta if narrowed_beta < beta else narrowed_alpha
            alpha, beta = narrowed_alpha, narrowed_beta
        checked = in_check(spec, state)
        # Step 3. Check extension: a check is searched a ply deeper, so forcing lines that
        # check all the way are seen to their end. Not where the game forces noisy moves
        # (draughts' "check" is a capture to make, which quiescence follows anyway: extending
        # them too took ten times the nodes to the same depth).
        if checked and features & CHECK_EXTENSION and not noisy_moves_forced(spec):
            depth += 1
        # Step 4. The horizon: quiescence from here (in this same call: numba loads a
        # recursive function that calls another recursive one from its cache wrongly).
        if depth <= 0:
            if features & QUIESCENCE:
                in_quiescence = True
            elif features & EXACT_TERMINALS and not _has_legal_move(spec, state, work, MOVES + ply * MAX_MOVES):
                return from_node(-WIN, ply) if no_moves_lose(spec, state) else 0
            else:
                return static_value(spec, state)
    if in_quiescence:
        # Step 4b. Quiescence: stand pat on the evaluation, then captures and promotions
        # only, most valuable victim first; children are quiescence nodes (depth -1).
        work[W_QUIESCENCE_NODES] += 1
        if ply > work[W_SELDEPTH]:
            work[W_SELDEPTH] = ply
        start = MOVES + ply * MAX_MOVES
        if features & EXACT_TERMINALS and not _has_legal_move(spec, state, work, start):
            return from_node(-WIN, ply) if no_moves_lose(spec, state) else 0
        # games with a pruning unit look the node up in the table, off the principal variation
        quiescence_table = features & TRANSPOSITION_TABLE and not pv_node and pruning_unit(spec) > 0
        key = 0
        if quiescence_table:
            key = state_key(spec, state)
            entry = _probe(table, key)
            if entry >= 0 and _entry_decides(entry, ply, alpha, beta):
                return _entry_value(entry, ply)
        evading = features & QUIESCENCE_EVASIONS and pruning_unit(spec) > 0 and in_check(spec, state)
        stand = static_value(spec, state) if not evading else 0
        may_be_forced = features & FORCED_NOISY_MOVES and noisy_moves_forced(spec)
        if not may_be_forced and not evading and stand >= beta:
            return stand  # before generating: most quiescence nodes end here
        end = generate_moves(spec, state, work, start, not evading)
        forced = end > start and may_be_forced
        if forced or evading:
            # the side to move must capture, or get out of check: the evaluation of
            # passing is no bound at all
            best = -INF
        else:
            if stand >= beta:
                return stand
            if stand > alpha:
                alpha = stand
            best = stand
        quiescence_depth = min(depth, -1)  # a typed value: numba's cache breaks on literal arguments
        for index in range(start, end):
            work[SCORES - MOVES + index] = noisy_order(spec, state, work[index])
        evaded = False
        mover = player_to_move(spec, state)
        delta = features & DELTA_PRUNING and not forced and not evading
        exchange = features & STATIC_EXCHANGE and not forced and not evading
        for index in range(start, end):
            move = _pick(work, index, end)
            # Delta pruning: even winning the piece outright would not reach alpha.
            if delta and stand + material_gain(spec, state, move) + DELTA_MARGIN <= alpha:
                continue
            if exchange and losing_capture(spec, state, move):
                continue
            if not play_move(spec, state, move):
                unplay_move(spec, state, move)
                continue
            if quiescence_table and features & TABLE_PREFETCH:
                _prefetch_entry(table, state_key(spec, state))
            evaded = True
            same = mover >= 0 and player_to_move(spec, state) == mover
            child_alpha, child_beta = child_window(alpha, beta, same)
            score = search(spec, state, table, work, quiescence_depth, child_alpha, child_beta, ply + 1)
            if not same:
                score = -score
            unplay_move(spec, state, move)
            if work[W_ABORTED] != 0:
                return 0
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        if evading and not evaded:
            return from_node(-WIN, ply) if no_moves_lose(spec, state) else 0
        if quiescence_table:
            _store(table, work, key, -1, to_node(best, ply), LOWER if best >= beta else UPPER, 0)
        return best

    # Step 5. Transposition table look-up (the key only then: a game's key can cost as
    # much as its moves, Othello's base-3 one a third of a node).
    use_table = features & TRANSPOSITION_TABLE
    key = state_key(spec, state) if use_table else 0
    tt_move = 0
    tt_entry = -1
    excluded = work[EXCLUDED + ply]  # in a singular-extension search: not a node of its own
    # a root that may search only some moves: its value is not the position's, so the table
    # neither answers it nor learns it
    restricted = ply == 0 and work[W_ROOT_MOVES] != 0
    if use_table and excluded == 0:
        work[W_TT_PROBES] += 1
        entry = _probe(table, key)
        tt_entry = entry
        if entry >= 0:
            work[W_TT_HITS] += 1
            tt_move = entry & MOVE_BITS  # the move's key: its low bits folded with the rest
            if not (pv_node or restricted) and _entry_depth(entry) >= depth and _entry_decides(entry, ply, alpha, beta):
                work[W_TT_CUTOFFS] += 1
                return _entry_value(entry, ply)
    if restricted and work[W_ROOT_HINT] != 0:
        tt_move = _move_key(work[W_ROOT_HINT])
    unit = pruning_unit(spec)
    if features & INTERNAL_REDUCTION and unit > 0 and use_table and tt_move == 0 and excluded == 0 and depth >= 4:
        depth -= 1

    # Step 6. Reverse futility pruning: near the horizon, a static value far enough above
    # beta is taken to hold it (the opponent's best reply would have to win it back).
    prunable = not pv_node and not checked and ply > 0
    static = static_value(spec, state) if unit > 0 and not checked else 0
    # improving: the static value beats the side's own two plies up (or four, past a check)
    improving = True
    if unit > 0:
        work[STATICS + ply] = static if not checked else -INF
        if checked:
            improving = False
        elif ply >= 2:
            before = work[STATICS + ply - 2]
            if before == -INF and ply >= 4:
                before = work[STATICS + ply - 4]
            improving = static > before
    if features & TABLE_EVALUATION and unit > 0 and not checked and tt_entry >= 0:
        # a shallower search's value is a better guess than the static value for the
        # pruning below (but not a lower bound: see TABLE_EVALUATION)
        stored = _entry_value(tt_entry, ply)
        stored_bound = _entry_bound(tt_entry)
        if -WIN_THRESHOLD < stored < WIN_THRESHOLD and (
            stored_bound == EXACT or (stored_bound == UPPER and stored < static)
        ):
            static = stored
    if (
        features & REVERSE_FUTILITY
        and prunable
        and excluded == 0
        and unit > 0
        and depth <= REVERSE_FUTILITY_DEPTH
        and -WIN_THRESHOLD < beta < WIN_THRESHOLD
        and static - unit * 4 * (depth - 1 if improving else depth) // 5 >= beta
    ):
        return static

    # Step 7. Null-move pruning: if passing still holds beta, a real move will too.
    mover = player_to_move(spec, state)
    if (
        features & NULL_MOVE
        and prunable
        and mover < 0  # passing the turn is a null move only where the players alternate
        and excluded == 0
        and depth >= 3
        and -WIN_THRESHOLD < beta < WIN_THRESHOLD
        and null_move_safe(spec, state)
        and (static if unit > 0 else static_value(spec, state)) >= beta
    ):
        if features & ADAPTIVE_NULL_MOVE and unit > 0:
            reduction = 3 + depth // 3 + min((static - beta) // (2 * unit), 3)
        else:
            reduction = 3 if depth >= 7 else 2
        work[PLAYED + ply] = -1
        work[PLAYED_PIECES + ply] = -1
        play_null_move(spec, state)
        work[DOUBLE_EXTENSIONS + ply + 1] = work[DOUBLE_EXTENSIONS + ply]
        work[CUT_NODES + ply + 1] = 0 if cut_node else 1
        score = -search(spec, state, table, work, depth - 1 - reduction, -beta, -beta + 1, ply + 1)
        unplay_null_move(spec, state)
        if work[W_ABORTED] != 0:
            return 0
        if score >= beta:
            work[W_NULL_CUTOFFS] += 1
            return beta if score >= WIN_THRESHOLD else score

    # Step 7b. Singular extension: when the table's move held a lower bound deep enough, a
    # shallower search of the other moves below that bound tells whether it stands alone.
    extension = 0  # plies the table's move is searched deeper (or shallower)
    if (
        features & SINGULAR_EXTENSION
        and unit > 0
        and ply > 0
        and excluded == 0
        and depth >= SINGULAR_DEPTH
        and tt_entry >= 0
        and tt_move != 0
        and _entry_bound(tt_entry) != UPPER
        and _entry_depth(tt_entry) >= depth - 3
    ):
        tt_value = _entry_value(tt_entry, ply)
        if -WIN_THRESHOLD < tt_value < WIN_THRESHOLD:
            singular_beta = tt_value - unit * depth // 50
            work[EXCLUDED + ply] = tt_move
            value = search(spec, state, table, work, (depth - 1) // 2, singular_beta - 1, singular_beta, ply)
            work[EXCLUDED + ply] = 0
            work[PV_LENGTHS + ply] = 0  # that search's line is not this node's
            if work[W_ABORTED] != 0:
                return 0
            if value < singular_beta:
                extension = 1
                if (
                    not pv_node
                    and value < singular_beta - unit // 8
                    and work[DOUBLE_EXTENSIONS + ply] < MOST_DOUBLE_EXTENSIONS
                ):
                    extension = 2
            elif singular_beta >= beta:
                return singular_beta  # without its best move the node still beats beta
            elif tt_value >= beta:
                extension = -1  # other moves hold beta too: the move matters less

    # Step 8. Generate the moves and score them for ordering: the table's move, captures
    # and promotions by MVV-LVA (losing captures, once found, among the quiet moves), the killers, then
    # history (with counter moves: looked up only once the loop below reaches the quiet moves).
    start = MOVES + ply * MAX_MOVES
    end = generate_moves(spec, state, work, start, False)
    exchange = features & STATIC_EXCHANGE
    counters = features & COUNTER_MOVES and unit > 0
    counter_slot = work[PLAYED + ply - 1] if counters and ply > 0 else -1
    counter = work[COUNTERS + counter_slot] if counter_slot >= 0 else 0
    scored = score_moves(spec, state, work, ply, start, end, tt_move, counters, counter)
    tt_noisy = scored & TT_MOVE_NOISY != 0
    # moves all scored alike keep the order they came in, without a pass over the rest for each
    ordered = scored & SCORES_DIFFER != 0

    # Step 9. Search the moves: the first with the full window, the rest with a null
    # window (PVS), late quiet moves first at a reduced depth (LMR). Near the horizon, quiet
    # moves that cannot lift the static value to alpha, are poor in history or come after
    # the first few are neither played nor searched unless they give check (futility,
    # history and late-move pruning).
    best = -INF
    best_move = 0
    legal = 0
    alpha_original = alpha
    use_pvs = features & PVS
    reduce_late = features & LATE_MOVE_REDUCTIONS
    new_depth = depth if features & SOLVING else depth - 1
    prune_quiet = prunable and unit > 0
    futility_value = static + unit * (depth + 1)
    futile = prune_quiet and features & FUTILITY and depth <= FUTILITY_DEPTH
    late_moves = 3 + depth * depth if improving else (3 + depth * depth) // 2
    prune_late = prune_quiet and features & LATE_MOVE_PRUNING and depth <= LATE_MOVE_PRUNING_DEPTH
    prune_history = prune_quiet and counters and features & HISTORY_PRUNING and depth <= HISTORY_PRUNING_DEPTH
    late = False  # late-move pruning has begun: every move left is quiet and late
    # a child at depth 0 is a horizon node, answered without a call of this function
    # (quiescence and check extensions make more of it)
    horizon_children = features & (QUIESCENCE | CHECK_EXTENSION) == 0
    for index in range(start, end):
        # once pruning late moves, the rest need no order: only the checks among them are searched
        move = _pick(work, index, end) if ordered and not late else work[index]
        order = work[SCORES - MOVES + index]
        while exchange and NOISY_ORDER <= order < TT_MOVE_ORDER and losing_capture(spec, state, move):
            # a capture that loses by the exchange is tried among the quiet moves, and
            # prunable like them (judged when reached: a cut-off before saves the exchange)
            work[SCORES - MOVES + index] = order - NOISY_ORDER
            ordered = True
            move = _pick(work, index, end)
            order = work[SCORES - MOVES + index]
        if order == UNSCORED_ORDER and not late:
            # every move ordered above the quiet ones has been searched: score these now
            for other in range(index, end):
                if work[SCORES - MOVES + other] == UNSCORED_ORDER:
                    work[SCORES - MOVES + other] = _quiet_order(spec, state, work, work[other], ply)
            ordered = True
            move = _pick(work, index, end)
            order = work[SCORES - MOVES + index]
        if excluded != 0 and _move_key(move) == excluded:
            continue
        if restricted and not _listed(work, move):
            continue
        quiet = order < KILLER_ORDER
        # a quiet move that does not give check may be pruned without being played, once a
        # move that does not lose was searched; it counts as legal (the count only paces
        # the pruning and reductions)
        if quiet and best > -WIN_THRESHOLD:
            hopeless = futile and futility_value <= alpha
            late = late or (prune_late and legal >= late_moves)
            # (a move's history alone, without what it follows, is too coarse to prune by:
            # draughts, which keeps none, was the stronger without, by self-play)
            unpromising = (
                prune_history
                and order < -HISTORY_PRUNING_PER_PLY * (depth - 1)
                and continuation_slot(spec, state, move) >= 0
            )
            if (late or hopeless or unpromising) and not gives_check(spec, state, move):
                legal += 1
                work[W_PRUNED] += 1
                if hopeless and futility_value > best:
                    best = futility_value  # the most the unsearched move is taken to be worth
                continue
        if counters:
            work[PLAYED + ply] = history_slot(spec, state, move)
            work[PLAYED_PIECES + ply] = continuation_slot(spec, state, move)
            work[PLAYED_NOISY + ply] = 1 if noisy_order(spec, state, move) != 0 else 0
        if not play_move(spec, state, move):
            unplay_move(spec, state, move)
            continue
        legal += 1
        # the same player to move again: the child is searched with this node's window and
        # its value is this node's (sign 1); otherwise both are negated
        same = mover >= 0 and player_to_move(spec, state) == mover
        sign = 1 if same else -1
        flip = 0 if same else 1
        move_extension = extension if extension != 0 and _move_key(move) == tt_move else 0
        move_depth = new_depth + move_extension
        work[DOUBLE_EXTENSIONS + ply + 1] = work[DOUBLE_EXTENSIONS + ply] + (1 if move_extension == 2 else 0)
        # a late quiet move is searched at reduced depth first, unless it gives check
        reducible = reduce_late and use_pvs and depth >= 3 and legal > 3 and quiet and not checked
        if reducible and in_check(spec, state):
            reducible = False
        if use_table and features & TABLE_PREFETCH:
            _prefetch_entry(table, state_key(spec, state))
        # a child is expected to fail high (a cut node) unless this node is expected to
        # (as in Stockfish: the expectations alternate down the tree, with the players)
        work[CUT_NODES + ply + 1] = (1 if cut_node else 0) ^ flip
        at_horizon = horizon_children and move_depth == 0
        full_alpha, full_beta = child_window(alpha, beta, same)
        if legal == 1 or not use_pvs:
            if at_horizon:
                score = sign * _horizon_node(spec, state, work, full_alpha, full_beta, ply + 1)
            else:
                score = sign * search(spec, state, table, work, move_depth, full_alpha, full_beta, ply + 1)
        else:
            null_alpha, null_beta = child_window(alpha, alpha + 1, same)
            reduction = 0
            if reducible:
                if unit > 0:
                    reduction = LATE_MOVE_REDUCTIONS_TABLE[min(depth, 64) - 1, min(legal, 64) - 1]
                    if pv_node:
                        reduction -= 1
                    if not improving:
                        reduction += 1
                    if cut_node:
                        reduction += 2
                    if tt_noisy:
                        reduction += 1  # the table's move captures: a quiet one is less likely to matter
                    if order >= KILLER_ORDER - 1:
                        reduction -= 1  # a killer or the counter move
                    else:
                        reduction -= (order + HISTORY_PER_REDUCTION // 2) // HISTORY_PER_REDUCTION
                else:  # games without a unit (written as rules) keep the reductions they were measured with
                    reduction = 1 if legal <= 6 else 2
                if reduction >= move_depth:
                    reduction = move_depth - 1
                if reduction < 0:
                    reduction = 0
                if reduction > 0:
                    work[W_REDUCED] += 1
            if reduction > 0:
                work[CUT_NODES + ply + 1] = flip  # a reduced late move is expected to fail low
            if at_horizon:  # never reduced: a reduction leaves at least a ply
                score = sign * _horizon_node(spec, state, work, null_alpha, null_beta, ply + 1)
            else:
                score = sign * search(spec, state, table, work, move_depth - reduction, null_alpha, null_beta, ply + 1)
            if reduction > 0 and score > alpha and work[W_ABORTED] == 0:
                work[CUT_NODES + ply + 1] = (1 if cut_node else 0) ^ flip
                score = sign * search(spec, state, table, work, move_depth, null_alpha, null_beta, ply + 1)
            if alpha < score < beta and work[W_ABORTED] == 0:
                work[W_RESEARCHES] += 1
                if at_horizon:
                    score = sign * _horizon_node(spec, state, work, full_alpha, full_beta, ply + 1)
                else:
                    score = sign * search(spec, state, table, work, move_depth, full_alpha, full_beta, ply + 1)
        unplay_move(spec, state, move)
        if work[W_ABORTED] != 0:
            return 0
        if score > best:
            best = score
            best_move = move
            if ply == 0 and score > alpha:
                # only a move proved better than the window's floor may be played from an
                # unfinished iteration (a fail-low "best" is just the largest upper bound)
                work[W_BEST_MOVE] = move
                work[W_BEST_SCORE] = score
            if score > alpha:
                alpha = score
                # the principal variation: this move, then the child's
                child = PV + (ply + 1) * MAX_PLY
                row = PV + ply * MAX_PLY
                length = work[PV_LENGTHS + ply + 1]
                work[row] = move
                for step in range(length):
                    work[row + 1 + step] = work[child + step]
                work[PV_LENGTHS + ply] = length + 1
                if alpha >= beta:
                    # Step 10. Beta cut-off: remember the move for ordering elsewhere.
                    work[W_BETA_CUTOFFS] += 1
                    if legal == 1:
                        work[W_FIRST_MOVE_CUTOFFS] += 1
                    if counters or (quiet and features & (KILLER_MOVES | HISTORY_HEURISTIC)):
                        # without counter moves only moves ordered late count, and none loses history
                        tried_from = start if counters else index
                        _reward_quiet_cutoff(spec, state, work, move, tried_from, index, depth, ply, counter_slot)
                    break

    # Step 11. No legal move: lost (chess: mate) or drawn (chess: stalemate).
    if legal == 0:
        if excluded != 0:
            return alpha  # only the left-out move was legal: it stands alone
        return from_node(-WIN, ply) if no_moves_lose(spec, state) else 0

    # Step 12. Store what this search proved; a quiet move that this node could not
    # answer (it failed low) gains continuation history, as Stockfish rewards it.
    if (
        counters
        and excluded == 0
        and best <= alpha_original
        and ply > 0
        and (depth >= 5 or pv_node)
        and work[PLAYED_NOISY + ply - 1] == 0
    ):
        _reward_prior_move(work, depth, ply - 1, pv_node or cut_node or best < alpha_original - unit * depth * 5 // 8)
    if use_table and excluded == 0 and not restricted:
        store_result(table, work, key, depth, best, ply, alpha_original, beta, best_move)
    return best


@search_function
def search_root(spec: Any, state: Any, table: Any, work: Any, depth: int, alpha: int, beta: int) -> int:
    """One iteration: resets the per-iteration counters and searches the root."""
    work[W_ABORTED] = 0
    work[W_BEST_MOVE] = 0
    work[W_NEXT_CHECK] = min(work[W_NODES] + 1, work[W_NODE_LIMIT])
    root_ply = depth - depth  # a typed zero: numba's cache breaks on literal arguments
    work[DOUBLE_EXTENSIONS] = 0
    work[CUT_NODES] = 0
    return search(spec, state, table, work, depth, alpha, beta, root_ply)
