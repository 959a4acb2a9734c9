"""``search(root_moves=...)`` (UCI's ``searchmoves``): the root plays only the moves given,
on both engines, and a restricted search leaves nothing in the table that a later search
of every move would take for the position's own value."""

from __future__ import annotations

import chess
import pytest

from negamax import InvalidOptionError, SearchLimits, search
from negamax.games.chess.rules import ChessGame
from negamax.games.draughts.rules import DraughtsGame
from negamax.search.tt import TranspositionTable

MATE_IN_ONE = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"  # Qxf7#
ALLOWED = [chess.Move.from_uci(text) for text in ("a2a3", "d2d3", "h5e2")]


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_the_root_plays_only_the_moves_given(engine: str) -> None:
    if engine == "compiled":
        pytest.importorskip("numba")
    position = ChessGame().new_position(MATE_IN_ONE)
    free = search(position, SearchLimits(depth=2), backend=engine)
    assert free.best_move == chess.Move.from_uci("h5f7") and free.score_text == "win in 1"
    seen = []
    kept = search(position, SearchLimits(depth=3), backend=engine, root_moves=ALLOWED, on_iteration=seen.append)
    assert kept.best_move in ALLOWED and kept.pv[0] == kept.best_move and kept.score_text != "win in 1"
    assert seen and all(result.best_move in ALLOWED for result in seen)
    one = search(position, SearchLimits(depth=3), backend=engine, root_moves=ALLOWED[1:2])
    assert one.best_move == ALLOWED[1]


def test_a_restricted_root_is_not_stored_as_the_position_s_value() -> None:
    position = ChessGame().new_position(MATE_IN_ONE)
    table = TranspositionTable(mib=1)
    search(position, SearchLimits(depth=2), backend="python", table=table, root_moves=ALLOWED)
    assert table.probe(position.key()) is None
    search(position, SearchLimits(depth=2), backend="python", table=table)
    assert table.probe(position.key()) is not None


@pytest.mark.numba
def test_a_restricted_root_takes_the_best_of_its_moves() -> None:
    pytest.importorskip("numba")
    from negamax.search.compiled import move_list_layout as layout
    from negamax.search.compiled.move_list import CompiledSearcher

    position = ChessGame().new_position(MATE_IN_ONE)
    limits = SearchLimits(depth=4)

    def exact(root_moves: list[chess.Move] | None, searcher: CompiledSearcher | None = None) -> int:
        # the features that keep the fixed-depth value, so values compare exactly
        searcher = searcher or CompiledSearcher(hash_mib=1, features=layout.EXACT_FEATURES | layout.TRANSPOSITION_TABLE)
        return searcher.search(position, limits, root_moves=root_moves).score

    each = [exact([move]) for move in ALLOWED]
    assert exact(ALLOWED) == max(each)
    shared = CompiledSearcher(hash_mib=1, features=layout.EXACT_FEATURES | layout.TRANSPOSITION_TABLE)
    exact(ALLOWED[:1], shared)
    assert exact(None, shared) == exact(None)  # the same table searches every move as a new one would


@pytest.mark.numba
def test_helper_threads_search_the_same_restricted_root() -> None:
    pytest.importorskip("numba")
    from negamax.search.compiled.move_list import CompiledSearcher

    position = ChessGame().new_position(MATE_IN_ONE)
    result = CompiledSearcher(hash_mib=4, threads=2).search(position, SearchLimits(depth=6), root_moves=ALLOWED)
    assert result.best_move in ALLOWED and result.depth == 6


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_draughts_roots_are_restricted_too(engine: str) -> None:
    pytest.importorskip("draughts")
    if engine == "compiled":
        pytest.importorskip("numba")
    position = DraughtsGame("draughts").new_position(None)
    moves = list(position.legal_moves())
    result = search(position, SearchLimits(depth=3), backend=engine, root_moves=moves[-1:])
    assert result.best_move == moves[-1]


@pytest.mark.parametrize(
    ("root_moves", "message"),
    [([chess.Move.from_uci("e2e5")], "e2e5 is not a legal move here"), ([], "names no move")],
)
def test_root_moves_that_cannot_be_played_are_refused(root_moves: list[chess.Move], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        search(ChessGame().new_position(None), SearchLimits(depth=1), backend="python", root_moves=root_moves)
