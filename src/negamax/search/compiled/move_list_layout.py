"""The deepening kernel's constants (``move_list_kernel`` documents the arrays): the
``work`` array's offsets (``W_*`` counters and controls, then the buffers), the features
(bits of ``work[W_FEATURES]``), the pruning margins and depths, the move ordering's
scales, and the score conversions shared with the pure-Python search."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from negamax.core import score
from negamax.core.game import MOVE_LIST_MAX_MOVES

# The policies the pure-Python search uses too, compiled from the same source.
from_node = njit(cache=True, inline="always")(score.from_node)
to_node = njit(cache=True, inline="always")(score.to_node)
mate_distance_window = njit(cache=True, inline="always")(score.mate_distance_window)
child_window = njit(cache=True, inline="always")(score.child_window)

MAX_PLY = 96
"""The deepest ply, quiescence included; a node there is evaluated."""
MAX_MOVES = MOVE_LIST_MAX_MOVES
HISTORY_SLOTS = 32768

W_NODES = 0
W_STOP = 1
W_NODE_LIMIT = 2
W_ABORTED = 3
W_BEST_MOVE = 4
W_BEST_SCORE = 5
W_SELDEPTH = 6
W_GENERATION = 7
W_QUIESCENCE_NODES = 8
W_TT_PROBES = 9
W_TT_HITS = 10
W_TT_CUTOFFS = 11
W_BETA_CUTOFFS = 12
W_FIRST_MOVE_CUTOFFS = 13
W_RESEARCHES = 14
W_FEATURES = 15
W_NULL_CUTOFFS = 16
W_REDUCED = 17
W_NEXT_CHECK = 18
W_ERROR = 19
"""Nonzero when a game's rules broke their contract (``ERROR_*``); the search then unwinds."""
W_ERROR_VALUE = 20
"""The offending number (a move count, a move)."""
W_HORIZON = 21
"""Nodes evaluated because they were at the deepest ply: a solve that met one is not exact."""
W_PRUNED = 22
"""Moves left unsearched by futility and late-move pruning."""
W_ROOT_MOVES = 23
"""How many moves the root may search, listed at ``ROOT_MOVES`` (0: every legal move)."""
W_ROOT_HINT = 24
"""The move a restricted root searches first (0: none), the previous depth's best of its
moves: such a root is never stored in the table, whose move would otherwise lead."""
KILLERS = 32
HISTORY = KILLERS + 2 * MAX_PLY
COUNTERS = HISTORY + HISTORY_SLOTS
"""The quiet move that last refuted each move (by the move's history slot)."""
PLAYED = COUNTERS + HISTORY_SLOTS
"""The history slot of the move played at each ply (-1 for a null move): the counter move's key."""
MOVES = PLAYED + MAX_PLY
SCORES = MOVES + MAX_PLY * MAX_MOVES
PV_LENGTHS = SCORES + MAX_PLY * MAX_MOVES
PV = PV_LENGTHS + MAX_PLY
ERROR_STATE = PV + MAX_PLY * MAX_PLY
"""A copy of the state where the rules broke their contract (its first ERROR_STATE_SIZE words)."""
ERROR_STATE_SIZE = 64
STATICS = ERROR_STATE + ERROR_STATE_SIZE
"""The static value of the node at each ply (games with a ``pruning_unit``; ``-INF`` in check)."""
PLAYED_PIECES = STATICS + MAX_PLY
"""The continuation slot of the move played at each ply (-1 for a null move or none)."""
EXCLUDED = PLAYED_PIECES + MAX_PLY
"""The key of the move a singular-extension search leaves out at each ply (0: none)."""
DOUBLE_EXTENSIONS = EXCLUDED + MAX_PLY
"""How many moves on the line to each ply were extended by two plies."""
CUT_NODES = DOUBLE_EXTENSIONS + MAX_PLY
"""Whether the node at each ply is expected to fail high (its parent expects it to fail low)."""
PLAYED_NOISY = CUT_NODES + MAX_PLY
"""Whether the move played at each ply was a capture or promotion (with counter moves on)."""
ROOT_MOVES = PLAYED_NOISY + MAX_PLY
"""The only moves the root searches (UCI's ``searchmoves``); ``list_root_moves`` writes here."""
CONTINUATION = ROOT_MOVES + MAX_MOVES
"""Continuation history: how well each move did after each move one, two, four or six plies before
(by their continuation slots, the earlier one first), in int16 lanes, four to a word (an
int16 view of the words from here reads them in order): a quarter of the memory, most of
which a search reads at random, keeps more of it in the cache. Gravity keeps the values
within ``GRAVITY_HISTORY_CAP``."""
CONTINUATION_SLOTS = 1024
CONTINUATION_LANES = 4
CONTINUATION_PLIES = (1, 2, 4, 6)
"""How many plies up the moves are that a quiet move's continuation history is kept after."""
WORK_SIZE = CONTINUATION + CONTINUATION_SLOTS * CONTINUATION_SLOTS // CONTINUATION_LANES
CHECK_EVERY = 1024

