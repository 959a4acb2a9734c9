"""The seeds' own figures, reproduced by the reference implementations."""

from negamax.games.tictactoe.rules import TicTacToe, TicTacToeGame
from negamax.games.tree import ExplicitTree
from negamax.search import reference
from negamax.search.reference import NodeCounter
from tests import oracle

# Seed 001: plain negamax at depth 9, first best move in move order, from each position.
SEED_GAME = [0, 4, 1, 2, 6, 3, 5, 7, 8]


def test_notebook_game_and_node_count() -> None:
    position = TicTacToe()
    counter = NodeCounter()
    value, move = reference.negamax_notebook(position, 9, counter)
    assert (value, move) == (0, 0)
    assert counter.nodes == 549_946
    played = []
    while not position.is_terminal():
        value, move = reference.negamax_notebook(position, 9)
        assert value == 0, f"every move of the seed game is valued 0 (move {len(played) + 1})"
        assert move is not None
        played.append(move)
        position.play(move)
    assert played == SEED_GAME
    assert position.terminal_value() == 0


def test_color_and_colorless_negamax_agree() -> None:
    game = TicTacToeGame()
    for text in ("", "4", "40", "401", "0438"):
        position = game.new_position(text)
        color = 1 if position.player() == 0 else -1
        for depth in (1, 2, 3):
            expected = reference.negamax(position, depth)
            assert reference.negamax_with_color(position, depth, color) == expected
            assert reference.negmax(position, depth).score == expected
            assert reference.negamax_notebook(position, depth)[0] == expected
            assert reference.alphabeta(position, depth) == expected
            assert reference.alphabeta_tt(position, depth) == expected


def test_think_picks_the_best_root_move() -> None:
    position = TicTacToeGame().new_position("0134")  # X: 0, 3; O: 1, 4 -- X wins at 6
    move, value = reference.think(position, 3)
    assert move == 6
    assert value == reference.negamax(position, 3)


def test_textbook_two_ply_negmax_for_o() -> None:
    # Seed 003's figure: two plies of NegMax for O, with the open-lines evaluation; the
    # root takes the maximum of its negated children.
    position = TicTacToeGame().new_position("042")
    result = reference.negmax(position, 2)
    children = []
    for move in position.legal_moves():
        position.play(move)
        children.append(-reference.negmax(position, 1).score)
        position.undo(move)
    assert result.score == max(children) == -2


def test_fail_hard_clamps_and_agrees_inside_the_window() -> None:
    tree = ExplicitTree([[3, 12, 8], [2, 4, 6], [14, 5, 2]])
    assert reference.alphabeta_fail_hard(tree, 2) == 3
    assert reference.alphabeta_fail_hard(tree, 2, 4, 10) == 4  # true value 3 <= alpha: returns alpha
    assert reference.alphabeta_fail_hard(tree, 2, -10, 2) == 2  # >= beta: returns beta
    assert reference.alphabeta(tree, 2, 4, 10) <= 4  # fail-soft: an upper bound, maybe lower


def test_every_seed_follows_the_player_who_moves_twice() -> None:
    """Kalah: after a move that ends in the mover's store the same player moves again, and
    each seed's search gives the max/min oracle's value, which never negates."""
    for pits, seeds, moves in oracle.positions()[:6]:
        position = oracle.kalah(pits, seeds, moves)
        color = 1 if position.player() == 0 else -1
        for depth in (1, 2, 3, 5):
            expected = oracle.minimax(position, depth)
            assert reference.negamax(position, depth) == expected, (pits, seeds, moves, depth)
            assert reference.negamax_with_color(position, depth, color) == expected
            assert reference.negmax(position, depth).score == expected
            assert reference.negamax_notebook(position, depth)[0] == expected
            assert reference.alphabeta(position, depth) == expected
            assert reference.alphabeta_tt(position, depth) == expected
            assert reference.think(position, depth)[1] == expected
            assert reference.negamax_with_quiescence(position, depth) == expected  # no noisy moves
            clamped = reference.alphabeta_fail_hard(position, depth, -1, 1)
            assert clamped == min(max(expected, -1), 1)
