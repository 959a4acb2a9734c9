"""The subcommands behind ``negamax``; each returns the process exit status."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from negamax.cli.progress import Kept, UserCodeStuck, progress_callback, stop_on_interrupt
from negamax.cli.report import dumps, duration_text, one_line, result_record, result_text
from negamax.cli.search_command import SearchCommand, search_command
from negamax.cli.searching import (
    DEFAULT_ANALYSIS_SECONDS,
    book_answer,
    heuristic_search,
    open_book,
    search_options,
    search_or_solve,
    solve_position,
)
from negamax.core.errors import IllegalMoveError, InvalidOptionError, NegamaxError
from negamax.core.game import Position
from negamax.core.rules import Game, game_end, pv_text
from negamax.core.score import WIN_THRESHOLD, describe
from negamax.core.types import SearchLimits, SearchResult
from negamax.games import available_games, get_game, installed_games
from negamax.parallel.cases import position_test, read_cases
from negamax.parallel.files import refuse_replacing, refuse_special_input, replaced_whole
from negamax.search import default_searcher, warmup
from negamax.search.mcts import ALGORITHM as MCTS
from negamax.search.params import ALGORITHMS, SearchOptions, options_for
from negamax.search.textbook import TEXTBOOK

EXIT_OK, EXIT_MISMATCH, EXIT_INTERRUPTED = 0, 1, 130


def run_games(arguments: argparse.Namespace) -> int:
    for name in available_games():
        game = get_game(name)
        print(f"{name:<10} {game.description}\n{'':<10} position: {game.position_help}")
    installed = installed_games()
    if installed:
        print("\ninstalled by other packages:")
    for name in installed:
        try:
            game = get_game(name)
        except NegamaxError as error:
            print(f"{name:<10} (cannot be loaded: {error})")
            continue
        print(f"{name:<10} {game.description}\n{'':<10} position: {game.position_help}")
    print(
        "\nalso: openspiel:NAME for OpenSpiel's two-player games (pip install 'negamax[openspiel]'),"
        "\n      module.path:GameClass or path/to/file.py:GameClass for a game of your own, with the arguments"
        "\n      its class takes, if any, in quotes: 'path/to/file.py:GameClass(3, size=4)'"
    )
    return EXIT_OK


def _print_result(
    command: SearchCommand, game: Game, position: Position[Any], text: str, result: SearchResult[Any]
) -> None:
    record = result_record(game, position, text, result)
    print(dumps(record) if command.json else result_text(record))


def run_analyze(arguments: argparse.Namespace) -> int:
    command = search_command(arguments)
    game = get_game(command.game)
    position = game.new_position(command.position)
    search_options(command)  # a bad --algorithm fails here, before any search
    with open_book(command, game) as book, stop_on_interrupt() as stop:
        answer = book_answer(book, position, command.multipv)
        if answer is not None:
            _print_result(command, game, position, command.position or "", answer)
            return EXIT_OK
        no_limit = command.depth is None and command.time is None and command.nodes is None
        limits = SearchLimits(
            depth=command.depth,
            nodes=command.nodes,
            time=DEFAULT_ANALYSIS_SECONDS if no_limit else command.time,
            stop=stop,
        )
        progress = Kept(progress_callback(command.json, game, position))
        result = _best_so_far(lambda: heuristic_search(command, game, position, limits, progress), progress)
        _print_result(command, game, position, command.position or "", result)
        return EXIT_INTERRUPTED if stop.is_set() else EXIT_OK


def run_solve(arguments: argparse.Namespace) -> int:
    command = search_command(arguments)
    game = get_game(command.game)
    if command.check and not command.file:
        raise InvalidOptionError("--check compares a --file's expected scores; give --file")
    if command.scheduler is None and (command.workers is not None or command.split is not None):
        raise InvalidOptionError("--workers and --split are for a solve split over a cluster: give --scheduler")
    if command.scheduler is not None and command.file:
        raise InvalidOptionError("--scheduler splits one solve; for a file of positions use negamax batch --solve")
    if command.file:
        if command.position is not None:
            raise InvalidOptionError("give either a position or --file, not both")
        return _solve_file(command, game, command.file)
    position = game.new_position(command.position)
    search_options(command)  # a bad --algorithm or --hash fails here, before any search
    if command.scheduler is not None:
        return _split_solve(command, game, position, command.scheduler)
    with open_book(command, game) as book, stop_on_interrupt() as stop:
        answer = book_answer(book, position, command.multipv)
        if answer is not None:
            _print_result(command, game, position, command.position or "", answer)
            return EXIT_OK
        limits = SearchLimits(nodes=command.nodes, time=command.time, stop=stop)
        progress = Kept(progress_callback(command.json, game, position))
        result = _best_so_far(lambda: solve_position(command, game, position, limits, progress), progress)
        if progress.show is not None and sys.stderr.isatty():
            sys.stderr.write("\r\x1b[K")
        _print_result(command, game, position, command.position or "", result)
        return EXIT_INTERRUPTED if stop.is_set() else EXIT_OK


def _best_so_far(run: Callable[[], SearchResult[Any]], kept: Kept) -> SearchResult[Any]:
    """``run()``'s result, or, when Ctrl-C had to interrupt a game's method that did not
    return, the last result it reported (said so on stderr; with none, the interruption
    goes on up)."""
    try:
        return run()
    except UserCodeStuck as stuck:
        if kept.result is None:
            raise
        print(f"negamax: {stuck.where}; the best so far:", file=sys.stderr)
        return kept.result


def _split_solve(command: SearchCommand, game: Game, position: Position[Any], scheduler: str) -> int:
    """``solve --scheduler``: the tree split ``--split`` plies down, its questions answered
    on a Dask cluster (``negamax.parallel.split_solve``)."""
    from negamax.core.ranges import DEFAULT_SPLIT_PLIES
    from negamax.parallel.pools import LOCAL_CLUSTER, make_pool
    from negamax.parallel.split_solve import SplitProgress, refuse_split, split_solve
    from negamax.parallel.worker import BatchJob

    if command.workers is not None and scheduler != LOCAL_CLUSTER:
        raise InvalidOptionError("--workers is for --scheduler local; a Dask cluster has the workers it has")
    ignored = {
        "--nodes": command.nodes is not None,
        "--time": command.time is not None,
        "--multipv": command.multipv != 1,
        "--hash": command.hash_mib is not None,
        "--threads": command.threads is not None,
        "--processes": command.processes,
        "--backend": command.backend not in (None, "auto", "compiled"),
        "--book": command.book is not None,
        "--algorithm": command.algorithm != "auto",
    }
    given = [name for name, present in ignored.items() if present]
    if given:
        raise InvalidOptionError(f"a split solve (--scheduler) takes no {', '.join(given)}")
    refuse_split(game, position)  # before a cluster is started
    plies = command.split or DEFAULT_SPLIT_PLIES
    show = sys.stderr.isatty() and not command.json

    def report(progress: SplitProgress) -> None:
        if show:
            sys.stderr.write(
                f"\rnegamax: value in [{progress.lower}, {progress.upper}], is it at least {progress.threshold}?"
                f"  {progress.answered}/{progress.asked} answered  {progress.elapsed:.1f} s\x1b[K"
            )
            sys.stderr.flush()

    # the workers load the game by the name given here: a game from a file, with its
    # parameters, has no other name they can load it by
    pool = make_pool(BatchJob(command.game, solve=True), command.workers, scheduler)
    try:
        with stop_on_interrupt() as stop:
            try:
                result = split_solve(game, position, pool, plies, report, stop, command.game)
            except KeyboardInterrupt:
                print("stopped: nothing was kept (a split solve starts over)", file=sys.stderr)
                return EXIT_INTERRUPTED
    finally:
        pool.close()
    if show:
        sys.stderr.write("\r\x1b[K")
    record = {
        "game": game.name,
        "position": command.position or "",
        "score": game.game_score(position, result.score),
        "engine_score": result.score,
        "score_text": describe(result.score),
        "split_plies": plies,
        "positions_per_ply": result.levels,
        "questions": result.questions,
        "cancelled": result.cancelled,
        "workers": pool.workers,
        "worker_cpu_s": round(sum(result.cpu_seconds), 3),
        "wall_s": round(result.elapsed, 3),
    }
    if command.json:
        print(dumps(record))
        return EXIT_OK
    print(f"score      {game.game_score(position, result.score)}  [{describe(result.score)}]")
    print(f"split      {plies} plies: positions per ply {result.levels}")
    print(
        f"questions  {result.questions:,} answered on {pool.workers} worker{'s' if pool.workers != 1 else ''}"
        f" ({result.cancelled} cancelled),"
        f" {sum(result.cpu_seconds):.1f} CPU-s on the workers, {result.elapsed:.1f} s wall"
    )
    return EXIT_OK


def _solve_file(command: SearchCommand, game: Game, file: str) -> int:
    search_options(command)
    refuse_special_input("--file", file)
    cases = list(read_cases(file, position_test(game)))
    show_progress = sys.stderr.isatty()
    correct = checked = failures = total_nodes = 0
    total_cpu = 0.0
    with open_book(command, game) as book, stop_on_interrupt() as stop:
        for done, case in enumerate(cases, start=1):
            number, text, expected = case.line, case.text, case.expected
            if stop.is_set():
                break
            try:
                if case.problem is not None:
                    raise InvalidOptionError(case.problem)
                position = game.new_position(text)
            except NegamaxError as error:
                failures += 1
                print(f"line {number}: {one_line(str(error))}", file=sys.stderr)
                continue
            limits = SearchLimits(nodes=command.nodes, time=command.time, stop=stop)
            answer = book_answer(book, position)
            if answer is not None:
                result = answer
            else:
                result = solve_position(command, game, position, limits, None, None if command.json else 0)
            if not result.completed:
                failures += 1
                print(f"line {number}: stopped before the end ({text})", file=sys.stderr)
                continue
            score = game.game_score(position, result.score)
            total_nodes += result.nodes
            total_cpu += result.cpu_time
            matches = expected is None or score == expected
            if expected is not None:
                checked += 1
                correct += matches
            if command.json:
                record = result_record(game, position, text, result)
                record["line"] = number
                if expected is not None:
                    record["expected"] = expected
                print(dumps(record))
            elif not command.check:
                print(f"{text} {score} {result.nodes} {result.cpu_time * 1e6:.0f}")
            elif not matches:
                print(f"line {number}: {text}: expected {expected}, solved {score} [{describe(result.score)}]")
            if show_progress:
                sys.stderr.write(f"\r[{done}/{len(cases)}] {correct}/{checked} correct\x1b[K")
                sys.stderr.flush()
    if show_progress:
        sys.stderr.write("\r\x1b[K")
    count = sum(1 for case in cases if case.expected is not None) if command.check else len(cases)
    solved_count = max(len(cases) - failures, 0)
    mean_nodes = total_nodes / solved_count if solved_count else 0.0
    mean_cpu = total_cpu / solved_count if solved_count else 0.0
    if command.check:
        summary = f"{correct}/{count} correct, mean nodes {mean_nodes:.1f}, mean CPU time {duration_text(mean_cpu)}"
    else:
        summary = (
            f"{solved_count}/{len(cases)} solved, mean nodes {mean_nodes:.1f}, mean CPU time {duration_text(mean_cpu)}"
        )
    if command.json:
        print(
            json.dumps(
                {
                    "summary": summary,
                    "correct": correct,
                    "checked": checked,
                    "positions": len(cases),
                    "failures": failures,
                    "mean_nodes": mean_nodes,
                    "mean_cpu_s": mean_cpu,
                }
            )
        )
    else:
        print(summary)
    if stop.is_set():
        return EXIT_INTERRUPTED
    if failures or (command.check and correct != count):
        return EXIT_MISMATCH
    return EXIT_OK


def _outcome(value: int, reason: str, position: Position[Any], names: tuple[str, str]) -> str:
    """How a game ended (``value`` for the side to move), in words."""
    mover = names[position.player()]
    other = names[1 - position.player()]
    why = f" ({reason})" if reason else ""
    if value <= -WIN_THRESHOLD:
        return f"{other} wins{why}"
    if value >= WIN_THRESHOLD:
        return f"{mover} wins{why}"
    if value == 0:
        return f"draw{why}"
    return f"game over: value {value} for {mover}{why}"


def _engine_move(command: SearchCommand, game: Game, position: Position[Any]) -> SearchResult[Any]:
    no_limit = command.depth is None and command.time is None and command.nodes is None
    limits = SearchLimits(
        depth=command.depth,
        nodes=command.nodes,
        time=DEFAULT_ANALYSIS_SECONDS if no_limit else command.time,
    )
    return heuristic_search(command, game, position, limits, None)


def run_play(arguments: argparse.Namespace) -> int:
    command = search_command(arguments)
    game = get_game(command.game)
    position = game.new_position(command.position)
    options = search_options(command)
    human = None if command.self_play else (0 if command.side == "first" else 1)
    names = (
        ("first player", "second player") if human is None else (("you", "engine") if human == 0 else ("engine", "you"))
    )
    with open_book(command, game) as book:
        return _play_game(command, game, position, options, human, names, book)


def _play_game(
    command: SearchCommand,
    game: Game,
    position: Position[Any],
    options: SearchOptions,
    human: int | None,
    names: tuple[str, str],
    book: Any,
) -> int:
    print(game.render(position))
    # the game ends when its rules end it for the players (chess: at a third occurrence),
    # which may be later than a search scores a line as over (a second one)
    while (end := game_end(position)) is None:
        if position.player() == human:
            move = _ask_move(game, position)
            if move is None:
                print("bye")
                return EXIT_OK
        else:
            # a copy searches from here on: the game's own history is not the search's
            result = book_answer(book, position) or _engine_move(command, game, position.copy())
            move = result.best_move
            line = " ".join(pv_text(game, position, result.pv))
            who = names[position.player()]
            print(
                f"{who} plays {game.move_text(position, move)}"
                f"  (score {game.game_score(position, result.score)} [{describe(result.score)}],"
                f" depth {result.depth}, {result.nodes:,} nodes, pv {line})"
            )
        position.play(move)
        print(game.render(position))
    print(_outcome(*end, position, names))
    return EXIT_OK


def _ask_move(game: Game, position: Position[Any]) -> Any:
    while True:
        try:
            text = input("your move (or 'quit'): ").strip()
        except EOFError:
            return None
        if text.lower() in ("quit", "exit", "q"):
            return None
        try:
            return game.parse_move(position, text)
        except IllegalMoveError as error:
            print(f"illegal move: {error}")


def run_bench(arguments: argparse.Namespace) -> int:
    from negamax.cli.bench import run

    return run(as_json=arguments.json, compiled=arguments.compiled)


def run_trace(arguments: argparse.Namespace) -> int:
    from negamax.search.trace import SearchTrace
    from negamax.viz.render import render

    game = get_game(arguments.game)
    position = game.new_position(arguments.position)
    if arguments.algorithm != TEXTBOOK and arguments.algorithm not in ALGORITHMS:  # before any search
        names = ", ".join([*ALGORITHMS, TEXTBOOK])
        raise InvalidOptionError(f"unknown algorithm {arguments.algorithm!r}; choose one of {names}")
    if arguments.algorithm == MCTS:
        raise InvalidOptionError(
            "trace draws alpha-beta searches; the web app's tree view (negamax serve) pictures a Monte Carlo tree"
        )
    if arguments.output:
        refuse_replacing("--output", arguments.output, arguments.overwrite)
    trace = SearchTrace(max_nodes=arguments.max_nodes)
    result = search_or_solve(position, arguments.algorithm, arguments.depth, trace)
    title = (
        f"{game.name} {arguments.position or '(start)'}: {arguments.algorithm}"
        f"{'' if arguments.depth is None else f' depth {arguments.depth}'}, value {describe(result.score)},"
        f" {result.nodes} nodes"
    )
    text = render(trace, game, position, arguments.format, title)
    if arguments.output:
        try:
            with replaced_whole(arguments.output) as handle:
                handle.write(text + "\n")
        except OSError as error:
            raise InvalidOptionError(f"cannot write {arguments.output}: {error.strerror}") from None
        print(f"wrote {arguments.output} ({len(trace.nodes)} nodes)")
    else:
        print(text)
    return EXIT_OK


def run_compare(arguments: argparse.Namespace) -> int:
    game = get_game(arguments.game)
    position = game.new_position(arguments.position)
    names = [name.strip() for name in arguments.algorithms.split(",") if name.strip()]
    for name in names:
        options_for(name)
    if arguments.depth is None:  # refused as a solve without a limit is, before any algorithm runs
        default_searcher("python").plan(position, solving=True)
    print(f"{'algorithm':<14}{'value':>12}{'nodes':>11}{'cutoffs':>10}{'TT hits':>10}{'CPU ms':>9}", flush=True)
    values = set()
    for name in names:
        result = search_or_solve(position, name, arguments.depth, nodes=arguments.nodes)
        if not result.completed:
            to = "to the end" if arguments.depth is None else f"to depth {arguments.depth}"
            raise InvalidOptionError(
                f"{name} did not search {to} within {arguments.nodes:,} nodes ({result.wall_time:.1f} s): give a"
                f" {'--depth' if arguments.depth is None else 'smaller --depth'} (or a larger --nodes)"
            )
        values.add(result.score)
        print(
            f"{name:<14}{describe(result.score):>12}{result.nodes:>11,}{result.stats.beta_cutoffs:>10,}"
            f"{result.stats.tt_hits:>10,}{result.cpu_time * 1000:>9.1f}",
            flush=True,
        )
    if len(values) != 1:
        print("the algorithms disagree: this is a bug, please report it")
        return EXIT_MISMATCH
    print(f"every algorithm finds the same value ({describe(values.pop())})")
    return EXIT_OK


def run_serve(arguments: argparse.Namespace) -> int:
    try:
        from negamax.viz.web import server
        from negamax.viz.web.app import create_app
    except ModuleNotFoundError as error:
        raise InvalidOptionError(
            f"negamax serve needs the web extra ({error.name} is missing): pip install 'negamax[web]'"
        ) from None
    extra_games = tuple(dict.fromkeys(arguments.game or ()))
    for name in extra_games:
        get_game(name)  # an unknown or broken game fails here, in one line, not in the page
    open_book: Callable[[Game], contextlib.AbstractContextManager[Any]] | None = None
    if arguments.book:
        from negamax.parallel.book import Book
        from negamax.parallel.packed_book import is_packed, open_book_file

        path = arguments.book
        if not (os.path.exists(path) and is_packed(path)):
            Book(path, get_game("connect4"), create=False).close()  # not a book: one line now, not a 500 later

        def given_book(game: Game) -> contextlib.AbstractContextManager[Any]:
            return open_book_file(path, game)

        open_book = given_book
    elif not arguments.no_book:
        from negamax.parallel.book import open_shipped_book

        open_book = open_shipped_book

    try:
        listening = server.bind(arguments.host, arguments.port)
    except OSError as error:
        reason = error.strerror or str(error)
        raise InvalidOptionError(f"cannot listen on {arguments.host}:{arguments.port}: {reason}") from None
    if server.open_to_others(arguments.host):
        print(
            f"warning: listening on {arguments.host}: other machines can reach this server and make it search",
            file=sys.stderr,
        )
    app = create_app(arguments.backend, book=open_book, extra_games=extra_games)
    print(f"serving on {server.address(listening)} (Ctrl-C to stop)", flush=True)
    for game in app.app.state.left_out:
        print(f"left out: {game}", flush=True)
    server.run(app, listening)
    return EXIT_OK


def run_warmup(arguments: argparse.Namespace) -> int:
    """Compile (or load) the compiled kernels of some games ahead of their first use, each
    game in a process of its own when there are several and several cores (the work is
    ``negamax.search.warmup``'s)."""
    if arguments.nice and hasattr(os, "nice"):
        os.nice(10)
    names = list(arguments.games or warmup.BUILT_IN_GAMES)
    jobs = min(arguments.jobs or os.cpu_count() or 1, len(names))
    optional = [] if arguments.games else ["draughts"]  # py-draughts is an extra
    return EXIT_MISMATCH if warmup.warm_up_names(names, jobs, arguments.quiet, optional) else EXIT_OK


def run_check(arguments: argparse.Namespace) -> int:
    """Play random games through a game's rules and report what a search would silently get
    wrong (``negamax.games.checker``); a game written as rules has its compiled rules
    compared with the Python ones too. Exit status 1 if anything was found."""
    from negamax.games.checker import check_positions, check_rules

    if arguments.games < 1:
        raise InvalidOptionError(f"--games must be at least 1, not {arguments.games}")
    game = get_game(arguments.game)
    rules = getattr(game, "rules", None)  # a game written as rules (not its positions: they check less)
    if rules is None or not hasattr(rules, "rule_functions"):
        report = check_positions(game, arguments.games, arguments.seed)
    else:
        compiled = None
        if not arguments.python_only and warmup.numba_available():
            print(f"compiling {rules.name}'s rules to compare them with Python's...", file=sys.stderr)
            compiled = warmup.compiled_rules(rules)
        report = check_rules(rules, arguments.games, arguments.seed, compiled)
    print(report.text())
    return EXIT_OK if report.ok else EXIT_MISMATCH
