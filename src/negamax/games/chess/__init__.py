"""Chess on python-chess: the rules and evaluation in Python (``rules``, ``evaluation``, ``network``,
``tables``, ``weights`` and the network's weights in ``network.npz``) and the same game compiled for the
kernels (``compiled`` and the modules it is built from)."""

from negamax.games.chess.rules import ChessGame, ChessPosition

__all__ = ["ChessGame", "ChessPosition"]
