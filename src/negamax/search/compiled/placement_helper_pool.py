"""Helpers for the compiled solver: they share its table and search the children of the
split points other workers publish in it (``placement_kernel.help_workers``), until it
says stop. ``HelperThreads`` run in this process (the kernel holds no interpreter lock);
``HelperProcesses`` are processes that map the table from shared memory. Both have the
same interface.

Each helper maps two shared int64 arrays: the table (the same one the main worker uses,
split points included) and its own ``work`` array, so the solver can raise the kernel's
``STATE_STOP`` in the helper from outside. Tasks and node counts travel over a socket
pair. Helpers start once, with the solver, and load the kernel in their first task
(numba's on-disk cache makes that a fraction of a second).

A helper is ``python -m negamax.search.compiled.placement_helper_pool``, not a ``multiprocessing`` child:
the "spawn" start method would run the user's main script again in every helper (a
script without an ``if __name__ == "__main__":`` guard would repeat its work there), and
"fork" is unsafe in a process that has threads.

Shared memory lives in ``/dev/shm`` on Linux; ``shared_table`` returns ``None`` when that
has too little room (a container's 64 MiB default), and the solver then runs alone.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from multiprocessing import resource_tracker
from multiprocessing.connection import Connection
from multiprocessing.shared_memory import SharedMemory
from typing import Any

import numpy as np

from negamax.search.compiled import families, placement_layout
from negamax.search.compiled import placement_kernel as kernel

STOP_POLL_SECONDS = 0.001
SHM_DIRECTORY = "/dev/shm"


def shared_array(size: int) -> tuple[SharedMemory, Any] | None:
    """A zeroed int64 array of ``size`` entries in shared memory, or ``None`` if there is no
    room for it (touching a page past a full ``/dev/shm`` would kill the process)."""
    needed = size * 8
    if os.path.isdir(SHM_DIRECTORY) and shutil.disk_usage(SHM_DIRECTORY).free < needed + (16 << 20):
        return None
    try:
        memory = SharedMemory(create=True, size=needed)
    except OSError:
        return None
    array = np.ndarray((size,), dtype=np.int64, buffer=memory.buf)
    array[:] = 0  # touch every page now rather than in the middle of a solve
    return memory, array


def _attach(name: str, size: int | None = None) -> tuple[SharedMemory, Any]:
    """Map shared memory ``name`` as an int64 array of ``size`` entries (by default all of
    it: the table's size is the solver's choice)."""
    memory = SharedMemory(name=name)
    size = memory.size // 8 if size is None else size
    # Python < 3.13 registers attached memory with this process's resource tracker too,
    # which would unlink the solver's table when the helper exits: the solver owns it.
    with contextlib.suppress(Exception):
        resource_tracker.unregister(memory._name, "shared_memory")  # type: ignore[attr-defined]
    return memory, np.ndarray((size,), dtype=np.int64, buffer=memory.buf)


PARENT_POLL_SECONDS = 0.2
"""How often a helper process looks whether the process it serves is still there."""


def _watch_parent(parent: int) -> None:
    """End this helper once the process it serves is gone, however it ended (``kill -9``
    included): the helper is then the child of another process. The kernel holds no
    interpreter lock, so this thread runs even while the helper searches."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(0)


