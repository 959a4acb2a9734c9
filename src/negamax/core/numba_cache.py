"""numba's on-disk cache, made to notice every source a compiled kernel is built from.

numba checks a cached function against its own source file only. Our kernels inline the
games' compiled primitives and freeze module-level tables (evaluation weights, Zobrist
keys, ``INF``) into the machine code, so a changed game module or constant would leave a
kernel's cache looking fresh while it computes with the old code. This happens in
practice: an upgrade or reinstall over an old install keeps ``__pycache__/*.nbi`` files
(pip removes only the files it installed), and hatchling builds wheels with fixed file
times, so nothing but the content tells the versions apart.

``install()`` puts locators in front of numba's own, for this package's files only, whose
source stamp adds a digest of every module under ``core/``, ``games/`` and ``search/``,
and of the data files there that kernels freeze in (``*.npz``, the fitted draughts
patterns): any edit there invalidates every cached kernel of the package, and nothing
else's.

Kernels compiled for a game from outside the package (``negamax.search.compiled.families``)
are copies of the package's functions. Left to the locators above, their entries would land
in the package's own cache index, which names the game's types: numba reads a whole index
at once, so once the game's module is gone every built-in kernel would fail to load. A
copy therefore carries a ``FamilyCache`` (``FAMILY_ATTRIBUTE``), and the first locator
serves it from that family's own directory with that family's stamp, apart from the
package's entries.

``load_from_cache`` loads a compiled function from the disk cache without ever compiling
it, and ``call_without_compiling`` runs a compiled function as plain Python when it is
not on disk yet: a kernel's first compilation takes tens of seconds with the interpreter
lock held, so it belongs in another process (``negamax.search.warmup``), not in the setup
of a search. That process warms up inside ``compiling_allowed()``, where it compiles them
as well: a helper that only the setup calls (a state's refresh) is compiled by no kernel,
and would otherwise run as Python before every search for good.

Importing this module does not import numba (``negamax.search.warmup`` reads the package
digest without it); ``install()`` and the loading functions do. ``negamax.core.compiled``
calls ``install()``, and every module with compiled code imports that before its first
``@njit``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import threading
import types
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
"""The ``negamax`` package directory."""

KERNEL_SOURCES = ("core", "games", "search")
"""The subpackages whose modules compiled code is built from."""


CACHE_DIRECTORY_VARIABLE = "NEGAMAX_CACHE_DIR"
"""The environment variable that names negamax's own cache directory."""


def cache_root() -> Path:
    """negamax's own cache directory: ``$NEGAMAX_CACHE_DIR``, else beside numba's cache when
    ``NUMBA_CACHE_DIR`` is set, else the user's cache directory."""
    chosen = os.environ.get(CACHE_DIRECTORY_VARIABLE)
    if chosen:
        return Path(chosen)
    numba_directory = os.environ.get("NUMBA_CACHE_DIR")
    if numba_directory:
        return Path(numba_directory) / "negamax"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "negamax"


def package_cache_directory() -> Path | None:
    """Where the package's own compiled functions are cached: one directory per version of
    its code (the package digest), beside the games' kernels, so that a fresh checkout or a
    reinstall of the same code finds them (a ``__pycache__`` beside each file is new in every
    checkout). ``None`` when it cannot be written (numba's own places are used then)."""
    return _writable(cache_root() / "kernels" / f"package-{package_digest()[:16]}")


@cache
def _writable(directory: Path) -> Path | None:
    """``directory``, made and marked as used now, once per process (numba asks for each
    function's cache directory when it loads the function)."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        os.utime(directory)  # used now: unused ones are removed with the families'
    except OSError:
        return None
    return directory


FAMILY_ATTRIBUTE = "__negamax_cache__"
"""The attribute of a copied kernel function that says where its family is cached."""


@dataclasses.dataclass(frozen=True)
class FamilyCache:
    """Where the kernels of one outside game are cached, and what makes them fresh."""

    directory: str
    stamp: str
    """Changes whenever the package or the game's code does."""


