"""The deepening kernel's move ordering: the next move picked from the scored list, quiet
moves scored by their history, counter move and continuation histories, and the rewards
and penalties a cut-off gives them (gravity-bounded)."""

from __future__ import annotations

from typing import Any

from negamax.core.compiled import (
    continuation_slot,
    history_slot,
    noisy_order,
    pruning_unit,
    search_function,
)
from negamax.search.compiled.move_list_layout import (
    CONTINUATION,
    CONTINUATION_LANES,
    CONTINUATION_PLIES,
    CONTINUATION_SLOTS,
    COUNTER_MOVES,
    COUNTERS,
    GRAVITY_BONUS_CAP,
    GRAVITY_HISTORY_CAP,
    HISTORY,
    HISTORY_CAP,
    HISTORY_HEURISTIC,
    KILLER_MOVES,
    KILLER_ORDER,
    KILLERS,
    MOVES,
    NOISY_ORDER,
    PLAYED_PIECES,
    SCORES,
    TT_MOVE_ORDER,
    UNSCORED_ORDER,
    W_FEATURES,
)
from negamax.search.compiled.move_list_table import _move_key


@search_function
def _pick(work: Any, index: int, end: int) -> int:
    """Swaps the best-scored move of ``index .. end`` to ``index`` and returns it."""
    best = index
    best_score = work[SCORES - MOVES + index]
    for other in range(index + 1, end):
        if work[SCORES - MOVES + other] > best_score:
            best = other
            best_score = work[SCORES - MOVES + other]
    if best != index:
        move = work[best]
        work[best] = work[index]
        work[index] = move
        work[SCORES - MOVES + best] = work[SCORES - MOVES + index]
        work[SCORES - MOVES + index] = best_score
    return work[index]


@search_function
def _continuation_entry(work: Any, ply: int, back: int, piece: int) -> int:
    """Which lane holds the continuation history of the move with continuation slot
    ``piece`` after the move ``back`` plies before; -1 when there is none (no such move, a
    null move, a game without slots, or counter moves off: then the moves played are not
    kept)."""
    if piece < 0 or ply < back or not work[W_FEATURES] & COUNTER_MOVES:
        return -1
    before = work[PLAYED_PIECES + ply - back]
    return before * CONTINUATION_SLOTS + piece if before >= 0 else -1


