"""Fits the worths of the men's arrangements in the draughts board's sixteen 4x4 regions
(``negamax.games.draughts.evaluation``) by logistic regression on the engine's own
self-play games.

Three steps (the second optional), each kept in files so that a run can be resumed, spread over
processes or refitted:

1. ``play``: games of the compiled engine against itself at a few node limits
   (``--nodes``), the first ``--random-plies`` plies random so that games differ. Each quiet
   position (no capture for the side to move) is written with the game's number, the
   engine's search score from White's side, and, once the game is over, the game's result
   for White (1, 1/2 or 0). A game ends by the rules, or is adjudicated: won once the score
   stays beyond ``ADJUDICATE_WIN`` for ``ADJUDICATE_PLIES`` plies, drawn at ``--longest``
   plies unless the score is then beyond ``ADJUDICATE_DRAW``.
2. ``rescore`` (optional): a sample of the positions (``--sample``) searched again at far more
   nodes (``--nodes``), written with that score in place of the game's to ``--into``'s
   ``games.txt``, so that ``fit --work INTO`` learns from searches nearer the depth the
   engine plays at. A second round fitted on the games' own scores at a few thousand nodes
   lost 26 Elo (journal, 6 December).
3. ``fit``: the worths (two an arrangement, with all 40 men on the board and with none,
   blended by the men left, as the evaluation does) such that ``sigmoid(scale *
   evaluation)`` comes closest in cross-entropy to a target that mixes the game's result
   with the search score (``--result-share``). The scale is first fitted to the shipped
   evaluation; the worths start from the shipped ones and are pulled towards them
   (``--prior-positions``), so that arrangements seldom seen keep their worth. A king's
   worth is kept unless ``--fit-king``: games at a few thousand nodes a move convert a
   king's edge poorly, and their results put a king at 1.5-2 men. What a king adds on each
   square (``king_squares``) and the first king's and each further king's bonus
   (``king_counts``) are kept too; ``--fit-king-terms`` fits those alone, the arrangements
   and the king held (first on 59,158 rescored positions' search scores alone,
   ``--result-share 0``, 21,426 with kings: the long diagonal 20 to 55 above the rest, the
   first king 83 more, each further one 37 less; the shipped ones with ``--deep``, below).
   Each position is used with the board turned round and the colours swapped too. A tenth
   of the games is held out, and their cross-entropy against the game results and against
   the search scores is printed for the per-square evaluation alone, the shipped worths and the
   fitted ones (on rescored positions the second is the one to watch: the refit that lost
   26 Elo came closer to the shallow games' results but further from deeper searches).
   With ``--deep INTO...``, the rescored positions of the same ``--work`` games are fitted
   with the games' positions, each counted ``--deep-weight`` times and aimed at its deep
   score alone; the scale is then fitted on them, and a game held out is held out in both.

Run: ``python tools/train_draughts_patterns.py play --games 4000 --seed 1 --work games``
(one process a core, each with its own seed and ``--work``), optionally
``python tools/train_draughts_patterns.py rescore --work games games2 --into deep1 --part 1/2``
(and ``--into deep2 --part 2/2`` beside it), then
``python tools/train_draughts_patterns.py fit --work games games2 --deep deep1 deep2 --output patterns.npz``
(the rescored positions alone: ``fit --work deep1 deep2``, where a game with positions in both
parts counts as two for the held-out tenth). The ``--deep`` directories must be rescored
from the same ``--work`` files, in the same order, with no games added since: the fit stops
if a rescored position is not in its game.
The shipped ``patterns.npz`` comes from dame-rs's scores (``fit_draughts_patterns.py``),
then four fits, each from the worths shipped before it: the default fit of two ``play``
runs (16,976 games at 800, 2,000 and 5,000 nodes a move, 2,016,546 positions, an hour on two
cores); the king terms, ``--fit-king-terms --result-share 0`` on 59,158 rescored positions;
then the arrangements again, ``--deep`` with the default weight of 30, on 1,793,578
positions of 15,037 games at 1,000, 3,000 and 8,000 nodes a move and 100,000 of them
rescored at 300,000 nodes (``--sample 100000``, about two hours on two cores). That fit
takes about three CPU-minutes and 7 GB, and brought the held-out rescored positions'
cross-entropy against their deep scores from 0.51378 to 0.51241, against their games'
results from 0.51323 to 0.51012. Last, the king terms again, ``--fit-king-terms --deep``
with the default weight of 30, on 987,175 positions of 8,393 games at 1,000, 3,000 and
8,000 nodes a move and 84,861 of them rescored (under a minute; its figures: journal, 7
December). A king's worth has not been refitted since dame-rs's.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import numpy as np
from scipy.optimize import minimize
from scipy.sparse import csr_matrix, hstack, vstack

import benchmark_path  # noqa: F401  (the benchmarks' modules below)
from fit_draughts_patterns import SQUARES, rounded_worths
from ladder_elo import LOG_SCALE
from negamax.core.types import SearchLimits
from negamax.engines.engine import Engine
from negamax.games.draughts import evaluation as rules
from negamax.games.draughts.rules import DraughtsGame

ADJUDICATE_WIN = 800
"""A score (hundredths of a man, from the side to move) that counts as won..."""
ADJUDICATE_PLIES = 6
"""...once every search for this many plies in a row has agreed."""
ADJUDICATE_DRAW = 250
"""At the ply limit, a score within this is a draw, beyond it a win."""
KING_COLUMN = 2 * len(rules.regions(SQUARES)) * rules.ARRANGEMENTS
"""``evaluation_rows``' columns: the arrangements' worths in both phases, then a king's
worth (its change from ``rules.KING``), then what a king adds on each square
(``KING_SQUARE_COLUMNS``), then the first king's bonus and each further king's
(``KING_COUNT_COLUMNS``)."""
KING_SQUARE_COLUMNS = slice(KING_COLUMN + 1, KING_COLUMN + 1 + SQUARES)
KING_COUNT_COLUMNS = slice(KING_SQUARE_COLUMNS.stop, KING_SQUARE_COLUMNS.stop + 2)
KING_TERM_COLUMNS = slice(KING_SQUARE_COLUMNS.start, KING_COUNT_COLUMNS.stop)


def play_games(games: int, seed: int, path: Path, nodes: tuple[int, ...], random_plies: int, longest: int) -> None:
    """Appends ``games`` more games' positions to ``path`` (numbered after those there)."""
    game = DraughtsGame("draughts")
    engine = Engine(game)
    engine.searcher.prepare()
    first = 0
    if path.exists():
        text = path.read_text()
        if text and not text.endswith("\n"):  # a run stopped while writing: drop the cut line
            text = text[: text.rfind("\n") + 1]
            path.write_text(text)
        for line in text.splitlines():
            first = max(first, int(line.split()[0]) + 1)
    start = time.perf_counter()
    written = 0
    with path.open("a") as out:
        for number in range(first, first + games):
            chooser = random.Random(seed * 1_000_003 + number)  # a game's own, so a resumed run plays new ones
            position = game.new_position(None)
            rows: list[str] = []
            winning_plies = 0  # plies in a row the same side has led by ADJUDICATE_WIN
            last_leader = 0
            result = None
            for ply in range(longest):
                end = position.game_end()
                if end is not None:
                    value = end[0]
                    white_to_move = position.player() == 0
                    result = 0.5 if value == 0 else float((value > 0) == white_to_move)
                    break
                moves = position.legal_moves()
                if ply < random_plies:
                    position.play(chooser.choice(moves))
                    continue
                found = engine.analyse(position, SearchLimits(nodes=chooser.choice(nodes)))
                if found.best_move is None:  # a draw by a rule the search applies early (a repetition)
                    result = 0.5
                    break
                board = position.board
                white_to_move = position.player() == 0
                white_score = found.score if white_to_move else -found.score
                if "x" not in moves[0]:
                    masks = (board.white_men, board.white_kings, board.black_men, board.black_kings)
                    rows.append(f"{number} {' '.join(map(str, masks))} {int(white_to_move)} {white_score}")
                leader = (white_score >= ADJUDICATE_WIN) - (white_score <= -ADJUDICATE_WIN)
                winning_plies = winning_plies + 1 if leader and leader == last_leader else int(leader != 0)
                last_leader = leader
                if winning_plies >= ADJUDICATE_PLIES:
                    result = float(white_score > 0)
                    break
                position.play(found.best_move)
            if result is None:  # the ply limit: drawn unless clearly won
                last = engine.analyse(position, SearchLimits(nodes=max(nodes))).score
                last = last if position.player() == 0 else -last
                result = 0.5 if abs(last) <= ADJUDICATE_DRAW else float(last > 0)
            for row in rows:
                out.write(f"{row} {result}\n")
            written += len(rows)
            out.flush()
            if (number + 1 - first) % 50 == 0:
                elapsed = time.perf_counter() - start
                print(f"play: {number + 1 - first} games, {written} positions, {elapsed:.0f} s", flush=True)


