"""Chess's evaluation terms, shared by the game (``chess``) and its compiled primitives
(``chess_compiled``): PeSTO's tables (``chess_tables``) as square values by colour, the
game phase, the capture-ordering values, and the side to move's bonus.
"""

from __future__ import annotations

import chess

from negamax.games.chess_tables import (
    ENDGAME_TABLES,
    ENDGAME_VALUES,
    MIDGAME_TABLES,
    MIDGAME_VALUES,
    PHASE_WEIGHTS,
)


def _square_values(values: tuple[int, ...], tables: tuple[tuple[int, ...], ...]) -> list[list[list[int]]]:
    """[colour][piece type][square] -> value from White's side (Black's pieces negative)."""
    by_colour: list[list[list[int]]] = [[[0] * 64 for _ in range(7)] for _ in range(2)]
    for piece_type in range(1, 7):
        for square in range(64):
            by_colour[chess.WHITE][piece_type][square] = values[piece_type - 1] + tables[piece_type - 1][square ^ 56]
            by_colour[chess.BLACK][piece_type][square] = -(values[piece_type - 1] + tables[piece_type - 1][square])
    return by_colour


MIDGAME = _square_values(MIDGAME_VALUES, MIDGAME_TABLES)
ENDGAME = _square_values(ENDGAME_VALUES, ENDGAME_TABLES)
PHASE = (0, *PHASE_WEIGHTS)
ORDER_VALUES = (0, 100, 320, 330, 500, 900, 20_000)
"""Piece values for ordering captures (most valuable victim, least valuable attacker)."""
TEMPO = 10