@search_function
def _continuation_value(work: Any, lane: int) -> int:
    value = (work[CONTINUATION + lane // CONTINUATION_LANES] >> (lane % CONTINUATION_LANES * 16)) & 0xFFFF
    return value - 0x10000 if value >= 0x8000 else value


@search_function
def _gain_continuation(work: Any, lane: int, bonus: int, magnitude: int) -> None:
    shift = lane % CONTINUATION_LANES * 16
    index = CONTINUATION + lane // CONTINUATION_LANES
    value = _continuation_value(work, lane)
    value += bonus - value * magnitude // GRAVITY_HISTORY_CAP
    work[index] = (work[index] & ~(0xFFFF << shift)) | ((value & 0xFFFF) << shift)


@search_function
def _gain_history(spec: Any, state: Any, work: Any, move: int, ply: int, bonus: int) -> None:
    """Moves ``move``'s history, and its continuation history after the moves
    ``CONTINUATION_PLIES`` before (the side's own moves before last too, as in Stockfish),
    by ``bonus`` (negative: a loss) with gravity towards the cap."""
    magnitude = bonus if bonus > 0 else -bonus
    slot = HISTORY + history_slot(spec, state, move)
    work[slot] += bonus - work[slot] * magnitude // GRAVITY_HISTORY_CAP
    _gain_continuations(work, ply, continuation_slot(spec, state, move), bonus)


@search_function
def _gain_continuations(work: Any, ply: int, piece: int, bonus: int) -> None:
    """The continuation history of the move at ``ply`` (continuation slot ``piece``) after
    each of the moves ``CONTINUATION_PLIES`` before it, by ``bonus`` with gravity."""
    magnitude = bonus if bonus > 0 else -bonus
    for back in CONTINUATION_PLIES:
        lane = _continuation_entry(work, ply, back, piece)
        if lane >= 0:
            _gain_continuation(work, lane, bonus, magnitude)


@search_function
def _history_bonus(depth: int) -> int:
    """What a quiet move's history gains by a cut-off ``depth`` plies deep."""
    return min(32 * depth * depth, GRAVITY_BONUS_CAP)


@search_function
def _quiet_order(spec: Any, state: Any, work: Any, move: int, ply: int) -> int:
    """A quiet move's ordering score from its history and continuation history."""
    order = work[HISTORY + history_slot(spec, state, move)]
    piece = continuation_slot(spec, state, move)
    for back in CONTINUATION_PLIES:
        lane = _continuation_entry(work, ply, back, piece)
        if lane >= 0:
            order += _continuation_value(work, lane)
    return order


@search_function
def _reward_prior_move(work: Any, depth: int, ply: int, extra: bool) -> None:
    """The quiet move played at ``ply`` refuted everything its reply tried: it gains
    continuation history after the moves before it (twice as much if ``extra``)."""
    _gain_continuations(work, ply, work[PLAYED_PIECES + ply], _history_bonus(depth) * (2 if extra else 1))


@search_function
def _reward_quiet_cutoff(
    spec: Any, state: Any, work: Any, move: int, tried_from: int, index: int, depth: int, ply: int, counter_slot: int
) -> None:
    """After ``move`` (at ``index``) cut off: if it is quiet, it becomes a killer and the
    counter move to the opponent's move (at ``counter_slot``, if any), and gains history,
    while the quiet moves tried from ``tried_from`` up to it lose as much (they did not cut
    off here)."""
    if noisy_order(spec, state, move) != 0:
        return
    if work[W_FEATURES] & KILLER_MOVES and move != work[KILLERS + 2 * ply]:
        work[KILLERS + 2 * ply + 1] = work[KILLERS + 2 * ply]
        work[KILLERS + 2 * ply] = move
    if counter_slot >= 0:
        work[COUNTERS + counter_slot] = move
    if work[W_FEATURES] & HISTORY_HEURISTIC and pruning_unit(spec) > 0:
        bonus = _history_bonus(depth)
        _gain_history(spec, state, work, move, ply, bonus)
        for other in range(tried_from, index):
            tried = work[other]
            if noisy_order(spec, state, tried) == 0:
                _gain_history(spec, state, work, tried, ply, -bonus)
    elif work[W_FEATURES] & HISTORY_HEURISTIC:
        bonus = depth * depth
        slot = HISTORY + history_slot(spec, state, move)
        work[slot] = min(work[slot] + bonus, HISTORY_CAP)
        for other in range(tried_from, index):
            tried = work[other]
            if noisy_order(spec, state, tried) == 0:
                slot = HISTORY + history_slot(spec, state, tried)
                work[slot] = max(work[slot] - bonus, -HISTORY_CAP)


TT_MOVE_NOISY = 1
"""``score_moves`` says: the table's move is a capture or a promotion."""
SCORES_DIFFER = 2
"""``score_moves`` says: not every move has the same score (else they keep their order)."""


@search_function
def score_moves(
    spec: Any, state: Any, work: Any, ply: int, start: int, end: int, tt_move: int, counters: Any, counter: int
) -> int:
    """The search's step 8: each move of ``work[start:end]`` given its ordering score (the
    table's move, captures and promotions by MVV-LVA, the killers, the counter move, then
    history, left unscored when counter moves are on: the search looks it up only once it
    reaches the quiet moves). Returns ``TT_MOVE_NOISY`` and ``SCORES_DIFFER`` as they hold."""
    features = work[W_FEATURES]
    killer_first = work[KILLERS + 2 * ply] if features & KILLER_MOVES else 0
    killer_second = work[KILLERS + 2 * ply + 1] if features & KILLER_MOVES else 0
    use_history = features & HISTORY_HEURISTIC
    tt_noisy = False
    first = 0
    differ = False
    for index in range(start, end):
        move = work[index]
        if tt_move != 0 and _move_key(move) == tt_move:
            order = TT_MOVE_ORDER
            tt_noisy = counters and noisy_order(spec, state, move) != 0
        else:
            noisy = noisy_order(spec, state, move)
            if noisy > 0:
                order = NOISY_ORDER + noisy  # the search moves losing captures down
            elif move == killer_first:
                order = KILLER_ORDER + 1
            elif move == killer_second:
                order = KILLER_ORDER
            elif move == counter:
                order = KILLER_ORDER - 1
            elif use_history and counters:
                order = UNSCORED_ORDER
            elif use_history:
                order = work[HISTORY + history_slot(spec, state, move)]
            else:
                order = 0
        work[SCORES - MOVES + index] = order
        if index == start:
            first = order
        elif order != first:
            differ = True
    return (TT_MOVE_NOISY if tt_noisy else 0) | (SCORES_DIFFER if differ else 0)
