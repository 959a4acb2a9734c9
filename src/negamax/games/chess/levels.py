"""How strong the chess engine plays at each of the page's levels 1 to 8 (``Skill Level``
0, 3, 6, ... 18 and full strength over UCI): its rating on Stockfish's ``UCI_Elo`` scale,
measured by ``benchmarks/chess_levels.py`` (the table, its error bars and how it was run
are in ``BENCHMARKS.md``)."""

from __future__ import annotations

from typing import Final

LEVEL_ELO: Final = (1180, 1420, 1570, 1720, 1940, 2120, 2220, 2490)
"""The measured rating of each level from 1 to 8 (48 games a level, 20 at level 8; ±100-150
for 95 %), rounded to 10; levels 5-7 measured again after their depths were spread (5, 7
and 8 plies)."""
