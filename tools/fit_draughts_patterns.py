"""Fits the worths of the men's arrangements in the sixteen 4x4 regions of the draughts
board (``negamax.games.draughts.evaluation``) to dame-rs's search scores.

Three steps, each kept in a file so that a run can be resumed or refitted:

1. ``sample``: quiet positions (no capture for the side to move) from fast self-play of the
   compiled engine (1,000 to 10,000 nodes a move, one move in ten random, the first six
   plies random), one line each: White's men, White's kings, Black's men, Black's kings
   (bit ``s``: square ``s + 1``), and 1 if White is to move.
2. ``label``: dame-rs (``pip install dame-rs``) searches each to a fixed depth through its
   HUB interface; its score, from the side to move, in hundredths of a man, is appended.
3. ``fit``: the worths that, added to the per-square evaluation, come closest to those
   scores in least squares (two worths an arrangement, with all 40 men on the board and with
   none, which the evaluation blends by the men left), with a ridge penalty (``--damp``)
   that keeps the arrangements seen rarely near zero; each position is used with its colours
   swapped too (the board turned round), so the worths come out symmetric. A king's worth is
   refitted with them. A tenth of the positions is held out, and the error on it is printed
   for the per-square evaluation alone, and with the patterns (positions of one game are
   alike, so the held-out error flatters both a little; the blend is taken unrounded, where
   the engine rounds it towards zero).

Run: ``python tools/fit_draughts_patterns.py --games 1500 --depth 7`` (about half an
hour on one core); ``--also DIR ...`` fits other runs' scores with this one's.
The patterns first shipped (``negamax/games/draughts/patterns.npz``) came from five such runs fitted together: seed 11
(stopped at 1,450 games, played by the engine before it had the patterns), seeds 12 and 13
(1,500 games each, played with one worth an arrangement) and seeds 14 and 15 (played with
the blended worths), 634,731 positions, 544,086 of them with dame-rs 0.2.0's score within
6 men. ``train_draughts_patterns.py`` then refitted those worths to self-play games.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.linalg import lsqr

from fit_draughts import Position, self_play
from negamax.games.draughts import evaluation as rules

SQUARES = 50


def sample(games: int, seed: int, path: Path) -> None:
    with path.open("w") as out:
        for number, position in enumerate(self_play(games, seed, 6, 0.1, (1000, 3000, 10000), 200), 1):
            out.write(" ".join(str(int(value)) for value in position) + "\n")
            if number % 10000 == 0:
                print(f"sample: {number} positions", flush=True)


def hub_position(white_men: int, white_kings: int, black_men: int, black_kings: int, white: bool) -> str:
    cells = []
    for square in range(SQUARES):
        bit = 1 << square
        found = [mask & bit for mask in (white_men, white_kings, black_men, black_kings)]
        cells.append("wWbB"[found.index(bit)] if bit in found else "e")
    return ("W" if white else "B") + "".join(cells)


def label(source: Path, target: Path, depth: int) -> None:
    if shutil.which("dame") is None:
        raise SystemExit("fit_draughts_patterns: dame-rs not found; install it with pip install dame-rs")
    engine = subprocess.Popen(["dame", "hub"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert engine.stdin is not None and engine.stdout is not None
    reader, writer = engine.stdout, engine.stdin

    def send(line: str) -> None:
        writer.write(line + "\n")
        writer.flush()

    def reply() -> str:
        line = reader.readline()
        if not line or line.startswith("error"):
            engine.kill()
            raise SystemExit(f"fit_draughts_patterns: dame-rs {line.strip() or 'stopped'}")
        return line

    def wait_for(word: str) -> None:
        while not reply().startswith(word):
            pass

    send("hub")
    wait_for("wait")
    send("init")
    wait_for("ready")
    send(f"level depth={depth}")
    start = time.perf_counter()
    with target.open("w") as out:
        for number, line in enumerate(source.read_text().splitlines(), 1):
            masks = [int(word) for word in line.split()]
            send("pos pos=" + hub_position(*masks[:4], bool(masks[4])))
            send("go analyze")
            score = None
            while not (answer := reply()).startswith("done"):
                for word in answer.split():
                    if word.startswith("score="):
                        score = word.removeprefix("score=")
            out.write(f"{line} {score}\n")
            if number % 5000 == 0:
                print(
                    f"label: {number} positions, {(time.perf_counter() - start) / number * 1000:.1f} ms each",
                    flush=True,
                )
    send("quit")
    engine.wait()


def turned(white_men: int, white_kings: int, black_men: int, black_kings: int, white: bool) -> Position:
    """The position with the board turned round and the colours swapped."""

    def turn(mask: int) -> int:
        return sum(1 << (SQUARES - 1 - square) for square in range(SQUARES) if mask >> square & 1)

    return turn(black_men), turn(black_kings), turn(white_men), turn(white_kings), not white


def read(path: Path, limit: float) -> list[tuple[Position, float]]:
    """The labelled positions whose score is within ``limit`` (far-gone positions say
    little about fine worths), each score from White's side."""
    found = []
    for line in path.read_text().splitlines():
        words = line.split()
        try:
            score = float(words[5]) * 100
        except ValueError:
            continue  # a won or lost position: no number
        if abs(score) <= limit:
            white_men, white_kings, black_men, black_kings, white = (int(word) for word in words[:5])
            position = (white_men, white_kings, black_men, black_kings, bool(white))
            found.append((position, score if white else -score))
    return found


