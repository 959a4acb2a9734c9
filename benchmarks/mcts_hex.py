"""Monte Carlo tree search on Hex (``examples/hex.py``), against OpenSpiel's C++ ``MCTSBot``
(through pyspiel, on OpenSpiel's own ``hex``) and against the alpha-beta ``search()``; all in
one run on one machine (``pip install 'negamax[openspiel]'``).

    python benchmarks/mcts_hex.py speed [--size 5] [--seconds 1]
    python benchmarks/mcts_hex.py openspiel [--games 20] [--seconds 1] [--size 5]
    python benchmarks/mcts_hex.py alphabeta [--games 20] [--seconds 1] [--size 5] [--plain]
    python benchmarks/mcts_hex.py exploration [--games 20] [--seconds 0.2] [--values 0.7,1.4]

``speed``: playouts a CPU-second of the compiled search (with Hex's own playout, which fills
the board at once, and with random moves to the end, as OpenSpiel's) and of ``MCTSBot`` (its
``RandomRolloutEvaluator``, one rollout a leaf; its solver off, so that it runs all the
simulations it is given), on the same positions (the empty board, then 2, 4, ... random
stones), taken in turns.

``openspiel``: a match at equal time a move (both get ``--seconds`` of wall time: ours as
``SearchLimits(time=...)``, ``MCTSBot`` as its ``max_wall_clock_time``), OpenSpiel's state
the referee. Hex's first player wins with perfect play, so each opening (a first move drawn
at random) is played twice, colours swapped. ``MCTSBot`` as OpenSpiel's examples set it up:
``uct_c`` 2, solver on, one random rollout a leaf; a seed of its own each game.

``alphabeta``: the same against ``search()`` as it was for Hex before it had MCTS: the
compiled alpha-beta, deepening until its time is up (a depth limit makes ``search()`` choose
it: ``SearchLimits(depth=88, time=...)``); with ``--plain``, both searches in pure Python on
the plain ``Hex``, as the issue that asked for MCTS measured them.

``exploration``: each value of UCT's constant against the default, in a match as above.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import pyspiel

from negamax import Searcher, SearchLimits, SearchOptions, get_game
from negamax.search.params import EXPLORATION

HEX = str(Path(__file__).resolve().parents[1] / "examples" / "hex.py")
MEMORY_MB = 2000
"""``MCTSBot``'s tree may take this much (ours takes at most its 256 MiB default)."""
DEEPEST = 88


def our_game(size: int, plain: bool = False) -> Any:
    return get_game(f"{HEX}:{'Hex' if plain else 'CompiledHex'}({size})")


def their_game(size: int) -> Any:
    return pyspiel.load_game(f"hex(board_size={size})")


def their_bot(game: Any, seconds: float | None, seed: int, simulations: int = 10**9, solve: bool = True) -> Any:
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    policy = pyspiel.ChildSelectionPolicy.UCT
    return pyspiel.MCTSBot(game, evaluator, 2.0, simulations, MEMORY_MB, solve, seed, False, policy, seconds or -1.0)


# -- speed -----------------------------------------------------------------------------


def positions(size: int, count: int, seed: int) -> list[list[int]]:
    """The empty board, then positions after a few random moves (as move lists), early
    enough that no search solves them within its time (it would stop there)."""
    generator = random.Random(seed)
    found: list[list[int]] = [[]]
    game = our_game(size)
    while len(found) < count:
        position, moves = game.new_position(), []
        for _ in range(2 * len(found)):
            move = generator.choice(position.legal_moves())
            position.play(move)
            moves.append(move)
        if not position.is_terminal():
            found.append(moves)
    return found


def our_rate(searcher: Searcher, position: Any, seconds: float, playouts: str) -> float:
    options = SearchOptions(driver="mcts", playouts=playouts)
    start = time.process_time()
    result = searcher.search(position, SearchLimits(time=seconds), options=options)
    if result.bound == result.bound.EXACT and result.lower == result.upper and abs(result.score) > 1000:
        raise RuntimeError("the position was solved before the time was up: its rate means nothing")
    return result.nodes / (time.process_time() - start)


