from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import chess
import numpy as np
import pytest

from negamax.games.chess import network as chess_network

MIDDLEGAMES = [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "r2q1rk1/ppp2ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPP2PPP/R2Q1RK1 b - - 0 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
]


def test_each_piece_on_each_square_has_its_own_row_for_each_side() -> None:
    for perspective in (chess.WHITE, chess.BLACK):
        rows = {
            chess_network.feature(perspective, colour, piece_type, square)
            for colour in (chess.WHITE, chess.BLACK)
            for piece_type in range(1, 7)
            for square in range(64)
        }
        assert rows == set(range(chess_network.FEATURES))


def test_a_piece_seen_by_its_own_side_is_mirrored_for_black() -> None:
    white_knight_f3 = chess_network.feature(chess.WHITE, chess.WHITE, chess.KNIGHT, chess.F3)
    black_knight_f6 = chess_network.feature(chess.BLACK, chess.BLACK, chess.KNIGHT, chess.F6)
    assert white_knight_f3 == black_knight_f6


@pytest.mark.parametrize("fen", MIDDLEGAMES)
def test_the_mirrored_position_has_the_same_value_for_its_side_to_move(fen: str) -> None:
    board = chess.Board(fen)
    assert chess_network.board_value(board) == chess_network.board_value(board.mirror())


def test_the_shipped_network_is_integer_and_moves_the_evaluation() -> None:
    network = chess_network.network()
    blocks = int(network.king_buckets.max()) + 1
    assert network.rows.shape == (blocks * chess_network.FEATURES, network.bias.shape[0])
    assert network.output.shape == (network.output_bias.shape[0], 2 * network.bias.shape[0])
    values = [chess_network.board_value(chess.Board(fen)) for fen in MIDDLEGAMES]
    assert len(set(values)) > 1
    assert all(abs(value) < 400 for value in values)  # a correction, not a second evaluation
    assert np.issubdtype(network.rows.dtype, np.integer)


def test_a_network_whose_accumulators_could_leave_int16_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = chess_network.network()
    rows = shipped.rows.copy()
    rows[:, 0] = 0
    rows[-40:, 0] = 1100  # 32 pieces on rows of 1,100 pass 32,767
    path = tmp_path / "wide.npz"
    np.savez(path, rows=rows, bias=shipped.bias, output=shipped.output, output_bias=0, QA=127, QB=64)
    assert chess_network.largest_accumulator(shipped) <= chess_network.ACCUMULATOR_LIMIT
    with _network_in(path, monkeypatch), pytest.raises(ValueError, match="int16"):
        chess_network.network()


def test_a_squared_network_whose_output_could_leave_int32_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 128 units each side at the clamp squared (16,129) times weights of 600: past 2**31
    output = np.full((1, 256), 600)
    path = _network_file(tmp_path / "loud.npz", output, np.array([0]), 0, True)
    with _network_in(path, monkeypatch), pytest.raises(ValueError, match="int32"):
        chess_network.network()


