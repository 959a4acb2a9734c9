"""The move-list primitives of a game written as rules (``negamax.CompiledGame``).

Templates, never compiled in this module: ``families.bind_rules`` copies each function into
a namespace where the ``rules_*`` names are the game's compiled rules, and compiles the
copies in place of the stubs of ``negamax.core.compiled``. The spec the search passes them
is the game's largest move count (``max_moves``), an argument rather than a constant, so
that every size of a game with parameters runs on the same compiled code. The search's move
codes are the game's moves plus one (0 means no move there).

The adapters check what the search relies on and cannot check itself cheaply: a move count
within the buffer, moves that are codes, and a game that goes on having a move. A breach is
written into the search's work array (``W_ERROR``) with the state where it happened, and
the search unwinds; the caller turns it into a ``GameDefinitionError``.
"""

from __future__ import annotations

from typing import Any

from negamax.core.game import MOVE_LIST_MOVE_LIMIT
from negamax.core.keys import mixed
from negamax.core.score import WIN_THRESHOLD
from negamax.search.compiled.move_list_layout import (
    ERROR_STATE,
    ERROR_STATE_SIZE,
    HISTORY_SLOTS,
    W_ABORTED,
    W_ERROR,
    W_ERROR_VALUE,
    W_STOP,
)

ERROR_MOVE_COUNT = 1
ERROR_NO_MOVES = 2
ERROR_MOVE_CODE = 3
ERROR_PLAYOUT = 4
"""Recorded by the Monte Carlo kernel (``mcts_kernel``)."""
ERROR_MESSAGES = {
    ERROR_MOVE_COUNT: "legal_moves (or noisy_moves) returned {value} moves; max_moves is {max_moves}",
    ERROR_NO_MOVES: "legal_moves returned no move, but outcome says the game goes on",
    ERROR_MOVE_CODE: "a move must be an integer from 0 to 2**62 - 1, not {value}",
    ERROR_PLAYOUT: "playout returned {value}: expected -WIN, DRAW, WIN or a score inside the evaluation's range",
}
EVALUATION_LIMIT = WIN_THRESHOLD - 1

STUBS = (
    "generate_moves",
    "play_move",
    "unplay_move",
    "play_null_move",
    "unplay_null_move",
    "in_check",
    "no_moves_lose",
    "static_value",
    "state_key",
    "game_result",
    "player_to_move",
    "drawn_by_rule",
    "noisy_order",
    "noisy_moves_forced",
    "material_gain",
    "null_move_safe",
    "history_slot",
    "continuation_slot",
    "pruning_unit",
    "losing_capture",
    "gives_check",
    "playout",
    "exact_key",
)
HELPERS = ("fail", "mixed", "no_noisy_moves", "players_alternate", "no_playout")

# Bound per game by families.bind_rules; these placeholders only document the names.
rules_legal_moves: Any = None
rules_noisy_moves: Any = None
rules_play: Any = None
rules_undo: Any = None
rules_outcome: Any = None
rules_evaluate: Any = None
rules_key: Any = None
rules_player: Any = None
rules_playout: Any = None
rules_exact_key: Any = None


def rules_error(work: Any, rules: Any) -> str:
    """The error a search reports for the broken contract recorded in ``work`` (``fail``),
    with the state it broke in."""
    template = ERROR_MESSAGES[int(work[W_ERROR])]
    text = template.format(value=int(work[W_ERROR_VALUE]), max_moves=rules.max_moves)
    size = min(rules.state_size, ERROR_STATE_SIZE)
    state = [int(value) for value in work[ERROR_STATE : ERROR_STATE + size]]
    shown = ", ".join(map(str, state)) + (", ..." if rules.state_size > size else "")
    return f"{rules.name}: {text} (in the state [{shown}])"


def fail(state: Any, work: Any, error: int, value: int) -> None:
    """Record a broken contract and make the search unwind."""
    work[W_ERROR] = error
    work[W_ERROR_VALUE] = value
    for index in range(min(state.size, ERROR_STATE_SIZE)):
        work[ERROR_STATE + index] = state[index]
    work[W_STOP] = 1
    work[W_ABORTED] = 1


def no_noisy_moves(state: Any, moves: Any) -> int:
    return 0


def no_playout(state: Any, numbers: Any) -> int:
    """The ``playout`` of a game without one: never called (the search plays random moves)."""
    return 0


def players_alternate(state: Any) -> int:
    """The player of a game without a ``player`` rule: they alternate (-1, see ``player_to_move``)."""
    return -1


def generate_moves(spec: Any, state: Any, out: Any, start: int, noisy_only: bool) -> int:
    end = start + spec  # the spec: the game's max_moves
    count = rules_noisy_moves(state, out[start:end]) if noisy_only else rules_legal_moves(state, out[start:end])
    if count < 0 or count > spec:
        fail(state, out, ERROR_MOVE_COUNT, count)
        return start
    if count == 0 and not noisy_only:
        fail(state, out, ERROR_NO_MOVES, 0)
        return start
    for index in range(start, start + count):
        move = out[index]
        if move < 0 or move >= MOVE_LIST_MOVE_LIMIT:
            fail(state, out, ERROR_MOVE_CODE, move)
            return start
        out[index] = move + 1
    return start + count


def play_move(spec: Any, state: Any, move: int) -> bool:
    rules_play(state, move - 1)
    return True


def unplay_move(spec: Any, state: Any, move: int) -> None:
    rules_undo(state, move - 1)


def play_null_move(spec: Any, state: Any) -> None:
    return None


def unplay_null_move(spec: Any, state: Any) -> None:
    return None


def in_check(spec: Any, state: Any) -> bool:
    return False


def no_moves_lose(spec: Any, state: Any) -> bool:
    return False


def static_value(spec: Any, state: Any) -> int:
    value = rules_evaluate(state)
    if value > EVALUATION_LIMIT:
        return EVALUATION_LIMIT
    if value < -EVALUATION_LIMIT:
        return -EVALUATION_LIMIT
    return value


def state_key(spec: Any, state: Any) -> int:
    return mixed(rules_key(state))


def exact_key(spec: Any, state: Any) -> int:
    return mixed(rules_exact_key(state))


def game_result(spec: Any, state: Any) -> int:
    return rules_outcome(state)


def player_to_move(spec: Any, state: Any) -> int:
    return rules_player(state)


def playout(spec: Any, state: Any, numbers: Any) -> int:
    return rules_playout(state, numbers)


def drawn_by_rule(spec: Any, state: Any) -> bool:
    return False


def noisy_order(spec: Any, state: Any, move: int) -> int:
    return 0


def noisy_moves_forced(spec: Any) -> bool:
    return False


def material_gain(spec: Any, state: Any, move: int) -> int:
    return 0


def null_move_safe(spec: Any, state: Any) -> bool:
    return False


def history_slot(spec: Any, state: Any, move: int) -> int:
    return move & (HISTORY_SLOTS - 1)


def continuation_slot(spec: Any, state: Any, move: int) -> int:
    return -1


def pruning_unit(spec: Any) -> int:
    return 0


def losing_capture(spec: Any, state: Any, move: int) -> bool:
    return False


def gives_check(spec: Any, state: Any, move: int) -> bool:
    return False
