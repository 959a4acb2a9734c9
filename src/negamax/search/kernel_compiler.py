"""``python -m negamax.search.kernel_compiler [--quiet] [--jobs N] [--parent PID] [GAME ...]``:
a process that compiles games' kernels into the disk cache (``negamax.search.warmup``).
``negamax warmup`` runs its work; an engine starts it to have a kernel compiled while it
answers without one. A module of its own, so that ``python -m`` runs it once."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import threading
import time
from collections.abc import Sequence

from negamax.search import warmup


def _watch_parent(parent: int) -> None:
    """End this process once the one it compiles for is gone (it is then another's child)."""
    while os.getppid() == parent:
        time.sleep(0.2)
    os._exit(1)


def main(argv: Sequence[str] | None = None) -> int:
    """The process's work: what the
    ``negamax warmup`` command runs, and what an engine starts to compile a kernel while
    it answers without it. Exit status 1 if a game failed."""
    parser = argparse.ArgumentParser(prog="python -m negamax.search.kernel_compiler")
    parser.add_argument("games", nargs="*")
    parser.add_argument("--quiet", "-q", action="store_true")
    parser.add_argument("--jobs", "-j", type=int, default=0)
    parser.add_argument("--optional", action="store_true", help="a missing package skips the game")
    parser.add_argument("--parent", type=int, help="end when the process with this id has ended")
    arguments = parser.parse_args(argv)
    with contextlib.suppress(OSError, AttributeError):
        # started by a process in Linux's idle class (a web worker running a user's game):
        # a compiler there waits for every other process, minutes on a busy machine
        if os.sched_getscheduler(0) == os.SCHED_IDLE:
            os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    if arguments.parent is not None:
        threading.Thread(target=_watch_parent, args=(arguments.parent,), name="parent-watch", daemon=True).start()
    names = list(arguments.games or warmup.BUILT_IN_GAMES)
    optional = names if arguments.optional else ([] if arguments.games else ["draughts"])
    jobs = max(1, min(arguments.jobs or os.cpu_count() or 1, len(names)))
    return 1 if warmup.warm_up_names(names, jobs, arguments.quiet, optional) else 0


if __name__ == "__main__":
    sys.exit(main())
