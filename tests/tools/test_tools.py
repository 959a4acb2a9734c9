"""The pipelines that produce the shipped weights (``tools/``), each run on a tiny input:
every script starts as ``tools/README.md`` gives it, and each fit finds what was planted
in its data."""

from __future__ import annotations

import importlib
import importlib.util
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import chess
import numpy as np
import pytest

import negamax

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools"
SOURCE = Path(negamax.__file__).resolve().parents[1]
"""The package these tests import, which the scripts run in another process must import too."""
NEEDS = {
    "chess_positions.py": [],
    "fit_chess.py": ["scipy"],
    "train_chess_network.py": ["scipy"],
    "fit_draughts.py": ["draughts"],
    "fit_draughts_patterns.py": ["draughts", "scipy"],
    "tune_draughts.py": [],
    "train_draughts_patterns.py": ["draughts", "scipy"],
}
"""Each script's packages beyond the package's own dependencies (the ``bench`` extras)."""


def missing(script: str) -> list[str]:
    return [name for name in NEEDS[script] if importlib.util.find_spec(name) is None]


def run_tool(script: str, *arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python tools/SCRIPT ARGUMENTS`` from ``cwd``, on this checkout's package."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SOURCE), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, str(TOOLS / script), *arguments],
        capture_output=True,
        text=True,
        env=environment,
        cwd=cwd,
        timeout=600,
    )


@pytest.fixture
def tool(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], ModuleType]:
    """Imports a tool by its module name, as the scripts import each other."""
    monkeypatch.syspath_prepend(str(TOOLS))

    def load(name: str) -> ModuleType:
        skipped = missing(f"{name}.py")
        if skipped:
            pytest.skip(f"needs {', '.join(skipped)} (the bench extras)")
        return importlib.import_module(name)

    return load


def test_every_script_is_listed() -> None:
    assert sorted(NEEDS) == sorted(path.name for path in TOOLS.glob("*.py") if path.name != "benchmark_path.py")


