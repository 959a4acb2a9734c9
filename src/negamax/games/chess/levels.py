"""How strong the chess engine plays at each of the page's levels 1 to 8 (``Skill Level``
0, 3, 6, ... 18 and full strength over UCI): its rating on Stockfish's ``UCI_Elo`` scale,
measured by ``benchmarks/chess_levels.py`` (the table, its error bars and how it was run
are in ``BENCHMARKS.md``)."""

from __future__ import annotations

from typing import Final

LEVEL_ELO: Final = (1150, 1500, 1600, 1800, 1950, 2000, 2150, 2400)
"""The measured rating of each level from 1 to 8."""
