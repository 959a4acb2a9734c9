"""The compiled game protocols: what a game provides to a compiled search kernel.

Two kernels, two protocols: bitboard *placement* games (Connect 4, tic-tac-toe) for the
exact solver ``negamax.search.compiled.placement_kernel``, and *move-list* games (chess) for the
heuristic deepening search ``negamax.search.compiled.move_list_kernel``. The placement protocol:

A state is three int64 values: ``current`` (the stones of the side to move), ``mask``
(every stone) and ``moves`` (stones played). A move is the one-bit board of the cell it
fills. The functions below are *stubs*: a game registers its compiled implementation of
each with ``numba.extending.overload``, selected by the type of the game's *spec* (a
``NamedTuple`` the game defines, e.g. ``Connect4Spec``, with at least the fields ``width``
and ``height``, whose product is the cell count, and ``key_bits``, the bits
``position_key``'s keys fit, at most 64). The kernel calls the stubs with
the spec as first argument, so numba compiles one kernel per game, caches it on disk,
and LLVM inlines the game's primitives (``implements`` marks them so): the kernel never
imports a game, and no game imports the search.

Only the games' ``*_compiled`` modules and the kernels import this module, and only when
the compiled path is used. Importing it imports numba and makes numba's disk cache check
every source of the package's kernels (``negamax.core.numba_cache``): numba itself checks
a kernel's own file only, while the kernel freezes the games' code and tables into its
machine code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from negamax.core import numba_cache

if TYPE_CHECKING:
    from numba.core.dispatcher import Dispatcher

numba_cache.install()

CACHED: Any = {"cache": True}
"""The jit options of the games' implementations: compiled once, then loaded from disk."""


Implementation = TypeVar("Implementation", bound=Callable[..., Any])

implementation_modules: dict[type, set[str]] = {}
"""For each spec class, the modules its implementations come from: a game's kernels are
stamped with their sources, so that editing any of them compiles the kernels again."""


def implements(stub: Any, spec_class: type) -> Callable[[Implementation], Implementation]:
    """Register the decorated function as ``stub``'s compiled implementation for games whose
    spec is a ``spec_class`` (imports numba: call it from a game's ``*_compiled`` module).

    The function takes the stub's arguments, spec first, and is compiled into the kernel.
    """
    import inspect

    from numba import types
    from numba.extending import overload

    def register(implementation: Implementation) -> Implementation:
        implementation_modules.setdefault(spec_class, set()).add(implementation.__module__)
        inline_into_kernels(implementation.__module__)

        def select(*argument_types: Any) -> Any:
            spec = argument_types[0]
            matches = isinstance(spec, types.BaseNamedTuple) and getattr(spec, "instance_class", None) is spec_class
            return implementation if matches else None

        # numba checks that the selector's signature matches the implementation's
        select.__signature__ = inspect.signature(implementation)  # type: ignore[attr-defined]
        overload(stub, jit_options=CACHED)(select)
        return implementation

    return register


_INLINED_PREFIXES: set[str] = set()
"""The mangled-name prefixes of the modules that implement games' primitives
(``inline_into_kernels``)."""


def inline_into_kernels(module: str | None) -> None:
    """Mark the machine code of every function of ``module`` (a game's implementations of
    the primitives, and the helpers they call) *always inline* wherever a kernel calls it.

    numba compiles each function apart and links it into each kernel, where LLVM's cost
    model declined to inline most of them: every call then passed the game's whole spec
    (Connect 4's sized boards: 27 integers) and could not be folded into the node's code.
    Inlined, the solver on the sized Connect 4 boards takes about a quarter less CPU at
    the same nodes, and compiling costs no more (inlining numba's IR instead,
    ``overload(inline="always")``, took five times as long to compile). The module's other
    functions count as much: draughts' implementations call its ``play``, ``generate`` and
    ``leaves_capture``, which stayed calls until the mark covered the module (a further
    tenth off draughts' search; chess and Connect 4 unchanged). A recursive function stays
    a call where it calls itself. The mark is set on the linkable copy of each library's
    module, by name (so for the module's submodules too, wherever numba links them); should
    numba change that internal method, kernels stay correct, only slower."""
    from numba.core import codegen, itanium_mangler

    if not module:  # code made by exec without a module name: left to LLVM's own choice
        return
    parts = module.split(".")
    mangled = (itanium_mangler.mangle_identifier(part) for part in parts)  # type: ignore[no-untyped-call]
    _INLINED_PREFIXES.add("_ZN" + "".join(mangled))
    library_class = codegen.CPUCodeLibrary
    original = getattr(library_class, "_get_module_for_linking", None)
    if original is None or getattr(original, "marks_inline", False):
        return

    def module_for_linking(self: Any) -> Any:
        module = original(self)
        prefixes = tuple(_INLINED_PREFIXES)
        for function in module.functions:
            if function.is_declaration or not function.name.startswith(prefixes):
                continue
            attributes = b" ".join(function.attributes)
            if b"alwaysinline" not in attributes and b"noinline" not in attributes:
                function.add_function_attribute("alwaysinline")
        return module

    module_for_linking.marks_inline = True  # type: ignore[attr-defined]
    library_class._get_module_for_linking = module_for_linking  # type: ignore[method-assign]