def position_fen(white_men: int, white_kings: int, black_men: int, black_kings: int, white: bool) -> str:
    """The FEN of a position written by ``play`` (bit ``s``: square ``s + 1``)."""

    def pieces(men: int, kings: int) -> str:
        squares = [(square, "") for square in range(64) if men >> square & 1]
        squares += [(square, "K") for square in range(64) if kings >> square & 1]
        return ",".join(f"{king}{square + 1}" for square, king in sorted(squares))

    return f"{'W' if white else 'B'}:W{pieces(white_men, white_kings)}:B{pieces(black_men, black_kings)}"


def rescore_games(sources: list[Path], path: Path, sample: int, nodes: int, seed: int, part: tuple[int, int]) -> None:
    """Writes to ``path`` part ``part[0]`` of ``part[1]`` of ``sample`` positions drawn from
    ``sources`` (games numbered apart across files, as ``read_games`` does), each with the
    score of a search of ``nodes`` nodes from White's side in place of the game's. Each
    search starts on an empty table, so a score depends on its position alone and a stopped
    run resumes where it ended. A position is rebuilt from its pieces: the game's move
    counters for the FMJD's draw rules are not kept (a label, not a game)."""
    lines: list[str] = []
    offsets: list[int] = []
    for offset, line in numbered_lines(sources):
        lines.append(line)
        offsets.append(offset)
    chosen = sorted(random.Random(seed).sample(range(len(lines)), min(sample, len(lines))))
    number, parts = part
    chosen = chosen[number - 1 :: parts]

    def position_words(index: int) -> list[str]:
        words = lines[index].split()
        return [str(offsets[index] + int(words[0])), *words[1:]]

    done: list[str] = []
    if path.exists():
        text = path.read_text()
        text = text[: text.rfind("\n") + 1]  # drop a line cut short by a stopped run
        done = text.splitlines()
        if len(done) > len(chosen) or any(
            line.split()[:6] != position_words(index)[:6] for line, index in zip(done, chosen, strict=False)
        ):
            raise SystemExit(f"{path}: not this sample's positions (the games, --sample, --seed or --part changed)")
        path.write_text(text)
    game = DraughtsGame("draughts")
    engine = Engine(game)
    engine.searcher.prepare()
    start = time.perf_counter()
    with path.open("a") as out:
        for count, index in enumerate(chosen[len(done) :], start=len(done) + 1):
            words = position_words(index)
            masks = tuple(int(word) for word in words[1:5])
            white = words[5] == "1"
            position = game.new_position(position_fen(*masks, white))
            board = position.board
            if (board.white_men, board.white_kings, board.black_men, board.black_kings) != masks:
                raise ValueError(f"position {words[:6]} read back differently: the squares' numbering changed")
            engine.new_game()
            found = engine.analyse(position, SearchLimits(nodes=nodes))
            white_score = found.score if white else -found.score
            out.write(f"{' '.join(words[:6])} {white_score} {words[7]}\n")
            out.flush()
            if count % 100 == 0:
                elapsed = time.perf_counter() - start
                print(f"rescore: {count} of {len(chosen)} positions, {elapsed:.0f} s", flush=True)


