"""The workers a batch runs on: this process, a local process pool, or a Dask cluster.

Each is a standard ``concurrent.futures.Executor`` (Dask's client offers one), so the
scheduler in ``batch.py`` does not care which it has.
"""

from __future__ import annotations

import concurrent.futures
import ctypes
import multiprocessing
import os
import re
import signal
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from negamax.core.errors import InvalidOptionError
from negamax.core.ranges import workers_range
from negamax.parallel import worker

PING_ROUNDS = 3
SCHEDULER_ADDRESS = re.compile(
    r"(?:(?:tcp|tls|ucx|ws|wss)://)?[\w.\-]+(?::\d{1,5})?|(?:tcp|tls)://\[[0-9a-fA-F:]+\](?::\d{1,5})?"
)
"""What a Dask scheduler's address looks like: ``tcp://host:8786``, ``host:8786``, or an
IPv6 host in brackets."""
LOCAL_CLUSTER = "local"
"""``--scheduler local``: a Dask cluster of ``--workers`` processes on this machine."""


class InlineExecutor(concurrent.futures.Executor):
    """Runs each task at once, in this process: the one-worker pool, without the pool."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as error:
            future.set_exception(error)
        return future


class WorkerPool:
    """An executor with ``workers`` slots, and what one task costs on it."""

    def __init__(self, executor: concurrent.futures.Executor, workers: int, kind: str, close: Callable[[], None]):
        self.executor, self.workers, self.kind = executor, workers, kind
        self._close = close
        self.task_overhead = 0.0
        """Seconds one task's round trip adds to its work (measured by ``calibrate``)."""
        self.startup_seconds = 0.0
        self.client: Any = None
        """The Dask client, on a Dask cluster."""

    def calibrate(self) -> None:
        """Measure the round trip of empty tasks, ``workers`` at a time."""
        if self.kind == "serial":
            return
        trips = []
        for _ in range(PING_ROUNDS):
            sent = time.perf_counter()
            futures = [self.executor.submit(worker.ping) for _ in range(self.workers)]
            concurrent.futures.wait(futures)
            trips.append((time.perf_counter() - sent) / self.workers)
        self.task_overhead = statistics.median(trips)

    def close(self) -> None:
        self._close()


def _die_with_parent() -> None:
    """A pool worker: ignore Ctrl-C (the parent stops the batch cleanly) and die when the
    parent dies, even by SIGKILL, instead of waiting forever for work."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    if os.getppid() == 1:
        os._exit(1)  # the parent died before the line above


def serial_pool(job: worker.BatchJob) -> WorkerPool:
    start = time.perf_counter()
    worker.prepare(job)
    pool = WorkerPool(InlineExecutor(), 1, "serial", lambda: None)
    pool.startup_seconds = time.perf_counter() - start
    return pool


def process_pool(job: worker.BatchJob, workers: int) -> WorkerPool:
    """``workers`` processes. Where the platform forks, this process loads the engine
    first and the workers inherit it ready (a spawned worker needs about a second)."""
    start = time.perf_counter()
    forking = "fork" in multiprocessing.get_all_start_methods() and sys.platform.startswith("linux")
    if forking:
        # Load the engine here, once; each worker then makes its own table, since writing
        # to an inherited one would copy it page by page.
        worker.prepare(job)
        worker.forget()
    context = multiprocessing.get_context("fork" if forking else "spawn")
    executor = concurrent.futures.ProcessPoolExecutor(workers, mp_context=context, initializer=_die_with_parent)
    warm = [executor.submit(worker.prepare, job) for _ in range(workers)]
    for future in warm:
        future.result()
    pool = WorkerPool(executor, workers, "processes", lambda: executor.shutdown(wait=True, cancel_futures=True))
    pool.startup_seconds = time.perf_counter() - start
    pool.calibrate()
    return pool


def _distributed() -> Any:
    try:
        import distributed  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        raise InvalidOptionError(
            "--scheduler needs Dask: pip install 'negamax[distributed]' (on every worker machine too)"
        ) from None
    return distributed


def dask_pool(job: worker.BatchJob, address: str) -> WorkerPool:
    """The Dask cluster whose scheduler listens at ``address`` (``tcp://host:port``); one
    slot per worker thread. Needs the ``distributed`` extra. A worker that dies loses only
    the tasks it held: the scheduler gives them to another worker (Dask's own retries)."""
    distributed = _distributed()
    if not SCHEDULER_ADDRESS.fullmatch(address):
        raise InvalidOptionError(
            f"--scheduler {address[:80]!r} is not a scheduler's address: write tcp://HOST:PORT (or tls://...),"
            f" or {LOCAL_CLUSTER} for a cluster on this machine"
        )
    client: Any
    try:
        client = distributed.Client(address, timeout="10s")
    except (OSError, ValueError, TypeError) as error:
        raise InvalidOptionError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    return _client_pool(job, client, client.close, time.perf_counter())


def local_dask_pool(job: worker.BatchJob, workers: int) -> WorkerPool:
    """A Dask ``LocalCluster`` of ``workers`` processes (one thread each) on this machine:
    what ``--scheduler local`` starts, to try a cluster's behaviour (a worker killed is
    restarted by its nanny, and its tasks given to another) without running a scheduler."""
    distributed = _distributed()
    start = time.perf_counter()
    cluster = distributed.LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    )
    try:
        client = distributed.Client(cluster)
    except BaseException:
        cluster.close()
        raise

    def close() -> None:
        client.close()
        cluster.close()

    return _client_pool(job, client, close, start)


def _client_pool(job: worker.BatchJob, client: Any, close: Callable[[], None], start: float) -> WorkerPool:
    address = client.scheduler.address
    try:
        slots = sum(client.nthreads().values())
        if slots == 0:
            raise InvalidOptionError(f"the Dask cluster at {address} has no workers")
        client.run(worker.prepare, job)  # every worker loads the engine before the clock starts
    except BaseException:
        close()
        raise
    pool = WorkerPool(client.get_executor(pure=False), slots, "dask", close)
    pool.client = client
    pool.startup_seconds = time.perf_counter() - start
    pool.calibrate()
    return pool


def make_pool(job: worker.BatchJob, workers: int | None, scheduler: str | None) -> WorkerPool:
    """The pool a batch asks for: Dask when ``scheduler`` is given (``local``: a cluster of
    ``workers`` processes here, default all cores), else ``workers`` local processes
    (default: all cores; 1 runs in this process)."""
    count = int(workers_range().check(workers)) if workers is not None else (os.cpu_count() or 1)
    if scheduler == LOCAL_CLUSTER:
        return local_dask_pool(job, count)
    if scheduler is not None:
        if workers is not None:
            raise InvalidOptionError("--workers is for a pool on this machine; a Dask cluster has the workers it has")
        return dask_pool(job, scheduler)
    return serial_pool(job) if count == 1 else process_pool(job, count)
