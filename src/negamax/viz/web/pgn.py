"""Chess games in and out of the page as PGN (python-chess reads and writes it): the game
played so far as a PGN text, and a PGN pasted in as the start position and moves the page
plays it from."""

from __future__ import annotations

import io
from typing import Any

import chess
import chess.pgn

from negamax.core.errors import InvalidPositionError

MAX_PGN = 60_000
"""The longest PGN text read (under the request body cap of 64 KB; a game of a thousand moves fits)."""


def written(board: chess.Board) -> str:
    """The game that led to ``board`` (its move stack from its root) as PGN."""
    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = "negamax"
    for unknown in ("Site", "Date", "Round", "White", "Black"):
        del game.headers[unknown]
    return str(game)


def read(text: str) -> dict[str, Any]:
    """The first game of a PGN text as the page names a position: ``start`` (a FEN, or ''
    for the usual start) and ``moves`` (UCI).

    :raises InvalidPositionError: for a text with no game or an illegal move in it.
    """
    if len(text) > MAX_PGN:
        raise InvalidPositionError(f"a PGN text here has at most {MAX_PGN:,} characters")
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None:
        raise InvalidPositionError("this text holds no PGN game (moves such as '1. e4 e5 2. Nf3')")
    variant = game.headers.get("Variant", "Standard")
    if variant.lower() not in ("standard", "chess", "normal", "from position"):
        raise InvalidPositionError(f"only standard chess is played here, not {variant}")
    if game.errors:
        raise InvalidPositionError(f"the PGN does not read: {game.errors[0]}")
    if not game.variations and not game.headers.get("FEN"):
        raise InvalidPositionError("this text holds no PGN game (moves such as '1. e4 e5 2. Nf3')")
    board = game.board()
    start = "" if board.fen() == chess.STARTING_FEN else board.fen()
    return {"start": start, "moves": [move.uci() for move in game.mainline_moves()]}