def search_function(function: Implementation) -> Dispatcher[Implementation]:
    """Compile a kernel's search function: cached on disk, without the interpreter lock,
    and without reference counts. The kernels allocate nothing, and numba would otherwise
    count references to their arrays on every call with atomic instructions (a fifth of
    the Connect 4 solver's time, a tenth of draughts')."""
    from numba import njit

    options: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}
    return cast("Dispatcher[Implementation]", njit(**options)(function))


def _stub(name: str) -> Any:
    def stub(*arguments: Any) -> Any:
        raise NotImplementedError(f"{name} runs only inside compiled code, for a game that registers it")

    stub.__name__ = stub.__qualname__ = name
    return stub


playable_cells = _stub("playable_cells")
"""``playable_cells(spec, mask) -> int``: the cells a move may fill now."""

winning_cells = _stub("winning_cells")
"""``winning_cells(spec, stones, mask) -> int``: empty cells that would complete a win for
``stones``. It may depend on ``mask`` only through which cells are empty: the solver hands
a child its cells as the parent's less the cell the opponent just filled."""

unsafe_cells = _stub("unsafe_cells")
"""``unsafe_cells(spec, opponent_winning) -> int``: cells that, once filled, let the opponent
play into one of its winning cells (Connect 4: the cell just below one; otherwise 0)."""

move_slots = _stub("move_slots")
"""``move_slots(spec) -> tuple``: int64 masks tried in order to pick out one move each
(Connect 4: columns centre first); at most one playable cell per mask, and 0 for none. A
tuple, not an array: the kernel keeps no reference counts, so a function of the game can
give it no array of its own."""

cell_count = _stub("cell_count")
"""``cell_count(spec) -> int``: the number of cells; a full board is a draw."""

NO_RULE_CEILING = 64
"""What ``rule_ceiling`` returns when the rules prove nothing: above every score."""

rule_ceiling = _stub("rule_ceiling")
"""``rule_ceiling(spec, current, mask, moves) -> int``: an upper bound on the position's
value for the side to move, in the kernel's scores, that the game's rules prove without a
search (Connect 4: the second player's claimeven strategy): 0 or a loss, or 64 (above every
score) when they prove none. (The kernel asks only in the windows such a ceiling can cut:
``placement_layout.RULE_CEILING_LEAST``.)"""

position_key = _stub("position_key")
"""``position_key(spec, current, mask) -> int``: a key of ``spec.key_bits`` bits (as an
int64: negative when it takes all 64), the same for positions equal up to the game's
symmetries."""


# The move-list protocol. The state is one int64 array the game lays out as it likes; the
# game makes and takes back moves in it. Moves are positive int64 codes (0: no move).

generate_moves = _stub("generate_moves")
"""``generate_moves(spec, state, out, start, noisy_only) -> int``: writes the moves (they
may leave the mover in check: ``play_move`` says so) from ``out[start]`` on and returns
the end index; ``noisy_only`` asks for the moves quiescence searches (captures, queen
promotions)."""

play_move = _stub("play_move")
"""``play_move(spec, state, move) -> bool``: plays ``move``; False when it was illegal.
Either way ``unplay_move`` must take it back."""

unplay_move = _stub("unplay_move")
"""``unplay_move(spec, state, move)``: takes back the last move played."""

play_null_move = _stub("play_null_move")
"""``play_null_move(spec, state)``: passes the turn (for null-move pruning)."""

unplay_null_move = _stub("unplay_null_move")

