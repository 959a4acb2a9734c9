"""Chess compiled for the kernels, one idea per module: the state's layout and tables
(``layout``), attacks and checks, move generation (``moves``), the network's accumulators,
make and unmake (``make_move``), the evaluation, and static exchange. ``negamax.games.chess.compiled``
puts them together for the search."""
