"""The cost of scoring every move: Connect 4's seven columns solved with one shared table
(``solve(position, multipv=7)``) against seven separate solves (one per child, each on an
empty table) and against Pascal Pons' solver doing the same (``c4solver -a``'s
``Solver::analyze``, on an empty table per position), in the same run, one thread each.

Every column's value is checked against Pons'. Pons' side needs his solver built in a
scratch folder (``../shared/peers/README.md``) and this folder's
``peers/pons_analyze_driver.cpp`` built beside it:

    g++ -std=c++11 -O3 -DNDEBUG -o analyze_driver pons_analyze_driver.cpp Solver.o -I.

Run: ``python benchmarks/multipv.py --pons PATH/analyze_driver`` (about 3 minutes on
2 cores; ``--quick`` for a sample; without ``--pons``, ours alone).
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import time
from pathlib import Path

from negamax.games.connect4.rules import Connect4Game
from negamax.search import Searcher

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
GAME = Connect4Game()
SETS = [
    ("Test_L3_R1", "End-Easy", 100),
    ("Test_L2_R1", "Middle-Easy", 100),
    ("Test_L2_R2", "Middle-Medium", 20),
    ("Test_L1_R1", "Begin-Easy", 20),
]
FULL_COLUMN = 100
"""The driver's mark for a column that cannot be played."""


def machine() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines() if Path("/proc/cpuinfo").exists() else []:
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def ours_shared(searcher: Searcher, texts: list[str]) -> tuple[list[list[int]], int, float]:
    """Every column's value per position (Pons' convention; ``FULL_COLUMN`` for a full one),
    nodes and CPU seconds: one ``multipv=7`` solve each."""
    values, nodes, cpu = [], 0, 0.0
    for text in texts:
        position = GAME.new_position(text)
        start = time.process_time()
        result = searcher.solve(position, multipv=7)
        cpu += time.process_time() - start
        nodes += result.nodes
        by_column = {
            GAME.move_text(position, line.move): GAME.game_score(position, line.score) for line in result.lines
        }
        values.append([by_column.get(str(column), FULL_COLUMN) for column in range(1, 8)])
    return values, nodes, cpu


def ours_separate(searcher: Searcher, texts: list[str]) -> tuple[list[list[int]], int, float]:
    """The same from seven solves, one per child, each on an empty table."""
    values, nodes, cpu = [], 0, 0.0
    for text in texts:
        position = GAME.new_position(text)
        row = [FULL_COLUMN] * 7
        for move in position.legal_moves():
            child = position.copy()
            child.play(move)
            start = time.process_time()
            result = searcher.solve(child)
            cpu += time.process_time() - start
            nodes += result.nodes
            row[int(GAME.move_text(position, move)) - 1] = -GAME.game_score(child, result.score)
        values.append(row)
    return values, nodes, cpu


def pons(driver: str, texts: list[str]) -> tuple[list[list[int]], int, float]:
    """Pons' ``analyze`` on each position, as his driver reports it."""
    output = subprocess.run([driver], input="\n".join(texts) + "\n", capture_output=True, text=True, check=True)
    values, nodes, cpu = [], 0, 0.0
    for line in output.stdout.splitlines():
        fields = line.split()
        values.append([int(field) for field in fields[1:8]])
        nodes += int(fields[8])
        cpu += float(fields[9]) / 1e6
    return values, nodes, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pons", metavar="PATH", help="Pons' analyze driver (see the module's text)")
    parser.add_argument("--quick", action="store_true", help="a fifth of each set")
    parser.add_argument("--hash", type=float, default=64, metavar="MIB", help="our table (default 64 MiB)")
    arguments = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    print(f"{machine()}, commit {commit}, {time.strftime('%Y-%m-%d')}, one thread each, CPU seconds in all")
    searcher = Searcher("compiled", hash_mib=arguments.hash, threads=1)
    searcher.solve(GAME.new_position("4453"), multipv=7)  # the kernel loaded before the clock
    header = f"{'set':<14}{'positions':>10}{'shared nodes':>14}{'CPU':>8}{'7 solves nodes':>16}{'CPU':>8}"
    if arguments.pons:
        header += f"{'Pons -a nodes':>15}{'CPU':>8}{'shared/7':>10}{'shared/Pons':>12}{'agree':>7}"
    print(header)
    for name, label, count in SETS:
        lines = (DATA / name).read_text().splitlines()[: max(1, count // 5) if arguments.quick else count]
        texts = [line.split()[0] for line in lines]
        shared, shared_nodes, shared_cpu = ours_shared(searcher, texts)
        separate, separate_nodes, separate_cpu = ours_separate(searcher, texts)
        assert shared == separate, f"{label}: multipv and separate solves disagree"
        row = f"{label:<14}{len(texts):>10}{shared_nodes:>14,}{shared_cpu:>8.2f}"
        row += f"{separate_nodes:>16,}{separate_cpu:>8.2f}"
        if arguments.pons:
            theirs, pons_nodes, pons_cpu = pons(arguments.pons, texts)
            agree = sum(mine == his for mine, his in zip(shared, theirs, strict=True))
            row += f"{pons_nodes:>15,}{pons_cpu:>8.2f}{shared_cpu / separate_cpu:>10.2f}{shared_cpu / pons_cpu:>12.2f}"
            row += f"{agree:>4}/{len(texts)}"
        print(row, flush=True)


if __name__ == "__main__":
    main()
