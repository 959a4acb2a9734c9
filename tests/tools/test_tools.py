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