def their_rate(game: Any, moves: list[int], seconds: float) -> float:
    """``MCTSBot``'s simulations a CPU-second, its solver off (so that it never stops
    before its simulations are done, which it does not report)."""
    state = game.new_initial_state()
    for move in moves:
        state.apply_action(move)
    probe = their_bot(game, None, 1, 2000, solve=False)
    start = time.process_time()
    probe.step(state)
    simulations = max(2000, int(2000 / (time.process_time() - start) * seconds))
    bot = their_bot(game, None, 2, simulations, solve=False)
    start = time.process_time()
    bot.step(state)
    return simulations / (time.process_time() - start)


def speed(arguments: argparse.Namespace) -> None:
    game, spiel = our_game(arguments.size), their_game(arguments.size)
    searcher = Searcher("compiled")
    searcher.search(game.new_position(), SearchLimits(nodes=100))  # the kernel loaded before any clock
    print(f"playouts a CPU-second, {arguments.size}x{arguments.size} Hex, {arguments.seconds} s a measurement")
    print(f"{'position':<28}{'ours, Hex playout':>19}{'ours, random':>14}{'MCTSBot':>10}{'ratios':>16}")
    totals: dict[str, list[float]] = {"fill": [], "random": [], "theirs": []}
    for moves in positions(arguments.size, arguments.positions, seed=3):
        position = game.new_position()
        for move in moves:
            position.play(move)
        rates: dict[str, list[float]] = {"fill": [], "random": [], "theirs": []}
        for _ in range(arguments.rounds):  # in turns, so that the machine's load falls on each alike
            rates["fill"].append(our_rate(searcher, position, arguments.seconds, "game"))
            rates["theirs"].append(their_rate(spiel, moves, arguments.seconds))
            rates["random"].append(our_rate(searcher, position, arguments.seconds, "random"))
        medians = {name: statistics.median(values) for name, values in rates.items()}
        for name, value in medians.items():
            totals[name].append(value)
        label = f"{len(moves)} stones" if moves else "empty board"
        print(
            f"{label:<28}{medians['fill']:>19,.0f}{medians['random']:>14,.0f}{medians['theirs']:>10,.0f}"
            f"{medians['fill'] / medians['theirs']:>8.2f}x{medians['random'] / medians['theirs']:>7.2f}x"
        )
    mean = {name: statistics.fmean(values) for name, values in totals.items()}
    print(
        f"{'mean':<28}{mean['fill']:>19,.0f}{mean['random']:>14,.0f}{mean['theirs']:>10,.0f}"
        f"{mean['fill'] / mean['theirs']:>8.2f}x{mean['random'] / mean['theirs']:>7.2f}x"
    )


# -- matches ---------------------------------------------------------------------------


class Ours:
    """Our Monte Carlo search, a seed of its own each game."""

    def __init__(self, name: str, seconds: float, exploration: float = EXPLORATION, backend: str = "compiled") -> None:
        self.name, self.seconds, self.exploration = name, seconds, exploration
        self.searcher = Searcher(backend)
        self.seed = 0

    def new_game(self, seed: int) -> None:
        self.seed = seed

    def move(self, position: Any, state: Any) -> int:
        self.seed += 1
        options = SearchOptions(driver="mcts", seed=self.seed, exploration=self.exploration)
        return int(self.searcher.search(position, SearchLimits(time=self.seconds), options=options).best_move)


class AlphaBeta:
    """``search()`` of Hex before MCTS: the compiled alpha-beta, deepening to its time."""

    def __init__(self, seconds: float, backend: str = "compiled") -> None:
        self.name, self.seconds = "alpha-beta search()", seconds
        self.searcher = Searcher(backend)

    def new_game(self, seed: int) -> None:
        pass

    def move(self, position: Any, state: Any) -> int:
        result = self.searcher.search(position, SearchLimits(depth=DEEPEST, time=self.seconds))
        assert "mcts" not in result.algorithm
        return int(result.best_move)


