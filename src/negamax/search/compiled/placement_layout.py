"""The placement kernel's two arrays laid out (``placement_kernel`` documents them): the
worker's ``work`` counters and controls (``STATE_*``) and move buffers, and the shared
``table``'s split points (``SPLIT_*``), busy marks (``BUSY_*``) and transposition table
(from ``TABLE_BASE``), with the policies' constants."""

from __future__ import annotations

MAX_KEY_BITS = 64
"""A game's keys fit its spec's ``key_bits`` bits, at most these (any int64)..."""
MIN_LAYOUT_KEY_BITS = 49
"""...and the table is laid out for at least these (7x6's): narrower keys leave the stored
quotient wider than they need, never of a negative width."""
GOLDEN_RATIO_64 = 0x9E3779B97F4A7C15
"""2**64 divided by the golden ratio: its multiples spread consecutive numbers evenly."""
KEY_FACTOR = GOLDEN_RATIO_64 & ((1 << 49) - 1) | 1
"""Odd, so multiplying by it modulo ``2**key_bits`` scrambles keys without collisions (the
low 49 bits of the golden ratio: the factor the 7x6 board's figures were measured with)."""
ENTRY_BITS = 63
"""An entry's bits in use: the sign bit stays clear, so shifts read it back unchanged."""
MIN_TABLE_BITS = 17
MAX_TABLE_BITS = 30
"""Tables of 1 MiB to 8 GiB."""
IDENTITY_SHIFT = 21
WORK_SHIFT = 16
SCORE_OFFSET = 32
STATE_NODES = 0
STATE_TT_HITS = 1
STATE_TT_CUTOFFS = 2
STATE_BETA_CUTOFFS = 3
STATE_FIRST_MOVE_CUTOFFS = 4
STATE_NODE_LIMIT = 5
STATE_STOP = 6
STATE_TAG = 7
STATE_ROOT_MOVES = 8
STATE_ROOT_MOVE = 9
STATE_PUT_OFF = 10
"""Children this worker put off because another worker was searching them."""
STATE_BEST_MOVE = 11
STATE_LOWER = 12
STATE_UPPER = 13
STATE_PROBES = 14
STATE_WINDOW = 15
"""The probe being searched: the null window (``work[STATE_WINDOW]``, that + 1)."""
STATE_EXPANDED = 16
"""Nodes with a choice whose children were searched (neither settled on entry nor a
forced move): what Steininger's ``c4`` counts as nodes (it plays forced moves without
counting them)."""
STATE_PROBE_NODES = 17
MAX_LOGGED_PROBES = 32
STATE_SIZE = STATE_PROBE_NODES + MAX_LOGGED_PROBES
"""The slots ``solve`` clears; the three below it leaves alone (the solver sets them)."""
STATE_PUBLISH = STATE_SIZE
"""This worker's split-point area + 1 (0: it publishes none)."""
STATE_WATCH_SLOT = STATE_SIZE + 1
"""The version slot of the split point whose child this worker is searching (0: none)..."""
STATE_WATCH_VERSION = STATE_SIZE + 2
"""...and the version it took the child from; the worker unwinds once the two differ."""
STATE_VERSIONS = STATE_SIZE + 3
"""The versions this worker has handed out."""
STATE_TASK = STATE_SIZE + 4
"""``find_task`` leaves its task here: child, version, current, mask, moves, alpha, beta,
move (it returns the block)."""
STATE_EXCLUSIVE = STATE_TASK + 8
"""Set by a parent just before it searches a child it may put off; the child reads and
clears it on entry, and answers ``BUSY`` if another worker is searching it."""
STATE_TABLE_SHIFT = STATE_TASK + 9
"""``key_bits + 1 - bits`` for a table of ``2**bits`` entries and a game whose keys fit
``key_bits`` bits: the bits of a scrambled key below its bucket (``solve`` sets it)."""
STATE_GIVEN = STATE_TASK + 10
"""Set by a parent just before it searches a child, with the child's winning cells
(``STATE_GIVEN_OWN``) and its opponent's (``STATE_GIVEN_THEIRS``), and its table entry's
bucket and identity (``STATE_GIVEN_INDEX``, ``STATE_GIVEN_IDENTITY``; an identity below 0:
not given), which the parent found while it ordered its moves; the child reads and clears
it on entry (else it finds them itself)."""
STATE_GIVEN_OWN = STATE_TASK + 11
STATE_GIVEN_THEIRS = STATE_TASK + 12
STATE_BUCKET_MASK = STATE_TASK + 13
"""``2**(bits - 1) - 1``: cuts the bucket out of a scrambled key shifted by
``STATE_TABLE_SHIFT``."""
STATE_GIVEN_INDEX = STATE_TASK + 14
STATE_GIVEN_IDENTITY = STATE_TASK + 15
MAX_SLOTS = 16
LOOKS = STATE_TASK + 16
"""``node_start``'s first look at each move, in the game's order (its own, so not per ply):
the moves, their scores, their threats, their entries' bucket and identity, and their
slots (``MAX_SLOTS`` each)."""
SCRATCH = LOOKS + 6 * MAX_SLOTS
PLY_BUFFERS = 6
MAX_PLIES = 64
WORK_SIZE = SCRATCH + MAX_PLIES * PLY_BUFFERS * MAX_SLOTS