Labelled = tuple[list[tuple[int, int, int, int, bool]], np.ndarray, np.ndarray, np.ndarray]


def numbered_lines(paths: list[Path]) -> Iterator[tuple[int, str]]:
    """Each whole line of the games files in ``paths`` with the offset that numbers its game
    apart from the games of the files before it."""
    offset = 0
    for path in paths:
        most = -1
        for line in path.read_text().splitlines():
            words = line.split()
            if len(words) == 8:  # not a line cut short by a run stopped while writing
                most = max(most, int(words[0]))
                yield offset, line
        offset += most + 1


def read_games(paths: list[Path], renumber: bool = True) -> Labelled:
    """Every position of the games in ``paths``: the positions, their games (numbered apart
    across files; with ``renumber`` false, as written: rescore has given them their games'
    numbers already), the search scores and the results, both from White's side."""
    positions, games, scores, results = [], [], [], []
    lines = numbered_lines(paths) if renumber else ((0, line) for _, line in numbered_lines(paths))
    for offset, line in lines:
        words = line.split()
        white_men, white_kings, black_men, black_kings, white = (int(word) for word in words[1:6])
        positions.append((white_men, white_kings, black_men, black_kings, bool(white)))
        games.append(offset + int(words[0]))
        scores.append(float(words[6]))
        results.append(float(words[7]))
    return positions, np.array(games), np.array(scores), np.array(results)


