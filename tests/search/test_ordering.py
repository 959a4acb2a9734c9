"""Move ordering: the table's move first, then the killers, then history, else the game's."""

from __future__ import annotations

from negamax.search.ordering import HistoryTable, KillerTable, order_moves


def test_the_table_move_then_the_killers_then_the_game_order() -> None:
    moves = ["a", "b", "c", "d", "e"]
    killers = KillerTable()
    killers.add(3, "d")
    killers.add(3, "c")  # the newest killer comes first
    assert killers.get(3) == ["c", "d"]
    assert order_moves(moves, "e", killers.get(3), None) == ["e", "c", "d", "a", "b"]
    assert order_moves(moves, None, None, None) == moves  # nothing known: the game's order


def test_killers_keep_two_distinct_moves_and_grow_with_the_ply() -> None:
    killers = KillerTable(plies=2)
    killers.add(1, "x")
    killers.add(1, "x")
    assert killers.get(1) == ["x", None]
    killers.add(5, "y")  # beyond the table: it grows
    assert killers.get(5) == ["y", None] and killers.get(99) == [None, None]


def test_history_sorts_by_credit_and_ties_keep_the_game_order() -> None:
    history = HistoryTable()
    history.add("c", 3)  # credit depth squared: 9
    history.add("a", 2)
    history.add("a", 2)  # 8
    assert [history.score(move) for move in "abc"] == [8, 0, 9]
    assert order_moves(["a", "b", "c", "d"], None, None, history) == ["c", "a", "b", "d"]


def test_moves_not_among_the_legal_ones_are_ignored() -> None:
    # a stale killer or a table entry of another position must not add a move
    assert order_moves(["a", "b"], "z", ["y", "b"], None) == ["b", "a"]