# Split points (YBWC with helpful masters). At the start of the table array, each worker
# has an area of one SPLIT_STRIDE-word block per ply (in cache lines of its own), where it
# publishes each node whose first SPLIT_AFTER children failed to cut (SPLIT_AFTER_EARLY
# near the start of a game), so likely every child must be searched. Other workers take
# the node's children from the last one back and search them with the node's window;
# what they prove reaches the owner through the table, where
# the owner finds it on reaching those children. An owner that reaches a child another
# worker is searching puts it off; once only such children are left, it helps below them
# (takes children of split points deeper than itself) until they are done. Helpers only
# ever add proven bounds to the table, so the owner's value never depends on them.
SPLIT_HEADER = 0
SPLIT_RUN = SPLIT_HEADER
"""Nonzero while helpers should look for work (the solver writes it)..."""
SPLIT_TAG = SPLIT_HEADER + 1
"""...the solve's tag..."""
SPLIT_WORKERS = SPLIT_HEADER + 2
"""...and the number of areas in use."""
SPLIT_BASE = SPLIT_HEADER + 8
SPLIT_STRIDE = 48
SPLIT_VERSION = 0
SPLIT_CURRENT = 1
SPLIT_MASK = 2
SPLIT_ALPHA = 3
SPLIT_BETA = 4
SPLIT_COUNT = 5
SPLIT_CHECK = 6
SPLIT_MOVES = 8
SPLIT_STATES = SPLIT_MOVES + MAX_SLOTS
"""Per child: FREE, TAKEN (a worker is searching it) or DONE."""
WAIT_LOOKS = 1 << 22
"""How often a worker whose only children left are being searched by others looks for
work below them (a fraction of a second) before it searches one of them too: searching
one at once made it follow the other worker down, node for node; the limit keeps a solve
going if a helper died (``docs/parallel-solver.md`` has the measurements)."""
ABORTED = 2
"""``work[STATE_STOP]`` when a worker unwinds to where it took a child (the solver stops
workers with 1)."""
FREE = 0
TAKEN = 1
DONE = 2
MAX_WORKERS = 64
SPLIT_AFTER = 2
"""A node is published once this many children failed to cut: a node whose first child
fails to cut is still often cut by a later one, and the helpers' work on it is then lost
(the counts tried are in ``docs/parallel-solver.md``)..."""
SPLIT_AFTER_EARLY = 1
SPLIT_EARLY_STONES = 3
"""...but after one child in a game's first plies (at most this many stones), where every
subtree is huge and a helper left idle while the second child is searched costs
the most."""
SPLIT_MIN_EMPTY = 20
"""Nodes with fewer empty cells are not published (their subtrees are too small to share),
and below them the workers run the plain search (the sizes tried are in
``docs/parallel-solver.md``)."""
SPLIT_AREA = MAX_PLIES * SPLIT_STRIDE
"""One worker's split points: worker ``w``'s block for ``moves`` stones is at
``SPLIT_BASE + w * SPLIT_AREA + moves * SPLIT_STRIDE``."""
BUSY_BASE = SPLIT_BASE + MAX_WORKERS * SPLIT_AREA
BUSY_SIZE = 1 << 16
"""Nodes being searched (as in ABDADA): each worker marks the shared nodes it is in at
``BUSY_BASE + index // 2 % BUSY_SIZE`` with ``index * BUSY_FACTOR + area + 1`` (``index``:
the node's bucket), and clears the mark on leaving. A worker reaching a node that another worker
is in puts it off, unless it is the node's first child, and comes back to it once its
other children are done, when the bound it needs is usually in the table. Without this,
two workers meeting at a transposition search it in step, each doing all the work."""
BUSY_FACTOR = 128
"""Above ``MAX_WORKERS``: a mark's area is ``mark % BUSY_FACTOR - 1``."""
BUSY = 64
"""What a search put off returns: outside every score range."""
TABLE_BASE = BUSY_BASE + BUSY_SIZE
"""Where the transposition table starts in the ``table`` array (a multiple of 8 words: a
bucket never straddles two cache lines)."""
CHECK_FACTOR = GOLDEN_RATIO_64 - (1 << 64)
FORCED = 0
"""The table index ``node_start`` gives a forced move (no table index is 0)."""
NEAR_ZERO = 6
"""``narrow`` probes 0 instead of a score closer to 0 than this..."""
WIN_DRAW_LOSS_EMPTY = 28
"""...in positions with at least this many empty cells (in the middle game, Pons' order
alone searched fewer nodes: Middle-Easy 409 against 488 per position)."""
RULE_CEILING_LEAST = -5
"""The lowest ceiling a game's rule gives (``rule_ceiling``: Connect 4's claimeven caps a
position at 0, or at a loss no later than a four of the second player completes, which
is -5 at the lowest on a board of 10 rows)..."""
RULE_FLOOR_MOST = -RULE_CEILING_LEAST
"""...and so the highest floor it gives a parent through a child: the kernel asks the rule
only in windows these can cut (a lower ceiling than this would only go unused)."""
ETC_EMPTY_CELLS = 12
"""Enhanced transposition cut-offs are tried only while more cells than this are empty:
near the end of the game a search is cheaper than the table look-ups."""
ETC_AFTER_NODES = 20_000
"""...and only once the solve has searched this many nodes. A transposition cut-off saves
a subtree; in a small solve those are small, and the up to seven table loads per node cost
more than they save."""
