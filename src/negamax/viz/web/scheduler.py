"""Who searches when. At most one search per core computes at a time; the others wait
their turn, and each request's time counts from its arrival, so that every answer comes
within the time it asked for, however many arrive at once. A search that starts while
others wait gets its share of the time left (its time, times the cores, divided by the
searches wanting them), so that under load every request gets a shallower search instead
of a late one; a request whose time ran out while it waited still gets a quick search.

More than ``MAX_SEARCHES`` requests at once (running and waiting) are refused with
``Busy`` (a 429).

Why not a thread per search, all at once: with dozens of compiled searches on two cores
the threads that answer pages, stop searches and finish them wait their turn for the
processor and the interpreter lock, and answers came seconds late.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from negamax.core.errors import NegamaxError

T = TypeVar("T")

MAX_SEARCHES = 64
"""Requests at once, running and waiting; more get a 429."""
MARGIN_SECONDS = 0.1
"""Kept from each request's time for its answer to go out."""
QUICK_SECONDS = 0.02
"""The search a request gets when its time ran out while it waited."""


class Busy(NegamaxError, ValueError):
    """Every search slot is taken (answered with 429)."""


class Scheduler:
    """Runs jobs on threads, ``cores`` at a time, each within its request's time."""

    def __init__(self, max_searches: int = MAX_SEARCHES, cores: int | None = None) -> None:
        self.max_searches = max_searches
        self.cores = max(1, cores or os.cpu_count() or 1)
        self._executor = ThreadPoolExecutor(max_workers=max_searches, thread_name_prefix="search")
        self._accepted = threading.BoundedSemaphore(max_searches)
        self._computing = threading.Semaphore(self.cores)
        self._lock = threading.Lock()
        self._pending = 0
        self._waiting = 0

    def submit(self, job: Callable[[float], T], seconds: float, arrived: float | None = None) -> Future[T]:
        """Run ``job(granted)`` on a search thread, where ``granted`` is the time the job
        may search for, so that it ends within ``seconds`` of ``arrived`` (a
        ``time.perf_counter()`` reading: when the request came; by default now).

        :raises Busy: at once, when ``MAX_SEARCHES`` requests are running or waiting.
        """
        if not self._accepted.acquire(blocking=False):
            raise Busy(f"the server has {self.max_searches} searches to do already; try again in a moment")
        deadline = (time.perf_counter() if arrived is None else arrived) + seconds
        with self._lock:
            self._pending += 1
        try:
            future = self._executor.submit(self._run, job, deadline)
        except BaseException:
            self._finished()
            raise
        future.add_done_callback(lambda _: self._finished())
        return future

    def pending(self) -> int:
        """Requests running or waiting now."""
        with self._lock:
            return self._pending

    def close(self) -> None:
        """Free the threads once the jobs running end (their pages have gone)."""
        self._executor.shutdown(wait=False, cancel_futures=True)

    def _run(self, job: Callable[[float], T], deadline: float) -> T:
        with self._lock:
            self._waiting += 1
        patience = deadline - time.perf_counter() - MARGIN_SECONDS - QUICK_SECONDS
        turn = self._computing.acquire(timeout=max(0.0, patience))
        with self._lock:
            self._waiting -= 1
            waiting = self._waiting
        try:
            left = deadline - time.perf_counter() - MARGIN_SECONDS
            share = left * self.cores / (self.cores + waiting) if turn else 0.0
            return job(max(QUICK_SECONDS, share))
        finally:
            if turn:
                self._computing.release()

    def _finished(self) -> None:
        with self._lock:
            self._pending -= 1
        self._accepted.release()
