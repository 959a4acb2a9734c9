"""The subcommands behind ``negamax``; each returns the process exit status."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from negamax.cli.report import dumps, duration_text, one_line, result_record, result_text
from negamax.core.errors import IllegalMoveError, InvalidOptionError, NegamaxError
from negamax.core.game import PlacementPosition, Position
from negamax.core.rules import Game, game_end, pv_text
from negamax.core.score import INF, WIN_THRESHOLD, Bound, describe
from negamax.core.types import SearchLimits, SearchResult
from negamax.games import available_games, get_game, installed_games
from negamax.parallel.cases import position_test, read_cases
from negamax.parallel.files import refuse_replacing, refuse_special_input, replaced_whole
from negamax.search import Searcher, search, solve, warmup
from negamax.search.params import SearchOptions, options_for
from negamax.search.searcher import refuse_unbounded_solve

EXIT_OK, EXIT_MISMATCH, EXIT_INTERRUPTED = 0, 1, 130
DEFAULT_ANALYSIS_SECONDS = 1.0


def _options(arguments: argparse.Namespace) -> SearchOptions:
    options = options_for(arguments.algorithm)
    if getattr(arguments, "hash", None) is not None:
        if arguments.hash <= 0:
            raise InvalidOptionError(f"--hash must be a positive number of MiB, not {arguments.hash}")
        options = dataclasses.replace(options, tt_mib=arguments.hash)
    return options


@contextlib.contextmanager
def _stop_on_interrupt() -> Iterator[threading.Event]:
    """Ctrl-C sets the event, so the search returns what it has proven instead of dying."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: stop.set())
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


PROGRESS_LINE_SECONDS = 5.0
"""Off a terminal, a long search says how it is doing this often (and never before)."""


def _progress(arguments: argparse.Namespace, game: Game, position: Position[Any]) -> Any:
    """The progress callback of a search: live on a terminal; a line every few seconds of a
    long search otherwise (a log, a pipe); none with --json on a terminal's behalf."""
    if arguments.json and sys.stderr.isatty():
        return None
    return _progress_printer(game, position, sys.stderr, live=sys.stderr.isatty())


def _progress_printer(game: Game, position: Position[Any], stream: TextIO, live: bool = True) -> Any:
    next_line: float | None = None  # counted from the search's first report (a kernel may load first)

    def show(result: SearchResult[Any]) -> None:
        nonlocal next_line
        if not live:
            now = time.perf_counter()
            if next_line is None:
                next_line = now + PROGRESS_LINE_SECONDS
            if now < next_line:
                return
            next_line = now + PROGRESS_LINE_SECONDS
        if result.lower != result.upper and result.bound.name != "EXACT":
            low, high = _bound_text(game, position, result.lower), _bound_text(game, position, result.upper)
            speed = f"{result.nodes_per_second:,.0f} n/s"
            window = ""
            if result.window is not None:
                below, above = (_bound_text(game, position, value) for value in result.window)
                window = f"  window [{below}, {above}]"
            text = f"value in [{low}, {high}]{window}  nodes {result.nodes:,}  {speed}  {result.wall_time:.1f} s"
            stream.write(f"\r{text}\x1b[K" if live else f"negamax: {text}\n")
        elif not live:
            stream.write(f"negamax: depth {result.depth}  nodes {result.nodes:,}  {result.wall_time:.1f} s\n")
        else:
            moves = " ".join(pv_text(game, position, result.pv))
            stream.write(
                f"\rdepth {result.depth}  score {game.game_score(position, result.score)}  nodes {result.nodes:,}"
                f"  {result.nodes_per_second:,.0f} n/s  pv {moves}\x1b[K\n"
            )
        stream.flush()

    return show


def _bound_text(game: Game, position: Position[Any], value: int) -> str:
    if abs(value) >= INF:
        return "-inf" if value < 0 else "+inf"
    return str(game.game_score(position, value))


@contextlib.contextmanager
def _book(arguments: argparse.Namespace, game: Game) -> Iterator[Any]:
    """The book ``--book`` names (it must exist), or ``None``."""
    if getattr(arguments, "book", None) is None:
        yield None
        return
    from negamax.parallel.book import Book

    with Book(arguments.book, game, create=False) as book:
        yield book


