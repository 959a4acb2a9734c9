"""Draughts: international 10x10 (``draughts``), American checkers 8x8 (``checkers``), and
the other variants py-draughts plays (``russian``, ``brazilian``, ``frisian``).

The rules (forced captures, the maximum-capture rule, flying kings, promotion during a
capture, the draw rules) are py-draughts', used as they are where they are right: a
position owns a py-draughts board and plays its moves by push/pop. py-draughts' American
checkers makes captures optional, so checkers' moves come from ``checkers`` instead
(captures compulsory, any one of them). A capture with the same start, end and pieces taken
as another (a circle run either way round, which py-draughts lists twice in Frisian) is one
move, as in the published perft counts (``tests/games/draughts/test_perft.py``). Moves are
their notation, ``32-28`` or ``28x19x10`` (every square visited), which is hashable where
py-draughts' ``Move`` is not.

American checkers follows its own conventions: Black, the side on squares 1-12, moves
first (``11-15``, then White's ``22-18``); its start is ``B:W21,...,32:B1,...,12``.

The evaluation, from the side to move, in hundredths of a man: men and kings, each man's
bonus by the rows it has advanced (``ADVANCE``) and by its distance from the edge files
(``FILE``), and a bonus for the side to move; those weights are a least-squares fit to
py-draughts' ``TurboEngine`` evaluation (``tools/fit_draughts.py``). International
draughts adds a worth for the men's arrangement in each of sixteen overlapping 4x4
regions, with a king's worth refitted alongside, fitted to dame-rs's search scores
(``tools/fit_draughts_patterns.py``), then to the results of the engine's own self-play
games (``tools/train_draughts_patterns.py``); and its value shrinks in the king endgames the
FMJD's rule is about to draw (``evaluation.drawish``).

Needs the ``draughts`` extra: ``pip install 'negamax[draughts]'``.

>>> game = DraughtsGame()
>>> position = game.new_position(None)
>>> len(position.legal_moves()), position.evaluate() == TEMPO  # the side to move's bonus
(9, True)
>>> checkers = DraughtsGame("checkers")
>>> checkers.position_text(checkers.new_position("start moves 11-15 22-18"))
'B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15'
>>> checkers.new_position("start moves 11-15 22-18").legal_moves()  # a capture is compulsory
['15x22']
"""

from __future__ import annotations

import importlib
from collections.abc import Hashable, Sequence
from functools import cache
from typing import Any

from negamax.core.errors import IllegalMoveError, InvalidPositionError, NegamaxError
from negamax.core.game import Position
from negamax.core.rules import BaseGame, repeated_in_search
from negamax.core.score import WIN
from negamax.games.draughts import checkers
from negamax.games.draughts.evaluation import (
    KING_ENDGAME_VARIANTS,
    LONG_DIAGONAL_MASK,
    PATTERN_VARIANTS,
    TEMPO,
    drawish,
    kings_bonus,
    weights_for,
)

VARIANTS = {
    "draughts": ("StandardBoard", "international draughts, 10x10, flying kings"),
    "checkers": ("AmericanBoard", "American checkers (English draughts), 8x8, Black (squares 1-12) moves first"),
    "russian": ("RussianBoard", "Russian draughts, 8x8"),
    "brazilian": ("BrazilianBoard", "Brazilian draughts, 8x8, international rules"),
    "frisian": ("FrisianBoard", "Frisian draughts, 10x10, orthogonal captures"),
}

BLACK_MOVES_FIRST = frozenset({"checkers"})
"""The variants whose first move is Black's (py-draughts' boards start with White's)."""


class DraughtsUnavailableError(NegamaxError, ValueError):
    """py-draughts is not installed."""


@cache
def _draughts_module() -> Any:
    try:
        module = importlib.import_module("draughts")
    except ImportError:
        raise DraughtsUnavailableError("draughts needs py-draughts: pip install 'negamax[draughts]'") from None
    # py-draughts logs every board it creates (thousands a second in a search) to stderr
    importlib.import_module("loguru").logger.disable("draughts")
    return module


