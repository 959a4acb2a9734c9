"""The page's engine: a solve cut short that proved a win plays the move it proved, and a
value a search to a horizon guessed never reads as an exact one."""

from __future__ import annotations

import dataclasses
import random
import threading
from typing import Any

from negamax.core.score import INF, Bound, win_in
from negamax.core.types import Line, SearchResult
from negamax.games import get_game
from negamax.parallel.book import open_shipped_book
from negamax.viz.web import searches as web_searches
from negamax.viz.web.searches import Searches
from tests import oracle


def unfinished(best: int, lower: int, upper: int) -> SearchResult[Any]:
    return SearchResult(
        best, lower, Bound.LOWER, (best,), 0, 1000, 0.1, 0.1, "compiled", lower=lower, upper=upper, completed=False
    )


def test_a_win_proven_before_its_length_is_played_and_said_so(monkeypatch: Any) -> None:
    game = get_game("tictactoe")  # solvable; its own solve is replaced by one cut short
    position = game.new_position("01")
    searches = Searches(backend="python")
    pair = searches._searchers(game)
    monkeypatch.setattr(pair.solving, "solve", lambda *arguments, **keywords: unfinished(4, win_in(5), win_in(3)))
    searched: list[object] = []
    monkeypatch.setattr(pair.thinking, "search", lambda *arguments, **keywords: searched.append(1))
    answer = searches.think(game, position, 1.0, threading.Event(), lambda _: None)
    assert answer["best"] == "4" and answer["score_text"] == "win, proven (in at most 5 plies)"
    assert answer["advantage"] == 1.0 and not searched  # no search to a horizon after the proof


def test_a_guess_in_a_game_that_can_be_solved_says_it_is_one() -> None:
    game = get_game("connect4")
    result = SearchResult(3, 1, Bound.EXACT, (3,), 6, 5000, 0.1, 0.1, "compiled", lower=1, upper=1)
    record = web_searches.record(game, game.new_position("44"), result)
    assert record["score_text"] == "1 (a guess, depth 6)"
    assert web_searches.record(game, game.new_position("44"), result, solved=True)["score_text"] == "1"
    chess = get_game("chess")  # a game no one solves: its evaluation is all it has
    start = chess.new_position(None)
    move = start.legal_moves()[0]
    guessed = SearchResult(move, 1, Bound.EXACT, (move,), 6, 5000, 0.1, 0.1, "compiled", lower=1, upper=1)
    assert web_searches.record(chess, start, guessed)["score_text"] == "+0.01"


def test_a_typed_tree_traced_to_its_leaves_is_worth_its_value_not_a_guess() -> None:
    game = get_game("tree")  # solvable: a value to a horizon is a guess, one from the leaves is not
    searches = Searches(backend="python")
    position = game.new_position("[[3,12,8],[2,4,6],[14,5,2]]")
    for algorithm in ("textbook", "alphabeta", "negamax"):
        traced = searches.trace(game, position, 1000, None, algorithm, 10.0, threading.Event())
        assert traced["value"] == "3", algorithm
    to_a_horizon = searches.trace(game, position, 1000, 1, "textbook", 10.0, threading.Event())
    assert to_a_horizon["value"] == "0 (a guess, depth 1)"  # the tree's evaluation is 0


def test_the_solution_of_a_game_whose_player_moves_twice_is_the_oracles() -> None:
    # Kalah: a move ending in the mover's store leaves the same player to move, also where it
    # ends the game; each pit's score is the mover's, as the max/min oracle has it
    game = get_game(f"{oracle.EXAMPLE}:Kalah(2, 2)")
    searches = Searches(backend="python")
    checked = again = ended = 0
    lines: list[tuple[int, ...]] = [()]
    for moves in lines:  # every position of the game, each once
        plain = oracle.kalah(2, 2, moves)
        if plain.is_terminal():
            continue
        lines.extend((*moves, pit) for pit in plain.legal_moves())
        position = game.new_position(" ".join(map(str, moves)) or "start")
        for item in searches.solution(game, position, 30.0, threading.Event()):
            child = plain.copy()
            child.play(int(item["move"]))
            value = oracle.minimax(child)
            same = child.player() == plain.player()
            assert item["score"] == (value if same else -value), (moves, item)
            checked += 1
            again += same
            ended += same and child.is_terminal()
    assert checked > 20 and again > 0 and ended > 0


class _AlwaysFirst(random.Random):
    """A generator whose every draw is the lowest: a level that may blunder always does."""

    def random(self) -> float:
        return 0.0


