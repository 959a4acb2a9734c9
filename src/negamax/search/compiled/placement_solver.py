"""The placement kernel's node, step by step: the table probe and the forced moves
(``node_start``), the children's order (``move_score``), each child's value taken
(``take_value``), and what is stored (``node_store``), put together in ``negamax``, the
null-window search one worker runs alone."""

from __future__ import annotations

from numba import njit

from negamax.core.compiled import (
    cell_count,
    move_slots,
    playable_cells,
    position_key,
    rule_ceiling,
    search_function,
    unsafe_cells,
    winning_cells,
)
from negamax.search.compiled.placement_layout import (
    ETC_AFTER_NODES,
    ETC_EMPTY_CELLS,
    FORCED,
    LOOKS,
    MAX_SLOTS,
    RULE_CEILING_LEAST,
    RULE_FLOOR_MOST,
    SCORE_OFFSET,
    STATE_BETA_CUTOFFS,
    STATE_EXPANDED,
    STATE_FIRST_MOVE_CUTOFFS,
    STATE_GIVEN,
    STATE_GIVEN_IDENTITY,
    STATE_GIVEN_INDEX,
    STATE_GIVEN_OWN,
    STATE_GIVEN_THEIRS,
    STATE_NODE_LIMIT,
    STATE_NODES,
    STATE_ROOT_MOVE,
    STATE_ROOT_MOVES,
    STATE_STOP,
    STATE_TT_CUTOFFS,
    STATE_TT_HITS,
)
from negamax.search.compiled.placement_table import bucket_of, find_entry, node_store, ply_buffers, popcount
from negamax.search.compiled.prefetch import prefetch


