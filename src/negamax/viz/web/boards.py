"""What a position looks like to the page: a board view per kind of game, the legal moves
as text, and how the game stands.

The page draws each kind itself (``static/boards.js``): tic-tac-toe, Nim, Connect 4,
draughts (10x10 and 8x8) and chess (python-chess draws that one: its SVG, with the last
move and a check marked). Any other game, a user's or OpenSpiel's, is shown as its text.
"""

from __future__ import annotations

from typing import Any

from negamax.core.game import Position, checked_moves
from negamax.core.rules import Game, game_end
from negamax.core.score import WIN_THRESHOLD

MAX_MOVES_SHOWN = 400
"""The most legal moves a state lists (the rest are still legal; the page says so)."""


def kind_of(game: Game) -> str:
    """The board the page draws for ``game``."""
    if game.name in ("tictactoe", "nim", "connect4", "chess"):
        return game.name
    if game.name.startswith("connect4:"):
        return "connect4"
    if game.name in ("draughts", "checkers", "russian", "brazilian", "frisian"):
        return "draughts"
    return "text"


PLAYERS = {
    "chess": ("white", "black"),
    "draughts": ("white", "black"),
    "connect4": ("red", "yellow"),
    "tictactoe": ("X", "O"),
}
"""How the page names the two sides (others: first and second player)."""


def advantage(score: int) -> float:
    """The first player's advantage from -1 to 1 for a score from their side, as the
    evaluation bar and graph draw it: a win is 1, other scores are clipped short of it."""
    if score >= WIN_THRESHOLD:
        return 1.0
    if score <= -WIN_THRESHOLD:
        return -1.0
    return max(-0.95, min(0.95, score / 1000))


def players(game: Game) -> tuple[str, str]:
    """The two sides' names, the first to move first (in checkers, black)."""
    if game.name == "checkers":
        return ("black", "white")
    return PLAYERS.get(kind_of(game), ("first player", "second player"))


def outcome(game: Game, position: Position[Any]) -> str | None:
    """``'white wins'``, ``'draw'``..., or None while the game goes on for the players
    (chess plays on through a repetition the search would score as a draw)."""
    end = game_end(position)
    if end is None:
        return None
    value = end[0]
    mover, other = position.player(), 1 - position.player()
    names = players(game)
    if value <= -WIN_THRESHOLD:
        return f"{names[other]} wins"
    if value >= WIN_THRESHOLD:
        return f"{names[mover]} wins"
    return "draw" if value == 0 else f"game over: {value} for the {names[mover]}"


def state(
    game: Game,
    position: Position[Any],
    flipped: bool = False,
    played: list[str] | None = None,
    before: Position[Any] | None = None,
    movers: list[int] | None = None,
) -> dict[str, Any]:
    """Everything the page needs to draw ``position`` and let the user move; ``played``:
    the moves that led there, as a player reads them, and ``movers`` who played each (the
    same player may move twice); ``before``: the position before the last of them (draughts
    marks the pieces it captured); ``ending``: why the game ended,
    where the game says (``threefold repetition``)."""
    end = game_end(position)
    legal = [] if end is not None else list(checked_moves(position.legal_moves)())
    view = {"kind": kind_of(game), **_view(game, position, flipped)}
    if view["kind"] == "draughts":
        earlier = _draughts(before)["pieces"] if before is not None else {}
        # the opponent's pieces the last move took: gone now, the mover's colour unchanged
        view["captured"] = {
            square: piece
            for square, piece in earlier.items()
            if square not in view["pieces"] and piece.lower() != _mover(earlier, view["pieces"])
        }
    return {
        "view": view,
        "moves": [game.move_text(position, move) for move in legal[:MAX_MOVES_SHOWN]],
        "more_moves": max(0, len(legal) - MAX_MOVES_SHOWN),
        "turn": position.player(),
        "players": players(game),
        "played": played or [],
        "movers": movers or [],
        "result": outcome(game, position),
        "ending": end[1] if end is not None and end[1] else None,
        # a finished game's exact value, for the evaluation graph
        "advantage": None if end is None else advantage(end[0] if position.player() == 0 else -end[0]),
        "position": game.position_text(position),
    }


def shown_move(game: Game, position: Position[Any], move: Any) -> str:
    """A legal move of ``position`` as a player reads it: chess in SAN (as lichess writes
    lines and scores sheets), other games as they write their moves."""
    if kind_of(game) == "chess":
        from negamax.games.chess.rules import ChessPosition

        assert isinstance(position, ChessPosition)
        return str(position.board.san(move))
    return game.move_text(position, move)


def _view(game: Game, position: Position[Any], flipped: bool) -> dict[str, Any]:
    kind = kind_of(game)
    if kind == "tictactoe":
        from negamax.games.tictactoe.rules import TicTacToe

        assert isinstance(position, TicTacToe)
        crosses, noughts = position.crosses, position.noughts
        return {"cells": ["X" if crosses >> cell & 1 else "O" if noughts >> cell & 1 else "" for cell in range(9)]}
    if kind == "nim":
        from negamax.games.nim import Nim

        assert isinstance(position, Nim)
        return {"heaps": list(position.heaps)}
    if kind == "connect4":
        return _connect4(position)
    if kind == "chess":
        return _chess(position, flipped)
    if kind == "draughts":
        return _draughts(position)
    return {"text": game.render(position)}


def _connect4(position: Any) -> dict[str, Any]:
    from negamax.games.connect4.rules import COLUMN_LETTERS, cell_rows

    geometry = position.geometry
    columns = COLUMN_LETTERS[: geometry.width]  # each column's move text
    return {"rows": cell_rows(position), "width": geometry.width, "height": geometry.height, "columns": columns}


def _chess(position: Any, flipped: bool) -> dict[str, Any]:
    import chess
    import chess.svg

    board = position.board
    last = board.peek() if board.move_stack else None
    check = board.king(board.turn) if board.is_check() else None
    svg = chess.svg.board(board, flipped=flipped, lastmove=last, check=check, coordinates=True)
    return {
        "svg": svg,
        "fen": board.fen(),
        "flipped": flipped,
        "last_move": last.uci() if last is not None else None,
        "check": chess.square_name(check) if check is not None else None,
    }


def _mover(before: dict[int, str], after: dict[int, str]) -> str:
    """The colour (``w`` or ``b``) of the side whose piece landed on a square empty before."""
    for square, piece in after.items():
        if square not in before:
            return piece.lower()
    return ""


def draughts_size(game: Game) -> int | None:
    """A draughts board's width in squares (10, or 8), from the game's own start; ``None``
    for another kind of board. The editor's empty board takes it (no list of names to keep)."""
    return _draughts(game.new_position())["size"] if kind_of(game) == "draughts" else None


def _draughts(position: Any) -> dict[str, Any]:
    board = position.board
    squares = board.SQUARES_COUNT
    pieces = {}
    for square in range(squares):
        bit = 1 << square
        if board.white_men & bit:
            pieces[square + 1] = "w"
        elif board.white_kings & bit:
            pieces[square + 1] = "W"
        elif board.black_men & bit:
            pieces[square + 1] = "b"
        elif board.black_kings & bit:
            pieces[square + 1] = "B"
    return {"size": int((2 * squares) ** 0.5), "pieces": pieces}
