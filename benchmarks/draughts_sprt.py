"""A change to the draughts engine proven by self-play: the new build against a base build
(a git revision) or the same build with other settings, in colour-swapped pairs from
short openings, stopped by a sequential probability ratio test (``sprt.py``), as engine
developers gate their changes. Both engines are ``negamax-hub`` driven by py-draughts' own
HUB client at a fixed time per move, one thread each.

    python benchmarks/draughts_sprt.py --base HEAD~1 --time 0.3 --elo0 0 --elo1 10
    python benchmarks/draughts_sprt.py --base-param strength=7 --elo0 0 --elo1 50

``--base REV`` checks REV out into a temporary worktree and compiles its kernels there
first (``negamax warmup draughts``, about a minute); without it both sides run this
checkout. ``--balanced 100`` plays only the openings a search scores within a man of even
(``draughts_openings.py``): a quarter of the three-move lines give a man away, and their
pairs are decided by the line. ``--new-param`` and ``--base-param`` (NAME=VALUE, repeatable) set a HUB
parameter on one side. ``--concurrency 2`` plays two pairs at once (each engine still one
thread: on two cores, the engines of one game take turns on one core).

Each pair prints its results, the pentanomial counts, the log-likelihood ratio against
its bounds and the Elo estimate; the last line says accepted (H1), rejected (H0) or
undecided at ``--max-pairs``, and is appended to ``--log`` with the settings, so that the
journal can keep every change tried.
"""

from __future__ import annotations

import argparse
import logging
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from functools import partial
from pathlib import Path

from draughts import StandardBoard
from loguru import logger

from draughts_ladder import LineQueueHubEngine
from sprt import Test, elo_estimate, log_likelihood_ratio
from vs_pydraughts import play_game, warm

ROOT = Path(__file__).resolve().parents[1]
SCORES_FILE = Path(__file__).with_name("draughts_openings.txt")
"""Every three-move line's score by a search (``draughts_openings.py``): comment lines,
then ``line<TAB>score from White's side<TAB>depth`` per line."""


def git_output(*arguments: str) -> str:
    """What a read-only git command prints in this checkout ("" outside one)."""
    return subprocess.run(
        ["git", "-C", str(ROOT), *arguments], capture_output=True, text=True, check=False
    ).stdout.strip()


def head_commit() -> str:
    """This checkout's commit, short ("" outside a git checkout)."""
    return git_output("rev-parse", "--short", "HEAD")


def openings(plies: int, seed: int) -> list[str]:
    """Every line of ``plies`` moves from the start (captures included), shuffled by
    ``seed``: the pairs go through them in this order."""
    lines: list[str] = []

    def extend(board: StandardBoard, moves: list[str]) -> None:
        if len(moves) == plies:
            lines.append(" ".join(moves))
            return
        for move in list(board.legal_moves):
            board.push(move)
            extend(board, [*moves, str(move)])
            board.pop()

    extend(StandardBoard(), [])
    random.Random(seed).shuffle(lines)
    return lines


def read_scores(path: Path = SCORES_FILE) -> dict[str, int]:
    """Each scored line's score from White's side (a man is 100)."""
    scores = {}
    for text in path.read_text().splitlines():
        if text.startswith("#") or not text.strip():
            continue
        line, score, _depth = text.split("\t")
        scores[line] = int(score)
    return scores


def balanced(lines: list[str], bound: int, scores: dict[str, int]) -> list[str]:
    """The ``lines`` whose score lies within ``bound`` of even, in their order.

    :raises SystemExit: for a line the scores do not have (another length of line).
    """
    missing = [line for line in lines if line not in scores]
    if missing:
        raise SystemExit(f"draughts_sprt: {SCORES_FILE.name} has no score for {missing[0]!r}")
    return [line for line in lines if abs(scores[line]) <= bound]


def hub_script(folder: Path, source: Path, name: str) -> Path:
    """An executable that runs the HUB engine of the package in ``source`` (its ``src``):
    py-draughts' client starts an engine as ``PATH hub``."""
    script = folder / name
    script.write_text(f'#!/bin/sh\nPYTHONPATH="{source}" exec "{sys.executable}" -m negamax.engines.hub "$@"\n')
    script.chmod(0o755)
    return script


