"""A book packed for shipping: every position's key and exact value in sorted arrays, read
without a database (``negamax book pack``).

The SQLite book (``book.py``) is what a build writes, resumes and exports: about 150 bytes a
position with its text, method and node count. What a player needs of it is the key, the
value and the best move: here the keys (the game's symmetry-canonical ``book_key``, an
integer, as 64-bit words) sorted and stored as the steps from one to the next (small
numbers, which compress five times better than the keys), the value as the distance score
relative to the position (``WIN - d``: a 32-bit word that compresses well, the values being
few), and the best move as an index into the book's list of move texts; NumPy's compressed
``.npz`` holds them, about 1.3 bytes a position for Connect 4. Read, the keys are summed
back; a lookup is one binary search.

>>> import os, tempfile
>>> from negamax.games import get_game
>>> from negamax.parallel.book import Book, BookRow
>>> game = get_game("connect4")
>>> folder = tempfile.mkdtemp()
>>> with Book(os.path.join(folder, "book.sqlite"), game) as book:
...     _ = book.store([BookRow.of(game, game.new_position("1"), score=-5, best_move="2", method="solve")])
...     pack_book(book, os.path.join(folder, "book.npz"))
1
>>> with PackedBook(os.path.join(folder, "book.npz"), game) as packed:
...     entry = packed.lookup(game.new_position("7"))  # the mirror image of "1"
>>> entry.score, entry.best_move
(-5, '6')
"""

from __future__ import annotations

import os
import zipfile
from typing import Any

import numpy as np

from negamax.core.game import Position
from negamax.core.rules import Game
from negamax.parallel.book import Book, BookEntry, BookError, BookReader

PACKED_FORMAT = 2
"""2: the keys stored as steps (``key_steps``); 1 (still read): the keys themselves."""
NO_MOVE = -1
PACKED_SUFFIX = ".npz"


def is_packed(path: str) -> bool:
    """Whether ``path`` is a packed book (a zip archive) rather than an SQLite one."""
    return zipfile.is_zipfile(path)


def pack_book(book: Book, path: str) -> int:
    """Write every position of ``book`` to ``path``, packed; returns how many.

    :raises BookError: for a game whose book keys are not integers (they cannot be packed).
    """
    keys, scores, moves = [], [], []
    texts: dict[str, int] = {}
    for key, score, best_move in book.key_rows():
        try:
            number = int(key)
        except ValueError:
            raise BookError(f"{book.game.name}'s book keys are not integers ({key[:40]!r}): no packing") from None
        if not 0 <= number < 1 << 64:
            raise BookError(f"{book.game.name}'s book key {number} does not fit 64 bits: it cannot be packed")
        keys.append(number)
        scores.append(score)
        moves.append(NO_MOVE if best_move is None else texts.setdefault(best_move, len(texts)))
    order = np.argsort(np.array(keys, dtype=np.uint64), kind="stable")
    sorted_keys = np.array(keys, dtype=np.uint64)[order]
    temporary = f"{path}.part{PACKED_SUFFIX}"
    np.savez_compressed(
        temporary,
        format=np.array([PACKED_FORMAT]),
        game=np.array([book.game.name]),
        key_steps=np.diff(sorted_keys, prepend=np.uint64(0)),
        scores=np.array(scores, dtype=np.int32)[order],
        moves=np.array(moves, dtype=np.int16)[order],
        move_texts=np.array(list(texts) or [""]),
    )
    os.replace(temporary, path)  # whole or not at all
    return len(keys)


class PackedBook(BookReader):
    """A packed book, read whole into memory, for reading only."""

    def __init__(self, path: str, game: Game) -> None:
        """A book of another game is read as holding nothing, as an SQLite book holds no row of it.

        :raises BookError: if the file is missing or is not a packed book."""
        self.path, self.game = path, game
        if not os.path.exists(path):
            raise BookError(f"no book at {path}")
        try:
            with np.load(path, allow_pickle=False) as data:
                stored_format = int(data["format"][0])
                if stored_format not in (1, PACKED_FORMAT):
                    raise BookError(f"{path} is a packed book of format {stored_format}, not {PACKED_FORMAT}")
                stored_game = str(data["game"][0])
                # (a step sum wraps around past 64 bits: a damaged file's keys come out unsorted)
                self._keys = data["keys"] if stored_format == 1 else np.cumsum(data["key_steps"], dtype=np.uint64)
                self._scores = data["scores"]
                self._moves = data["moves"]
                self._texts = [str(text) for text in data["move_texts"]]
        except (OSError, ValueError, TypeError, KeyError, zipfile.BadZipFile) as error:  # TypeError: arrays of text
            raise BookError(f"{path} is not a packed negamax book ({type(error).__name__}: {error})") from None
        if stored_game != game.name:  # as an SQLite book holds no row of another game
            self._keys, self._scores, self._moves = self._keys[:0], self._scores[:0], self._moves[:0]
        if not (len(self._keys) == len(self._scores) == len(self._moves)):
            raise BookError(f"{path} is damaged: its arrays differ in length")
        if len(self._keys) > 1 and not bool(np.all(self._keys[1:] > self._keys[:-1])):
            raise BookError(f"{path} is damaged: its keys are not in order")

    def __len__(self) -> int:
        return len(self._keys)

    def close(self) -> None:
        """Nothing to close: the arrays are in memory (for the ``with`` of ``BookReader``)."""

    def lookup(self, position: Position[Any]) -> BookEntry | None:
        key, symmetry = self.game.book_key(position)
        try:
            number = np.uint64(int(key))
        except (ValueError, OverflowError):
            return None
        index = int(np.searchsorted(self._keys, number))
        if index >= len(self._keys) or self._keys[index] != number:
            return None
        score = int(self._scores[index])
        stored = int(self._moves[index])
        move = None if stored == NO_MOVE else self.game.symmetric_move_text(self._texts[stored], symmetry)
        return BookEntry(score, self.game.game_score(position, score), move, "packed", 0)


def open_book_file(path: str, game: Game) -> BookReader:
    """The book at ``path`` for reading: packed (``.npz``) or SQLite.

    :raises BookError: if it is neither, or missing."""
    if os.path.exists(path) and is_packed(path):
        return PackedBook(path, game)
    return Book(path, game, create=False)