@pytest.mark.parametrize("script", sorted(set(NEEDS) - {"chess_positions.py"}))  # that one runs below
def test_each_script_starts_from_any_directory(script: str, tmp_path: Path) -> None:
    if missing(script):
        pytest.skip(f"needs {', '.join(missing(script))} (the bench extras)")
    finished = run_tool(script, "--help", cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.startswith("usage: ")


def random_boards(count: int, seed: int) -> list[chess.Board]:
    """Positions of random games, from the 8th ply on, at most ten a game."""
    generator = random.Random(seed)
    boards: list[chess.Board] = []
    while len(boards) < count:
        board = chess.Board()
        for ply in range(generator.randint(10, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(generator.choice(moves))
            if ply >= 8 and ply % 7 == 0 and len(boards) < count:
                boards.append(board.copy(stack=False))
    return boards


def test_fit_chess_moves_the_weights_towards_those_the_scores_came_from(tool: Callable[[str], ModuleType]) -> None:
    fit_chess = tool("fit_chess")
    boards = random_boards(200, seed=3)
    matrix = fit_chess.design(boards)
    prior = fit_chess.pesto_weights()
    planted = prior.copy()
    knights = slice(64, 128)  # a knight is worth 60 more in the midgame, wherever it stands
    planted[knights] += 60
    scale = 1.0
    wanted = fit_chess.sigmoid(fit_chess.LOG_SCALE * scale * (matrix @ planted))

    def loss(weights: np.ndarray) -> float:
        return float(np.mean((fit_chess.sigmoid(fit_chess.LOG_SCALE * scale * (matrix @ weights)) - wanted) ** 2))

    fitted = fit_chess.fit(matrix, wanted, prior, scale, ridge=1e-9)
    assert fitted.shape == (fit_chess.COLUMNS,)
    assert loss(fitted) < loss(prior) / 10
    planted_shift, fitted_shift = matrix @ (planted - prior), matrix @ (fitted - prior)
    # half of the planted worth found, position by position (fitting nothing leaves all of it)
    assert np.mean(np.abs(fitted_shift - planted_shift)) < np.mean(np.abs(planted_shift)) / 2
    written: dict[str, object] = {}
    exec(fit_chess.weights_module(fitted, len(boards), "none"), written)
    assert np.array(written["MIDGAME_SQUARES"]).shape == (6, 64)
    assert np.array(written["STRUCTURE_ENDGAME"]).shape == (fit_chess.TERMS - fit_chess.STRUCTURE,)


STOCKFISH = shutil.which("stockfish") or shutil.which("/usr/games/stockfish")


@pytest.mark.skipif(STOCKFISH is None, reason="no Stockfish (Debian: apt-get install stockfish)")
def test_chess_positions_keeps_quiet_positions_and_resumes_without_repeating(tmp_path: Path) -> None:
    positions = tmp_path / "positions.txt"
    first = run_tool("chess_positions.py", str(positions), "--games", "1", "--nodes", "50", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    lines = positions.read_text().splitlines()
    assert f"{len(lines):,} positions added" in first.stdout
    again = run_tool("chess_positions.py", str(positions), "--games", "1", "--nodes", "50", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    lines = positions.read_text().splitlines()
    fens = [line.rsplit(";", 1)[0] for line in lines]
    assert len(lines) > 10
    assert len(set(fens)) == len(fens)  # the second run skipped what the first kept
    for line in lines:
        fen, score = line.rsplit(";", 1)
        board = chess.Board(fen)
        assert board.is_valid() and not board.is_check()
        assert board.halfmove_clock == 0
        int(score)


def test_fit_draughts_patterns_finds_a_planted_king_worth(tool: Callable[[str], ModuleType], tmp_path: Path) -> None:
    patterns = tool("fit_draughts_patterns")
    rules = patterns.rules
    weights = rules.ManWeights(patterns.SQUARES, patterns=False)
    generator = random.Random(5)
    lines = []
    for _ in range(300):
        squares = generator.sample(range(patterns.SQUARES), 20)
        masks = [0, 0, 0, 0]  # White's men and kings, Black's men and kings
        for number, square in enumerate(squares):
            side = 0 if number < 10 else 2
            masks[side + (generator.random() < 0.15)] |= 1 << square
        white = generator.random() < 0.5
        base = sum(weights.white_man[s] for s in range(patterns.SQUARES) if masks[0] >> s & 1)
        base -= sum(weights.black_man[s] for s in range(patterns.SQUARES) if masks[2] >> s & 1)
        kings = masks[1].bit_count() - masks[3].bit_count()
        base += weights.king * kings + (rules.TEMPO if white else -rules.TEMPO)
        white_score = base + 40 * kings  # a king is worth 40 more than the evaluation says
        score = white_score if white else -white_score
        lines.append(" ".join(str(value) for value in [*masks, int(white)]) + f" {score / 100}")
    scores = tmp_path / "scores.txt"
    scores.write_text("\n".join(lines) + "\n")
    output = tmp_path / "patterns.npz"
    patterns.fit([scores], damp=1.0, limit=1e9, output=output)
    with np.load(output) as fitted:
        assert abs(int(fitted["king"]) - (rules.KING + 40)) <= 1
        assert fitted["patterns"].shape == (2, len(rules.regions(patterns.SQUARES)), rules.ARRANGEMENTS)
        assert np.abs(fitted["patterns"]).max() <= 2  # the men's arrangements were worth nothing


def random_draughts_positions(count: int, seed: int) -> list[tuple[int, int, int, int, bool]]:
    """Positions with 2 to 40 pieces on random squares, a fifth of them kings."""
    generator = random.Random(seed)
    positions = []
    for _ in range(count):
        masks = [0, 0, 0, 0]  # White's men and kings, Black's men and kings
        for number, square in enumerate(generator.sample(range(50), generator.randint(2, 40))):
            masks[(0 if number % 2 else 2) + (generator.random() < 0.2)] |= 1 << square
        positions.append((masks[0], masks[1], masks[2], masks[3], generator.random() < 0.5))
    return positions


def test_train_draughts_patterns_computes_the_rows_of_the_least_squares_fit(
    tool: Callable[[str], ModuleType],
) -> None:
    train = tool("train_draughts_patterns")
    least_squares = tool("fit_draughts_patterns")
    positions = random_draughts_positions(300, seed=3)
    matrix, base = train.evaluation_rows(positions)
    expected, targets = least_squares.design([(position, 0.0) for position in positions], True)
    assert expected.shape == (600, 2 * 16 * 3**8 + 1) and matrix.shape == (600, expected.shape[1] + 52)
    assert abs(matrix[:, : expected.shape[1]] - expected).max() == 0
    # then a column a square for the kings: White's on theirs, Black's turned round, negative
    kings_on = matrix[:, train.KING_SQUARE_COLUMNS].toarray()
    for row, position in enumerate(positions):
        white_kings, black_kings = position[1], position[3]
        wanted = [(white_kings >> square & 1) - (black_kings >> (49 - square) & 1) for square in range(50)]
        assert kings_on[2 * row].tolist() == wanted and kings_on[2 * row + 1].tolist() == [-k for k in wanted]
    assert np.abs(kings_on).sum() > 0
    # and two for the kings counted: whether each side has one, and those past the first
    counted = matrix[:, train.KING_COUNT_COLUMNS].toarray()
    for row, position in enumerate(positions):
        white, black = position[1].bit_count(), position[3].bit_count()
        wanted = [(white > 0) - (black > 0), max(white - 1, 0) - max(black - 1, 0)]
        assert counted[2 * row].tolist() == wanted and counted[2 * row + 1].tolist() == [-k for k in wanted]
    assert np.array_equal(base, -targets)  # design's target for a score of 0 is minus the evaluation


def test_train_draughts_patterns_finds_a_planted_king_worth(tool: Callable[[str], ModuleType], tmp_path: Path) -> None:
    train = tool("train_draughts_patterns")
    positions = random_draughts_positions(2000, seed=8)
    matrix, base = train.evaluation_rows(positions)
    planted = train.shipped_vector()
    planted[train.KING_COLUMN] += 60  # a king is worth 60 more than the shipped evaluation says
    white_scores = (base + matrix @ planted)[::2]  # the rows alternate: a position, then its twin
    games = tmp_path / "games"
    games.mkdir()
    with (games / "games.txt").open("w") as out:
        for number, (position, score) in enumerate(zip(positions, white_scores, strict=True)):
            result = 1.0 if score > 100 else 0.0 if score < -100 else 0.5
            out.write(f"{number // 20} {' '.join(str(int(value)) for value in position)} {round(score)} {result}\n")
    output = tmp_path / "patterns.npz"
    held_out = train.fit([games / "games.txt"], result_share=0.0, prior_positions=0.01, fit_king=True, output=output)
    # the held-out games' search scores came from the planted worths: the fitted ones are nearer
    assert held_out["fitted"][1] < held_out["shipped"][1] < held_out["the per-square evaluation alone"][1]
    shipped = train.shipped_vector()
    with np.load(output) as fitted:
        assert abs(int(fitted["king"]) - (train.rules.KING + shipped[train.KING_COLUMN] + 60)) <= 3
        changed = fitted["patterns"].astype(float).ravel() - shipped[: train.KING_COLUMN]
        assert np.abs(changed).max() <= 3  # the arrangements kept their worths


@pytest.mark.parametrize("deep_weight", [30.0, 0.01])
def test_train_draughts_patterns_weighs_the_rescored_positions_against_the_games(
    tool: Callable[[str], ModuleType], tmp_path: Path, deep_weight: float
) -> None:
    train = tool("train_draughts_patterns")
    positions = random_draughts_positions(2000, seed=8)
    matrix, base = train.evaluation_rows(positions)
    shipped = train.shipped_vector()
    planted = shipped.copy()
    planted[train.KING_COLUMN] += 80  # the deeper searches find a king worth 80 more than the games' do
    games_scores, deep_scores = ((base + matrix @ vector)[::2] for vector in (shipped, planted))
    for name, scores in (("games", games_scores), ("deep", deep_scores)):  # the same positions, rescored
        (tmp_path / name).mkdir()
        with (tmp_path / name / "games.txt").open("w") as out:
            for number in range(len(positions)):
                result = 1.0 if scores[number] > 100 else 0.0 if scores[number] < -100 else 0.5
                position = " ".join(str(int(value)) for value in positions[number])
                out.write(f"{number // 20} {position} {round(scores[number])} {result}\n")
    output = tmp_path / "patterns.npz"
    held_out = train.fit(
        [tmp_path / "games" / "games.txt"],
        result_share=0.0,
        prior_positions=50,
        fit_king=True,
        output=output,
        deep_paths=[tmp_path / "deep" / "games.txt"],
        deep_weight=deep_weight,
    )
    with np.load(output) as fitted:
        found = int(fitted["king"]) - (train.rules.KING + shipped[train.KING_COLUMN])
    if deep_weight > 1:  # a rescored position counts as 30 games' ones: the deep searches' worth wins
        assert 65 <= found <= 80
        assert held_out["fitted"][1] < held_out["shipped"][1]  # the figures are the rescored positions'
    else:
        assert 0 <= found <= 15


def test_train_draughts_patterns_checks_the_rescored_positions_are_their_games(
    tool: Callable[[str], ModuleType], tmp_path: Path
) -> None:
    train = tool("train_draughts_patterns")
    positions = random_draughts_positions(40, seed=5)
    games = []
    for name, rows in (("first", positions[:20]), ("second", positions[20:])):
        games.append(tmp_path / name / "games.txt")
        games[-1].parent.mkdir()
        words = [
            f"{number // 10} {' '.join(str(int(value)) for value in row)} 0 0.5\n" for number, row in enumerate(rows)
        ]
        games[-1].write_text("".join(words))
    played = train.read_games(games)
    assert played[1].tolist() == [number // 10 for number in range(40)]  # the second file's games follow the first's
    # a rescore of positions 5 and 35 writes them with their games' numbers: 0, and 3 (the second file's 1)
    rescored = tmp_path / "deep.txt"
    rescored.write_text(
        "".join(
            f"{game} {' '.join(str(int(value)) for value in positions[index])} 10 0.5\n"
            for game, index in ((0, 5), (3, 35))
        )
    )
    deep = train.read_games([rescored], renumber=False)
    assert deep[1].tolist() == [0, 3]
    train.check_rescored(played, deep)  # every one a position of its game
    with pytest.raises(train.RescoredMismatch, match="not in that game"):
        train.check_rescored(train.read_games(games[::-1]), deep)  # the --work files in another order
    shifted = "".join(
        f"{int(line.split()[0]) + 1} {line.split(' ', 1)[1]}\n" for line in rescored.read_text().splitlines()
    )
    rescored.write_text(shifted)
    with pytest.raises(train.RescoredMismatch, match="game 1 is not in that game"):
        train.check_rescored(played, train.read_games([rescored], renumber=False))
    rescored.write_text("")
    with pytest.raises(train.RescoredMismatch, match="no rescored positions"):
        train.check_rescored(played, train.read_games([rescored], renumber=False))


def _write_games(folder: Path, rows: list[tuple[int, Any, float, float]]) -> Path:
    """A games file as ``train_draughts_patterns.py play`` writes it: game, position, score, result."""
    games = folder / "games"
    games.mkdir()
    path = games / "games.txt"
    with path.open("w") as out:
        for number, position, score, result in rows:
            out.write(f"{number} {' '.join(str(int(value)) for value in position)} {score} {result}\n")
    return path


def test_train_draughts_patterns_finds_planted_king_terms(tool: Callable[[str], ModuleType], tmp_path: Path) -> None:
    train = tool("train_draughts_patterns")
    positions = random_draughts_positions(2000, seed=10)
    matrix, base = train.evaluation_rows(positions)
    planted = train.shipped_vector()
    long_diagonal = [train.KING_SQUARE_COLUMNS.start + square for square in train.rules.LONG_DIAGONAL]
    planted[long_diagonal] += 80  # a king on the long diagonal is worth 80 more
    planted[train.KING_COUNT_COLUMNS] += [60, -30]  # the first king 60 more, each further one 30 less
    white_scores = (base + matrix @ planted)[::2]
    rows = [
        (number // 20, position, round(score), 0.5)
        for number, (position, score) in enumerate(zip(positions, white_scores, strict=True))
    ]
    files = [_write_games(tmp_path, rows)]
    output = tmp_path / "patterns.npz"
    held_out = train.fit(files, 0.0, prior_positions=0.01, fit_king=False, output=output, fit_king_terms=True)
    assert held_out["fitted"][1] < held_out["shipped"][1]
    shipped = train.shipped_vector()
    with np.load(output) as fitted:
        found = fitted["king_squares"].astype(float) - shipped[train.KING_SQUARE_COLUMNS]
        assert all(abs(found[square] - 80) <= 15 for square in train.rules.LONG_DIAGONAL)
        others = [square for square in range(50) if square not in train.rules.LONG_DIAGONAL]
        assert np.abs(found[others]).max() <= 15
        counts = fitted["king_counts"].astype(float) - shipped[train.KING_COUNT_COLUMNS]
        assert abs(counts[0] - 60) <= 15 and abs(counts[1] + 30) <= 15
        assert np.array_equal(fitted["patterns"].astype(float).ravel(), np.rint(shipped[: train.KING_COLUMN]))
        assert int(fitted["king"]) == train.rules.KING + round(shipped[train.KING_COLUMN])


def test_train_draughts_patterns_learns_a_king_worth_from_game_results(
    tool: Callable[[str], ModuleType], tmp_path: Path
) -> None:
    train = tool("train_draughts_patterns")
    positions = random_draughts_positions(4000, seed=9)
    matrix, base = train.evaluation_rows(positions)
    planted = train.shipped_vector()
    planted[train.KING_COLUMN] += 100  # games where a king is worth a man more than the shipped evaluation says
    white_scores = (base + matrix @ planted)[::2]
    generator = np.random.default_rng(4)
    wins = generator.random(len(positions)) < train.sigmoid(train.LOG_SCALE * white_scores)
    # the search scores say nothing: only the results carry the planted worth
    rows = [
        (number, position, 0, float(won)) for number, (position, won) in enumerate(zip(positions, wins, strict=True))
    ]
    output = tmp_path / "patterns.npz"
    train.fit([_write_games(tmp_path, rows)], result_share=1.0, prior_positions=50, fit_king=True, output=output)
    with np.load(output) as fitted:
        # in the units of the scale fitted to the shipped evaluation first, which the results
        # (where kings decide more than it says) stretch: some of the planted man, not all
        assert 30 <= int(fitted["king"]) - (train.rules.KING + planted[train.KING_COLUMN] - 100) <= 130


def test_train_draughts_patterns_reads_back_the_positions_it_writes(tool: Callable[[str], ModuleType]) -> None:
    if missing("train_draughts_patterns.py"):
        pytest.skip("needs py-draughts and scipy (the bench extras)")
    train = tool("train_draughts_patterns")
    game = train.DraughtsGame("draughts")
    chooser = random.Random(7)
    seen_kings = False
    for _ in range(6):
        position = game.new_position(None)
        for _ in range(160):
            moves = position.legal_moves()
            if not moves:
                break
            board = position.board
            masks = (board.white_men, board.white_kings, board.black_men, board.black_kings)
            seen_kings = seen_kings or bool(masks[1] or masks[3])
            again = game.new_position(train.position_fen(*masks, position.player() == 0))
            board = again.board
            assert (board.white_men, board.white_kings, board.black_men, board.black_kings) == masks
            assert again.player() == position.player()
            assert sorted(again.legal_moves()) == sorted(moves)
            position.play(chooser.choice(moves))
    assert seen_kings


@pytest.mark.slow
def test_train_draughts_patterns_plays_rescores_then_fits(tool: Callable[[str], ModuleType], tmp_path: Path) -> None:
    if missing("train_draughts_patterns.py"):
        pytest.skip("needs py-draughts and scipy (the bench extras)")
    for seed in ("1", "2"):
        arguments = ["--games", "2", "--seed", seed, "--nodes", "200", "--work", f"games{seed}"]
        played = run_tool("train_draughts_patterns.py", "play", *arguments, cwd=tmp_path)
        assert played.returncode == 0, played.stderr
    files = [tmp_path / f"games{seed}" / "games.txt" for seed in "12"]
    lines = [line.split() for path in files for line in path.read_text().splitlines()]
    assert len(lines) > 50
    assert {line[7] for line in lines} <= {"1.0", "0.5", "0.0"}
    last_rows = {(path, line.split()[0]): line.split() for path in files for line in path.read_text().splitlines()}
    decided = [row for row in last_rows.values() if row[7] != "0.5"]
    # a won game's last searched position favours the winner (both from White's side)
    assert all((int(row[6]) > 0) == (row[7] == "1.0") for row in decided)
    arguments = ["--games", "1", "--nodes", "200", "--work", "games1"]
    again = run_tool("train_draughts_patterns.py", "play", *arguments, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    numbers = [int(line.split()[0]) for line in (tmp_path / "games1" / "games.txt").read_text().splitlines()]
    assert sorted(set(numbers)) == [0, 1, 2]  # the resumed run added the third game
    fitted = run_tool("train_draughts_patterns.py", "fit", "--work", "games1", "games2", cwd=tmp_path)
    assert fitted.returncode == 0, fitted.stderr
    train = tool("train_draughts_patterns")
    arguments = ["--work", "games1", "games2", "--into", "deep", "--sample", "8", "--nodes", "3000"]
    rescored = run_tool("train_draughts_patterns.py", "rescore", *arguments, cwd=tmp_path)
    assert rescored.returncode == 0, rescored.stderr
    positions, games, _, results = train.read_games(files)
    result_of = {
        (str(game_number), *map(str, position[:4]), str(int(position[4]))): result
        for position, game_number, result in zip(positions, games, results, strict=True)
    }
    deep_file = tmp_path / "deep" / "games.txt"
    deep = [line.split() for line in deep_file.read_text().splitlines()]
    assert len(deep) == 8 and len({tuple(words[:6]) for words in deep}) == 8
    # each a position of the games, numbered as fit numbers them, with its game's result
    assert all(result_of[tuple(words[:6])] == float(words[7]) for words in deep)
    last_of_first_file = max(int(line.split()[0]) for line in files[0].read_text().splitlines())
    assert any(int(words[0]) > last_of_first_file for words in deep)  # renumbered after the first file's
    game = train.DraughtsGame("draughts")
    engine = train.Engine(game)
    engine.searcher.prepare()  # the compiled search, as the tool's (not the pure-Python one while it compiles)
    for words in deep:  # each score a search of its own, on an empty table
        position = game.new_position(train.position_fen(*map(int, words[1:5]), words[5] == "1"))
        engine.new_game()
        found = engine.analyse(position, train.SearchLimits(nodes=3000))
        assert int(words[6]) == (found.score if words[5] == "1" else -found.score)
    whole = deep_file.read_text()
    deep_file.write_text("".join(whole.splitlines(keepends=True)[:3]) + "12 345")  # stopped while writing
    resumed = run_tool("train_draughts_patterns.py", "rescore", *arguments, cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert deep_file.read_text() == whole
    other = run_tool("train_draughts_patterns.py", "rescore", *arguments, "--seed", "2", cwd=tmp_path)
    assert other.returncode != 0 and "not this sample's positions" in other.stderr
    refitted = run_tool("train_draughts_patterns.py", "fit", "--work", "deep", "--output", "deep.npz", cwd=tmp_path)
    assert refitted.returncode == 0, refitted.stderr
    arguments = ["--work", "games1", "games2", "--deep", "deep", "--output", "joint.npz"]
    joint = run_tool("train_draughts_patterns.py", "fit", *arguments, cwd=tmp_path)
    assert joint.returncode == 0, joint.stderr
    assert "fit: rescored: 8 positions" in joint.stdout and (tmp_path / "joint.npz").is_file()
    missing_deep = run_tool("train_draughts_patterns.py", "fit", "--work", "games1", "--deep", "nowhere", cwd=tmp_path)
    assert missing_deep.returncode == 2 and "no rescored positions at nowhere" in missing_deep.stderr
    from negamax.games.draughts.evaluation import PATTERN_FILE

    with np.load(tmp_path / "patterns.npz") as written, np.load(PATTERN_FILE) as shipped:
        assert written["patterns"].shape == (2, 16, 3**8)
        assert int(written["king"]) == int(shipped["king"])  # kept without --fit-king


@pytest.mark.slow
def test_train_chess_network_writes_a_network_the_engine_can_run(tmp_path: Path) -> None:
    if missing("train_chess_network.py"):
        pytest.skip("needs scipy (the bench extras)")
    from negamax.games.chess import network as chess_network

    positions = tmp_path / "positions.txt"
    boards = random_boards(10_000, seed=4)
    values = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 300, chess.ROOK: 500, chess.QUEEN: 900}
    with positions.open("w") as out:
        for board in boards:
            material = sum(
                values.get(piece.piece_type, 0) * (1 if piece.color == chess.WHITE else -1)
                for piece in board.piece_map().values()
            )
            print(f"{board.fen()};{material}", file=out)
    written = tmp_path / "network.npz"
    arguments = ["--hidden", "4", "--passes", "1", "--write", str(written)]
    finished = run_tool("train_chess_network.py", str(positions), *arguments, cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr
    with np.load(written) as data:
        network = chess_network.Network(
            data["rows"].astype(np.int64),
            data["bias"].astype(np.int64),
            data["output"].astype(np.int64).reshape(-1, 8),
            data["output_bias"].astype(np.int64).reshape(-1),
            int(data["QA"]),
            int(data["QB"]),
        )
    assert network.rows.shape == (chess_network.FEATURES, 4)
    assert chess_network.fault(network) is None


@pytest.mark.slow
def test_fit_draughts_fits_every_weight_on_a_short_self_play(tmp_path: Path) -> None:
    if missing("fit_draughts.py"):
        pytest.skip("needs py-draughts (the bench extras)")
    finished = run_tool("fit_draughts.py", "--games", "2", cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr
    fitted = [line for line in finished.stdout.splitlines() if " fitted " in line]
    assert len(fitted) == 16  # men, kings, nine rows advanced, four files, the tempo
    errors = [float(line.rsplit(" ", 2)[1]) for line in finished.stdout.splitlines() if "root-mean-square" in line]
    assert len(errors) == 2 and errors[0] <= errors[1]  # least squares: no worse than the weights in use