def evaluation_rows(positions: list[tuple[int, int, int, int, bool]]) -> tuple[csr_matrix, np.ndarray]:
    """The columns of ``fit_draughts_patterns.design`` for each position then its
    turned-round twin (the same rows, computed on arrays: millions of positions), then one a
    square for the kings on it (a White king counts 1 on its square, a Black king -1 on the
    square the board turned round puts it on), two for the kings counted (whether White has
    one less whether Black has; White's kings past the first less Black's), and the
    per-square evaluation of each row
    (with the side to move's bonus, a king at its worth before ``king_squares``), from
    White's side."""
    weights = rules.ManWeights(SQUARES, patterns=False)
    regions = rules.regions(SQUARES)
    masks = np.array([position[:4] for position in positions], dtype=np.uint64).reshape(-1, 4)
    squares = np.arange(SQUARES, dtype=np.uint64)
    white_men, white_kings, black_men, black_kings = (
        ((masks[:, column, None] >> squares) & np.uint64(1)).astype(np.int8) for column in range(4)
    )
    white = np.array([position[4] for position in positions], dtype=bool)
    # the twin: the board turned round (square s becomes 49 - s) and the colours swapped
    turned = [side[:, ::-1] for side in (black_men, black_kings, white_men, white_kings)]
    order = np.arange(2 * len(positions)).reshape(2, -1).T.ravel()  # each position, then its twin
    white_men, white_kings, black_men, black_kings = (
        np.concatenate([side, twin])[order]
        for side, twin in zip((white_men, white_kings, black_men, black_kings), turned, strict=True)
    )
    white = np.concatenate([white, ~white])[order]
    king_difference = white_kings.sum(axis=1, dtype=np.int64) - black_kings.sum(axis=1, dtype=np.int64)
    base = white_men @ np.array(weights.white_man) - black_men @ np.array(weights.black_man)
    base = base + weights.king * king_difference + np.where(white, rules.TEMPO, -rules.TEMPO)
    men = white_men.sum(axis=1, dtype=np.int64) + black_men.sum(axis=1, dtype=np.int64)
    full = np.minimum(men, rules.FULL_MEN) / rules.FULL_MEN
    phase_width = len(regions) * rules.ARRANGEMENTS
    rows = len(white)
    columns = np.empty((rows, 2 * len(regions) + 1), dtype=np.int64)
    values = np.empty(columns.shape)
    for number, region in enumerate(regions):
        digits = 3 ** np.arange(len(region))
        index = (white_men[:, region] + 2 * black_men[:, region]).astype(np.int64) @ digits
        columns[:, 2 * number] = number * rules.ARRANGEMENTS + index
        columns[:, 2 * number + 1] = phase_width + number * rules.ARRANGEMENTS + index
        values[:, 2 * number] = full
        values[:, 2 * number + 1] = 1 - full
    columns[:, -1] = 2 * phase_width
    values[:, -1] = king_difference
    pointers = np.arange(rows + 1) * columns.shape[1]
    matrix = csr_matrix((values.ravel(), columns.ravel(), pointers), shape=(rows, 2 * phase_width + 1))
    kings_on = csr_matrix(white_kings - black_kings[:, ::-1], dtype=float)
    white_count = white_kings.sum(axis=1, dtype=np.int64)
    black_count = black_kings.sum(axis=1, dtype=np.int64)
    counted = np.column_stack(
        [
            (white_count > 0).astype(np.int64) - (black_count > 0),
            np.maximum(white_count - 1, 0) - np.maximum(black_count - 1, 0),
        ]
    )
    return hstack([matrix, kings_on, csr_matrix(counted, dtype=float)], format="csr"), base.astype(float)


