"""Puts ``benchmarks/`` on the import path, so that a tool can use the benchmarks' helpers
(the ladder's openings and Elo scale, Stockfish's location, a match's tally) by the plain
names the benchmarks themselves use: ``import benchmark_path`` comes before them. A tool
runs as ``python tools/NAME.py`` from anywhere, which puts only ``tools/`` on the path."""

import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

if str(BENCHMARKS) not in sys.path:
    sys.path.append(str(BENCHMARKS))