@contextlib.contextmanager
def _network_in(path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``chess_network`` reads its network from ``path`` inside the block (and the shipped
    one again after it)."""
    monkeypatch.setattr(chess_network, "NETWORK_FILE", path)
    chess_network.network.cache_clear()
    try:
        yield
    finally:
        chess_network.network.cache_clear()


def _network_file(path: Path, output: np.ndarray, output_bias: np.ndarray, bias: int, squared: bool) -> Path:
    """A network whose rows are all zero: its value comes from the bias, clamped (and
    squared), and from the bucket's output weights (half of them a side's units)."""
    units = output.shape[1] // 2
    np.savez(
        path,
        rows=np.zeros((chess_network.FEATURES, units), dtype=np.int16),
        bias=np.full(units, bias, dtype=np.int16),
        output=output.astype(np.int16),
        output_bias=output_bias.astype(np.int32),
        QA=np.array(127),
        QB=np.array(64),
        squared=np.array(squared),
    )
    return path


@pytest.mark.parametrize(
    ("fen", "bucket"),
    [
        (chess.STARTING_FEN, 2),  # phase 24 of three buckets: the last
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 0),  # phase 0
        ("r2qk3/8/8/8/8/8/4P3/R2QK3 w - - 0 1", 1),  # two queens and two rooks: phase 12
    ],
)
def test_the_output_bucket_follows_the_game_phase(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fen: str, bucket: int
) -> None:
    one_pawn = 127 * 64  # QA * QB: a hundred centipawns
    path = _network_file(tmp_path / "buckets.npz", np.zeros((3, 4)), np.array([0, 1, 2]) * one_pawn, 0, False)
    with _network_in(path, monkeypatch):
        assert chess_network.board_value(chess.Board(fen)) == 100 * bucket


@pytest.mark.parametrize(("squared", "value"), [(False, 100), (True, 50)])
def test_a_squared_network_squares_the_clamped_units(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, squared: bool, value: int
) -> None:
    # each unit at half the clamp (64 of 127) with output weight 64 (one, at QB = 64): 0.5 a
    # unit plainly, 0.25 squared; two units of the mover's half
    output = np.array([[64, 64, 0, 0]])
    path = _network_file(tmp_path / "squared.npz", output, np.array([0]), 64, squared)
    with _network_in(path, monkeypatch):
        # 2 * 64 * 64 * 100 // (127 * 64) = 100; squared: 2 * 64 * 64 * 64 // 127 * 100 // (127 * 64) = 50
        assert chess_network.board_value(chess.Board()) == value


def _king_network(path: Path, king_buckets: np.ndarray, mirrored: bool, rows: np.ndarray) -> Path:
    """A plain network whose value is the sum of the mover's units minus the other's
    (output weights +-64: one each at QB = 64), its rows given."""
    np.savez(
        path,
        rows=rows.astype(np.int16),
        bias=np.zeros(rows.shape[1], dtype=np.int16),
        output=np.repeat([[64, -64]], rows.shape[1], axis=1).astype(np.int16),
        output_bias=np.zeros(1, dtype=np.int32),
        QA=np.array(127),
        QB=np.array(64),
        king_buckets=king_buckets.astype(np.int8),
        mirrored=np.array(mirrored),
    )
    return path


def test_a_side_reads_the_block_of_rows_of_its_own_kings_bucket(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # two blocks: a king on its first rank reads the first, elsewhere the second; only a
    # knight of one's own has a row, 10 in the first block and 30 in the second
    king_buckets = np.array([0] * 8 + [1] * 56)
    rows = np.zeros((2 * chess_network.FEATURES, 1))
    for block, weight in ((0, 10), (1, 30)):
        for square in range(64):
            rows[
                block * chess_network.FEATURES + chess_network.feature(chess.WHITE, chess.WHITE, chess.KNIGHT, square)
            ] = weight
    path = _king_network(tmp_path / "kings.npz", king_buckets, False, rows)
    with _network_in(path, monkeypatch):
        # White to move, White's knight; Black has none: the value is White's unit in centipawns
        home = chess.Board("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1")
        up = chess.Board("4k3/8/8/8/8/8/4K3/1N6 w - - 0 1")
        assert chess_network.board_value(home) == 10 * 100 // 127
        assert chess_network.board_value(up) == 30 * 100 // 127
        # Black sees its own king on e8 as on its first rank: the same block for it
        assert chess_network.board_value(home.mirror()) == 10 * 100 // 127


def test_a_mirrored_network_values_a_position_and_its_image_left_to_right_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generator = np.random.default_rng(5)
    rows = generator.integers(-40, 41, size=(chess_network.FEATURES, 1))
    path = _king_network(tmp_path / "mirrored.npz", np.zeros(64), True, rows)
    with _network_in(path, monkeypatch):
        for fen in MIDDLEGAMES[2:]:  # no castling rights: the rules are the same mirrored
            board = chess.Board(fen)
            assert chess_network.board_value(board) == chess_network.board_value(board.transform(chess.flip_horizontal))
        # without turning, a king on files e-h would read other rows than its image's
        network = chess_network.network()
        values = {
            chess_network.king_view(network.king_buckets, network.mirrored, square) for square in (chess.D1, chess.E1)
        }
        assert values == {(0, 0), (0, 7)}


def test_a_network_whose_block_of_rows_the_compiled_game_cannot_cache_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # one block of 1,024 units: 1,574,912 bytes of int16 rows with the row of zeros
    path = _king_network(tmp_path / "wide.npz", np.zeros(64), False, np.zeros((chess_network.FEATURES, 1024)))
    with _network_in(path, monkeypatch), pytest.raises(ValueError, match="a block of its rows passes 1,000,000 bytes"):
        chess_network.network()


def test_a_network_whose_rows_pass_what_the_compiled_game_may_hold_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # twelve blocks of 256 units: 4,719,104 bytes of int16 rows
    rows = np.zeros((12 * chess_network.FEATURES, 256))
    path = _king_network(tmp_path / "many.npz", np.arange(64) % 12, False, rows)
    with _network_in(path, monkeypatch), pytest.raises(ValueError, match="its rows pass 4,194,304 bytes"):
        chess_network.network()


def test_a_network_of_many_blocks_may_pass_what_one_frozen_array_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # six blocks of 128 units: 1,179,904 bytes of int16 rows, cut into two arrays
    path = _king_network(tmp_path / "large.npz", np.arange(64) % 6, False, np.zeros((6 * chess_network.FEATURES, 128)))
    with _network_in(path, monkeypatch):
        assert chess_network.network().rows.shape == (6 * chess_network.FEATURES, 128)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"output": np.full((1, 2), 40_000, dtype=np.int32)}, "output weights leave the int16 range"),
        ({"QA": np.array(200), "squared": np.array(True)}, "at most 181"),
        ({"QA": np.array(0)}, "at least 1"),
    ],
)
def test_a_network_whose_output_the_compiled_game_cannot_sum_in_int16_pairs_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, change: dict[str, np.ndarray], message: str
) -> None:
    path = _king_network(tmp_path / "output.npz", np.zeros(64), False, np.zeros((chess_network.FEATURES, 1)))
    with np.load(path) as data:
        weights = {name: data[name] for name in data.files}
    np.savez(path, **{**weights, **change})
    with _network_in(path, monkeypatch), pytest.raises(ValueError, match=message):
        chess_network.network()


def test_a_network_whose_king_buckets_name_a_missing_block_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _king_network(tmp_path / "short.npz", np.full(64, 1), False, np.zeros((chess_network.FEATURES, 1)))
    with _network_in(path, monkeypatch), pytest.raises(ValueError, match="king buckets"):
        chess_network.network()


def test_a_board_without_a_king_has_no_network_value() -> None:
    with pytest.raises(ValueError, match="both kings"):
        chess_network.board_value(chess.Board("8/8/8/8/8/8/4P3/4K3 w - - 0 1"))


def test_a_network_of_more_king_blocks_than_the_compiled_game_can_tabulate_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = chess_network.BLOCKS_LIMIT + 1
    path = _king_network(tmp_path / "blocks.npz", np.arange(64) % blocks, False, np.zeros((blocks * 768, 1)))
    with _network_in(path, monkeypatch), pytest.raises(ValueError, match="blocks of 768"):
        chess_network.network()