def test_a_move_picked_at_random_shows_no_score_rather_than_infinite_bounds() -> None:
    game = get_game("chess")
    searches = Searches(backend="python")
    searches._generator = _AlwaysFirst()  # level 1's random move, every time
    answer = searches.think(game, game.new_position(None), 0.2, threading.Event(), lambda _: None, level=1)
    start = game.new_position(None)
    assert answer["best"] in [game.move_text(start, move) for move in start.legal_moves()]
    assert answer["score_text"] == "", answer["score_text"]  # nothing is known of that move's value
    # a bound on one side only is what is known, and said so; no bound is never a score
    played = SearchResult(3, 0, Bound.LOWER, (3,), 1, 10, 0.1, 0.1, "python", lower=-INF, upper=INF)
    connect4 = get_game("connect4")
    assert web_searches.record(connect4, connect4.new_position("44"), played)["score_text"] == ""
    floor = dataclasses.replace(played, lower=2)
    assert web_searches.record(connect4, connect4.new_position("44"), floor)["score_text"] == "not proven: at least 2"


def test_several_lines_are_listed_best_first_by_their_scores() -> None:
    # a multipv search scores each move after the ones above it: a later one may score higher
    chess = get_game("chess")
    start = chess.new_position(None)
    e4, d4, nf3 = (chess.parse_move(start, text) for text in ("e2e4", "d2d4", "g1f3"))
    lines = (Line(e4, 21, Bound.EXACT, (e4,)), Line(d4, 22, Bound.EXACT, (d4,)), Line(nf3, 5, Bound.EXACT, (nf3,)))
    result = SearchResult(e4, 21, Bound.EXACT, (e4,), 6, 5000, 0.1, 0.1, "compiled", lower=21, upper=21, lines=lines)
    shown = web_searches.record(chess, start, result)["lines"]
    assert [line["score_text"] for line in shown] == ["+0.22", "+0.21", "+0.05"]
    assert [line["move"] for line in shown] == ["d2d4", "e2e4", "g1f3"]


def test_the_solution_and_a_finished_game_give_the_first_players_advantage() -> None:
    from negamax.viz.web import boards

    game = get_game("tictactoe")
    searches = Searches(backend="python")
    # O to move after X 0 1 8 and O 3 4: 5 wins for O, a loss for X, the first player
    position = game.new_position("03148")
    scored = {item["move"]: item for item in searches.solution(game, position, 10.0, threading.Event())}
    assert scored["5"]["advantage"] == -1.0 and scored["5"]["text"].startswith("win")
    assert scored["6"]["advantage"] == 1.0  # O lets X take the top row
    assert boards.state(game, game.new_position("031485"))["advantage"] == -1.0  # O won
    assert boards.state(game, game.new_position("03142"))["advantage"] == 1.0  # X won
    assert boards.state(game, game.new_position("048176253"))["advantage"] == 0.0  # drawn
    assert boards.state(game, position)["advantage"] is None  # the game goes on


def test_the_books_value_of_a_position_gives_its_best_column_before_any_solve() -> None:
    game = get_game("connect4")
    searches = Searches(backend="python", book=open_shipped_book)  # no time to solve: only what it knows
    generator = random.Random(5)
    checked = 0
    with open_shipped_book(game) as book:
        assert book is not None
        for _ in range(400):  # random games as deep as the book (ply 10): positions it holds, not their children
            position = game.new_position(None)
            for _ in range(generator.randrange(5, 11)):
                position.play(generator.choice(list(position.legal_moves())))
            entry = book.lookup(position)
            children = []
            for move in position.legal_moves():
                children.append(position.copy())
                children[-1].play(move)
            if entry is None or position.is_terminal() or any(book.lookup(child) for child in children):
                continue
            if any(child.is_terminal() for child in children):
                continue  # a column that ends the game is known as its end, not from the book
            scores = searches.solution(game, position, 0.0, threading.Event())
            known = [item for item in scores if item["score"] is not None]
            assert [item["move"] for item in known] == [entry.best_move]
            assert known[0]["score"] == entry.game_score and known[0]["source"] == "book"
            checked += 1
            if checked == 5:
                break
    assert checked == 5


def test_a_typed_tree_says_how_many_leaves_a_cut_off_pruned() -> None:
    # b is cut after its first child: the move pruned (its b) is a subtree of two leaves
    game = get_game("tree")
    position = game.new_position("[[[3,4],[5,9]],[[1,2],[0,7]]]")
    tree = Searches(backend="python").trace(game, position, 1000, None, "textbook", 3.0, threading.Event(), True)
    counts = {node["name"]: node["pruned_count"] for node in tree["nodes"] if node["pruned"]}
    assert counts == {"a-b": "1 leaf", "b": "1 move (2 leaves)"}
    cuts = [step["minimax"] for step in tree["steps"] if step["cut"]]
    assert cuts[0].endswith("max node a-b: 5 >= beta 4, so min avoids it; 1 leaf pruned (its b)"), cuts
    assert cuts[1].endswith("min node b: 2 <= alpha 4, so max avoids it; 1 move (2 leaves) pruned (its b)"), cuts
    assert tree["value"] == "4"  # searched to the end: no guess
