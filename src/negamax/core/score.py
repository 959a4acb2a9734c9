"""The integer score domain shared by every game and every search.

Scores are plain ``int`` values seen from the side to move. Heuristic scores live well
inside ``(-WIN_THRESHOLD, WIN_THRESHOLD)``; game-theoretic wins and losses carry their
distance in plies from the root of the search:

* ``win_in(p) == WIN - p``: the side to move at the root wins with the move made at ply
  ``p`` (``p == 1`` is its very next move). A quicker win scores higher.
* ``loss_in(p) == -WIN + p``: the opponent wins at ply ``p``. A later loss scores higher.

The bounds are symmetric, ``-INF == -(INF)``, so negating a bound is always another bound
(seed 003 needed ``Integer.MIN_VALUE + 1`` for the same reason).

>>> win_in(3) > win_in(5) > 1000 > DRAW > loss_in(2) > loss_in(4) > -INF
False
>>> win_in(3) > win_in(5) > 1000 > DRAW > loss_in(4) > loss_in(2) > -INF
True
>>> describe(win_in(5)), describe(loss_in(4)), describe(-37)
('win in 5', 'loss in 4', '-37')
>>> not_proven_text(0, win_in(7)), not_proven_text(-INF, 0)
('not proven: at least 0, at most win in 7', 'not proven: at most 0')
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Final

INF: Final = 1_000_000
"""A bound no score reaches; ``-INF`` is its exact negation."""

WIN: Final = 100_000
"""The score of a win at ply 0, that is, of a position the side to move has already won."""

MAX_PLY: Final = 10_000
"""The deepest ply a distance can describe."""

WIN_THRESHOLD: Final = WIN - MAX_PLY
"""Scores at or beyond this (in absolute value) are wins or losses with a distance."""

DRAW: Final = 0

ONGOING: Final = INF + 1
"""Not a score: what a compiled game's ``outcome`` returns while the game goes on."""


class Bound(enum.IntEnum):
    """What a score says about the true value of a node."""

    EXACT = 0
    LOWER = 1
    """The true value is at least the score (the search failed high)."""
    UPPER = 2
    """The true value is at most the score (the search failed low)."""


def win_in(ply: int) -> int:
    """The score of a win whose last move is made at ``ply``."""
    return WIN - ply


def loss_in(ply: int) -> int:
    """The score of a loss whose last (opponent's) move is made at ``ply``."""
    return -WIN + ply


def is_decisive(score: int) -> bool:
    """True for a win or a loss with a known distance."""
    return score >= WIN_THRESHOLD or score <= -WIN_THRESHOLD


def distance(score: int) -> int:
    """The ply of the decisive move of a win or loss score."""
    if not is_decisive(score):
        raise ValueError(f"score {score} is not a win or a loss")
    return WIN - abs(score)


def from_node(score: int, ply: int) -> int:
    """Turn a score relative to a node at ``ply`` into one relative to the root.

    Games report terminal values relative to the terminal node itself (``WIN``, ``-WIN``
    or a plain value); the search shifts decisive scores by the node's ply. Both searches
    use this and ``to_node`` (the compiled kernels compile them).
    """
    if score >= WIN_THRESHOLD:
        return score - ply
    if score <= -WIN_THRESHOLD:
        return score + ply
    return score


def to_node(score: int, ply: int) -> int:
    """Turn a root-relative score into one relative to a node at ``ply``.

    The transposition table stores node-relative scores, because one position can be
    reached at different plies (``from_node`` undoes this on a probe).
    """
    if score >= WIN_THRESHOLD:
        return score + ply
    if score <= -WIN_THRESHOLD:
        return score - ply
    return score


def from_child(score: int, same_player: bool) -> int:
    """A child's score, from its own side to move and relative to the child, as its parent's
    (one ply further): negated, unless the child's player to move is the parent's (a player
    who moves twice, as in Kalah), whose score it already is. Every search and every
    backed-up value (books, several lines of a solve) follows this one rule.

    >>> describe(from_child(-WIN, False)), describe(from_child(-WIN, True)), from_child(7, False)
    ('win in 1', 'loss in 1', -7)
    """
    return from_node(score if same_player else -score, 1)


def child_threshold(threshold: int, same_player: bool) -> int:
    """``from_child`` asked backwards: the move to a child is worth at least ``threshold`` to
    its parent exactly when the child's own value is at least the score returned, if the
    same player moves there, and exactly when it is *not*, if the opponent does. So one
    null-window question about the parent ("at least t?") becomes one about each child.

    ``from_node`` moves a decisive score one ply and leaves the others alone, so two child
    scores meet at each edge of the decisive ones (``WIN_THRESHOLD``, the farthest win,
    and the score below it both back up to ``WIN_THRESHOLD - 1``; ``-WIN_THRESHOLD`` and
    the score above it to ``-WIN_THRESHOLD + 1``): the question names the lower of two.

    >>> child_threshold(3, False), child_threshold(3, True)
    (-2, 3)
    >>> describe(child_threshold(win_in(2), True)), describe(child_threshold(win_in(2), False))
    ('win in 1', 'loss in 2')
    >>> child_threshold(-WIN_THRESHOLD + 1, True) == -WIN_THRESHOLD
    True
    """
    if threshold >= WIN_THRESHOLD:
        lowest = threshold + 1
    elif threshold > -WIN_THRESHOLD + 1:
        lowest = threshold
    else:
        lowest = threshold - 1
    # the lowest child score (after the sign) that backs up to at least ``threshold``: the
    # opponent's score must be at most its negation, that is, not at least one above it
    return lowest if same_player else 1 - lowest


