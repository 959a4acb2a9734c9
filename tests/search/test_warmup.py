from __future__ import annotations

from pathlib import Path

import pytest

from negamax.games import get_game
from negamax.search import warmup


def test_the_variants_sharing_a_kernel_share_its_marker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # one kernel plays every draughts variant: once it is on disk, none of them should
    # announce a compilation
    monkeypatch.setenv(warmup.CACHE_DIRECTORY_VARIABLE, str(tmp_path))
    names = ("draughts", "checkers", "russian", "brazilian", "frisian", "chess")
    assert not any(warmup.kernels_on_disk(get_game(name)) for name in names)
    warmup.mark_on_disk(get_game("checkers"))
    on_disk = {name: warmup.kernels_on_disk(get_game(name)) for name in names}
    assert on_disk == {
        "draughts": True,
        "checkers": True,
        "russian": True,
        "brazilian": True,
        "frisian": True,
        "chess": False,
    }