def sigmoid(values: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-np.clip(values, -50, 50)))


def cross_entropy(predicted: np.ndarray, wanted: np.ndarray, weights: np.ndarray | None = None) -> float:
    """The mean cross-entropy, each row counted ``weights`` times (once if none)."""
    predicted = np.clip(predicted, 1e-9, 1 - 1e-9)
    return float(-np.average(wanted * np.log(predicted) + (1 - wanted) * np.log(1 - predicted), weights=weights))


def shipped_vector() -> np.ndarray:
    """The shipped worths, king, kings' squares and counts as ``evaluation_rows``' columns
    (the king as its change)."""
    with np.load(rules.PATTERN_FILE) as shipped:
        on_square = shipped["king_squares"] if "king_squares" in shipped else np.zeros(SQUARES)
        counts = shipped["king_counts"] if "king_counts" in shipped else np.zeros(2)
        king = float(shipped["king"]) - rules.KING
        vectors = [shipped["patterns"].astype(float).ravel(), [king], on_square.astype(float), counts.astype(float)]
        return np.concatenate(vectors)


def fit_worths(
    matrix: csr_matrix,
    base: np.ndarray,
    wanted: np.ndarray,
    prior: np.ndarray,
    scale: float,
    prior_positions: float,
    fit_king: bool,
    fit_king_terms: bool = False,
    weights: np.ndarray | None = None,
) -> np.ndarray:
    """The worths minimising the mean cross-entropy of ``sigmoid(scale * LOG_SCALE * (base +
    matrix @ worths))`` against ``wanted`` (each row counted ``weights`` times, once if
    none), plus a pull towards ``prior``: as strong as ``prior_positions`` positions at an
    even score that hold the worth (so a worth seen in fewer positions moves little). The
    king's worth stays at the prior's unless ``fit_king``; with ``fit_king_terms``, what a
    king adds on each square and the kings' counts are fitted, and the arrangements are held
    at the prior's."""
    slope = scale * LOG_SCALE
    counted = np.ones(matrix.shape[0]) if weights is None else weights
    rows = float(counted.sum())
    # a position at an even score curves the mean cross-entropy by slope**2 / 4 / rows; the pull by 2 * ridge
    ridge = prior_positions * slope**2 / 4 / 2 / rows
    transposed = matrix.T.tocsr()

    def loss(worths: np.ndarray) -> tuple[float, np.ndarray]:
        # summed over the positions, not averaged: the optimiser's gradient tolerance is absolute
        predicted = np.clip(sigmoid(slope * (base + matrix @ worths)), 1e-9, 1 - 1e-9)
        entropy = rows * cross_entropy(predicted, wanted, counted)
        gradient = slope * (transposed @ (counted * (predicted - wanted)))
        distance = worths - prior
        return float(entropy + rows * ridge * distance @ distance), gradient + 2 * rows * ridge * distance

    bounds: list[tuple[float | None, float | None]] = [(None, None)] * len(prior)
    fixed = [] if fit_king else [KING_COLUMN]
    fixed += list(range(KING_COLUMN)) if fit_king_terms else list(range(len(prior))[KING_TERM_COLUMNS])
    for column in fixed:
        bounds[column] = (prior[column], prior[column])
    found = minimize(loss, prior.copy(), jac=True, method="L-BFGS-B", bounds=bounds, options={"maxiter": 400})
    print(f"fit: {found.nit} iterations, {found.message}", flush=True)
    return np.asarray(found.x)


