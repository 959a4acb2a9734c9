"""Search algorithms: the seeds' reference versions, the optimised pure-Python engine, and
the compiled kernels, chosen between by ``backend``."""

from negamax.search.backend import ENGINES, choose_engine, search, solve
from negamax.search.params import ALGORITHMS, SearchOptions, options_for
from negamax.search.tt import TranspositionTable

__all__ = [
    "ALGORITHMS",
    "ENGINES",
    "SearchOptions",
    "TranspositionTable",
    "choose_engine",
    "options_for",
    "search",
    "solve",
]
