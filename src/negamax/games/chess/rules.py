"""Chess on python-chess: make/unmake by push/pop, and a tapered evaluation (piece-square
values kept up to date move by move, pawn structure and piece placement terms on top; the
weights in ``weights``) plus a learned correction (``network``), or, in won
endings without pawns, a mop-up term in its place (``chess_evaluation.mop_up``). A lead of
a minor piece or less counts for little when the side ahead has no pawn
(``chess_evaluation.pawnless_scale``), and every value but mop-up's shrinks as the
fifty-move rule nears (``chess_evaluation.shuffle_damped``).

The piece-square part is two sums (midgame and endgame, from White's side) and a game
phase; each move changes a few terms, so ``play`` adjusts them and ``undo`` restores them
from a stack. The structure terms (``evaluation``) are counted from the board's
bitboards at each evaluation.

Draws the search must see: a position repeated since the search began (a second
occurrence is enough: the side that can repeat can keep repeating), the fifty-move rule,
and insufficient material. Mate is ``-WIN`` for the side to move.

The game the players see ends by FIDE's Laws instead (``game_end``), as lichess applies
them: a draw is claimed for the players the moment it can be claimed, so the game ends
at a position's third occurrence and after fifty moves of each side without a capture or
a pawn move, besides mate, stalemate and a position where no mate is possible. A game
started from a FEN knows only the positions since that FEN.

>>> game = ChessGame()
>>> position = game.new_position("startpos")
>>> len(position.legal_moves()), position.evaluate() == TEMPO + chess_network.board_value(position.board)
(20, True)
>>> position.play(game.parse_move(position, "e2e4")); position.evaluate() < 0  # Black to move, White better
True
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import chess

from negamax.core.errors import IllegalMoveError, InvalidPositionError
from negamax.core.game import Position
from negamax.core.rules import BaseGame, repeated_in_search
from negamax.core.score import WIN
from negamax.games.chess import network as chess_network
from negamax.games.chess.evaluation import (
    ENDGAME,
    MIDGAME,
    ORDER_VALUES,
    PHASE,
    TEMPO,
    board_counts,
    board_mop_up,
    board_pawnless_scaled,
    shuffle_damped,
    structure_value,
)
from negamax.games.chess.tables import FULL_PHASE


class ChessPosition:
    """A chess position for the search; ``board`` is a python-chess board it owns."""

    __slots__ = ("_moves", "board", "endgame", "keys", "midgame", "phase", "root_length", "saved")
    solvable = False
    """Chess cannot be solved exactly: ``solve()`` needs a node or time limit."""

    def __init__(self, board: chess.Board) -> None:
        self.board = board
        self.midgame = self.endgame = self.phase = 0
        for square, piece in board.piece_map().items():
            self.midgame += MIDGAME[piece.color][piece.piece_type][square]
            self.endgame += ENDGAME[piece.color][piece.piece_type][square]
            self.phase += PHASE[piece.piece_type]
        self.saved: list[tuple[int, int, int]] = []
        replay = board.root()
        self.keys: list[Hashable] = [replay._transposition_key()]
        for move in board.move_stack:
            replay.push(move)
            self.keys.append(replay._transposition_key())
        self.root_length = len(self.keys)
        self._moves: tuple[Hashable, list[chess.Move]] | None = None

    def _legal(self) -> list[chess.Move]:
        key = self.keys[-1]
        if self._moves is not None and self._moves[0] == key:
            return self._moves[1]
        moves = list(self.board.generate_legal_moves())
        self._moves = (key, moves)
        return moves

    def legal_moves(self) -> list[chess.Move]:
        """Captures and promotions first (most valuable victim, least valuable attacker), then the rest."""
        board = self.board
        noisy, quiet = [], []
        for move in self._legal():
            victim = board.piece_type_at(move.to_square)
            if victim or move.promotion:
                noisy.append((_capture_order(board, move, victim or 0) + (move.promotion or 0) * 1000, move))
            else:
                quiet.append(move)
        noisy.sort(key=_first, reverse=True)
        return [move for _, move in noisy] + quiet

    def noisy_moves(self) -> list[chess.Move]:
        """Captures and queen promotions, best victim first (for quiescence); generated on
        their own, since quiescence nodes are most of the nodes and most moves are quiet."""
        board = self.board
        scored = []
        for move in board.generate_legal_captures():
            if move.promotion and move.promotion != chess.QUEEN:
                continue
            victim = board.piece_type_at(move.to_square) or chess.PAWN  # en passant takes a pawn
            scored.append((_capture_order(board, move, victim) + (9000 if move.promotion else 0), move))
        sevenths = board.pawns & board.occupied_co[board.turn] & (chess.BB_RANK_7 if board.turn else chess.BB_RANK_2)
        if sevenths:
            for move in board.generate_legal_moves(from_mask=sevenths, to_mask=~board.occupied & chess.BB_ALL):
                if move.promotion == chess.QUEEN:
                    scored.append((9000, move))
        scored.sort(key=_first, reverse=True)
        return [move for _, move in scored]

    def _has_legal_move(self) -> bool:
        cached = self._moves
        if cached is not None and cached[0] == self.keys[-1]:
            return bool(cached[1])
        return any(True for _ in self.board.generate_legal_moves())

    def play(self, move: chess.Move) -> None:
        board = self.board
        self.saved.append((self.midgame, self.endgame, self.phase))
        mover = board.turn
        piece_type = board.piece_type_at(move.from_square) or chess.PAWN
        midgame, endgame, phase = self.midgame, self.endgame, self.phase
        captured = board.piece_type_at(move.to_square)
        if captured:
            midgame -= MIDGAME[not mover][captured][move.to_square]
            endgame -= ENDGAME[not mover][captured][move.to_square]
            phase -= PHASE[captured]
        elif piece_type == chess.PAWN and move.to_square == board.ep_square:
            taken = move.to_square + (-8 if mover == chess.WHITE else 8)
            midgame -= MIDGAME[not mover][chess.PAWN][taken]
            endgame -= ENDGAME[not mover][chess.PAWN][taken]
        midgame -= MIDGAME[mover][piece_type][move.from_square]
        endgame -= ENDGAME[mover][piece_type][move.from_square]
        placed = move.promotion or piece_type
        midgame += MIDGAME[mover][placed][move.to_square]
        endgame += ENDGAME[mover][placed][move.to_square]
        phase += PHASE[placed] - PHASE[piece_type]
        if piece_type == chess.KING and abs(move.to_square - move.from_square) == 2 and not captured:
            rank = move.from_square & ~7
            rook_from, rook_to = (rank + 7, rank + 5) if move.to_square > move.from_square else (rank, rank + 3)
            midgame += MIDGAME[mover][chess.ROOK][rook_to] - MIDGAME[mover][chess.ROOK][rook_from]
            endgame += ENDGAME[mover][chess.ROOK][rook_to] - ENDGAME[mover][chess.ROOK][rook_from]
        self.midgame, self.endgame, self.phase = midgame, endgame, phase
        board.push(move)
        self.keys.append(board._transposition_key())

    def undo(self, move: chess.Move) -> None:
        self.board.pop()
        self.keys.pop()
        self.midgame, self.endgame, self.phase = self.saved.pop()

    def is_repetition(self) -> bool:
        """The position occurred before and the repetition happened inside the search."""
        return repeated_in_search(self.keys, self.root_length, self.board.halfmove_clock)

    def occurrences(self) -> int:
        """How many times the position has occurred in the game, this time included: only
        positions since the last capture or pawn move can be the same (the key holds the
        side to move, the castling rights and an en passant capture that is legal)."""
        keys = self.keys
        key = keys[-1]
        oldest = max(0, len(keys) - 1 - self.board.halfmove_clock)
        return sum(1 for index in range(len(keys) - 1, oldest - 1, -2) if keys[index] == key)

    def game_end(self) -> tuple[int, str] | None:
        """The game's end for the players (``HasGameEnd``): mate, stalemate, a position
        where no mate is possible (python-chess's test of it), fifty moves of each side
        without a capture or a pawn move, and a position's third occurrence; the reasons in
        python-chess's order and words (the 75-move rule and the fivefold repetition
        are named where a start position, a FEN and its moves, is already past them)."""
        board = self.board
        can_move = self._has_legal_move()
        if not can_move and board.is_check():
            return -WIN, "checkmate"
        if board.is_insufficient_material():
            return 0, "insufficient material"
        if not can_move:
            return 0, "stalemate"
        if board.halfmove_clock >= 150:
            return 0, "seventy-five-move rule"
        occurrences = self.occurrences()
        if occurrences >= 5:
            return 0, "fivefold repetition"
        if board.halfmove_clock >= 100:
            return 0, "fifty-move rule"
        if occurrences >= 3:
            return 0, "threefold repetition"
        return None

    def is_terminal(self) -> bool:
        board = self.board
        if board.halfmove_clock >= 100 or self.is_repetition():
            return True
        if chess.popcount(board.occupied) <= 4 and board.is_insufficient_material():
            return True
        return not self._has_legal_move()

    def terminal_value(self) -> int:
        if self.board.is_check() and not self._has_legal_move():
            return -WIN
        return 0

    def evaluate(self) -> int:
        applies, mop_up = board_mop_up(self.board, self.phase)
        if applies:
            return self.tables_and_terms() + (mop_up if self.board.turn == chess.WHITE else -mop_up)
        value = board_pawnless_scaled(
            self.board, self.phase, self.tables_and_terms() + chess_network.board_value(self.board)
        )
        return shuffle_damped(value, self.board.halfmove_clock)

    def tables_and_terms(self) -> int:
        """The evaluation without the network's correction (what the network is trained on
        top of)."""
        midgame, endgame = structure_value(*board_counts(self.board))
        phase = min(self.phase, FULL_PHASE)
        white = ((self.midgame + midgame) * phase + (self.endgame + endgame) * (FULL_PHASE - phase)) // FULL_PHASE
        return (white if self.board.turn == chess.WHITE else -white) + TEMPO

    def key(self) -> Hashable:
        return self.keys[-1]

    def move_list_form(self) -> tuple[Any, Any]:
        """(spec, state) for the compiled deepening kernel (imports numba)."""
        from negamax.games.chess import compiled as chess_compiled  # only when the compiled path runs

        return chess_compiled.SPEC, chess_compiled.new_state(self.board)

    def moves_from_codes(self, codes: Sequence[int]) -> list[chess.Move]:
        return [_decoded(code) for code in codes]

    def player(self) -> int:
        return 0 if self.board.turn == chess.WHITE else 1

    def copy(self) -> ChessPosition:
        clone = ChessPosition.__new__(ChessPosition)
        clone.board = self.board.copy()
        clone.midgame, clone.endgame, clone.phase = self.midgame, self.endgame, self.phase
        clone.saved = []
        clone.keys = list(self.keys)
        clone.root_length = len(clone.keys)
        clone._moves = None
        return clone

    def __repr__(self) -> str:
        return f"ChessPosition({self.board.fen()!r})"


def _capture_order(board: chess.Board, move: chess.Move, victim: int) -> int:
    """Most valuable victim first, then least valuable attacker."""
    attacker = board.piece_type_at(move.from_square) or 0
    return ORDER_VALUES[victim] * 10 - ORDER_VALUES[attacker] // 100


def _decoded(code: int) -> chess.Move:
    """The move a compiled code stands for (the code alone says it all in chess)."""
    promotion = (code >> 14) & 7
    return chess.Move(_square_of(code & 127), _square_of((code >> 7) & 127), promotion or None)


def _square_of(box: int) -> int:
    """The python-chess square of a 10x12 mailbox square (the compiled board's layout)."""
    return (box // 10 - 2) * 8 + box % 10 - 1


def _first(pair: tuple[int, Any]) -> int:
    return pair[0]


class ChessGame(BaseGame):
    name = "chess"
    description = "chess (python-chess rules), moves in UCI notation such as e2e4"
    position_help = "a FEN, 'startpos', optionally followed by 'moves e2e4 e7e5 ...'"
    solvable = False
    evaluation_unit = 100  # centipawns

    def new_position(self, text: str | None = None) -> ChessPosition:
        """``startpos`` or a FEN, optionally followed by ``moves`` and UCI moves."""
        text = (text or "startpos").strip()
        head, _, moves_text = text.partition(" moves")
        head = head.strip().removeprefix("fen ").strip()
        try:
            board = chess.Board() if head in ("", "startpos") else chess.Board(head)
        except ValueError as error:
            raise InvalidPositionError(f"chess position {head!r}: {error}") from None
        status = board.status()
        if status != chess.STATUS_VALID:
            reasons = [str(flag.name).lower().replace("_", " ") for flag in chess.Status if flag and flag in status]
            raise InvalidPositionError(f"chess position {head!r} is not legal: {', '.join(reasons)}")
        for word in moves_text.split():
            try:
                move = board.parse_uci(word)
                if not move:  # the null move: no pass in chess
                    raise ValueError(word)
                board.push(move)
            except ValueError:
                raise InvalidPositionError(f"chess position {text!r}: {word!r} is not a legal move there") from None
        return ChessPosition(board)

    def parse_move(self, position: Position[Any], text: str) -> chess.Move:
        assert isinstance(position, ChessPosition)
        text = text.strip()
        board = position.board
        refused = IllegalMoveError(f"{text!r} is not a legal move here (write e2e4 or Nf3)")
        try:
            move = board.parse_uci(text)
        except ValueError:
            try:
                move = board.parse_san(text)
            except ValueError:
                raise refused from None
        if not move:  # python-chess's null move ('0000', '--'): a pass, which chess never allows
            raise refused
        return move

    def move_text(self, position: Position[Any], move: Hashable) -> str:
        assert isinstance(move, chess.Move)
        return move.uci()

    def position_text(self, position: Position[Any]) -> str:
        assert isinstance(position, ChessPosition)
        return position.board.fen()

    def render(self, position: Position[Any]) -> str:
        assert isinstance(position, ChessPosition)
        return str(position.board)