def _book_answer(book: Any, game: Game, position: Position[Any]) -> SearchResult[Any] | None:
    """The book's exact value and best move for ``position`` as a search result, or ``None``."""
    if book is None:
        return None
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    entry = book.lookup(position)
    if entry is None:
        return None
    move = game.parse_move(position, entry.best_move) if entry.best_move is not None else None
    return SearchResult(
        best_move=move,
        score=entry.score,
        bound=Bound.EXACT,
        pv=() if move is None else (move,),
        depth=0,
        nodes=0,
        cpu_time=time.process_time() - start_cpu,
        wall_time=time.perf_counter() - start_wall,
        algorithm=f"book ({entry.method})",
        lower=entry.score,
        upper=entry.score,
    )


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
        "\n      module.path:GameClass or path/to/file.py:GameClass for a game of your own"
    )
    return EXIT_OK


def _print_result(
    arguments: argparse.Namespace, game: Game, position: Position[Any], text: str, result: SearchResult[Any]
) -> None:
    record = result_record(game, position, text, result)
    print(dumps(record) if arguments.json else result_text(record))


def run_analyze(arguments: argparse.Namespace) -> int:
    game = get_game(arguments.game)
    position = game.new_position(arguments.position)
    _options(arguments)  # a bad --algorithm fails here, before any search
    with _book(arguments, game) as book, _stop_on_interrupt() as stop:
        answer = _book_answer(book, game, position)
        if answer is not None:
            _print_result(arguments, game, position, arguments.position or "", answer)
            return EXIT_OK
        no_limit = arguments.depth is None and arguments.time is None and arguments.nodes is None
        limits = SearchLimits(
            depth=arguments.depth,
            nodes=arguments.nodes,
            time=DEFAULT_ANALYSIS_SECONDS if no_limit else arguments.time,
            stop=stop,
        )
        progress = _progress(arguments, game, position)
        result = _heuristic_search(arguments, game, position, limits, progress)
        _print_result(arguments, game, position, arguments.position or "", result)
        return EXIT_INTERRUPTED if stop.is_set() else EXIT_OK


_SEARCHER: Searcher | None = None
"""The command's searcher: one command runs per process, and ``play`` searches with it move
after move, its tables carrying over."""


def _searcher(arguments: argparse.Namespace, game: Game) -> Searcher:
    """The searcher the command line's options describe, made once."""
    global _SEARCHER
    if _SEARCHER is None:
        threads = getattr(arguments, "threads", None)
        solving = arguments.handler is run_solve
        cores = os.cpu_count() or 1
        if threads is not None and threads > cores and solving:
            print(f"note: {cores} workers, one per core (not {threads})", file=sys.stderr)
            threads = cores
        _SEARCHER = Searcher(
            getattr(arguments, "backend", None) or "auto",
            hash_mib=getattr(arguments, "hash", None),
            threads=threads if threads is not None else (cores if solving else 1),
            processes=bool(getattr(arguments, "processes", False)),
            keep_tables=arguments.handler is run_play,
            game=game,
        )
    return _SEARCHER


def _ready_searcher(arguments: argparse.Namespace, game: Game, position: Position[Any], solving: bool) -> Searcher:
    """The command's searcher with its kernel loaded for ``position``, before any clock
    starts: a kernel not on disk yet is compiled by another process first, and said so.

    :raises InvalidOptionError: for workers the backend chosen cannot use.
    """
    searcher = _searcher(arguments, game)
    threads = getattr(arguments, "threads", None)
    processes = bool(getattr(arguments, "processes", False))
    backend = searcher.backend_for(position, solving, arguments.algorithm)
    if backend == "python" and (threads is not None or processes):
        raise InvalidOptionError(
            "--threads and --processes run the compiled backend; the python backend has one worker"
        )
    placement = solving and isinstance(position, PlacementPosition)
    if backend == "compiled" and not placement and ((threads is not None and solving) or processes):
        raise InvalidOptionError(
            "--threads and --processes are for the compiled solver of placement games"
            " (move-list games take --threads in analyze)"
        )
    if backend == "compiled":
        with _announcer() as announce, _stop_on_interrupt() as stop:
            searcher.prepare(position, announce=announce, stop=stop, command_name=arguments.game)
        if stop.is_set():
            raise KeyboardInterrupt
        for note in searcher.notes:
            print(f"note: {note}", file=sys.stderr)
        searcher.notes.clear()
    return searcher