# The features, bits of ``work[W_FEATURES]``.
TRANSPOSITION_TABLE = 1
PVS = 2
KILLER_MOVES = 4
HISTORY_HEURISTIC = 8
QUIESCENCE = 16
DELTA_PRUNING = 32
CHECK_EXTENSION = 64
NULL_MOVE = 128
LATE_MOVE_REDUCTIONS = 256
EXACT_TERMINALS = 512
"""Quiescence nodes look for mate and stalemate too (as the pure-Python search does);
costly, and off in play, where the full-width nodes find mates."""
FORCED_NOISY_MOVES = 1024
"""Quiescence does not stand pat where the game forces a noisy move (draughts: captures
are compulsory); the pure-Python search always stands pat."""
SOLVING = 2048
"""Search to the end of the game: the depth is never used up (every node has the root's
depth, so every table entry answers any node), and only the deepest ply is a horizon."""
REVERSE_FUTILITY = 4096
"""A node near the horizon whose static value beats beta by a margin growing with the depth
returns it unsearched. This and the next two need the game's ``pruning_unit``."""
FUTILITY = 8192
"""Near the horizon, a quiet move is not searched when the static value plus a margin
growing with the depth stays below alpha."""
LATE_MOVE_PRUNING = 16384
"""Near the horizon, only the first few quiet moves are searched, more the deeper it is."""
STATIC_EXCHANGE = 32768
"""Captures the game calls losing (``losing_capture``: chess's static exchange) are ordered
with the quiet moves, so they may be pruned near the horizon, and quiescence skips them."""
COUNTER_MOVES = 65536
"""The quiet move that last refuted the opponent's move is tried right after the killers;
and every quiet move that cuts off (the table's and the killers' too) is recorded, while the
quiet moves searched before it lose history. For games with a ``pruning_unit`` (this and
the next two)."""
INTERNAL_REDUCTION = 131072
"""A node the table knows nothing about is searched a ply shallower (internal iterative
reduction): it is likely new to the search, and its cheaper result orders it next time."""
ADAPTIVE_NULL_MOVE = 262144
"""The null move's reduction grows with the depth and with the static value's lead over beta."""
SINGULAR_EXTENSION = 524288
"""The table's move is searched a ply deeper when every other move falls clearly short of
its stored value (a shallower search without it says so); when even without it the node
beats beta, the node returns (multi-cut). For games with a ``pruning_unit``."""
TABLE_EVALUATION = 1048576
"""Pruning near the horizon takes the table's value for the static value when the entry is
exact, or an upper bound under it (for games with a ``pruning_unit``). Not a lower bound
over it: a shallow search's gain (taking a queen sacrificed for a mate) would then prune
the node that would have seen the mate (Win At Chess 1)."""
QUIESCENCE_EVASIONS = 2097152
"""A quiescence node in check does not stand pat: it searches every move out of check and
is lost (chess: mated) with none, so a capture that checks is not taken to end quietly.
For games with a ``pruning_unit``."""
HISTORY_PRUNING = 4194304
"""Near the horizon, a quiet move whose history and continuation history together are
deep below zero is not searched. For games with a ``pruning_unit`` and a
``continuation_slot`` (a move's history alone is too coarse: draughts, which keeps no
continuation history, played stronger without)."""
TABLE_PREFETCH = 8388608
"""Each child's table entry is asked of memory before the child is searched, so its probe
finds the load under way. For games whose key is kept up to date move by move (the
built-in ones: chess, draughts); a game written as rules computes its key afresh, which may
cost more than the wait. Changes no value and no node count."""
ALL_FEATURES = (
    TRANSPOSITION_TABLE
    | PVS
    | KILLER_MOVES
    | HISTORY_HEURISTIC
    | QUIESCENCE
    | DELTA_PRUNING
    | CHECK_EXTENSION
    | NULL_MOVE
    | LATE_MOVE_REDUCTIONS
    | FORCED_NOISY_MOVES
    | REVERSE_FUTILITY
    | FUTILITY
    | LATE_MOVE_PRUNING
    | STATIC_EXCHANGE
    | COUNTER_MOVES
    | INTERNAL_REDUCTION
    | ADAPTIVE_NULL_MOVE
    | SINGULAR_EXTENSION
    | TABLE_EVALUATION
    | QUIESCENCE_EVASIONS
    | HISTORY_PRUNING
    | TABLE_PREFETCH
)
EXACT_FEATURES = QUIESCENCE | EXACT_TERMINALS
"""What the fixed-depth value with quiescence needs, and nothing that changes it."""
RULES_FEATURES = TRANSPOSITION_TABLE | PVS | KILLER_MOVES
"""For games written as rules (``negamax.CompiledGame``): the features of the pure-Python
search's ``auto`` preset, none of which changes a fixed-depth value (plus ``QUIESCENCE``
when the game has noisy moves); the rules end the game themselves, so ``EXACT_TERMINALS``
is not needed. History ordering is left out, as in that preset: it doubled the nodes of
a 4x4 tic-tac-toe solve."""
SOLVE_FEATURES = TRANSPOSITION_TABLE | PVS | KILLER_MOVES | SOLVING
"""Exact solving: ordering and the table only; nothing that prunes by a guess."""
SOLVE_DEPTH = 254
"""The depth of every node of a solve, deeper than any limited search goes, so that the table's
exact entries serve later searches and their entries never serve a solve."""