@contextmanager
def base_source(revision: str | None) -> Iterator[Path]:
    """The ``src`` folder of the base: this checkout's, or ``revision`` checked out into a
    temporary worktree (removed afterwards)."""
    if revision is None:
        yield ROOT / "src"
        return
    folder = Path(tempfile.mkdtemp(prefix="negamax-sprt-base-"))
    added = subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(folder), revision], check=False)
    if added.returncode != 0:
        folder.rmdir()
        raise SystemExit(f"draughts_sprt: cannot check out {revision!r}")
    try:
        yield folder / "src"
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second kill must not cut the removal short
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder)], check=False)


def parameters(texts: list[str]) -> list[tuple[str, str]]:
    pairs = []
    for text in texts:
        name, equals, value = text.partition("=")
        if not equals or not name or not value:
            raise SystemExit(f"draughts_sprt: {text!r} is not NAME=VALUE")
        pairs.append((name, value))
    return pairs


class Match:
    """The pairs played so far and the test that stops them, shared by the playing threads."""

    def __init__(self, test: Test, max_pairs: int, record: Path | None) -> None:
        self.test = test
        self.max_pairs = max_pairs
        self.counts = [0, 0, 0, 0, 0]
        self.started = 0
        self.verdict = ""
        self.failure = ""
        """Why the match stopped early: an engine that failed, or an interrupt."""
        self.lock = threading.Lock()
        self.record = record

    def next_pair(self) -> int | None:
        with self.lock:
            if self.verdict or self.failure or self.started >= self.max_pairs:
                return None
            self.started += 1
            return self.started - 1

    def add(self, number: int, opening: str, games: list[tuple[str, str, str]]) -> None:
        """``games``: (result, the new engine's colour, moves) of the pair's two games."""
        points = sum(
            1.0 if result == ("1-0" if colour == "white" else "0-1") else 0.5 if result == "1/2-1/2" else 0.0
            for result, colour, _ in games
        )
        with self.lock:
            if self.verdict or self.failure:
                return  # a pair still in flight when the test stopped: the verdict stands on what it saw
            self.counts[round(points * 2)] += 1
            ratio = log_likelihood_ratio(self.counts, self.test.elo0, self.test.elo1)
            played = sum(self.counts)
            elo, error = elo_estimate(self.counts)
            self.verdict = self.verdict or self.test.verdict(self.counts)
            results = " ".join(f"{result} (new {colour})" for result, colour, _ in games)
            print(
                f"pair {number + 1} ({opening}): {results}; pairs {self.counts} ({played}),"
                f" LLR {ratio:+.2f} [{self.test.lower:.2f}, {self.test.upper:.2f}], Elo {elo:+.1f} +- {error:.1f}",
                flush=True,
            )
            if self.record is not None:
                with self.record.open("a") as file:
                    for result, colour, moves in games:
                        white, black = ("new", "base") if colour == "white" else ("base", "new")
                        file.write(f"{white} - {black} {result}: {opening} {moves}\n")


def guarded(match: Match, work: Callable[[], None]) -> None:
    """Runs one thread's ``work``; a failure (an engine that died or refused a setting) stops
    the whole match, whose verdict would otherwise rest on broken games."""
    try:
        work()
    except Exception as error:  # any failure ends the match, said in one line
        with match.lock:
            match.failure = match.failure or f"an engine failed: {type(error).__name__}: {error}"


def play_pairs(
    match: Match,
    lines: list[str],
    new_command: Path,
    base_command: Path,
    settings: tuple[list[tuple[str, str]], list[tuple[str, str]]],
    seconds: float,
) -> None:
    """One thread's share of the match: its own two engines, pair after pair."""
    with ExitStack() as stack:
        engines = {}
        for side, command, chosen in (("new", new_command, settings[0]), ("base", base_command, settings[1])):
            engine = stack.enter_context(LineQueueHubEngine(command, time_limit=seconds, init_timeout=120))
            for name, value in chosen:
                engine.set_param(name, value)
            engines[side] = engine
        while (number := match.next_pair()) is not None:
            opening = lines[number % len(lines)]
            games = []
            for new_white in (True, False):
                for engine in engines.values():
                    engine.new_game()
                white, black = (engines["new"], engines["base"]) if new_white else (engines["base"], engines["new"])
                moves: list[str] = []
                result, _, note = play_game(white, black, opening, moves)
                if note:
                    print(f"pair {number + 1}: {note.lstrip(', ')}", flush=True)
                games.append((result, "white" if new_white else "black", " ".join(moves)))
            match.add(number, opening, games)


