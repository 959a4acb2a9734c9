"""The compiled searches (numba), one pair of modules per kind of game.

* Placement games (Connect 4, tic-tac-toe; ``PlacementPosition``): ``placement_kernel``, the
  exact solver in Pascal Pons' design, and ``placement`` (``CompiledSolver``), which runs it
  with limits, helpers and progress; ``placement_helper_pool`` runs helper workers.
* Move-list games (chess, draughts, games written as rules; ``MoveListPosition``):
  ``move_list_kernel``, a heuristic alpha-beta search that also solves, and ``move_list``
  (``CompiledSearcher``), which deepens, solves and keeps the time; ``move_list_bindings``
  adapts rules written as plain functions (``negamax.CompiledGame``).
* ``families``: the kernels of games from outside the package, compiled and cached apart.

Importing any of these modules imports numba. Which search runs is decided in one place,
``negamax.search.searcher`` (``Searcher``), the only code that builds these searchers.
"""