DELTA_MARGIN = 200
SINGULAR_DEPTH = 5
MOST_DOUBLE_EXTENSIONS = 10
"""A move stands out by a wide margin (a double extension) at most this often on a line."""
REVERSE_FUTILITY_DEPTH = 7
FUTILITY_DEPTH = 5
LATE_MOVE_PRUNING_DEPTH = 5
HISTORY_PRUNING_DEPTH = 3
HISTORY_PRUNING_PER_PLY = 1024
"""Quiet moves are pruned below minus this much history per ply of depth past the first
(one ply from the horizon: below zero)."""
LATE_MOVE_REDUCTIONS_TABLE = np.array(
    [[int(0.75 + math.log(depth) * math.log(number) / 2.25) for number in range(1, 65)] for depth in range(1, 65)],
    dtype=np.int64,
)
"""Plies taken off the ``number``-th move of a node ``depth`` plies deep (index minus one):
growing with the logarithms of both, as most engines since Stockfish 1.x have it. For games
with a ``pruning_unit`` only; the others take one ply off up to the sixth move, two after."""
MOVE_BITS = (1 << 20) - 1
SCORE_SHIFT = 38
SCORE_OFFSET = 1 << 20
TT_MOVE_ORDER = 1 << 40
NOISY_ORDER = 1 << 30
KILLER_ORDER = 1 << 29
UNSCORED_ORDER = KILLER_ORDER - 2
"""A quiet move not yet scored by its history and continuation history: below the killers
and the counter move, above any history. Scoring waits until every move above it has been
searched, since most cut-offs come from those and the history's tables mostly miss the
cache."""
HISTORY_CAP = 1 << 28
GRAVITY_HISTORY_CAP = 8192
"""Games with a ``pruning_unit`` keep history within this by gravity: an update moves the
value part of the way towards the cap, so old results fade and values stay comparable."""
GRAVITY_BONUS_CAP = 1600
"""The most one cut-off adds (32 times the depth squared, up to this)."""
HISTORY_PER_REDUCTION = 8192
"""Late-move reductions take a ply off or add one per this much of a quiet move's history
and continuation history together."""
EXACT, LOWER, UPPER = 0, 1, 2