class OpenSpiel:
    """OpenSpiel's C++ ``MCTSBot``, a seed of its own each game."""

    def __init__(self, game: Any, seconds: float) -> None:
        self.name, self.game, self.seconds = "OpenSpiel MCTSBot", game, seconds
        self.bot: Any = None

    def new_game(self, seed: int) -> None:
        self.bot = their_bot(self.game, self.seconds, seed)

    def move(self, position: Any, state: Any) -> int:
        return int(self.bot.step(state))


def match(first: Any, second: Any, size: int, games: int, seed: int, plain: bool = False) -> None:
    """``games`` games (pairs: each opening twice, colours swapped) of ``first`` against
    ``second``; OpenSpiel's state is the referee."""
    spiel, game = their_game(size), our_game(size, plain)
    generator = random.Random(seed)
    openings = [generator.randrange(size * size) for _ in range((games + 1) // 2)]
    wins = {first.name: 0, second.name: 0}
    by_colour = {first.name: [0, 0], second.name: [0, 0]}
    thinking: dict[str, list[float]] = {first.name: [], second.name: []}
    warm = game.new_position()
    for player in (first, second):  # kernels loaded before any clock
        player.new_game(0)
        player.move(warm, spiel.new_initial_state())
    for number in range(games):
        opening = openings[number // 2]
        players = (first, second) if number % 2 == 0 else (second, first)
        for player in players:
            player.new_game(1000 * seed + number)
        state, position = spiel.new_initial_state(), game.new_position()
        state.apply_action(opening)
        position.play(opening)
        while not state.is_terminal():
            player = players[state.current_player()]
            start = time.perf_counter()
            move = player.move(position, state)
            thinking[player.name].append(time.perf_counter() - start)
            state.apply_action(move)
            position.play(move)
        winner = players[0 if state.returns()[0] > 0 else 1]
        wins[winner.name] += 1
        by_colour[winner.name][0 if winner is players[0] else 1] += 1
        print(
            f"game {number + 1:>2}: opening {game.move_text(game.new_position(), opening)}, {players[0].name} first,"
            f" {len(state.history())} plies: {winner.name} wins",
            flush=True,
        )
    for player in (first, second):
        seconds = statistics.fmean(thinking[player.name])
        first_wins, second_wins = by_colour[player.name]
        print(
            f"{player.name}: {wins[player.name]}/{games} ({wins[player.name] / games:.0%}), {first_wins} as first"
            f" player and {second_wins} as second; {seconds:.3f} s a move on average"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("speed", "openspiel", "alphabeta", "exploration"))
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--values", default="0.35,1.4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plain", action="store_true", help="alphabeta: the plain Hex, both searches in Python")
    arguments = parser.parse_args()
    if arguments.what == "speed":
        speed(arguments)
    elif arguments.what == "openspiel":
        ours = Ours("negamax MCTS (compiled)", arguments.seconds)
        theirs = OpenSpiel(their_game(arguments.size), arguments.seconds)
        match(ours, theirs, arguments.size, arguments.games, arguments.seed)
    elif arguments.what == "alphabeta":
        backend = "python" if arguments.plain else "compiled"
        ours = Ours(f"negamax MCTS ({'Python' if arguments.plain else 'compiled'})", arguments.seconds, backend=backend)
        theirs = AlphaBeta(arguments.seconds, backend)
        match(ours, theirs, arguments.size, arguments.games, arguments.seed, arguments.plain)
    else:
        for value in (float(text) for text in arguments.values.split(",")):
            tried = Ours(f"exploration {value}", arguments.seconds, value)
            default = Ours(f"exploration {EXPLORATION} (default)", arguments.seconds)
            match(tried, default, arguments.size, arguments.games, arguments.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