def _serve(connection: Connection, table_name: str, work_name: str, parent: int) -> None:
    """A helper's life: help with each solve, answer with the nodes searched."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the solver's to handle
    threading.Thread(target=_watch_parent, args=(parent,), name="parent-watch", daemon=True).start()
    table_memory, table = _attach(table_name)
    work_memory, work = _attach(work_name, placement_layout.WORK_SIZE)
    try:
        while True:
            task = connection.recv()
            if task is None:
                break
            spec, area = task
            connection.send(_help(spec, area, table, work))
            if connection.recv() != "stop":
                break
    except (EOFError, KeyboardInterrupt):  # the solver is gone, or Ctrl-C reached the group
        pass
    finally:
        del table, work
        table_memory.close()
        work_memory.close()


def _help(spec: Any, area: int, table: Any, work: Any) -> int:
    """Help while the table says so; return the nodes searched."""
    kernels, spec = families.kernels_for(kernel, spec)
    work[placement_layout.STATE_PUBLISH] = area + 1
    return int(kernels.help_workers(spec, table, work))


class HelperThreads:
    """``count`` helper threads sharing ``table``."""

    def __init__(self, count: int, table: Any) -> None:
        self.table = table
        self._works = [np.zeros(placement_layout.WORK_SIZE, dtype=np.int64) for _ in range(count)]
        self._nodes = [0] * count
        self._threads: list[threading.Thread] = []

    def __len__(self) -> int:
        return len(self._works)

    def idle(self) -> bool:
        """Whether every helper has finished its task; never waits."""
        if any(thread.is_alive() for thread in self._threads):
            return False
        self.stop()
        return True

    def start(self, spec: Any) -> None:
        """Start every helper on the solve the table holds; the main worker is area 0, the
        helpers areas 1 on. With ``table[SPLIT_RUN]`` clear, a helper only loads the kernel."""
        self._threads = [
            threading.Thread(target=self._help, args=(number, spec), daemon=True) for number in range(len(self))
        ]
        for thread in self._threads:
            thread.start()

    def _help(self, number: int, spec: Any) -> None:
        self._nodes[number] = _help(spec, number + 1, self.table, self._works[number])

    def stop(self) -> int:
        """Stop every helper now; return the nodes they searched."""
        if not self._threads:
            return 0
        for work, thread in zip(self._works, self._threads, strict=True):
            # a helper that is only starting clears the flag: keep raising it
            while thread.is_alive():
                work[placement_layout.STATE_STOP] = 1
                thread.join(STOP_POLL_SECONDS)
        self._threads = []
        return sum(self._nodes)

    def close(self) -> None:
        self.stop()


class HelperProcesses:
    """``count`` helper processes sharing ``table_memory``; one task at a time each."""

    def __init__(self, count: int, table_memory: SharedMemory) -> None:
        self._works: list[tuple[SharedMemory, Any]] = []
        self._connections: list[Connection] = []
        self._processes: list[subprocess.Popen[bytes]] = []
        self._busy = False
        for _ in range(count):
            work = shared_array(placement_layout.WORK_SIZE)
            if work is None:
                raise OSError("no shared memory for a helper's counters")
            ours, theirs = socket.socketpair()
            command = [
                sys.executable, "-m", __name__, str(theirs.fileno()), table_memory.name, work[0].name, str(os.getpid())
            ]  # fmt: skip
            # a session of its own: Ctrl-C at the terminal is for the solver, which stops helpers
            process = subprocess.Popen(
                command, pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, start_new_session=True
            )
            theirs.close()
            self._works.append(work)
            self._connections.append(Connection(ours.detach()))
            self._processes.append(process)

    def __len__(self) -> int:
        return len(self._processes)

    def idle(self) -> bool:
        """Whether every helper has finished its task (its first one loads the kernel, which
        takes a while); never waits."""
        if not self._busy:
            return True
        if not all(connection.poll() for connection in self._connections):
            return False
        self.stop()
        return True

    def start(self, spec: Any) -> None:
        """Start every helper on the solve the table holds (see ``HelperThreads.start``)."""
        for number, connection in enumerate(self._connections):
            with contextlib.suppress(OSError):  # a helper that died gets nothing to do
                connection.send((spec, number + 1))
        self._busy = True

    def stop(self) -> int:
        """Stop every helper now; return the nodes they searched."""
        if not self._busy:
            return 0
        for connection in self._connections:
            with contextlib.suppress(OSError):
                connection.send("stop")
        total = 0
        for connection, (_, work), process in zip(self._connections, self._works, self._processes, strict=True):
            # a helper that is only starting clears the flag: keep raising it
            while not connection.poll(STOP_POLL_SECONDS) and process.poll() is None:
                work[placement_layout.STATE_STOP] = 1
            with contextlib.suppress(EOFError, OSError):  # a helper that died counts nothing
                total += int(connection.recv())
        self._busy = False
        return total

    def close(self) -> None:
        """End the helpers at once and free their memory (they only ever write to shared
        memory, so ending one mid-search loses nothing)."""
        for connection in self._connections:
            connection.close()
        for process in self._processes:
            process.terminate()
        for process in self._processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(1.0)
        for memory, array in self._works:
            del array
            with contextlib.suppress(BufferError):
                memory.close()
            with contextlib.suppress(FileNotFoundError):
                memory.unlink()
        self._works.clear()


if __name__ == "__main__":
    _serve(Connection(int(sys.argv[1])), sys.argv[2], sys.argv[3], int(sys.argv[4]))
