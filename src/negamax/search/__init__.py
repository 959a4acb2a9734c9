"""Search algorithms: the seeds' reference versions and the optimised engine."""

from negamax.search.driver import search, solve
from negamax.search.params import ALGORITHMS, SearchOptions, options_for
from negamax.search.tt import TranspositionTable

__all__ = ["ALGORITHMS", "SearchOptions", "TranspositionTable", "options_for", "search", "solve"]
