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
from negamax.core.game import MoveListPosition, PlacementPosition, Position
from negamax.core.rules import Game, game_end, pv_text, refuse_hopeless_solve
from negamax.core.score import INF, WIN_THRESHOLD, Bound, describe
from negamax.core.types import SearchLimits, SearchResult
from negamax.games import available_games, get_game, installed_games
from negamax.parallel.cases import position_test, read_cases
from negamax.parallel.files import refuse_replacing, refuse_special_input, replaced_whole
from negamax.search import backend, choose_engine, search, solve, warmup
from negamax.search.params import SearchOptions, check_threads, options_for

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
    options = _options(arguments)
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
        result = _heuristic_search(arguments, position, limits, options, progress)
        _print_result(arguments, game, position, arguments.position or "", result)
        return EXIT_INTERRUPTED if stop.is_set() else EXIT_OK


def _engine_name(arguments: argparse.Namespace) -> str:
    engine: str | None = getattr(arguments, "engine", None)
    return engine or "auto"


def _python_only(arguments: argparse.Namespace, position: Position[Any], solving: bool) -> str:
    """What the command line asked for that only the python engine does ("" for nothing)."""
    if arguments.algorithm != "auto":
        return f"--algorithm {arguments.algorithm}"
    return ""


_SEARCHERS: dict[tuple[str, float | None, int | None, bool], Any] = {}
_LOADED: set[tuple[int, str]] = set()
"""(searcher, game) pairs whose kernels are loaded: the searchers live as long as the process."""


def _no_workers_for_python(arguments: argparse.Namespace) -> None:
    if getattr(arguments, "threads", None) is not None or getattr(arguments, "processes", False):
        raise InvalidOptionError("--threads and --processes run the compiled engine; the python engine has one worker")


def _compiled_searcher(arguments: argparse.Namespace, kind: str, solving: bool) -> Any:
    """The compiled searcher of ``kind`` the options describe, made once per process (its
    table lives from one search to the next, across the moves of a game)."""
    threads = getattr(arguments, "threads", None)
    processes = bool(getattr(arguments, "processes", False))
    if kind == backend.PLACEMENT:
        key = (kind, arguments.hash, threads, processes)
    else:
        if (threads is not None and solving) or processes:
            raise InvalidOptionError(
                "--threads and --processes are for the compiled solver of placement games"
                " (move-list games take --threads in analyze)"
            )
        key = (kind, arguments.hash, threads, False)
    if key not in _SEARCHERS:
        if kind == backend.PLACEMENT:
            from negamax.search.compiled.placement import CompiledSolver  # imports numba

            cores = os.cpu_count() or 1
            workers = threads if threads is not None else cores
            if workers > cores:
                print(f"note: {cores} workers, one per core (not {workers})", file=sys.stderr)
                workers = cores
            solver = CompiledSolver(threads=workers, processes=processes, hash_mib=arguments.hash)
            if solver.helper_note:
                print(f"note: {solver.helper_note}", file=sys.stderr)
            _SEARCHERS[key] = solver
        else:
            from negamax.search.compiled.move_list import CompiledSearcher  # imports numba

            if threads is not None:
                check_threads(threads, "--threads")
            _SEARCHERS[key] = CompiledSearcher(
                hash_mib=arguments.hash if arguments.hash is not None else 64.0, threads=threads or 1
            )
    return _SEARCHERS[key]


def _compiled_for(arguments: argparse.Namespace, position: Position[Any], solving: bool) -> Any:
    """The compiled searcher to run ``position`` on, or ``None`` for the python engine (the
    choice is the backend's; the options only say what was asked)."""
    python_only = _python_only(arguments, position, solving)
    engine = choose_engine(position, _engine_name(arguments), solving=solving, python_only=python_only)
    if engine == "python":
        _no_workers_for_python(arguments)
        return None
    kind = backend.compiled_kind(position, solving)
    assert kind is not None
    searcher = _compiled_searcher(arguments, kind, solving)
    if (id(searcher), arguments.game) not in _LOADED:
        # load the kernel before any clock starts; compile it in another process first if
        # it is not on disk yet, saying so
        with _announcer() as announce, _stop_on_interrupt() as stop:
            warmup.prepare(searcher, position, get_game(arguments.game), announce, stop, command_name=arguments.game)
        if stop.is_set():
            raise KeyboardInterrupt
        _LOADED.add((id(searcher), arguments.game))
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
    position: Position[Any],
    limits: SearchLimits,
    progress: Callable[[SearchResult[Any]], None] | None,
    pv_plies: int | None = None,
    one_of_many: bool = False,
) -> SearchResult[Any]:
    """Solve on the engine the backend chooses. One position alone may be answered by a
    quick pure-Python solve before any kernel is loaded; ``one_of_many`` (a file of them)
    goes to the kernel at once. ``pv_plies`` as for ``CompiledSolver``."""

    def compiled_searcher() -> Any:
        searcher = _compiled_for(arguments, position, solving=True)
        if searcher is not None and searcher.kind == backend.PLACEMENT:
            searcher.pv_plies = pv_plies
        return searcher

    python_only = _python_only(arguments, position, solving=True)
    if choose_engine(position, _engine_name(arguments), solving=True, python_only=python_only) == "python":
        _no_workers_for_python(arguments)
        return solve(
            position,
            limits,
            engine="python",
            algorithm=arguments.algorithm,
            options=_options(arguments),
            on_iteration=progress,
        )
    searcher = compiled_searcher() if one_of_many or _engine_name(arguments) == "compiled" else compiled_searcher
    return solve(position, limits, searcher=searcher, on_iteration=progress)


