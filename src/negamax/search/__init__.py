"""Search algorithms: the seeds' reference versions, the optimised pure-Python search, and
the compiled kernels, all reached through a ``Searcher`` (``search()`` and ``solve()`` use
a default one)."""

from negamax.core.ranges import DEFAULT_HASH_MIB
from negamax.search.backend import default_searcher, prepare, search, solve
from negamax.search.backend_choice import BACKENDS, choose_backend
from negamax.search.params import ALGORITHMS, SearchOptions, options_for
from negamax.search.searcher import Searcher
from negamax.search.tt import TranspositionTable

__all__ = [
    "ALGORITHMS",
    "BACKENDS",
    "DEFAULT_HASH_MIB",
    "SearchOptions",
    "Searcher",
    "TranspositionTable",
    "choose_backend",
    "default_searcher",
    "options_for",
    "prepare",
    "search",
    "solve",
]
