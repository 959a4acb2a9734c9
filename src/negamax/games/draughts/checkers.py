"""American checkers' legal moves, generated here: py-draughts' ``AmericanBoard`` offers
quiet moves beside captures, where the game's rules make capturing compulsory.

The rules: a man steps and captures diagonally forward only, a king one square any diagonal
way; a side that can capture must, but may choose any capture, which it must play to its
end (no maximum-capture rule); a piece taken stays on the board until the capture ends, so
none is jumped twice and none is landed on; a man reaching the far row is crowned and its
move ends (a man has no forward jump from there, so this needs no rule of its own).

Squares are py-draughts' (the 1-32 numbering minus one): square 0 is at the top left of
Black's side, where Black (the side on squares 1-12) moves down the board, towards square 31.
A capture with the same start, end and pieces taken as one found already (a king's circle
run either way round) is the same move, as everywhere in ``negamax.games.draughts``.

>>> start = (0, 0, (1 << 12) - 1, 0)  # White's men and kings, Black's men and kings
>>> sorted((path[0] + 1, path[-1] + 1) for path, _ in legal_moves(*start, white=False))
[(9, 13), (9, 14), (10, 14), (10, 15), (11, 15), (11, 16), (12, 16)]
"""

from __future__ import annotations

Move = tuple[tuple[int, ...], tuple[int, ...]]
"""A move: the squares it visits, from start to end, and the squares whose pieces it takes."""

SQUARES = 32
WHITE_MAN, BLACK_MAN, KING = range(3)


def _tables() -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...]:
    """For each kind of piece (``WHITE_MAN``, ``BLACK_MAN``, ``KING``) and square, its
    diagonal ways as ``(step, jump)``: the square one step away and the one two steps away
    (-1: off the board). White's men go towards square 0, Black's towards square 31."""
    place = {}
    for square in range(SQUARES):
        row = square // 4
        place[row, 2 * (square % 4) + (1 if row % 2 == 0 else 0)] = square
    ways = {"up": ((-1, -1), (-1, 1)), "down": ((1, -1), (1, 1))}
    tables = []
    for kind in (ways["up"], ways["down"], ways["up"] + ways["down"]):
        table = []
        for square in range(SQUARES):
            row = square // 4
            column = 2 * (square % 4) + (1 if row % 2 == 0 else 0)
            table.append(
                tuple(
                    (place.get((row + down, column + right), -1), place.get((row + 2 * down, column + 2 * right), -1))
                    for down, right in kind
                )
            )
        tables.append(tuple(table))
    return tuple(tables)


WAYS = _tables()


def legal_moves(white_men: int, white_kings: int, black_men: int, black_kings: int, white: bool) -> list[Move]:
    """The legal moves of the side to move (``white``) on the board of the four masks (bit
    ``s``: square ``s``): the captures if there is one, else the quiet moves."""
    if white:
        men, kings, enemies, man = white_men, white_kings, black_men | black_kings, WHITE_MAN
    else:
        men, kings, enemies, man = black_men, black_kings, white_men | white_kings, BLACK_MAN
    occupied = white_men | white_kings | black_men | black_kings
    captures: list[Move] = []
    found: set[tuple[int, int, frozenset[int]]] = set()
    quiet: list[Move] = []
    for pieces, ways in ((men, WAYS[man]), (kings, WAYS[KING])):
        while pieces:
            low = pieces & -pieces
            pieces ^= low
            origin = low.bit_length() - 1
            for step, jump in ways[origin]:
                if step < 0:
                    continue
                if not occupied >> step & 1:
                    if not captures:
                        quiet.append(((origin, step), ()))
                elif jump >= 0 and enemies >> step & 1 and not occupied >> jump & 1:
                    # the moving piece leaves its square: a king's circle may end there
                    _capture(origin, ways, enemies, occupied ^ low, [origin], [], captures, found)
                    break
    return captures or quiet


def _capture(
    square: int,
    ways: tuple[tuple[tuple[int, int], ...], ...],
    enemies: int,
    occupied: int,
    path: list[int],
    taken: list[int],
    out: list[Move],
    found: set[tuple[int, int, frozenset[int]]],
) -> None:
    """Extends a capture that has reached ``square`` along ``path`` having taken ``taken``
    (still on the board, in ``occupied``), recording it in ``out`` where it must end."""
    extended = False
    for victim, landing in ways[square]:
        if landing < 0 or occupied >> landing & 1 or not enemies >> victim & 1 or victim in taken:
            continue
        extended = True
        path.append(landing)
        taken.append(victim)
        _capture(landing, ways, enemies, occupied, path, taken, out, found)
        path.pop()
        taken.pop()
    if not extended and taken:
        key = (path[0], path[-1], frozenset(taken))
        if key not in found:
            found.add(key)
            out.append((tuple(path), tuple(taken)))
