"""Chess games in and out of the page as PGN (python-chess reads and writes it): the game
played so far as a PGN text, its variations in parentheses, and a PGN pasted in as the
start position and the lines (main line and variations) the page plays it from."""

from __future__ import annotations

import io
from typing import Any

import chess
import chess.pgn

from negamax.core.errors import IllegalMoveError, InvalidPositionError
from negamax.games.chess.rules import ChessGame, ChessPosition

MAX_PGN = 60_000
"""The longest PGN text read (under the request body cap of 64 KB; a game of a thousand moves fits)."""


def written(board: chess.Board, lines: list[list[str]] | None = None, shown: int = 0) -> str:
    """The game that led to ``board`` (its move stack from its root) as PGN; with ``lines``,
    the game's every line instead (the main line first, then the variations, each in PGN's
    parentheses), from the position ``shown`` moves before ``board`` (the page's moves to
    the position it shows; the ones before came with its start).

    :raises InvalidPositionError: for a line with a move that is not legal where it comes.
    """
    start = board.copy()
    for _ in range(shown if lines else 0):
        start.pop()
    game = chess.pgn.Game.from_board(start if lines else board)
    game.headers["Event"] = "negamax"
    for unknown in ("Site", "Date", "Round", "White", "Black"):
        del game.headers[unknown]
    root = game.end()
    rules = ChessGame()
    for line in lines or []:
        node, moving = root, ChessPosition(start.copy())  # parse_move reads its board only
        for number, text in enumerate(line, start=1):
            try:
                move = rules.parse_move(moving, text)
            except IllegalMoveError as error:
                raise InvalidPositionError(f"move {number} of a line: {error}") from None
            node = node.variation(move) if node.has_variation(move) else node.add_variation(move)
            moving.board.push(move)
    if lines:
        game.headers["Result"] = game.end().board().result()
    return str(game)


def read(text: str) -> dict[str, Any]:
    """The first game of a PGN text as the page names a position: ``start`` (a FEN, or ''
    for the usual start), ``moves`` (its main line, UCI) and ``lines`` (every line from
    the start to the end of a variation, the main line first, as ``_lines``).

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
    return {"start": start, "moves": [move.uci() for move in game.mainline_moves()], "lines": _lines(game)}


def _lines(game: chess.pgn.Game) -> list[list[str]]:
    """Every line of a game from its root to a leaf, in UCI, the main line first and each
    variation after the line it branches from (as PGN orders them)."""
    lines: list[list[str]] = []
    stack: list[tuple[chess.pgn.GameNode, list[str]]] = [(game, [])]
    while stack:  # not recursive: a game of a thousand moves is that deep
        node, moves = stack.pop()
        if not node.variations and moves:
            lines.append(moves)
        stack.extend((child, [*moves, child.move.uci()]) for child in reversed(node.variations))
    return lines
