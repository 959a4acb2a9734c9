"""The compiled searchers as ``Searcher`` uses them, one ``Protocol`` a kind: the exact
solver of placement games (``compiled.placement.CompiledSolver``) and the search of
move-list games (``compiled.move_list.CompiledSearcher``). Their ``kind`` tells them apart,
so a check of it narrows ``Compiled`` to one of them.

Positions are typed ``Any`` here: each kind takes its own subprotocol of ``Position``, and
which kind searches a position is decided by ``backend_choice.compiled_kind``.

This module imports neither numba nor the searchers: it only describes them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol

from negamax.core.types import OnIteration, SearchLimits, SearchResult


class CompiledSearch(Protocol):
    """What every compiled searcher does: load its kernel, and own a table and helpers."""

    @property
    def kind(self) -> str:
        """``searcher.PLACEMENT`` or ``searcher.MOVE_LIST``."""

    def cached(self, position: Any) -> bool | None:
        """Whether the kernel for ``position``'s game is loaded or on disk (``None``: not known)."""

    def warm_up(self, position: Any) -> None:
        """Load (or compile) the kernel for ``position``'s game."""

    def clear(self) -> None:
        """Forget what the table holds."""

    def close(self) -> None:
        """End the helpers."""


class PlacementSearch(CompiledSearch, Protocol):
    """The exact solver of placement games."""

    @property
    def kind(self) -> Literal["placement"]: ...

    @property
    def helper_note(self) -> str:
        """Why the helpers are not what was asked for, or ``""``."""

    def probe(self, position: Any, alpha: int, beta: int) -> int:
        """One search of ``position`` in the window ``(alpha, beta)``, in the game's scores."""

    def solve(
        self,
        position: Any,
        limits: SearchLimits | None,
        on_iteration: OnIteration | None,
        pv_plies: int | None,
        fresh_table: bool,
        bounds: tuple[int, int],
    ) -> SearchResult[Any]:
        """The exact value of ``position``, its probes started from ``bounds`` (proven)."""

    @property
    def threads(self) -> int:
        """Its workers."""

    def solve_each(
        self,
        positions: Sequence[Any],
        limits_for: Callable[[int], SearchLimits],
        on_solved: Callable[[int, SearchResult[Any]], None],
        pv_plies: int | None,
        fresh_table: bool,
        bounds: Sequence[tuple[int, int]] | None,
    ) -> bool:
        """Several positions solved side by side (``False``: none, it cannot)."""


class MoveListSearch(CompiledSearch, Protocol):
    """The search of move-list games, to a limit or to the end."""

    @property
    def kind(self) -> Literal["move list"]: ...

    def search(
        self,
        position: Any,
        limits: SearchLimits | None,
        on_iteration: OnIteration | None,
        root_moves: Sequence[Any] | None,
        multipv: int = 1,
    ) -> SearchResult[Any]:
        """A search of ``position`` within ``limits`` (of ``multipv`` lines)."""

    def solve(self, position: Any, limits: SearchLimits | None, on_iteration: OnIteration | None) -> SearchResult[Any]:
        """The exact value of ``position``."""

    def value_at_least(self, position: Any, threshold: int) -> bool:
        """Whether ``position``'s exact value is at least ``threshold``."""

    def hashfull(self) -> int:
        """Per mille of the table in use."""


class MonteCarloSearch(CompiledSearch, Protocol):
    """The Monte Carlo tree search of games written as rules."""

    @property
    def kind(self) -> Literal["mcts"]: ...

    def search(
        self,
        position: Any,
        limits: SearchLimits,
        options: Any = None,
        *,
        lines: int = 1,
        root_moves: Sequence[Any] | None = None,
        on_iteration: OnIteration | None = None,
        solving: bool = False,
        trace: Any = None,
    ) -> SearchResult[Any]:
        """A Monte Carlo search of ``position`` within ``limits``."""


Compiled = PlacementSearch | MoveListSearch | MonteCarloSearch
"""A compiled searcher of any kind."""
