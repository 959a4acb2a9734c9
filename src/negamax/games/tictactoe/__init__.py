"""Tic-tac-toe: the board's lines and symmetries (``board``), the rules in Python (``rules``) and
compiled (``compiled``)."""

from negamax.games.tictactoe.rules import TicTacToe, TicTacToeGame

__all__ = ["TicTacToe", "TicTacToeGame"]
