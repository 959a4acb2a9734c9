"""Connect 4 on any board that fits 64 bits: the bit layout (``board``), the rules in Python
(``rules``) and the same rules compiled for the kernels (``compiled``)."""

from negamax.games.connect4.rules import CompiledConnect4Position, Connect4, Connect4Game, Connect4Position

__all__ = ["CompiledConnect4Position", "Connect4", "Connect4Game", "Connect4Position"]