in_check = _stub("in_check")
"""``in_check(spec, state) -> bool``: the side to move is in check (its moves are then
searched a ply deeper, it may not pass, and no margin prunes there). Draughts: the side to
move must take (not searched deeper: quiescence follows captures where they are forced)."""

no_moves_lose = _stub("no_moves_lose")
"""``no_moves_lose(spec, state) -> bool``: with no legal move, the side to move has lost
(chess: when in check; draughts: always); otherwise it is a draw."""

static_value = _stub("static_value")
"""``static_value(spec, state) -> int``: the evaluation from the side to move."""

state_key = _stub("state_key")
"""``state_key(spec, state) -> int``: the position's hash key."""

player_to_move = _stub("player_to_move")
"""``player_to_move(spec, state) -> int``: the player to move, 0 or 1, where the same player
may move twice in a row (a child position with its parent's player is searched with the
parent's window and not negated); -1 for a game whose players always alternate, so that
the kernel, compiled with that constant, negates every ply without asking."""

exact_key = _stub("exact_key")
"""``exact_key(spec, state) -> int``: the position's key, not shared with its symmetric
positions (the Monte Carlo kernel's graph shares a node's moves, which symmetry would turn).
Games written as rules only."""

playout = _stub("playout")
"""``playout(spec, state, numbers) -> int``: a random game from ``state`` to its end (the state
may be left anywhere: it is a copy), drawing on ``numbers``, an int64 array of random
numbers from 0 to 2**62 - 1; its result for the side to move at ``state``, as ``game_result``
gives one. For the Monte Carlo kernel; games written as rules only (their ``playout`` rule)."""

game_result = _stub("game_result")
"""``game_result(spec, state) -> int``: ``ONGOING`` (``negamax.core.score``) while the game
goes on, else its value for the side to move (``-WIN``, ``DRAW``, ``WIN`` or a plain score),
relative to this node. Chess and draughts end by having no legal move, and return
``ONGOING`` always."""

drawn_by_rule = _stub("drawn_by_rule")
"""``drawn_by_rule(spec, state) -> bool``: a draw by repetition, move count or material."""

noisy_order = _stub("noisy_order")
"""``noisy_order(spec, state, move) -> int``: positive for a capture or promotion, larger
for the ones to try first; 0 for a quiet move."""

noisy_moves_forced = _stub("noisy_moves_forced")
"""``noisy_moves_forced(spec) -> bool``: when the side to move has a noisy move it must play
one (draughts' compulsory captures), so quiescence may not stand pat there."""

material_gain = _stub("material_gain")
"""``material_gain(spec, state, move) -> int``: what a noisy move wins at most, in the
evaluation's units (for delta pruning in quiescence)."""

null_move_safe = _stub("null_move_safe")
"""``null_move_safe(spec, state) -> bool``: passing is unlikely to be the best move
(zugzwang is rare), so null-move pruning may be tried."""

history_slot = _stub("history_slot")
"""``history_slot(spec, state, move) -> int``: the move's slot in the history table,
below the kernel's ``HISTORY_SLOTS``."""

continuation_slot = _stub("continuation_slot")
"""``continuation_slot(spec, state, move) -> int``: the move's slot by what moves where (chess:
the piece and its target square), below the kernel's ``CONTINUATION_SLOTS``, for the history
of which move follows which; -1 when the game has none (then no such history is kept, and
no move is pruned by its history)."""

losing_capture = _stub("losing_capture")
"""``losing_capture(spec, state, move) -> bool``: whether a noisy move loses material when
both sides go on capturing on its square (a static exchange, chess's SEE). Such captures
are ordered with the quiet moves and left out of quiescence. False when the game cannot
tell."""

gives_check = _stub("gives_check")
"""``gives_check(spec, state, move) -> bool``: whether a move, before it is played, may
leave the other side in check (True when unsure). Pruning skips quiet moves without
playing them, but not the ones that give check. Draughts: the move leaves the other side a
capture (a sacrifice, the start of most combinations). False for games without checks."""

pruning_unit = _stub("pruning_unit")
"""``pruning_unit(spec) -> int``: the evaluation's worth of a pawn (or man), which scales the
margins of futility pruning: a quiet move near the horizon is not searched when the static
value is so many units from the window. A game with a unit also gets the deeper,
logarithmic late-move reductions. 0: the evaluation cannot be trusted that way; the
search prunes nothing by margins and reduces late moves by one or two plies."""