class DraughtsPosition:
    """A draughts position for the search, pure-Python or compiled (``move_list_form``);
    ``board`` is a py-draughts board it owns, of ``variant``."""

    solvable = False
    """Draughts cannot be solved exactly: ``solve()`` needs a node or time limit."""

    __slots__ = ("_moves", "board", "keys", "root_length", "variant", "weights", "white")

    def __init__(self, board: Any, variant: str) -> None:
        self.board = board
        self.variant = variant
        self.weights = weights_for(board.SQUARES_COUNT, patterns=variant in PATTERN_VARIANTS)
        self.white = _draughts_module().Color.WHITE
        self.keys: list[Hashable] = [self._current_key()]
        self.root_length = 1
        self._moves: tuple[Hashable, dict[str, Any]] | None = None

    def _current_key(self) -> Hashable:
        board = self.board
        return (board.white_men, board.white_kings, board.black_men, board.black_kings, board.turn == self.white)

    def _legal(self) -> dict[str, Any]:
        key = self.keys[-1]
        cached = self._moves
        if cached is not None and cached[0] == key:
            return cached[1]
        board = self.board
        if self.variant == "checkers":
            moves = self._checkers_moves()
        else:
            moves = {}
            captures: set[tuple[int, int, frozenset[int]]] = set()
            for move in board.legal_moves:
                if move.captured_list:
                    same = (move.square_list[0], move.square_list[-1], frozenset(move.captured_list))
                    if same in captures:
                        continue  # the same capture by another route
                    captures.add(same)
                moves[str(move)] = move
        self._moves = (key, moves)
        return moves

    def _checkers_moves(self) -> dict[str, Any]:
        """American checkers' moves (``checkers``) as py-draughts' ``Move``s, to push."""
        board = self.board
        masks = (board.white_men, board.white_kings, board.black_men, board.black_kings)
        move_class = _draughts_module().Move
        moves = {}
        for path, taken in checkers.legal_moves(*masks, white=board.turn == self.white):
            # what each capture takes, for pop to put back (py-draughts: White's negative)
            pieces = [_piece_code(masks, square) for square in taken]
            move = move_class(list(path), list(taken), pieces)
            moves[str(move)] = move
        return moves

    def legal_moves(self) -> list[str]:
        """Captures first, longer ones first (the variants without a maximum-capture rule
        leave a choice)."""
        moves = self._legal()
        return sorted(moves, key=lambda text: -text.count("x"))

    def played(self, move: str) -> Any:
        """py-draughts' ``Move`` for the legal ``move`` (its squares visited and pieces taken)."""
        return self._legal()[move]

    def noisy_moves(self) -> list[str]:
        """The captures (for quiescence)."""
        return [move for move in self.legal_moves() if "x" in move]

    def play(self, move: str) -> None:
        self.board.push(self._legal()[move])
        self.keys.append(self._current_key())

    def undo(self, move: str) -> None:
        self.board.pop()
        self.keys.pop()

    def is_terminal(self) -> bool:
        board = self.board
        if not self._legal():
            return True
        if board.white_kings or board.black_kings:
            # every draw rule (move counts, repetition, the king endgames) needs a king
            return repeated_in_search(self.keys, self.root_length, board.halfmove_clock) or bool(board.is_draw)
        return False

    def terminal_value(self) -> int:
        return -WIN if not self._legal() else 0

    def occurrences(self) -> int:
        """How many times the position has occurred in the game, this time included, among
        the positions since the last man move or capture (as py-draughts counts them)."""
        keys = self.keys
        key = keys[-1]
        oldest = max(0, len(keys) - 1 - self.board.halfmove_clock)
        return sum(1 for index in range(len(keys) - 1, oldest - 1, -2) if keys[index] == key)

    def game_end(self) -> tuple[int, str] | None:
        """The game's end for the players (``HasGameEnd``): py-draughts' rules as they are,
        where a position's third occurrence draws; the search scores its second inside a
        search as a draw already (``is_terminal``). The occurrences are counted from the
        position's own keys, which a copy keeps: a copy of py-draughts' board forgets its
        moves."""
        if not self._legal():
            return -WIN, ""  # the game's one way to win, as no reason names it
        if self.occurrences() >= 3:
            return 0, "threefold repetition"
        if self.board.is_draw:
            return 0, "a draw rule of the variant"
        return None

    def evaluate(self) -> int:
        board = self.board
        white_man, black_man = self.weights.white_man, self.weights.black_man
        white = black = 0
        men = board.white_men
        while men:
            low = men & -men
            white += white_man[low.bit_length() - 1]
            men ^= low
        men = board.black_men
        while men:
            low = men & -men
            black += black_man[low.bit_length() - 1]
            men ^= low
        white_kings: int = board.white_kings
        black_kings: int = board.black_kings
        kings = white_kings
        while kings:
            low = kings & -kings
            white += self.weights.white_king[low.bit_length() - 1]
            kings ^= low
        kings = black_kings
        while kings:
            low = kings & -kings
            black += self.weights.black_king[low.bit_length() - 1]
            kings ^= low
        value: int = white - black
        if white_kings | black_kings:
            weights = self.weights
            value += kings_bonus(
                weights.first_king, weights.further_king, white_kings.bit_count(), black_kings.bit_count()
            )
        if self.weights.regions:
            value += self.weights.arrangement(board.white_men, board.black_men)
        if self.variant in KING_ENDGAME_VARIANTS and white_kings | black_kings:
            value = drawish(
                value,
                board.white_men.bit_count(),
                white_kings.bit_count(),
                board.black_men.bit_count(),
                black_kings.bit_count(),
                bool(white_kings & LONG_DIAGONAL_MASK),
                bool(black_kings & LONG_DIAGONAL_MASK),
            )
        if board.turn != self.white:
            value = -value
        return value + TEMPO

    def key(self) -> Hashable:
        return self.keys[-1]

    def player(self) -> int:
        # 0 is the side that moves first: White, but Black in checkers
        first = self.board.turn == self.white if self.variant != "checkers" else self.board.turn != self.white
        return 0 if first else 1

    def copy(self) -> DraughtsPosition:
        clone = type(self)(self.board.copy(), self.variant)
        clone.keys = list(self.keys)
        clone.root_length = len(clone.keys)
        return clone

    def __repr__(self) -> str:
        return f"DraughtsPosition({self.board.fen!r})"

    def move_list_form(self) -> tuple[Any, Any]:
        """(spec, state) for the compiled deepening kernel (imports numba)."""
        from negamax.games.draughts.compiled import VARIANT_SPECS  # only when the compiled path runs
        from negamax.games.draughts.compiled_state import new_state

        spec = VARIANT_SPECS[self.variant]
        return spec, new_state(self, spec)

    def moves_from_codes(self, codes: Sequence[int]) -> list[str]:
        from negamax.games.draughts.compiled import VARIANT_SPECS
        from negamax.games.draughts.compiled_state import code_of

        spec = VARIANT_SPECS[self.variant]
        walk = self.copy()
        line = []
        for code in codes:
            found = [move for move in walk.legal_moves() if code_of(walk, move, spec) == code]
            if not found:
                break
            line.append(found[0])
            walk.play(found[0])
        return line