@njit(cache=True, inline="always")
def node_start(spec, current, mask, moves, alpha, beta, table, work):  # type: ignore[no-untyped-def]
    """Steps 1-8 of a node, shared by both searches: ``(settled, value, alpha, beta, count,
    index, identity, opponent_winning)``; a settled node's value is final, else ``value``
    is the floor of the node's value (the best bound of the moves step 8 ruled out), its
    ``count`` children are ordered in its per-ply buffers, ``index``/``identity`` locate
    its table entry (``index`` is ``FORCED`` for a forced move: no entry) and
    ``opponent_winning`` holds the opponent's winning cells."""
    # Step 1. Count the node; unwind at once if asked to stop.
    given = work[STATE_GIVEN]
    work[STATE_GIVEN] = 0
    work[STATE_NODES] += 1
    if work[STATE_STOP] != 0:
        return True, 0, alpha, beta, 0, 0, 0, 0
    if work[STATE_NODES] >= work[STATE_NODE_LIMIT]:
        work[STATE_STOP] = 1
        return True, 0, alpha, beta, 0, 0, 0, 0

    # Step 2. An immediate win ends the search here.
    cells = cell_count(spec)
    possible = playable_cells(spec, mask)
    own_winning = work[STATE_GIVEN_OWN] if given else winning_cells(spec, current, mask)
    if own_winning & possible:
        return True, (cells + 1 - moves) // 2, alpha, beta, 0, 0, 0, 0

    # Step 3. Keep the moves that do not hand the opponent an immediate win.
    opponent_winning = work[STATE_GIVEN_THEIRS] if given else winning_cells(spec, current ^ mask, mask)
    candidates = safe_moves(spec, possible, opponent_winning)
    if candidates == 0:
        return True, -((cells - moves) // 2), alpha, beta, 0, 0, 0, 0  # the opponent wins next move
    if moves >= cells - 2:
        return True, 0, alpha, beta, 0, 0, 0, 0  # our safe stone is the last but one: nobody can win any more

    # Step 4. The scores still possible: no win before our next-but-one stone, no loss
    # before the opponent's next-but-one.
    highest = (cells - 1 - moves) // 2
    if beta > highest:
        beta = highest
        if alpha >= beta:
            return True, beta, alpha, beta, 0, 0, 0, 0
    lowest = -((cells - 2 - moves) // 2)
    if alpha < lowest:
        alpha = lowest
        if alpha >= beta:
            return True, alpha, alpha, beta, 0, 0, 0, 0

    # Step 5. A forced move (the only one that does not lose at once) is played without
    # a table entry of its own: its value is the next position's, stored there.
    order_moves = ply_buffers(moves)  # no allocation
    if candidates & (candidates - 1) == 0:
        work[order_moves] = candidates
        work[order_moves + 3 * MAX_SLOTS] = winning_cells(spec, current | candidates, mask | candidates)
        work[order_moves + 5 * MAX_SLOTS] = -1  # (its entry: not known)
        return False, -cells, alpha, beta, 1, FORCED, 0, opponent_winning

    # Step 6. What the game's rules prove without a search (Connect 4: claimeven).
    if beta > RULE_CEILING_LEAST:  # (no ceiling is lower: not worth a look below)
        ceiling = rule_ceiling(spec, current, mask, moves)
        if ceiling < beta:
            beta = ceiling
            if alpha >= beta:
                return True, beta, alpha, beta, 0, 0, 0, 0

    # Step 7. Transposition table: both bounds, keyed by the symmetry-canonical key (which
    # the parent's step 8 has mostly found already).
    if given and work[STATE_GIVEN_IDENTITY] >= 0:
        index, identity = work[STATE_GIVEN_INDEX], work[STATE_GIVEN_IDENTITY]
    else:
        index, identity = bucket_of(position_key(spec, current, mask), work)
    entry = find_entry(index, identity, table)
    table_slot = -1
    if entry != 0:
        work[STATE_TT_HITS] += 1
        table_slot = ((entry >> 12) & 15) - 1
        lower = (entry & 63) - SCORE_OFFSET
        upper = ((entry >> 6) & 63) - SCORE_OFFSET
        if lower >= beta or lower == upper:
            work[STATE_TT_CUTOFFS] += 1
            return True, lower, alpha, beta, 0, 0, 0, 0
        if upper <= alpha:
            work[STATE_TT_CUTOFFS] += 1
            return True, upper, alpha, beta, 0, 0, 0, 0
        if lower > alpha:
            alpha = lower
        if upper < beta:
            beta = upper

    # Step 8. A static look at each move, then the moves in order. A move that leaves the
    # opponent two threats to block (or one right below another, or no cell to play that is
    # not right below one) wins with our next stone but one; with none, no win comes before
    # our third stone from now, which caps beta. A move whose one threat the opponent must
    # block, and whose block leaves us lost at once (step 3 from there), is worth the least
    # any move can be (``lowest``, which alpha holds): it is not searched. With enough
    # cells empty, the table says more (enhanced transposition cut-offs): a move whose
    # position (or, when the opponent's reply is forced, the position after it: forced
    # moves have no entry) is known to be at least beta cuts this node at once; one known
    # to be at most alpha is not searched, and its bound is the floor of this node's value.
    # The rest are ordered: the table's move first, then by the useful threats they make
    # (ties: the game's order). A move after which the game's rules cap the opponent's
    # value (claimeven, step 6) at or below -beta cuts this node at once, in windows at or
    # above 0 only: below, the floor it returns (0 or more) is loose when the true value is
    # a clear win, and the parent stores that loose bound for the probes that follow (Pons'
    # Begin-Easy: 2.46 M nodes with the cut in every window, 2.30 M without it and with it
    # at or above 0; the empty board 188 M, 236 M and 198 M). The first pass
    # asks memory for every entry it will read, the second reads them: the loads then wait
    # for memory together, not one by one.
    etc = moves < cells - ETC_EMPTY_CELLS and work[STATE_NODES] > ETC_AFTER_NODES
    opponent_stones = current ^ mask
    slots = move_slots(spec)
    looked = 0
    lost = -cells
    for slot in range(len(slots)):
        move = candidates & slots[slot]
        if move:
            score, threats = move_score(spec, current, mask, move, opponent_winning)
            after = mask | move
            reply = playable_cells(spec, after) & threats
            if (
                reply & (reply - 1)
                or reply & unsafe_cells(spec, threats)
                or (reply == 0 and playable_cells(spec, after) & ~unsafe_cells(spec, threats) == 0)
            ):
                if moves == work[STATE_ROOT_MOVES]:
                    work[STATE_ROOT_MOVE] = move
                return True, highest, alpha, beta, 0, 0, 0, 0
            blocked = after | reply
            if (
                reply
                and safe_moves(
                    spec, playable_cells(spec, blocked), winning_cells(spec, opponent_stones | reply, blocked)
                )
                == 0
            ):
                lost = lowest  # (the floor if every move is lost so)
                continue
            if 0 <= beta <= RULE_FLOOR_MOST:  # (no other window can be cut: not worth a look)
                floor_by_rule = -rule_ceiling(spec, opponent_stones, after, moves + 1)
                if floor_by_rule >= beta:
                    if moves == work[STATE_ROOT_MOVES]:
                        work[STATE_ROOT_MOVE] = move
                    return True, floor_by_rule, alpha, beta, 0, 0, 0, 0
            if reply:
                child_index, child_identity = bucket_of(position_key(spec, current | move, after | reply), work)
                child_identity = -child_identity - 1  # (negative: the position is ours to move)
            else:
                child_index, child_identity = bucket_of(position_key(spec, opponent_stones, after), work)
            prefetch(table, child_index)
            work[LOOKS + looked] = move
            work[LOOKS + MAX_SLOTS + looked] = 1000 if slot == table_slot else score
            work[LOOKS + 2 * MAX_SLOTS + looked] = threats
            work[LOOKS + 3 * MAX_SLOTS + looked] = child_index
            work[LOOKS + 4 * MAX_SLOTS + looked] = child_identity
            work[LOOKS + 5 * MAX_SLOTS + looked] = slot
            looked += 1
    if beta > (cells - 3 - moves) // 2:
        beta = (cells - 3 - moves) // 2
        if alpha >= beta:
            return True, beta, alpha, beta, 0, 0, 0, 0
    floor = lost
    order_scores = order_moves + MAX_SLOTS
    order_slots = order_scores + MAX_SLOTS
    order_threats = order_slots + MAX_SLOTS
    order_indices = order_threats + MAX_SLOTS
    order_identities = order_indices + MAX_SLOTS
    count = 0
    for look in range(looked):
        move = work[LOOKS + look]
        if etc:
            child_identity = work[LOOKS + 4 * MAX_SLOTS + look]
            ours = child_identity < 0
            if ours:
                child_identity = -child_identity - 1
            child_entry = find_entry(work[LOOKS + 3 * MAX_SLOTS + look], child_identity, table)
            if child_entry != 0:
                child_lower = (child_entry & 63) - SCORE_OFFSET
                child_upper = ((child_entry >> 6) & 63) - SCORE_OFFSET
                if ours:
                    lower, upper = child_lower, child_upper
                else:
                    lower, upper = -child_upper, -child_lower
                if lower >= beta:
                    work[STATE_TT_CUTOFFS] += 1
                    if moves == work[STATE_ROOT_MOVES]:
                        work[STATE_ROOT_MOVE] = move
                    return True, lower, alpha, beta, 0, 0, 0, 0
                if upper <= alpha:
                    floor = max(floor, upper)
                    continue
        score = work[LOOKS + MAX_SLOTS + look]
        position = count
        while position > 0 and work[order_scores + position - 1] < score:
            work[order_moves + position] = work[order_moves + position - 1]
            work[order_scores + position] = work[order_scores + position - 1]
            work[order_slots + position] = work[order_slots + position - 1]
            work[order_threats + position] = work[order_threats + position - 1]
            work[order_indices + position] = work[order_indices + position - 1]
            work[order_identities + position] = work[order_identities + position - 1]
            position -= 1
        work[order_moves + position] = move
        work[order_scores + position] = score
        work[order_slots + position] = work[LOOKS + 5 * MAX_SLOTS + look]
        work[order_threats + position] = work[LOOKS + 2 * MAX_SLOTS + look]
        # the child's own entry; below 0 (the position after a forced reply): not the child's
        work[order_indices + position] = work[LOOKS + 3 * MAX_SLOTS + look]
        work[order_identities + position] = work[LOOKS + 4 * MAX_SLOTS + look]
        count += 1
    if count == 0:
        return True, floor, alpha, beta, 0, 0, 0, 0
    work[STATE_EXPANDED] += 1
    return False, floor, alpha, beta, count, index, identity, opponent_winning


@njit(cache=True, inline="always")
def safe_moves(spec, possible, opponent_winning):  # type: ignore[no-untyped-def]
    """Step 3: of the ``possible`` cells, those that do not lose at once: the one threat of
    the opponent's to block if there is one (none if two), and not right below another of
    its winning cells. None: the opponent wins with its next stone. (The static look asks it
    of the position after a forced block too.)"""
    forced = possible & opponent_winning
    if forced:
        if forced & (forced - 1):
            return 0
        possible = forced
    return possible & ~unsafe_cells(spec, opponent_winning)


@njit(cache=True, inline="always")
def move_score(spec, current, mask, move, opponent_winning):  # type: ignore[no-untyped-def]
    """``(score, threats)``: how promising ``move`` looks, and the winning cells it leaves
    the mover. The score is twice the useful threats (winning cells not right above one
    of the opponent's, which the opponent would complete first), plus those right above a
    playable cell (whoever fills that cell hands the other the threat). For games without
    gravity: twice the winning cells."""
    after = mask | move
    threats = winning_cells(spec, current | move, after)
    theirs = opponent_winning & ~move
    below = unsafe_cells(spec, threats)  # the cells right below our threats
    useless = popcount(below & theirs)
    pressing = popcount(below & playable_cells(spec, after) & ~theirs)
    return 2 * (popcount(threats) - useless) + pressing, threats


@njit(cache=True, inline="always")
def take_value(value, child, move, moves, best, best_slot, alpha, beta, work):  # type: ignore[no-untyped-def]
    """Step 9's bookkeeping after a child: ``(best, best_slot, alpha, cut)``."""
    if value > best:
        best = value
        best_slot = work[ply_buffers(moves) + 2 * MAX_SLOTS + child]
        if moves == work[STATE_ROOT_MOVES]:
            work[STATE_ROOT_MOVE] = move
        if value > alpha:
            alpha = value
            if alpha >= beta:
                work[STATE_BETA_CUTOFFS] += 1
                if child == 0:
                    work[STATE_FIRST_MOVE_CUTOFFS] += 1
                return best, best_slot, alpha, True
    return best, best_slot, alpha, False


@njit(cache=True, inline="always")
def give(own_winning, child, order_moves, work):  # type: ignore[no-untyped-def]
    """Hand the ``child``-th child its winning cells (``own_winning``, the node's opponent's
    less the cell just filled), its opponent's and its table entry (``STATE_GIVEN``)."""
    work[STATE_GIVEN_OWN] = own_winning
    work[STATE_GIVEN_THEIRS] = work[order_moves + 3 * MAX_SLOTS + child]
    work[STATE_GIVEN_INDEX] = work[order_moves + 4 * MAX_SLOTS + child]
    work[STATE_GIVEN_IDENTITY] = work[order_moves + 5 * MAX_SLOTS + child]
    work[STATE_GIVEN] = 1


@search_function
def negamax(spec, current, mask, moves, alpha, beta, table, work):  # type: ignore[no-untyped-def]
    """The search of one worker alone (and of subtrees too small to share)."""
    before = work[STATE_NODES]
    settled, value, alpha, beta, count, index, identity, opponent_winning = node_start(
        spec, current, mask, moves, alpha, beta, table, work
    )
    if settled:
        return value

    # Step 9. Search: the first move with the full window, the others with a null window
    # that a re-search widens when one turns out better (fail-soft PVS).
    order_moves = ply_buffers(moves)
    alpha_original = alpha
    best = value  # the floor: the bound of the moves the table ruled out
    best_slot = -1
    opponent = current ^ mask
    for number in range(count):
        move = work[order_moves + number]
        give(opponent_winning & ~move, number, order_moves, work)
        if number == 0:
            value = -negamax(spec, opponent, mask | move, moves + 1, -beta, -alpha, table, work)
        else:
            value = -negamax(spec, opponent, mask | move, moves + 1, -alpha - 1, -alpha, table, work)
            if alpha < value < beta:
                give(opponent_winning & ~move, number, order_moves, work)
                value = -negamax(spec, opponent, mask | move, moves + 1, -beta, -alpha, table, work)
        if work[STATE_STOP] != 0:
            return 0
        best, best_slot, alpha, cut = take_value(value, number, move, moves, best, best_slot, alpha, beta, work)
        if cut:
            break
    if index != FORCED:
        node_store(index, identity, best, best_slot, alpha_original, beta, work[STATE_NODES] - before, table, work)
    return best
