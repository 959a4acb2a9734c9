import threading

import pytest

from negamax.core.errors import InvalidOptionError, NegamaxError
from negamax.core.types import SearchLimits, SearchStats


def test_limits_reject_nonsense() -> None:
    for bad in ({"depth": -1}, {"nodes": 0}, {"time": 0}, {"time": -2.0}):
        with pytest.raises(InvalidOptionError):
            SearchLimits(**bad)  # type: ignore[arg-type]
    assert issubclass(InvalidOptionError, ValueError) and issubclass(InvalidOptionError, NegamaxError)


def test_limits_repr_hides_unset_fields() -> None:
    assert repr(SearchLimits(depth=4, time=1.5)) == "SearchLimits(depth=4, time=1.5)"
    assert SearchLimits(stop=threading.Event()) == SearchLimits()


def test_stats_rates() -> None:
    stats = SearchStats(beta_cutoffs=10, first_move_cutoffs=9, tt_probes=4, tt_hits=1)
    assert stats.first_move_cutoff_rate == 0.9
    assert stats.tt_hit_rate == 0.25
    assert SearchStats().first_move_cutoff_rate == 0.0