def run_solve(arguments: argparse.Namespace) -> int:
    game = get_game(arguments.game)
    refuse_hopeless_solve(
        game,
        arguments.time is not None or arguments.nodes is not None,
        f"analyse it (negamax analyze {arguments.game} ... --time 5), or give solve a --time or --nodes limit",
    )
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
        result = _solve(arguments, position, limits, progress)
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
                result = _solve(arguments, position, limits, None, None if arguments.json else 0, one_of_many=True)
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


def _engine_move(
    arguments: argparse.Namespace, game: Game, position: Position[Any], options: SearchOptions
) -> SearchResult[Any]:
    no_limit = arguments.depth is None and arguments.time is None and arguments.nodes is None
    limits = SearchLimits(
        depth=arguments.depth,
        nodes=arguments.nodes,
        time=DEFAULT_ANALYSIS_SECONDS if no_limit else arguments.time,
    )
    return _heuristic_search(arguments, position, limits, options, None)


def _heuristic_search(
    arguments: argparse.Namespace,
    position: Position[Any],
    limits: SearchLimits,
    options: SearchOptions,
    progress: Callable[[SearchResult[Any]], None] | None,
) -> SearchResult[Any]:
    """A depth-, time- or node-limited search, on the engine the backend chooses."""
    searcher = _compiled_for(arguments, position, solving=False)
    if searcher is None:
        return search(
            position, limits, engine="python", algorithm=arguments.algorithm, options=options, on_iteration=progress
        )
    return search(position, limits, searcher=searcher, on_iteration=progress)


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
            result = _book_answer(book, game, position) or _engine_move(arguments, game, position.copy(), options)
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
    refuse_hopeless_solve(game, arguments.depth is not None, "give a --depth")
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
    refuse_hopeless_solve(game, arguments.depth is not None, "give a --depth")
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
    app = create_app(arguments.engine, book=open_book, extra_games=extra_games)
    print(f"serving on {server.address(listening)} (Ctrl-C to stop)", flush=True)
    server.run(app, listening)
    return EXIT_OK


COMPILED_GAMES = ("connect4", "tictactoe", "chess", "draughts")
"""The built-in games with compiled kernels, which ``negamax warmup`` prepares by default."""


def run_warmup(arguments: argparse.Namespace) -> int:
    """Compile (or load) the compiled kernels of some games ahead of their first use, each
    game in a process of its own when there are several and several cores."""
    if arguments.nice and hasattr(os, "nice"):
        os.nice(10)
    names = list(arguments.games or COMPILED_GAMES)
    jobs = min(arguments.jobs or os.cpu_count() or 1, len(names))
    if jobs > 1:
        return _warm_up_in_parallel(arguments, names, jobs)
    failed = 0
    for name in names:
        try:
            game = get_game(name)
            position = game.new_position(None)
        except NegamaxError as error:
            if not arguments.games and name == "draughts":
                _say(arguments, f"{name}: skipped ({error})")
                continue
            raise
        if not isinstance(position, PlacementPosition | MoveListPosition):
            _say(arguments, f"{name}: no compiled kernel (it runs on the python engine)")
            continue
        start = time.perf_counter()
        try:
            if isinstance(position, PlacementPosition):
                from negamax.search.compiled.placement import CompiledSolver  # imports numba

                with CompiledSolver(threads=2) as solver:
                    cached = solver.cached(position)
                    solver.warm_up(position, wait_for_helpers=True)
                _say(arguments, f"{name}: solver {_loaded(cached)} in {time.perf_counter() - start:.1f} s")
            if isinstance(position, MoveListPosition):
                from negamax.search.compiled.move_list import CompiledSearcher  # imports numba

                start = time.perf_counter()
                searcher = CompiledSearcher(hash_mib=1)
                cached = searcher.cached(position)
                searcher.warm_up(position)
                _say(arguments, f"{name}: search {_loaded(cached)} in {time.perf_counter() - start:.1f} s")
        except NegamaxError as error:
            failed += 1
            print(f"{name}: {error}", file=sys.stderr)
            continue
        warmup.mark_on_disk(game)
    return EXIT_MISMATCH if failed else EXIT_OK


def _warm_up_in_parallel(arguments: argparse.Namespace, names: list[str], jobs: int) -> int:
    """``negamax warmup GAME`` for each game, ``jobs`` at a time; their reports in order."""
    import subprocess

    extra = ["--quiet"] if arguments.quiet else []
    running: list[tuple[str, subprocess.Popen[str]]] = []
    waiting = list(names)
    failed = 0
    while waiting or running:
        while waiting and len(running) < jobs:
            name = waiting.pop(0)
            command = [sys.executable, "-m", "negamax", "warmup", "--jobs", "1", *extra, name]
            running.append((name, subprocess.Popen(command, stdout=subprocess.PIPE, text=True)))
        name, process = running.pop(0)
        output, _ = process.communicate()
        sys.stdout.write(output)
        sys.stdout.flush()
        failed += process.returncode != 0 and not (name == "draughts" and not arguments.games)
    return EXIT_MISMATCH if failed else EXIT_OK


def _loaded(cached: bool | None) -> str:
    return "loaded from the cache" if cached else "compiled"


def _say(arguments: argparse.Namespace, text: str) -> None:
    if not arguments.quiet:
        print(text, flush=True)
