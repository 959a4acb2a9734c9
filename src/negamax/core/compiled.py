"""The compiled game protocol: what a bitboard "placement" game provides to the compiled
search kernel (``negamax.search.compiled``).

A state is three int64 values: ``current`` (the stones of the side to move), ``mask``
(every stone) and ``moves`` (stones played). A move is the one-bit board of the cell it
fills. The functions below are *stubs*: a game registers its compiled implementation of
each with ``numba.extending.overload``, selected by the type of the game's *spec* (a
``NamedTuple`` the game defines, e.g. ``Connect4Spec``). The kernel calls the stubs with
the spec as first argument, so numba compiles one kernel per game, caches it on disk,
and inlines the game's primitives: the kernel never imports a game, and no game imports
the search.

This module itself does not import numba; only the games' ``*_compiled`` modules and the
kernel do, and only when the compiled path is used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

CACHED: Any = {"cache": True}
"""The jit options of the games' implementations: compiled once, then loaded from disk."""


Implementation = TypeVar("Implementation", bound=Callable[..., Any])


def implements(stub: Any, spec_class: type) -> Callable[[Implementation], Implementation]:
    """Register the decorated function as ``stub``'s compiled implementation for games whose
    spec is a ``spec_class`` (imports numba: call it from a game's ``*_compiled`` module).

    The function takes the stub's arguments, spec first, and is compiled into the kernel.
    """
    import inspect

    from numba import types
    from numba.extending import overload

    def register(implementation: Implementation) -> Implementation:
        def select(*argument_types: Any) -> Any:
            spec = argument_types[0]
            matches = isinstance(spec, types.BaseNamedTuple) and getattr(spec, "instance_class", None) is spec_class
            return implementation if matches else None

        # numba checks that the selector's signature matches the implementation's
        select.__signature__ = inspect.signature(implementation)  # type: ignore[attr-defined]
        overload(stub, jit_options=CACHED)(select)
        return implementation

    return register


def _stub(name: str) -> Any:
    def stub(*arguments: Any) -> Any:
        raise NotImplementedError(f"{name} runs only inside compiled code, for a game that registers it")

    stub.__name__ = stub.__qualname__ = name
    return stub


playable_cells = _stub("playable_cells")
"""``playable_cells(spec, mask) -> int``: the cells a move may fill now."""

winning_cells = _stub("winning_cells")
"""``winning_cells(spec, stones, mask) -> int``: empty cells that would complete a win for
``stones``."""

unsafe_cells = _stub("unsafe_cells")
"""``unsafe_cells(spec, opponent_winning) -> int``: cells that, once filled, let the opponent
play into one of its winning cells (Connect 4: the cell just below one; otherwise 0)."""

move_slots = _stub("move_slots")
"""``move_slots(spec) -> array``: masks tried in order to pick out one move each (Connect 4:
columns centre first); at most one playable cell per mask."""

cell_count = _stub("cell_count")
"""``cell_count(spec) -> int``: the number of cells; a full board is a draw."""

position_key = _stub("position_key")
"""``position_key(spec, current, mask) -> int``: a non-negative key, the same for positions
equal up to the game's symmetries."""