@contextlib.contextmanager
def _announcer() -> Iterator[Callable[[str], None]]:
    """A one-line notice on stderr for a long wait, with the seconds passing on a terminal."""
    done = threading.Event()
    ticker: threading.Thread | None = None

    def announce(message: str) -> None:
        nonlocal ticker
        if not sys.stderr.isatty():
            print(f"negamax: {message}", file=sys.stderr, flush=True)
            return
        start = time.perf_counter()

        def tick() -> None:
            while not done.wait(0.5):
                sys.stderr.write(f"\r{message}: {time.perf_counter() - start:.0f} s\x1b[K")
                sys.stderr.flush()

        sys.stderr.write(f"{message}...")
        sys.stderr.flush()
        ticker = threading.Thread(target=tick, daemon=True)
        ticker.start()

    try:
        yield announce
    finally:
        done.set()
        if ticker is not None:
            ticker.join()
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _solve(
    arguments: argparse.Namespace,
    game: Game,
    position: Position[Any],
    limits: SearchLimits,
    progress: Callable[[SearchResult[Any]], None] | None,
    pv_plies: int | None = None,
) -> SearchResult[Any]:
    """Solve on the backend the searcher chooses (``pv_plies`` as for ``Searcher.solve``)."""
    refuse_unbounded_solve(position, limits)  # before a kernel is loaded for nothing
    searcher = _ready_searcher(arguments, game, position, solving=True)
    return searcher.solve(
        position,
        limits,
        multipv=getattr(arguments, "multipv", 1),
        algorithm=arguments.algorithm,
        options=_python_options(arguments, searcher, position, True),
        on_iteration=progress,
        pv_plies=pv_plies,
    )


def _python_options(
    arguments: argparse.Namespace, searcher: Searcher, position: Position[Any], solving: bool
) -> SearchOptions | None:
    """The pure-Python search's options (its algorithm's preset, its table sized by
    ``--hash``) when it is the backend that runs; ``None`` for the compiled one."""
    if searcher.backend_for(position, solving, arguments.algorithm) == "compiled":
        return None
    return _options(arguments)


def run_solve(arguments: argparse.Namespace) -> int:
    game = get_game(arguments.game)
    if arguments.check and not arguments.file:
        raise InvalidOptionError("--check compares a --file's expected scores; give --file")
    if arguments.file:
        if arguments.position is not None:
            raise InvalidOptionError("give either a position or --file, not both")
        return _solve_file(arguments, game)
    position = game.new_position(arguments.position)
    _options(arguments)  # a bad --algorithm or --hash fails here, before any search
    with _book(arguments, game) as book, _stop_on_interrupt() as stop:
        answer = _book_answer(book, game, position)
        if answer is not None:
            _print_result(arguments, game, position, arguments.position or "", answer)
            return EXIT_OK
        limits = SearchLimits(nodes=arguments.nodes, time=arguments.time, stop=stop)
        progress = _progress(arguments, game, position)
        result = _solve(arguments, game, position, limits, progress)
        if progress is not None and sys.stderr.isatty():
            sys.stderr.write("\r\x1b[K")
        _print_result(arguments, game, position, arguments.position or "", result)
        return EXIT_INTERRUPTED if stop.is_set() else EXIT_OK


def _solve_file(arguments: argparse.Namespace, game: Game) -> int:
    _options(arguments)
    refuse_special_input("--file", arguments.file)
    cases = list(read_cases(arguments.file, position_test(game)))
    show_progress = sys.stderr.isatty()
    correct = checked = failures = total_nodes = 0
    total_cpu = 0.0
    with _book(arguments, game) as book, _stop_on_interrupt() as stop:
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
            limits = SearchLimits(nodes=arguments.nodes, time=arguments.time, stop=stop)
            answer = _book_answer(book, game, position)
            if answer is not None:
                result = answer
            else:
                result = _solve(arguments, game, position, limits, None, None if arguments.json else 0)
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
            if arguments.json:
                record = result_record(game, position, text, result)
                record["line"] = number
                if expected is not None:
                    record["expected"] = expected
                print(dumps(record))
            elif not arguments.check:
                print(f"{text} {score} {result.nodes} {result.cpu_time * 1e6:.0f}")
            elif not matches:
                print(f"line {number}: {text}: expected {expected}, solved {score} [{describe(result.score)}]")
            if show_progress:
                sys.stderr.write(f"\r[{done}/{len(cases)}] {correct}/{checked} correct\x1b[K")
                sys.stderr.flush()
    if show_progress:
        sys.stderr.write("\r\x1b[K")
    count = sum(1 for case in cases if case.expected is not None) if arguments.check else len(cases)
    solved_count = max(len(cases) - failures, 0)
    mean_nodes = total_nodes / solved_count if solved_count else 0.0
    mean_cpu = total_cpu / solved_count if solved_count else 0.0
    if arguments.check:
        summary = f"{correct}/{count} correct, mean nodes {mean_nodes:.1f}, mean CPU time {duration_text(mean_cpu)}"
    else:
        summary = (
            f"{solved_count}/{len(cases)} solved, mean nodes {mean_nodes:.1f}, mean CPU time {duration_text(mean_cpu)}"
        )
    if arguments.json:
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
    if failures or (arguments.check and correct != count):
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


