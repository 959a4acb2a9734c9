"""The board editor's check (``POST /api/edit``): a position set up by hand on the page, read
by the game's own parser, with what that parser lets through (or words for a programmer)
said the way a player reads it. The answer is the position's text, which the page then
sets as its start, as if typed into "Set position".

* chess: one king each, no pawn on the first or last rank, the side not to move not in
  check, at most 16 pieces and 8 pawns a side, castling only with the king and rook on
  their squares (python-chess's ``Board.status``, one reason at a time);
* draughts and checkers: pieces on the numbered (dark) squares only, no man on its own
  promotion row (py-draughts refuses both), at least one piece a side and no more than the
  start holds (20 a side on 10x10, 12 on 8x8), and a move for the side to move: a side
  without pieces or moves has lost, and a game over is nothing to play from;
* Connect 4: every disc on the floor or on another disc, the first player (red) with as
  many discs as the second or one more, as the side to move says, and no four in a row
  (the game would be over: refused, as the typed board is).
"""

from __future__ import annotations

import re
from typing import Any

from negamax.core.errors import InvalidPositionError
from negamax.core.rules import Game
from negamax.viz.web import boards
from negamax.viz.web.positions import BadRequest

EDITABLE = ("chess", "draughts", "connect4")
"""The kinds of board the page's editor sets up."""


class RefusedPosition(BadRequest):
    """A position set up by hand that cannot be played from (400, and why)."""


def checked(game: Game, text: str, turn: int | None = None) -> str:
    """The text of the position ``text`` names in ``game`` (``turn``: the player the editor
    says is to move, 0 or 1), once it passes the checks above; ``RefusedPosition`` otherwise."""
    kind = boards.kind_of(game)
    if kind not in EDITABLE:
        raise RefusedPosition(f"{game.name} has no board editor (it edits {', '.join(EDITABLE)})")
    text = text.strip()
    if kind == "chess":
        _check_chess(text)
    try:
        position = game.new_position(text or None)
    except InvalidPositionError as error:
        raise RefusedPosition(_plain(kind, str(error), text)) from None
    names = boards.players(game)
    if kind == "connect4":
        _check_connect4(position, turn, names)
    if kind == "draughts":
        _check_draughts(position, game.new_position())
    if turn is not None and position.player() != turn:
        raise RefusedPosition(f"the position has {names[position.player()]} to move, not {names[turn]}")
    if kind == "draughts" and not position.legal_moves():
        raise RefusedPosition(f"{names[position.player()]} to move has no legal move: the game would be over")
    return game.position_text(position)


def _plain(kind: str, message: str, text: str) -> str:
    """A parser's refusal without the position quoted back (the page shows the board)."""
    quoted = repr(text)
    for prefix in (f"board {quoted}: ", f"position {quoted}: "):
        at = message.find(prefix)
        if at >= 0:
            message = message[at + len(prefix) :]
    square = re.fullmatch(r"Invalid square in FEN: (-?\d+)", message)
    if square:
        return f"there is no square {square[1]} on this board"
    promoted = re.fullmatch(r"Invalid FEN: man on promotion square (\d+) \(only a king may stand there\)", message)
    if promoted:
        return f"a man on square {promoted[1]}, its own side's promotion row: only a king may stand there"
    if kind == "draughts":  # py-draughts' other refusals quote the text back, upper-cased: no reason
        return "not a draughts position (a FEN such as W:W31:B5)"
    message = message.removeprefix("Invalid FEN: ")
    if kind == "connect4" and "float" in message:
        return "a disc floats above an empty cell: every disc rests on the floor or on another disc"
    if kind == "connect4" and "already over" in message:
        return "someone already has four in a row: the game would be over"
    if kind == "connect4" and "moves first" in message:
        return "red plays first, so red has as many discs as yellow or one more"
    return message