def from_child_bounds(lower: int, upper: int, same_player: bool) -> tuple[int, int]:
    """A child's proven ``[lower, upper]`` as its parent's (``from_child`` of each; a
    negation swaps them), the infinite bounds kept infinite."""
    if not same_player:
        lower, upper = -upper, -lower
    return (from_node(lower, 1) if lower > -INF else -INF), (from_node(upper, 1) if upper < INF else INF)


def to_child_bounds(lower: int, upper: int, same_player: bool) -> tuple[int, int]:
    """What a position's proven ``[lower, upper]`` says of each child's value (from the
    child's side to move): no move is worth more than the position, so a child where the
    opponent moves is worth at least what backs up to ``upper`` (at most, where the same
    player moves again); ``lower`` holds only for the best move, and says nothing of each.

    >>> to_child_bounds(-INF, 3, False), to_child_bounds(-5, 3, True)
    ((-3, 1000000), (-1000000, 3))
    >>> describe(to_child_bounds(0, win_in(5), False)[0])
    'loss in 4'
    """
    if upper >= INF:
        return -INF, INF
    if same_player:
        return -INF, child_threshold(upper + 1, True) - 1
    return child_threshold(upper + 1, False), INF


def child_window(alpha: int, beta: int, same_player: bool) -> tuple[int, int]:
    """The window a child is searched with, for its parent's ``(alpha, beta)``: the same
    window when the same player moves again there, else the window negated and swapped.
    Plain arithmetic (the compiled kernels compile it): the child's value comes back through
    ``from_child``'s sign, ``child if same_player else -child``.
    """
    if same_player:
        return alpha, beta
    return -beta, -alpha


def mate_distance_window(alpha: int, beta: int, ply: int, has_a_move: bool) -> tuple[int, int]:
    """(alpha, beta) narrowed to what a node at ``ply`` can be worth: at best a win with its
    side's next move; at worst a loss right here, or, once the node is known to have a
    move, one ply later. A window left empty (``alpha >= beta``) answers the node: with the
    narrowed ``beta`` if that is what closed it, else with ``alpha``.

    Both searches use this (the compiled kernels compile it), so their mate-distance
    pruning is the same. Plain arithmetic, no calls: numba compiles it as it is.
    """
    ceiling = WIN - ply - 1
    floor = -WIN + ply + 1 if has_a_move else -WIN + ply
    if beta > ceiling:
        beta = ceiling
    if alpha < floor:
        alpha = floor
    return alpha, beta


def pons_to_distance(score: int, cells: int, played: int) -> int:
    """A score in Pascal Pons' convention (a placement game of ``cells`` cells, ``played``
    stones down) as a distance score: a win with the ``n``-th stone scores
    ``(cells + 2 - n) // 2`` for the winner, and that ``n`` is one of two numbers, told apart
    by the winner's parity (the side to move places stones ``played + 1``, ``+ 3``...)."""
    if score == 0:
        return 0
    first_choice = cells + 1 - 2 * abs(score)
    winner_parity = (played + 1) % 2 if score > 0 else played % 2
    stone = first_choice if first_choice % 2 == winner_parity else first_choice + 1
    plies = stone - played
    return win_in(plies) if score > 0 else loss_in(plies)


def distance_to_pons(score: int, cells: int, played: int) -> int:
    """A distance score in Pascal Pons' convention (``pons_to_distance`` undone): a win
    or loss whose last stone is the ``n``-th scores ``(cells + 2 - n) // 2``, signed for the
    side to move (for Connect 4, 22 minus the stones the winner has played)."""
    if not is_decisive(score):
        return score
    stone = played + distance(score)
    value = (cells + 2 - stone) // 2
    return value if score > 0 else -value


def describe(score: int) -> str:
    """A short human reading of a score: ``'win in 5'``, ``'loss in 2'`` or the number
    (``'+inf'``, ``'-inf'`` for no bound)."""
    if abs(score) >= INF:
        return "+inf" if score > 0 else "-inf"
    if score >= WIN_THRESHOLD:
        return f"win in {WIN - score}"
    if score <= -WIN_THRESHOLD:
        return f"loss in {WIN + score}"
    return str(score)


def not_proven_text(lower: int, upper: int, show: Callable[[int], str] = describe) -> str:
    """What a result that only bounds the value says (a solve cut short): ``'not proven:
    at least 0, at most win in 7'``, each bound written by ``show``; a side with no bound
    (``±INF``) is left out."""
    sides = [f"at least {show(lower)}"] if lower > -INF else []
    if upper < INF:
        sides.append(f"at most {show(upper)}")
    return f"not proven: {', '.join(sides) or 'no bound yet'}"