def design(items: list[tuple[Position, float]], swapped: bool) -> tuple[csr_matrix, np.ndarray]:
    """One row a position (and its turned-round twin if ``swapped``): for each region's
    arrangement, its share of the worth with every man on the board in one column and its
    share of the worth with none in another (the evaluation blends the two by the men
    left), and the difference in kings; the target is the score less the per-square
    evaluation (with the side to move's bonus)."""
    weights = rules.ManWeights(SQUARES, patterns=False)
    regions = rules.regions(SQUARES)
    phase_width = len(regions) * rules.ARRANGEMENTS
    king_column = 2 * phase_width
    rows, columns, values, targets = [], [], [], []
    for position, score in items:
        for (white_men, white_kings, black_men, black_kings, white), white_score in (
            [(position, score), (turned(*position), -score)] if swapped else [(position, score)]
        ):
            row = len(targets)
            base = sum(weights.white_man[s] for s in range(SQUARES) if white_men >> s & 1)
            base -= sum(weights.black_man[s] for s in range(SQUARES) if black_men >> s & 1)
            king_difference = white_kings.bit_count() - black_kings.bit_count()
            base += weights.king * king_difference + (rules.TEMPO if white else -rules.TEMPO)
            full = min(white_men.bit_count() + black_men.bit_count(), rules.FULL_MEN) / rules.FULL_MEN
            for number, index in enumerate(rules.region_indices(regions, white_men, black_men)):
                column = number * rules.ARRANGEMENTS + index
                rows += [row, row]
                columns += [column, phase_width + column]
                values += [full, 1 - full]
            rows.append(row)
            columns.append(king_column)
            values.append(float(king_difference))
            targets.append(white_score - base)
    matrix = csr_matrix((values, (rows, columns)), shape=(len(targets), king_column + 1))
    return matrix, np.array(targets)


def twins() -> tuple[np.ndarray, np.ndarray]:
    """For each region, the region the board turned round makes of it, and for each index,
    the index of the same arrangement turned round with the colours swapped."""
    regions = rules.regions(SQUARES)
    region_twin = np.array([regions.index(sorted(SQUARES - 1 - s for s in region)) for region in regions])
    size = len(regions[0])
    index_twin = np.zeros(rules.ARRANGEMENTS, dtype=np.int64)
    for index in range(rules.ARRANGEMENTS):
        digits = [index // 3**place % 3 for place in range(size)]
        index_twin[index] = sum((0, 2, 1)[digit] * 3 ** (size - 1 - place) for place, digit in enumerate(digits))
    return region_twin, index_twin


def rounded_worths(solution: np.ndarray) -> tuple[np.ndarray, int]:
    """The arrangements' worths (``design``'s columns but the last) made exactly symmetric
    (an arrangement and its twin turned round, colours swapped, worth the opposite) and
    rounded, and a king's worth (the last column is its change)."""
    worths = solution[:-1].reshape(2, -1, rules.ARRANGEMENTS)
    region_twin, index_twin = twins()
    worths = (worths - worths[:, region_twin][:, :, index_twin]) / 2
    return np.rint(worths).astype(np.int16), rules.KING + round(float(solution[-1]))


def fit(paths: list[Path], damp: float, limit: float, output: Path) -> None:
    items = [item for path in paths for item in read(path, limit)]
    held_out = np.random.default_rng(1).random(len(items)) < 0.1
    matrix, targets = design([item for item, out in zip(items, held_out, strict=True) if not out], True)
    test_matrix, test_targets = design([item for item, out in zip(items, held_out, strict=True) if out], False)
    print(f"fit: {len(items)} positions with scores within {limit:.0f}, {int(held_out.sum())} held out")
    solution = lsqr(matrix, targets, damp=damp, iter_lim=2000, atol=1e-8, btol=1e-8)[0]
    patterns, king = rounded_worths(solution)
    rounded = np.append(patterns.ravel().astype(float), king - rules.KING)

    def error(vector: np.ndarray | None) -> float:
        found = test_matrix @ vector if vector is not None else 0.0
        return float(np.sqrt(np.mean((found - test_targets) ** 2)))

    print("held out, root-mean-square difference from dame-rs's scores (hundredths):")
    print(f"  the per-square evaluation alone {error(None):.1f}, with the patterns {error(rounded):.1f}")
    print(f"a king: {king} (per-square evaluation: {rules.KING}); arrangements with a worth: {(patterns != 0).sum()}")
    np.savez_compressed(output, patterns=patterns, king=np.int64(king))
    print(f"written: {output}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--depth", type=int, default=7, help="dame-rs's search depth for the scores")
    parser.add_argument("--damp", type=float, default=1.0, help="the ridge penalty")
    parser.add_argument("--limit", type=float, default=600, help="leave out scores beyond this (hundredths)")
    parser.add_argument("--work", type=Path, default=Path("patterns"), help="directory for the positions and scores")
    parser.add_argument(
        "--also", type=Path, nargs="*", default=[], help="other runs' directories whose scores are fitted too"
    )
    parser.add_argument("--output", type=Path, default=rules.PATTERN_FILE)
    parser.add_argument("--steps", nargs="+", choices=["sample", "label", "fit"], default=["sample", "label", "fit"])
    arguments = parser.parse_args()
    arguments.work.mkdir(parents=True, exist_ok=True)
    positions, scores = arguments.work / "positions.txt", arguments.work / f"scores_depth{arguments.depth}.txt"
    if "sample" in arguments.steps:
        sample(arguments.games, arguments.seed, positions)
    if "label" in arguments.steps:
        label(positions, scores, arguments.depth)
    if "fit" in arguments.steps:
        paths = [scores, *(work / scores.name for work in arguments.also)]
        fit(paths, arguments.damp, arguments.limit, arguments.output)


if __name__ == "__main__":
    main()