class LabelledRows(NamedTuple):
    """Games files' positions as ``evaluation_rows``' rows (each position, then its twin
    with the colours swapped: the result and score turned), and which rows are held out."""

    matrix: csr_matrix
    base: np.ndarray
    results: np.ndarray
    scores: np.ndarray
    held_out: np.ndarray


class RescoredMismatch(ValueError):
    """Rescored positions that are not their games' (``check_rescored``)."""


def check_rescored(played: Labelled, deep: Labelled) -> None:
    """Raises ``RescoredMismatch`` unless every rescored position is a position of its game in
    ``played``: else the two sets' games are not numbered alike, and a game held out of one
    would be trained on in the other."""
    if not deep[0]:
        raise RescoredMismatch("no rescored positions: rescore has not written any yet")
    known = {(game, *position) for position, game in zip(played[0], played[1].tolist(), strict=True)}
    for position, game in zip(deep[0], deep[1].tolist(), strict=True):
        if (game, *position) not in known:
            raise RescoredMismatch(
                f"a rescored position of game {game} is not in that game: rescore them from these --work games, "
                "in this order, with none added since"
            )


def labelled_rows(labelled: Labelled, held_games: np.ndarray) -> LabelledRows:
    """The rows of ``labelled``'s positions; held out where their game is in ``held_games``."""
    positions, games, scores, results = labelled
    matrix, base = evaluation_rows(positions)
    twin_results = np.column_stack([results, 1 - results]).ravel()
    twin_scores = np.column_stack([scores, -scores]).ravel()
    return LabelledRows(matrix, base, twin_results, twin_scores, np.repeat(held_games[games], 2))