def main() -> None:
    # a kill (as a Ctrl-C) unwinds, so the base's temporary worktree is removed
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", metavar="REV", help="the base build: a git revision (default: this checkout)")
    parser.add_argument("--new-param", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--base-param", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--time", type=float, default=0.3, help="seconds a move, both engines (default 0.3)")
    parser.add_argument("--elo0", type=float, default=0.0, help="H0: the change gains this much (default 0)")
    parser.add_argument("--elo1", type=float, default=10.0, help="H1: the change gains this much (default 10)")
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--max-pairs", type=int, default=1000, help="stop undecided after so many pairs")
    parser.add_argument("--opening-plies", type=int, default=3, help="openings: every line of so many moves")
    parser.add_argument("--seed", type=int, default=1, help="the openings' order")
    parser.add_argument(
        "--balanced",
        type=int,
        metavar="SCORE",
        help="only the openings a search scores within SCORE of even (a man is 100; draughts_openings.txt):"
        " 100 leaves out the 155 of 658 three-move lines that give a man away",
    )
    parser.add_argument("--concurrency", type=int, default=1, help="pairs played at once")
    parser.add_argument("--games-file", type=Path, help="every game's moves, one a line")
    parser.add_argument("--log", type=Path, help="the verdict line is appended here")
    arguments = parser.parse_args()
    try:
        test = Test(arguments.elo0, arguments.elo1, arguments.alpha, arguments.beta)
    except ValueError as error:
        raise SystemExit(f"draughts_sprt: {error}") from None
    if not 1 <= arguments.opening_plies <= 6:
        raise SystemExit("draughts_sprt: --opening-plies must be 1 to 6")
    if arguments.time <= 0 or arguments.max_pairs < 1 or arguments.concurrency < 1:
        raise SystemExit("draughts_sprt: --time must be above 0, --max-pairs and --concurrency at least 1")
    if arguments.balanced is not None and arguments.balanced < 0:
        raise SystemExit("draughts_sprt: --balanced must be at least 0")
    settings = parameters(arguments.new_param), parameters(arguments.base_param)
    logger.remove()  # py-draughts logs every board it makes
    logging.disable(logging.INFO)
    lines = openings(arguments.opening_plies, arguments.seed)
    if arguments.balanced is not None:
        lines = balanced(lines, arguments.balanced, read_scores())
        if not lines:
            raise SystemExit(f"draughts_sprt: no opening lies within {arguments.balanced} of even")
    started = time.time()
    with base_source(arguments.base) as base, tempfile.TemporaryDirectory(prefix="negamax-sprt-") as scratch:
        for source in {ROOT / "src", base}:
            warm(source)
        new_command = hub_script(Path(scratch), ROOT / "src", "new-hub")
        base_command = hub_script(Path(scratch), base, "base-hub")
        match = Match(test, arguments.max_pairs, arguments.games_file)
        threads = [
            threading.Thread(
                target=guarded,
                args=(match, partial(play_pairs, match, lines, new_command, base_command, settings, arguments.time)),
                daemon=True,
            )
            for _ in range(arguments.concurrency)
        ]
        for thread in threads:
            thread.start()
        try:
            for thread in threads:
                while thread.is_alive():
                    thread.join(0.5)
        except KeyboardInterrupt:
            match.failure = "interrupted"
        if match.failure:
            raise SystemExit(f"draughts_sprt: stopped, no verdict: {match.failure} (after {sum(match.counts)} pairs)")
    elo, error = elo_estimate(match.counts) if sum(match.counts) else (0.0, float("inf"))
    verdict = {"H1": "accepted (H1)", "H0": "rejected (H0)"}.get(match.verdict, "undecided")
    described = " ".join(
        [f"--base {arguments.base}" if arguments.base else "base: this checkout"]
        + [f"--new-param {text}" for text in arguments.new_param]
        + [f"--base-param {text}" for text in arguments.base_param]
        + [f"--seed {arguments.seed}"]
        + ([f"--balanced {arguments.balanced}"] if arguments.balanced is not None else [])
    )
    revision = head_commit()
    changed = git_output("status", "--porcelain", "src")
    if changed:
        revision += " with uncommitted changes"  # the change under test, usually
    summary = (
        f"{time.strftime('%Y-%m-%d')} new {revision} ({described}), {arguments.time} s/move,"
        f" SPRT [{test.elo0:g}, {test.elo1:g}] alpha {test.alpha:g} beta {test.beta:g}: {verdict} after"
        f" {sum(match.counts)} pairs {match.counts}, Elo {elo:+.1f} +- {error:.1f}, {time.time() - started:.0f} s"
    )
    print(summary)
    if arguments.log is not None:
        with arguments.log.open("a") as file:
            file.write(summary + "\n")


if __name__ == "__main__":
    main()