def _engine_move(arguments: argparse.Namespace, game: Game, position: Position[Any]) -> SearchResult[Any]:
    no_limit = arguments.depth is None and arguments.time is None and arguments.nodes is None
    limits = SearchLimits(
        depth=arguments.depth,
        nodes=arguments.nodes,
        time=DEFAULT_ANALYSIS_SECONDS if no_limit else arguments.time,
    )
    return _heuristic_search(arguments, game, position, limits, None)


def _heuristic_search(
    arguments: argparse.Namespace,
    game: Game,
    position: Position[Any],
    limits: SearchLimits,
    progress: Callable[[SearchResult[Any]], None] | None,
) -> SearchResult[Any]:
    """A depth-, time- or node-limited search, on the backend the searcher chooses."""
    searcher = _ready_searcher(arguments, game, position, solving=False)
    return searcher.search(
        position,
        limits,
        multipv=getattr(arguments, "multipv", 1),
        algorithm=arguments.algorithm,
        options=_python_options(arguments, searcher, position, False),
        on_iteration=progress,
    )


def run_play(arguments: argparse.Namespace) -> int:
    game = get_game(arguments.game)
    position = game.new_position(arguments.position)
    options = _options(arguments)
    human = None if arguments.self_play else (0 if arguments.side == "first" else 1)
    names = (
        ("first player", "second player") if human is None else (("you", "engine") if human == 0 else ("engine", "you"))
    )
    with _book(arguments, game) as book:
        return _play_game(arguments, game, position, options, human, names, book)


def _play_game(
    arguments: argparse.Namespace,
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
            result = _book_answer(book, game, position) or _engine_move(arguments, game, position.copy())
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

    return run(as_json=arguments.json)


def _search_or_solve(
    position: Position[Any], algorithm: str, depth: int | None, trace: Any = None
) -> SearchResult[Any]:
    if depth is None:
        return solve(position, algorithm=algorithm, trace=trace)
    return search(position, SearchLimits(depth=depth), algorithm=algorithm, trace=trace)


def run_trace(arguments: argparse.Namespace) -> int:
    from negamax.search.trace import SearchTrace
    from negamax.viz.render import render

    game = get_game(arguments.game)
    position = game.new_position(arguments.position)
    options_for(arguments.algorithm)  # an unknown name fails here, before any search
    if arguments.output:
        refuse_replacing("--output", arguments.output, arguments.overwrite)
    trace = SearchTrace(max_nodes=arguments.max_nodes)
    result = _search_or_solve(position, arguments.algorithm, arguments.depth, trace)
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
    print(f"{'algorithm':<14}{'value':>12}{'nodes':>11}{'cutoffs':>10}{'TT hits':>10}{'CPU ms':>9}")
    values = set()
    for name in names:
        result = _search_or_solve(position, name, arguments.depth)
        values.add(result.score)
        print(
            f"{name:<14}{describe(result.score):>12}{result.nodes:>11,}{result.stats.beta_cutoffs:>10,}"
            f"{result.stats.tt_hits:>10,}{result.cpu_time * 1000:>9.1f}"
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
    open_book = None
    if arguments.book:
        from negamax.parallel.book import Book

        path = arguments.book
        Book(path, get_game("connect4"), create=False).close()  # not a book: one line now, not a 500 later

        def open_book(game: Game) -> Book:
            return Book(path, game, create=False)

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