_CHESS_REASONS: dict[str, str] = {
    "NO_WHITE_KING": "white has no king: each side needs exactly one",
    "NO_BLACK_KING": "black has no king: each side needs exactly one",
    "PAWNS_ON_BACKRANK": "a pawn on {backrank}: pawns never stand on the first or last rank",
    "TOO_MANY_WHITE_PAWNS": "white has {white_pawns} pawns: at most 8",
    "TOO_MANY_BLACK_PAWNS": "black has {black_pawns} pawns: at most 8",
    "TOO_MANY_WHITE_PIECES": "white has {white_pieces} pieces: at most 16",
    "TOO_MANY_BLACK_PIECES": "black has {black_pieces} pieces: at most 16",
    "OPPOSITE_CHECK": "{waiting} is in check with {mover} to move: the side not to move cannot be in check",
    "TOO_MANY_CHECKERS": "{mover} is in check from {checkers} pieces: no move gives more than two checks",
    "IMPOSSIBLE_CHECK": "{mover}'s check could not come from any last move",
    "BAD_CASTLING_RIGHTS": "castling needs the king and that rook on their first squares (e1, a1, h1; e8, a8, h8)",
    "INVALID_EP_SQUARE": "en passant on {ep} needs a pawn that has just moved two squares past it",
}
"""What each of python-chess's refusals (``chess.Status``) means, checked in this order
(the first found is said: one reason at a time, the one a player fixes first)."""


def _check_chess(text: str) -> None:
    import chess

    if text.startswith("startpos") or " moves" in text:
        return  # the parser reads it: a start and moves played from it, not a board set up
    try:
        board = chess.Board(text.removeprefix("fen ").strip())
    except ValueError as error:
        raise RefusedPosition(f"not a FEN: {str(error).replace(f': {text!r}', '')}") from None
    status = board.status()
    kings = [len(board.pieces(chess.KING, colour)) for colour in (chess.WHITE, chess.BLACK)]
    for colour, count in zip(("white", "black"), kings, strict=True):
        if count > 1:  # python-chess says only "too many kings"
            raise RefusedPosition(f"{colour} has {count} kings: each side needs exactly one")
    backrank = [
        chess.square_name(square)
        for square in board.pieces(chess.PAWN, chess.WHITE) | board.pieces(chess.PAWN, chess.BLACK)
        if chess.square_rank(square) in (0, 7)
    ]
    words: dict[str, Any] = {
        "backrank": ", ".join(backrank),
        "white_pawns": len(board.pieces(chess.PAWN, chess.WHITE)),
        "black_pawns": len(board.pieces(chess.PAWN, chess.BLACK)),
        "white_pieces": chess.popcount(board.occupied_co[chess.WHITE]),
        "black_pieces": chess.popcount(board.occupied_co[chess.BLACK]),
        "mover": "white" if board.turn == chess.WHITE else "black",
        "waiting": "black" if board.turn == chess.WHITE else "white",
        "checkers": len(board.checkers()),
        "ep": chess.square_name(board.ep_square) if board.ep_square is not None else "-",
    }
    for name, reason in _CHESS_REASONS.items():
        if status & chess.Status[name]:
            raise RefusedPosition(reason.format(**words))


def _check_connect4(position: Any, turn: int | None, names: tuple[str, str]) -> None:
    """The parser reads whose turn it is from the discs: the editor's choice must agree."""
    if turn is None or position.player() == turn:
        return
    discs = position.moves
    first = (discs + 1) // 2
    second = discs - first
    raise RefusedPosition(
        f"{names[turn]} to move does not fit {first} {names[0]} and {second} {names[1]} discs: {names[0]} plays"
        f" first, so with {names[0]} to move both have as many discs, with {names[1]} to move {names[0]} has one more"
    )


def _check_draughts(position: Any, start: Any) -> None:
    """At least one piece a side, and no more than the game's start holds (20 a side in
    international draughts, 12 on 8x8): no game gains pieces."""
    for colour in ("white", "black"):
        count = _pieces(position.board, colour)
        if not count:
            raise RefusedPosition(f"{colour} has no pieces: each side needs at least one (the game would be over)")
        most = _pieces(start.board, colour)
        if count > most:
            raise RefusedPosition(f"{colour} has {count} pieces: at most {most}, as many as the game starts with")


def _pieces(board: Any, colour: str) -> int:
    """How many pieces (men and kings) ``colour`` has on a py-draughts board."""
    return int((getattr(board, f"{colour}_men") | getattr(board, f"{colour}_kings")).bit_count())
