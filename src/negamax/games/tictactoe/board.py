"""Tic-tac-toe's board, shared by the game (``tictactoe``) and its compiled primitives
(``compiled``): cells 0-8 row by row, the lines, the symmetries.
"""

from __future__ import annotations

LINES = (
    0b000000111, 0b000111000, 0b111000000,  # rows
    0b001001001, 0b010010010, 0b100100100,  # columns
    0b100010001, 0b001010100,  # diagonals
)  # fmt: skip
FULL = 0b111111111
# Move order for the "hint" listing: centre, corners, edges.
PREFERRED_ORDER = (4, 0, 2, 6, 8, 1, 3, 5, 7)


def _symmetries() -> list[list[int]]:
    """For each of the 8 board symmetries, a table mapping a 9-bit set to its image."""
    rotate = (6, 3, 0, 7, 4, 1, 8, 5, 2)  # cell i goes to ... such that image[i] = old[rotate[i]]
    mirror = (2, 1, 0, 5, 4, 3, 8, 7, 6)
    permutations = []
    current = tuple(range(9))
    for _ in range(4):
        permutations.append(current)
        permutations.append(tuple(current[mirror[i]] for i in range(9)))
        current = tuple(current[rotate[i]] for i in range(9))
    tables = []
    for permutation in permutations:
        table = []
        for bits in range(512):
            image = 0
            for cell in range(9):
                if bits >> permutation[cell] & 1:
                    image |= 1 << cell
            table.append(image)
        tables.append(table)
    return tables


SYMMETRY_TABLES = _symmetries()


def has_line(stones: int) -> bool:
    return any(stones & line == line for line in LINES)
