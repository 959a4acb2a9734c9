"""The seeds' pseudocode, runnable: small, slow, obviously right. These are the oracles.

Each function follows one source document closely (see ``docs/seeds.md`` in the project's
history for the summaries). Three deviations apply to all of them, so that they agree with
the optimised engine to the point:

* terminal values are shifted by their ply (``score.from_node``), so wins and losses carry
  their distance; the seeds return a bare utility;
* the player to move is ``player()``: a child whose player is its parent's (a player who
  moves twice) is worth to the parent what it is worth to itself, searched with the
  parent's own window; the seeds negate every ply, as their games alternate;
* an optional ``NodeCounter`` counts every call, the way the seed notebook counts nodes.

>>> from negamax.games.tictactoe.rules import TicTacToe
>>> counter = NodeCounter()
>>> negamax_notebook(TicTacToe(), 9, counter)
(0, 0)
>>> counter.nodes
549946
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic

from negamax.core.game import HasNoisyMoves, MoveT, Position
from negamax.core.score import INF, Bound, from_node, to_node


class NodeCounter:
    """Counts calls; pass one to any reference function."""

    def __init__(self) -> None:
        self.nodes = 0


def _count(counter: NodeCounter | None) -> None:
    if counter is not None:
        counter.nodes += 1


def _moved_again(position: Position[Any], mover: int) -> bool:
    """Whether ``mover``, who has just played, is still to move in ``position``."""
    return position.player() == mover


def _leaf_value(position: Position[Any], ply: int) -> int:
    """The terminal value (distance-adjusted) or the heuristic evaluation, side to move."""
    if position.is_terminal():
        return from_node(position.terminal_value(), ply)
    return position.evaluate()


# --- Seed 000, base algorithm: negamax with the colour parameter -----------------------


def negamax_with_color(
    position: Position[Any],
    depth: int,
    color: int,
    ply: int = 0,
    counter: NodeCounter | None = None,
) -> int:
    """``negamax(node, depth, color)``: ``color`` is +1 when player A (the first player) is
    to move and -1 otherwise; ``h`` is scored from player A's side, so ``color * h`` is
    from the side to move. Call it with ``color = 1 if position.player() == 0 else -1``.
    """
    _count(counter)
    if depth == 0 or position.is_terminal():
        side = 1 if position.player() == 0 else -1
        heuristic_for_player_a = side * _leaf_value(position, ply)
        return color * heuristic_for_player_a
    value = -INF
    mover = position.player()
    for move in list(position.legal_moves()):
        position.play(move)
        if _moved_again(position, mover):
            value = max(value, negamax_with_color(position, depth - 1, color, ply + 1, counter))
        else:
            value = max(value, -negamax_with_color(position, depth - 1, -color, ply + 1, counter))
        position.undo(move)
    return value


# --- Seed 000, variant without colour, and its think() driver -------------------------


def negamax(position: Position[Any], depth: int, ply: int = 0, counter: NodeCounter | None = None) -> int:
    """Negamax with the evaluation already from the side to move."""
    _count(counter)
    if depth == 0 or position.is_terminal():
        return _leaf_value(position, ply)
    value = -INF
    mover = position.player()
    for move in list(position.legal_moves()):
        position.play(move)
        child = negamax(position, depth - 1, ply + 1, counter)
        value = max(value, child if _moved_again(position, mover) else -child)
        position.undo(move)
    return value


def think(position: Position[MoveT], depth: int) -> tuple[MoveT | None, int]:
    """The root driver: play each move, keep the one with the largest ``-negamax(child)``."""
    best_move: MoveT | None = None
    best_value = -INF
    mover = position.player()
    for move in list(position.legal_moves()):
        position.play(move)
        child = negamax(position, depth - 1, 1)
        value = child if _moved_again(position, mover) else -child
        position.undo(move)
        if value > best_value:
            best_move, best_value = move, value
    return best_move, best_value


# --- Seed 000, alpha-beta (fail-soft) with optional move ordering ----------------------

MoveOrder = Callable[[Position[Any], list[Any]], list[Any]]


def alphabeta(
    position: Position[Any],
    depth: int,
    alpha: int = -INF,
    beta: int = INF,
    ply: int = 0,
    order: MoveOrder | None = None,
    counter: NodeCounter | None = None,
) -> int:
    """Fail-soft alpha-beta: the result may lie outside (alpha, beta). A result <= alpha is
    an upper bound of the true value, >= beta a lower bound, anything between is exact."""
    assert alpha < beta
    _count(counter)
    if depth == 0 or position.is_terminal():
        return _leaf_value(position, ply)
    moves = list(position.legal_moves())
    if order is not None:
        moves = order(position, moves)
    value = -INF
    mover = position.player()
    for move in moves:
        position.play(move)
        if _moved_again(position, mover):
            value = max(value, alphabeta(position, depth - 1, alpha, beta, ply + 1, order, counter))
        else:
            value = max(value, -alphabeta(position, depth - 1, -beta, -alpha, ply + 1, order, counter))
        position.undo(move)
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    return value


def alphabeta_fail_hard(
    position: Position[Any],
    depth: int,
    alpha: int = -INF,
    beta: int = INF,
    ply: int = 0,
    counter: NodeCounter | None = None,
) -> int:
    """Fail-hard alpha-beta: the result is clamped into [alpha, beta]."""
    assert alpha < beta
    _count(counter)
    if depth == 0 or position.is_terminal():
        return min(max(_leaf_value(position, ply), alpha), beta)
    mover = position.player()
    for move in list(position.legal_moves()):
        position.play(move)
        if _moved_again(position, mover):
            score = alphabeta_fail_hard(position, depth - 1, alpha, beta, ply + 1, counter)
        else:
            score = -alphabeta_fail_hard(position, depth - 1, -beta, -alpha, ply + 1, counter)
        position.undo(move)
        if score >= beta:
            return beta
        alpha = max(alpha, score)
    return alpha


# --- Seed 000, alpha-beta with a transposition table ----------------------------------


@dataclasses.dataclass
class TableEntry:
    value: int
    """Relative to the node that stored it (``score.to_node``)."""
    bound: Bound
    depth: int


def alphabeta_tt(
    position: Position[Any],
    depth: int,
    alpha: int = -INF,
    beta: int = INF,
    table: dict[Hashable, TableEntry] | None = None,
    ply: int = 0,
    counter: NodeCounter | None = None,
) -> int:
    """Fail-soft alpha-beta with a transposition table of EXACT/LOWER/UPPER entries."""
    assert alpha < beta
    if table is None:
        table = {}
    _count(counter)
    alpha_original = alpha
    key = position.key()
    entry = table.get(key)
    if entry is not None and entry.depth >= depth:
        stored = from_node(entry.value, ply)
        if entry.bound == Bound.EXACT:
            return stored
        if entry.bound == Bound.LOWER:
            alpha = max(alpha, stored)
        else:
            beta = min(beta, stored)
        if alpha >= beta:
            return stored
    if depth == 0 or position.is_terminal():
        return _leaf_value(position, ply)
    value = -INF
    mover = position.player()
    for move in list(position.legal_moves()):
        position.play(move)
        if _moved_again(position, mover):
            value = max(value, alphabeta_tt(position, depth - 1, alpha, beta, table, ply + 1, counter))
        else:
            value = max(value, -alphabeta_tt(position, depth - 1, -beta, -alpha, table, ply + 1, counter))
        position.undo(move)
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    if value <= alpha_original:
        bound = Bound.UPPER
    elif value >= beta:
        bound = Bound.LOWER
    else:
        bound = Bound.EXACT
    table[key] = TableEntry(to_node(value, ply), bound, depth)
    return value


# --- Seed 001, the course notebook's negamax returning (value, move) ------------------


def negamax_notebook(
    game: Position[MoveT], depth_left: int, counter: NodeCounter | None = None, ply: int = 0
) -> tuple[int, MoveT | None]:
    """``negamax(game, depth_left)``: the value for the look-ahead player and the first
    move (in move order) that reaches it."""
    _count(counter)
    if game.is_terminal() or depth_left == 0:
        return _leaf_value(game, ply), None
    best_value, best_move = -INF, None
    mover = game.player()
    for move in list(game.legal_moves()):
        game.play(move)
        child = negamax_notebook(game, depth_left - 1, counter, ply + 1)[0]
        value = child if _moved_again(game, mover) else -child
        game.undo(move)
        if value > best_value:
            best_value, best_move = value, move
    return best_value, best_move


# --- Seed 003, ply-limited NegMax returning a MoveEvaluation --------------------------


@dataclasses.dataclass(frozen=True)
class MoveEvaluation(Generic[MoveT]):
    move: MoveT | None
    score: int


def negmax(position: Position[MoveT], ply: int, depth_from_root: int = 0) -> MoveEvaluation[MoveT]:
    """``negmax(ply, player, opponent)``: the players swap implicitly because every score is
    from the side to move. The starting best score is the symmetric minimum ``-INF``."""
    if ply == 0 or position.is_terminal():
        return MoveEvaluation(None, _leaf_value(position, depth_from_root))
    best: MoveEvaluation[MoveT] = MoveEvaluation(None, -INF)
    mover = position.player()
    for move in list(position.legal_moves()):
        position.play(move)
        child = negmax(position, ply - 1, depth_from_root + 1)
        score = child.score if _moved_again(position, mover) else -child.score
        position.undo(move)
        if score > best.score:
            best = MoveEvaluation(move, score)
    return best


# --- Seed 001's advice, made concrete: negamax with a plain quiescence search --------


def quiescence_value(position: Position[Any], ply: int, counter: NodeCounter | None = None) -> int:
    """The best of standing pat and every noisy move, searched to quiet positions."""
    _count(counter)
    if position.is_terminal():
        return from_node(position.terminal_value(), ply)
    value = position.evaluate()
    noisy: Sequence[Any] = position.noisy_moves() if isinstance(position, HasNoisyMoves) else ()
    mover = position.player()
    for move in list(noisy):
        position.play(move)
        child = quiescence_value(position, ply + 1, counter)
        value = max(value, child if _moved_again(position, mover) else -child)
        position.undo(move)
    return value


def negamax_with_quiescence(
    position: Position[Any], depth: int, ply: int = 0, counter: NodeCounter | None = None
) -> int:
    """Plain negamax whose horizon nodes are valued by ``quiescence_value``."""
    if depth == 0:
        return quiescence_value(position, ply, counter)
    _count(counter)
    if position.is_terminal():
        return from_node(position.terminal_value(), ply)
    value = -INF
    mover = position.player()
    for move in list(position.legal_moves()):
        position.play(move)
        child = negamax_with_quiescence(position, depth - 1, ply + 1, counter)
        value = max(value, child if _moved_again(position, mover) else -child)
        position.undo(move)
    return value