def _piece_code(masks: tuple[int, int, int, int], square: int) -> int:
    """py-draughts' code of the piece on ``square`` of the board of ``masks`` (White's men,
    White's kings, Black's men, Black's kings): -1, -2, 1, 2."""
    for mask, code in zip(masks, (-1, -2, 1, 2), strict=True):
        if mask >> square & 1:
            return code
    return 0


class DraughtsGame(BaseGame):
    """One of the variants of ``VARIANTS``; international by default."""

    solvable = False
    evaluation_unit = 100  # a man

    def __init__(self, variant: str = "draughts") -> None:
        if variant not in VARIANTS:
            raise InvalidPositionError(f"unknown draughts variant {variant!r}; choose one of {', '.join(VARIANTS)}")
        self.variant = variant
        self.name = variant
        self.kernel_name = "draughts"  # one kernel plays them all (``compiled``)
        first, example = ("11-15", "15x22") if variant == "checkers" else ("32-28", "28x19x10")
        self.description = f"{VARIANTS[variant][1]}, moves such as {first} or {example}"
        self.position_help = (
            f"a FEN such as 'W:W31,32,...:B1,2,...' or 'start', optionally followed by 'moves {first} ...'"
        )

    def board_class(self) -> Any:
        return getattr(_draughts_module(), VARIANTS[self.variant][0])

    def new_position(self, text: str | None = None) -> DraughtsPosition:
        """``start`` or a FEN (``W:W31,32:B1,K2``), optionally followed by ``moves`` and moves."""
        board_class = self.board_class()
        text = (text or "start").strip()
        head, _, moves_text = text.partition(" moves")
        head = head.strip().removeprefix('[FEN "').removesuffix('"]')
        if head in ("", "start", "startpos"):
            module = _draughts_module()
            board = board_class(turn=module.Color.BLACK if self.variant in BLACK_MOVES_FIRST else module.Color.WHITE)
        else:
            try:
                board = board_class.from_fen(head)
            except (ValueError, IndexError, KeyError) as error:
                raise InvalidPositionError(f"{self.variant} position {head!r}: {error}") from None
        position = DraughtsPosition(board, self.variant)
        for word in moves_text.split():
            position.play(self.parse_move(position, word))
        position.root_length = len(position.keys)
        return position

    def parse_move(self, position: Position[Any], text: str) -> str:
        """``32-28``, or a capture by its squares (``28x19x10``, or just ``28x10`` when that
        names one capture)."""
        assert isinstance(position, DraughtsPosition)
        text = text.strip()
        moves = position.legal_moves()
        if text in moves:
            return text
        parts = text.replace("-", "x").split("x")
        matches = [move for move in moves if move.split("x")[0] == parts[0] and move.split("x")[-1] == parts[-1]]
        if "x" in text and len(matches) > 1:
            matches = [move for move in matches if set(parts) <= set(move.split("x"))]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise IllegalMoveError(f"{text!r} is ambiguous here: {', '.join(matches)}")
        raise IllegalMoveError(f"{text!r} is not a legal move here (legal: {', '.join(moves[:12])})")

    def move_text(self, position: Position[Any], move: Hashable) -> str:
        return str(move)

    def position_text(self, position: Position[Any]) -> str:
        assert isinstance(position, DraughtsPosition)
        fen: str = position.board.fen
        return fen.removeprefix('[FEN "').removesuffix('"]')

    def render(self, position: Position[Any]) -> str:
        assert isinstance(position, DraughtsPosition)
        return str(position.board)


class CheckersGame(DraughtsGame):
    def __init__(self) -> None:
        super().__init__("checkers")


class RussianGame(DraughtsGame):
    def __init__(self) -> None:
        super().__init__("russian")


class BrazilianGame(DraughtsGame):
    def __init__(self) -> None:
        super().__init__("brazilian")


class FrisianGame(DraughtsGame):
    def __init__(self) -> None:
        super().__init__("frisian")