def fit(
    paths: list[Path],
    result_share: float,
    prior_positions: float,
    fit_king: bool,
    output: Path,
    fit_king_terms: bool = False,
    deep_paths: list[Path] | None = None,
    deep_weight: float = 30.0,
) -> dict[str, tuple[float, float]]:
    """Fits and writes the worths to ``output``; returns, for the held-out games, each
    evaluation's cross-entropy against their results and against their search scores: of
    the rescored positions in ``deep_paths`` when given (fitted with the games', each
    counted ``deep_weight`` times, against its deep score alone), else of the games'."""
    played = read_games(paths)
    deep = read_games(deep_paths, renumber=False) if deep_paths else None
    if deep is not None:
        check_rescored(played, deep)
    last_game = int(played[1].max())
    # a game's draw is the same in both sets: the rescored positions keep their games' numbers
    held_games = np.random.default_rng(1).random(last_game + 1) < 0.1
    sources = {"games": played} | ({"rescored": deep} if deep is not None else {})
    sets = {name: labelled_rows(labelled, held_games) for name, labelled in sources.items()}
    for name, (positions, games, _, _) in sources.items():
        held_out = int(held_games[games].sum())
        print(f"fit: {name}: {len(positions)} positions of {len(np.unique(games))} games, {held_out} held out")
    watched = sets["rescored" if deep else "games"]
    prior = shipped_vector()
    scales = np.arange(0.2, 3.0, 0.02)
    train = ~watched.held_out
    shipped = watched.base[train] + watched.matrix[train] @ prior

    def result_entropy(scale: float) -> float:
        return cross_entropy(sigmoid(scale * LOG_SCALE * shipped), watched.results[train])

    scale = float(min(scales, key=result_entropy))
    slope = scale * LOG_SCALE
    print(f"fit: the scale that fits the shipped evaluation to the results best: {scale:.2f}")
    matrices, bases, targets, weights = [], [], [], []
    for name, rows in reversed(sets.items()):  # the rescored positions first: the shipped fit's order
        train = ~rows.held_out
        searched = sigmoid(slope * rows.scores[train])
        share = result_share if name == "games" else 0.0
        matrices.append(rows.matrix[train])
        bases.append(rows.base[train])
        targets.append(share * rows.results[train] + (1 - share) * searched)
        weights.append(np.full(len(searched), 1.0 if name == "games" else deep_weight))
    worths = fit_worths(
        vstack(matrices, format="csr"),
        np.concatenate(bases),
        np.concatenate(targets),
        prior,
        scale,
        prior_positions,
        fit_king,
        fit_king_terms,
        np.concatenate(weights) if deep else None,
    )
    rounded, king = rounded_worths(worths[: KING_COLUMN + 1])
    on_square = np.rint(worths[KING_SQUARE_COLUMNS]).astype(np.int16)
    counts = np.rint(worths[KING_COUNT_COLUMNS]).astype(np.int16)
    rounded_vector = np.concatenate([rounded.ravel().astype(float), [king - rules.KING], on_square, counts])
    held_out_figures: dict[str, tuple[float, float]] = {}
    for name, rows in sets.items():
        print(f"held-out {name}, cross-entropy against their results, and against their search scores:")
        if not rows.held_out.any():
            print("  none held out (too few games)")
            continue
        matrix, base = rows.matrix[rows.held_out], rows.base[rows.held_out]
        alone = np.zeros_like(prior)
        evaluations = (("the per-square evaluation alone", alone), ("shipped", prior), ("fitted", rounded_vector))
        searched = sigmoid(slope * rows.scores[rows.held_out])
        for evaluation, vector in evaluations:
            predicted = sigmoid(slope * (base + matrix @ vector))
            figures = (cross_entropy(predicted, rows.results[rows.held_out]), cross_entropy(predicted, searched))
            print(f"  {evaluation}: {figures[0]:.5f}, {figures[1]:.5f}")
            if rows is watched:
                held_out_figures[evaluation] = figures
    changed = int((rounded != np.rint(prior[:KING_COLUMN]).reshape(rounded.shape)).sum())
    print(f"a king: {king}; on each square, row by row, {on_square.tolist()}; the first king, a further one: ", end="")
    print(f"{counts.tolist()}; arrangements changed: {changed}")
    np.savez_compressed(output, patterns=rounded, king=np.int64(king), king_squares=on_square, king_counts=counts)
    print(f"written: {output} ({output.stat().st_size:,} bytes)")
    return held_out_figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=["play", "rescore", "fit"])
    parser.add_argument("--work", type=Path, nargs="+", default=[Path("games")], help="directories of games")
    parser.add_argument("--games", type=int, default=1000, help="play: games to add")
    parser.add_argument("--seed", type=int, default=1, help="play: the openings' seed; rescore: the sample's")
    parser.add_argument(
        "--nodes", type=int, nargs="+", help="play: node limits (default 1000 2500 6000); rescore: one (default 300000)"
    )
    parser.add_argument("--sample", type=int, default=100_000, help="rescore: positions to search again")
    parser.add_argument("--into", type=Path, help="rescore: the directory of the rescored positions")
    parser.add_argument(
        "--part", default="1/1", metavar="I/N", help="rescore: every Nth of the sample from the Ith, one process each"
    )
    parser.add_argument("--random-plies", type=int, default=6)
    parser.add_argument("--longest", type=int, default=240, help="play: plies before a game is adjudicated")
    parser.add_argument("--result-share", type=float, default=0.5, help="fit: the result's share of the target")
    parser.add_argument(
        "--prior-positions",
        type=float,
        default=300,
        help="fit: the pull towards the shipped worths, as so many positions' evidence",
    )
    parser.add_argument(
        "--fit-king",
        action="store_true",
        help="fit: refit a king's worth too (self-play at a few thousand nodes a move undervalues kings)",
    )
    parser.add_argument(
        "--fit-king-terms",
        action="store_true",
        help="fit: what a king adds on each square and the kings' counts, the rest held (best on rescored positions)",
    )
    parser.add_argument(
        "--deep",
        type=Path,
        nargs="+",
        metavar="INTO",
        help="fit: rescored positions of these --work games (rescore's --into), fitted with them to their deep scores",
    )
    parser.add_argument(
        "--deep-weight", type=float, default=30.0, help="fit: how many of the games' positions a rescored one counts as"
    )
    parser.add_argument("--output", type=Path, default=Path("patterns.npz"))
    arguments = parser.parse_args()
    files = [work / "games.txt" for work in arguments.work]
    if arguments.deep and arguments.step != "fit":
        parser.error("--deep is for fit only")
    if not (math.isfinite(arguments.deep_weight) and arguments.deep_weight > 0):
        parser.error(f"--deep-weight {arguments.deep_weight}: give a positive number of positions")
    if arguments.step == "play":
        arguments.work[0].mkdir(parents=True, exist_ok=True)
        play_games(
            arguments.games,
            arguments.seed,
            files[0],
            tuple(arguments.nodes or (1000, 2500, 6000)),
            arguments.random_plies,
            arguments.longest,
        )
    elif absent := [str(file) for file in files if not file.is_file()]:
        parser.error(f"no games at {', '.join(absent)}: play writes them")
    elif absent := [str(deep / "games.txt") for deep in arguments.deep or [] if not (deep / "games.txt").is_file()]:
        parser.error(f"no rescored positions at {', '.join(absent)}: rescore writes them")
    elif arguments.step == "rescore":
        if arguments.into is None:
            parser.error("rescore needs --into, the directory to write the rescored positions to")
        if arguments.nodes is not None and len(arguments.nodes) != 1:
            parser.error("rescore searches every position at one node limit: give one --nodes")
        if arguments.into.resolve() in {work.resolve() for work in arguments.work}:
            parser.error("rescore writes to --into: give a directory other than the games' own")
        number, _, parts = arguments.part.partition("/")
        if not (number.isdigit() and parts.isdigit() and 1 <= int(number) <= int(parts)):
            parser.error(f"--part {arguments.part}: give I/N with 1 <= I <= N, as 1/2")
        if arguments.sample < 1:
            parser.error("--sample: give a number of positions, at least 1")
        arguments.into.mkdir(parents=True, exist_ok=True)
        nodes = arguments.nodes[0] if arguments.nodes else 300_000
        part = (int(number), int(parts))
        rescore_games(files, arguments.into / "games.txt", arguments.sample, nodes, arguments.seed, part)
    else:
        try:
            fit(
                files,
                arguments.result_share,
                arguments.prior_positions,
                arguments.fit_king,
                arguments.output,
                arguments.fit_king_terms,
                [deep / "games.txt" for deep in arguments.deep] if arguments.deep else None,
                arguments.deep_weight,
            )
        except RescoredMismatch as error:
            parser.error(str(error))


if __name__ == "__main__":
    main()
