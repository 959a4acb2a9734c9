"""Loading a compiled kernel from numba's disk cache without ever compiling it here.

A kernel that is not on disk yet takes numba tens of seconds to compile, holding this
process's interpreter lock in long stretches. ``load_from_cache`` tells whether a kernel is
on disk, and loads it if it is (a fraction of a second), so that a caller can have it
compiled in another process instead (``negamax warmup``, see ``negamax.search.warmup``)
and keep answering meanwhile.

numba has no public call for "load, but do not compile": this mirrors the cache step of
``Dispatcher.compile`` (numba 0.60 to 0.68). Where numba's internals differ, it answers
``None`` (cannot tell), and the caller loads the usual way.
"""

from __future__ import annotations

from typing import Any


def load_from_cache(dispatcher: Any, arguments: tuple[Any, ...]) -> bool | None:
    """Whether ``dispatcher``'s version for ``arguments`` is loaded now, after trying its disk
    cache (``False``: it must be compiled; ``None``: numba's internals could not tell)."""
    try:
        from numba import typeof
        from numba.core.compiler_lock import global_compiler_lock

        signature = tuple(typeof(argument) for argument in arguments)  # type: ignore[no-untyped-call]
        with global_compiler_lock:
            if dispatcher.overloads.get(signature) is not None:
                return True
            cache = dispatcher._cache
            loaded = cache.load_overload(signature, dispatcher.targetctx)
            if loaded is None:
                return False
            dispatcher._cache_hits[signature] += 1
            if not loaded.objectmode:
                dispatcher.targetctx.insert_user_function(loaded.entry_point, loaded.fndesc, [loaded.library])
            dispatcher.add_overload(loaded)
            return True
    except (AttributeError, TypeError, KeyError):
        return None


def all_cached(checks: list[bool | None]) -> bool | None:
    """``False`` if any kernel must be compiled, ``None`` if any could not be told, else ``True``."""
    if False in checks:
        return False
    return None if None in checks else True