def sources_digest(root: Path, subpackages: tuple[str, ...] = KERNEL_SOURCES) -> str:
    """A digest of the names and contents of every ``*.py`` file in ``subpackages`` (and
    their own subpackages), and of the data files kernels bake in as constants (``*.npz``)."""
    digest = hashlib.sha256()
    for subpackage in subpackages:
        files = [*(root / subpackage).rglob("*.py"), *(root / subpackage).rglob("*.npz")]
        for path in sorted(files):
            digest.update(f"{path.relative_to(root).as_posix()}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


@cache
def package_digest() -> str:
    """``sources_digest`` of this installed package, computed once per process."""
    return sources_digest(PACKAGE_ROOT)


def _inside_package(py_file: str) -> bool:
    try:
        return Path(py_file).resolve().is_relative_to(PACKAGE_ROOT)
    except OSError:
        return False


def _package_locator(base: Any) -> Any:
    """A subclass of numba's locator ``base`` that serves only this package's files and
    stamps them with the package digest too."""

    def get_source_stamp(self: Any) -> Any:
        return (base.get_source_stamp(self), package_digest())

    def get_cache_path(self: Any) -> str:
        shared = package_cache_directory()
        if shared is None:
            return str(base.get_cache_path(self))
        return str(shared / Path(self._py_file).resolve().parent.relative_to(PACKAGE_ROOT))

    def from_function(cls: Any, py_func: Any, py_file: str) -> Any:
        if not _inside_package(py_file):
            return None
        return super(locator, cls).from_function(py_func, py_file)

    locator: Any = type(
        f"Negamax{base.__name__.lstrip('_')}",
        (base,),
        {
            "get_source_stamp": get_source_stamp,
            "get_cache_path": get_cache_path,
            "from_function": classmethod(from_function),
        },
    )
    return locator


def _family_locator(caching: Any) -> Any:
    """A numba locator for copied kernel functions: each family's own directory and stamp."""

    class NegamaxFamilyLocator(caching._CacheLocator):  # type: ignore[misc]
        negamax_package_locator = True

        def __init__(self, py_func: Any, py_file: str) -> None:
            family: FamilyCache = getattr(py_func, FAMILY_ATTRIBUTE)
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._family = family

        def get_cache_path(self) -> str:
            return self._family.directory

        def get_source_stamp(self) -> Any:
            return self._family.stamp

        def get_disambiguator(self) -> str:
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if getattr(py_func, FAMILY_ATTRIBUTE, None) is None:
                return None
            # The family checked that its directory is writable before asking for a cache;
            # never fall through to the package's locators from here.
            return cls(py_func, py_file)

    return NegamaxFamilyLocator


def _cache_impl_class(caching: Any) -> Any:
    # numba 0.60 names it _CacheImpl; later versions CacheImpl
    return getattr(caching, "CacheImpl", None) or caching._CacheImpl


def install() -> None:
    """Put the package's locators first in numba's list (idempotent)."""
    from numba.core import caching

    implementation = _cache_impl_class(caching)
    classes = implementation._locator_classes
    if any(getattr(locator, "negamax_package_locator", False) for locator in classes):
        return
    ours = [_family_locator(caching)]
    for base in classes:
        if issubclass(base, caching._SourceFileBackedLocatorMixin):
            locator = _package_locator(base)
            locator.negamax_package_locator = True
            ours.append(locator)
    # a new list: numba's class attribute is shared, and the user may hold it
    implementation._locator_classes = ours + list(classes)


def load_from_cache(dispatcher: Any, arguments: tuple[Any, ...]) -> bool | None:
    """Whether ``dispatcher``'s version for ``arguments`` is loaded now, after trying its disk
    cache (``False``: it must be compiled; ``None``: numba's internals could not tell).

    numba has no public call for "load, but do not compile": this mirrors the cache step of
    ``Dispatcher.compile`` (numba 0.60 to 0.68); where they differ, the answer is ``None``.
    """
    try:
        from numba import typeof
        from numba.core.compiler_lock import global_compiler_lock

        signature = tuple(typeof(argument) for argument in arguments)  # type: ignore[no-untyped-call]
        with global_compiler_lock:
            if dispatcher.overloads.get(signature) is not None:
                return True
            loaded = dispatcher._cache.load_overload(signature, dispatcher.targetctx)
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
    """``False`` if any function must be compiled, ``None`` if any could not be told, else ``True``."""
    if False in checks:
        return False
    return None if None in checks else True


_compiling = threading.local()


@contextlib.contextmanager
def compiling_allowed() -> Iterator[None]:
    """Within (in this thread), ``call_without_compiling`` compiles what is not on disk."""
    before = getattr(_compiling, "allowed", False)
    _compiling.allowed = True
    try:
        yield
    finally:
        _compiling.allowed = before


def call_without_compiling(dispatcher: Any, *arguments: Any) -> Any:
    """``dispatcher(*arguments)``, compiled if it is loaded or on disk (or within
    ``compiling_allowed()``), else run as plain Python (with every compiled function it
    calls run as Python too)."""
    if not getattr(_compiling, "allowed", False) and load_from_cache(dispatcher, arguments) is False:
        return _python_version(dispatcher)(*arguments)
    return dispatcher(*arguments)


_python_versions: dict[int, types.FunctionType] = {}


def _python_version(dispatcher: Any) -> types.FunctionType:
    """The compiled function as plain Python, calling the plain Python versions of the
    compiled functions it calls."""
    found = _python_versions.get(id(dispatcher))
    if found is not None:
        return found
    function = dispatcher.py_func
    namespace = dict(function.__globals__)
    version = types.FunctionType(function.__code__, namespace, function.__name__, function.__defaults__)
    _python_versions[id(dispatcher)] = version
    from numba.core.dispatcher import Dispatcher

    for name in function.__code__.co_names:
        value = namespace.get(name)
        if isinstance(value, Dispatcher):
            namespace[name] = _python_version(value)
    return version
