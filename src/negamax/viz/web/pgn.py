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
from negamax.viz.web.positions import MAX_LINE_MOVES, MAX_LINES_SENT, MAX_MOVES

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
    game.headers["Result"] = result(game.end().board())
    return str(game)


def result(board: chess.Board) -> str:
    """The game's result as the page ends it: python-chess's, and a draw where the players
    may claim one now (a position's third occurrence, fifty moves of each side without a
    capture or a pawn move), which the page declares at once as lichess does, and which
    ``Board.result`` leaves open ('*') unless it is claimed."""
    if board.is_repetition(3) or board.is_fifty_moves():
        return "1/2-1/2"  # checked after mate by python-chess: is_fifty_moves needs a legal move
    return board.result()


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
    variation after the line it branches from (as PGN orders them).

    :raises InvalidPositionError: for more lines, a longer line or more moves in all than
        the page can send back (it sends every line whole, from the start), found before
        they are all written out (a small PGN of many variations has millions of moves).
    """
    lines: list[list[str]] = []
    stack: list[tuple[chess.pgn.GameNode, list[str]]] = [(game, [])]
    count, total = 0, 0
    while stack:  # not recursive: a game of a thousand moves is that deep
        node, moves = stack.pop()
        if len(moves) > MAX_MOVES:
            raise InvalidPositionError(
                f"a line of this PGN holds over {MAX_MOVES:,} moves: at most {MAX_MOVES:,} are read"
            )
        if node.move is not None and not node.move:
            raise InvalidPositionError(f"move {len(moves)} of a line is a null move ('--'): chess has no pass")
        if not node.variations and moves:
            count, total = count + 1, total + len(moves)
            if count > MAX_LINES_SENT:
                raise InvalidPositionError(
                    f"this PGN holds {_count_lines(game):,} lines: at most {MAX_LINES_SENT} are read"
                )
            if total > MAX_LINE_MOVES:
                raise InvalidPositionError(
                    f"this PGN's lines, each from the start, hold over {MAX_LINE_MOVES:,} moves in all: at most"
                    f" {MAX_LINE_MOVES:,} are read"
                )
            lines.append(moves)
        stack.extend((child, [*moves, child.move.uci()]) for child in reversed(node.variations))
    return lines


def _count_lines(game: chess.pgn.Game) -> int:
    """How many lines (leaves) a game holds, without writing them out."""
    count, stack = 0, list[chess.pgn.GameNode]([game])
    while stack:
        node = stack.pop()
        count += not node.variations
        stack.extend(node.variations)
    return count
