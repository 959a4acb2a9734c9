"""Kernels compiled and cached for one game each.

numba compiles a kernel once per spec type and keeps every compiled version of a function
in one cache index, which it reads whole. Had every game been compiled into one set of
kernels, that index would name every game's types: loading chess's kernel would import
draughts (and py-draughts), and once a user's game was in it, every built-in kernel would
fail to load wherever the user's module cannot be imported. So each game gets a *family*:
copies of every compiled function of a kernel module, sharing one namespace in which the
copies call each other, compiled for that game alone and cached in a directory of its own
(``cache_root()``), stamped with digests of the package and of the game's code.

Two kinds of game:

* a spec type (the built-in games, or another package's) whose primitives are registered
  with ``negamax.core.compiled.implements``: the family's copies call the same stubs,
  which numba resolves by the spec's type;
* rules written as plain functions (``negamax.CompiledGame``, the ``CompiledRules``
  protocol): the family's copies call adapters (``move_list_bindings``) in place of the
  stubs, and the adapters call the rules, which are compiled here too, with every plain
  function of the game's module they call. Rules of the same code (``rules_digest``)
  share one family: the sizes of a game with parameters, whose rules read the parameters
  from the state, and whose most moves the kernel is passed as its spec.

Importing this module imports numba.
"""

from __future__ import annotations

import builtins
import hashlib
import os
import re
import shutil
import sys
import tempfile
import threading
import time
import types
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, cast

import numba
import numpy as np
from numba.core.dispatcher import Dispatcher

from negamax.core import numba_cache
from negamax.core.compiled import inline_into_kernels
from negamax.core.errors import GameDefinitionError
from negamax.core.game import CompiledRules
from negamax.search.compiled import move_list_bindings, move_list_kernel
from negamax.search.compiled import move_list_layout as layout

PACKAGE_PREFIX = "negamax."
UNUSED_DAYS = 30
"""A family directory no process has used for this long (an older version's, or a game's
since edited) is removed when another is made: each holds a few megabytes, and every
upgrade or edit starts new ones."""
STATE = numba.types.int64[::1]
RULE_SIGNATURES: dict[str, tuple[Any, ...]] = {
    "legal_moves": (STATE, STATE),
    "noisy_moves": (STATE, STATE),
    "play": (STATE, numba.types.int64),
    "undo": (STATE, numba.types.int64),
    "outcome": (STATE,),
    "evaluate": (STATE,),
    "key": (STATE,),
    "canonical_key": (STATE,),
    "player": (STATE,),
    "playout": (STATE, STATE),
}
RETURNS_INTEGER = frozenset(
    ("legal_moves", "noisy_moves", "outcome", "evaluate", "key", "canonical_key", "player", "playout")
)


def cache_root() -> Path:
    """Where games' kernels are cached: ``kernels`` in negamax's cache directory
    (``negamax.core.numba_cache.cache_root``), one directory a game and version."""
    return numba_cache.cache_root() / "kernels"


class KernelFamily:
    """Copies of a kernel module's compiled functions, bound to one game.

    Attributes are the copies where the module has a compiled function of that name, and
    the module's own values otherwise (its constants).
    """

    def __init__(
        self,
        module: types.ModuleType,
        replacements: Mapping[str, Any],
        cache: numba_cache.FamilyCache | None,
    ) -> None:
        self.module = module
        self.cache = cache
        # a kernel cut into modules by idea names them (KERNEL_PARTS): their functions are
        # copied into the same namespace, so that every call among them reaches a copy
        parts = (*kernel_parts(module), module)
        namespace: dict[str, Any] = {}
        for part in parts:
            namespace.update(vars(part))
        namespace.update(replacements)
        self._functions: dict[str, Dispatcher] = {}
        for part in parts:
            for name, dispatcher in _compiled_functions(part):
                copy = _copy_function(cast(types.FunctionType, dispatcher.py_func), namespace, cache)
                options = {key: value for key, value in dispatcher.targetoptions.items() if key != "nopython"}
                jitted = numba.njit(cache=cache is not None, **options)(copy)
                namespace[name] = jitted
                self._functions[name] = jitted

    def __getattr__(self, name: str) -> Any:
        functions = self.__dict__.get("_functions", {})
        if name in functions:
            return functions[name]
        return getattr(self.__dict__["module"], name)


def kernel_parts(module: types.ModuleType) -> tuple[types.ModuleType, ...]:
    """The other modules whose compiled functions make up ``module``'s kernel (its
    ``KERNEL_PARTS``). Their names must not clash: the family's copies share one namespace."""
    parts: tuple[types.ModuleType, ...] = getattr(module, "KERNEL_PARTS", ())
    return parts


_families: dict[Any, KernelFamily] = {}
_families_lock = threading.Lock()
_family_locks: dict[Any, threading.Lock] = {}
_rules_keys: dict[tuple[str, CompiledRules], Any] = {}
"""Each rules object's family key (its digest), made once: the rules themselves are the
key here, as an id could be reused."""


def kernels_for(module: types.ModuleType, spec: Any) -> tuple[Any, Any]:
    """The kernels of ``module`` to run a game with ``spec`` on, and the spec to pass them:
    a family of the game's own, whether it is built in or not, so that loading one game's
    kernel never reads (nor imports the modules of) another game's entries. Specs of one
    type share a family, each with its own values (board sizes); rules of one code share
    one, each with its own most moves (the spec the kernel is passed)."""
    if isinstance(spec, CompiledRules):
        key = _rules_keys.get((module.__name__, spec))
        if key is None:
            key = _rules_keys.setdefault((module.__name__, spec), (module.__name__, rules_digest(spec)))
        family = _family(key, lambda: _rules_family(module, spec, key[1]))
        return family, min(spec.max_moves, layout.MAX_MOVES)
    return _family((module.__name__, type(spec)), lambda: _typed_family(module, spec)), spec


def _family(key: Any, make: Callable[[], KernelFamily]) -> KernelFamily:
    found = _families.get(key)
    if found is None:
        with _families_lock:
            lock = _family_locks.setdefault(key, threading.Lock())
        with lock:  # one family at a time is made, without holding up the others (compiling rules takes seconds)
            found = _families.get(key)
            if found is None:
                found = _families[key] = make()
    return found


def family_count() -> int:
    """How many families this process has made (each compiled, or loaded from the disk cache)."""
    return len(_families)


def _typed_family(module: types.ModuleType, spec: Any) -> KernelFamily:
    spec_type = type(spec)
    name = f"{spec_type.__module__}.{spec_type.__qualname__}"
    digest = hashlib.sha256(name.encode())
    # the package's own games change with the package (its digest is in every stamp);
    # another package's, with the modules of the spec and of every primitive registered for it
    if not spec_type.__module__.startswith(PACKAGE_PREFIX):
        from negamax.core.compiled import implementation_modules

        for source in sorted({spec_type.__module__, *implementation_modules.get(spec_type, ())}):
            digest.update(source.encode() + b"\0" + _module_source(source))
    location = _cache_location(f"{module.__name__.rpartition('.')[2]}-{name}", digest.hexdigest())
    return KernelFamily(module, {}, location)


def _rules_family(module: types.ModuleType, rules: CompiledRules, digest: str) -> KernelFamily:
    if module is not move_list_kernel and not getattr(module, "KERNEL_FOR_RULES", False):
        raise GameDefinitionError(f"{rules.name}: games written as rules run on the move-list search only")
    cache = _cache_location(f"{module.__name__}-{rules.name}", digest)
    jitted = compile_rules(rules.name, rules.rule_functions(), cache)
    return KernelFamily(module, bind_rules(jitted, cache), cache)


def compile_rules(
    name: str, functions: Mapping[str, Callable[..., Any]], cache: numba_cache.FamilyCache | None
) -> dict[str, Dispatcher]:
    """Each rule compiled for its signature, with every plain function of its module it
    calls; a rule numba cannot compile, or of the wrong kind, raises ``GameDefinitionError``
    naming it."""
    done: dict[int, Any] = {}
    jitted: dict[str, Dispatcher] = {}
    for rule, function in functions.items():
        # as a built-in game's primitives: inlined where the kernel calls them, with their
        # module's helpers (before they compile: the mark goes on the code numba links)
        inline_into_kernels(getattr(function, "py_func", function).__module__)
        dispatcher = _jit_with_helpers(function, cache, done)
        signature = RULE_SIGNATURES[rule]
        try:
            dispatcher.compile(signature)
        except numba.core.errors.NumbaError as error:
            raise GameDefinitionError(
                f"{name}.{rule} cannot be compiled: {condensed_numba_error(str(error))}{compile_hint(str(error))}"
            ) from None
        returned = dispatcher.overloads[signature].signature.return_type
        if rule in RETURNS_INTEGER and not isinstance(returned, (numba.types.Integer, numba.types.Boolean)):
            raise GameDefinitionError(f"{name}.{rule} must return an integer; it returns {returned}")
        jitted[rule] = dispatcher
    return jitted


def bind_rules(jitted: Mapping[str, Dispatcher], cache: numba_cache.FamilyCache | None) -> dict[str, Dispatcher]:
    """The kernel's stubs, each an adapter calling the compiled rules (the game's most
    moves come as the spec, not compiled in: every size of a game shares the adapters)."""
    namespace = dict(vars(move_list_bindings))
    inline_into_kernels(move_list_bindings.__name__)  # the adapters, with the rules
    for helper in move_list_bindings.HELPERS:
        copy = _copy_function(getattr(move_list_bindings, helper), namespace, cache)
        namespace[helper] = numba.njit(cache=cache is not None, nogil=True)(copy)
    namespace.update(
        {
            "rules_legal_moves": jitted["legal_moves"],
            "rules_noisy_moves": jitted.get("noisy_moves", namespace["no_noisy_moves"]),
            "rules_play": jitted["play"],
            "rules_undo": jitted["undo"],
            "rules_outcome": jitted["outcome"],
            "rules_evaluate": jitted["evaluate"],
            "rules_key": jitted.get("canonical_key", jitted["key"]),
            "rules_exact_key": jitted["key"],
            "rules_player": jitted.get("player", namespace["players_alternate"]),
            "rules_playout": jitted.get("playout", namespace["no_playout"]),
        }
    )
    bound: dict[str, Dispatcher] = {}
    for stub in move_list_bindings.STUBS:
        function = getattr(move_list_bindings, stub)
        copy = _copy_function(function, namespace, cache)
        # no reference counts, as the kernels: the move list handed to the rules is a
        # slice of the search's array, which numba would otherwise count at every node
        options: dict[str, Any] = {"cache": cache is not None, "nogil": True, "_nrt": False}
        bound[stub] = numba.njit(**options)(copy)
        namespace[stub] = bound[stub]
    return bound


def rules_digest(rules: CompiledRules) -> str:
    """A digest of the rules' code, the plain functions they call and the values numba
    freezes into the compiled code (the module constants and closure variables they read):
    the game's part of its kernels' cache stamp, and the key of the family its sizes
    share. Not of the sizes, which the compiled code never sees (the state's length and
    the most moves are the kernel's arguments)."""
    digest = hashlib.sha256()
    seen: set[int] = set()
    for rule, function in sorted(rules.rule_functions().items()):
        digest.update(rule.encode())
        _digest_function(function, digest, seen)
    return digest.hexdigest()


def _digest_function(function: Any, digest: Any, seen: set[int]) -> None:
    function = getattr(function, "py_func", function)
    if id(function) in seen:
        return
    seen.add(id(function))
    # numba's cached code imports the function's module by name when it loads: the same
    # code under another module name (a file loaded as a module of its own by the CLI, and
    # imported by a script) needs a cache of its own
    digest.update(f"{function.__module__}\0".encode())
    _digest_code(function.__code__, digest)
    for name in sorted(_global_names(function.__code__)):
        _digest_value(name, function.__globals__.get(name), function, digest, seen)
    # a rule made by a function for one size (def rules(size): ... return legal_moves)
    # has the size in its closure, which numba freezes as it freezes a global
    cells = zip(function.__code__.co_freevars, function.__closure__ or (), strict=True)
    for name, cell in cells:
        try:
            value = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        _digest_value(name, value, function, digest, seen)


def _digest_value(name: str, value: Any, function: Any, digest: Any, seen: set[int]) -> None:
    if _is_helper(value, function):
        _digest_function(value, digest, seen)
    elif isinstance(value, np.ndarray):
        digest.update(f"{name}:{value.dtype}:{value.shape}".encode() + value.tobytes())
    elif isinstance(value, types.ModuleType) and not _is_library(value):
        digest.update(name.encode() + b"\0" + _module_source(value.__name__))  # a rule reads cfg.SIZE
    elif isinstance(value, (bool, int, float, str, tuple, np.generic)):
        digest.update(f"{name}={value!r}".encode())


def _digest_code(code: types.CodeType, digest: Any) -> None:
    """What a function's code does, and where it starts (numba names its cache files by
    line), but not which file holds it: the same module from another copy of the file
    finds the same cache."""
    digest.update(code.co_code)
    digest.update(repr((code.co_names, code.co_varnames, code.co_freevars, code.co_firstlineno)).encode())
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            _digest_code(constant, digest)
        else:
            digest.update(repr(constant).encode())


def _jit_with_helpers(function: Any, cache: numba_cache.FamilyCache | None, done: dict[int, Any]) -> Any:
    """``function`` compiled, with every plain function of its module that it calls."""
    if isinstance(function, Dispatcher):
        return function  # compiled by the user already, with the user's own options
    if id(function) in done:
        return done[id(function)]
    namespace = dict(function.__globals__)
    copy = _copy_function(function, namespace, cache)
    jitted = numba.njit(cache=cache is not None, nogil=True)(copy)
    done[id(function)] = jitted
    for name in _global_names(function.__code__):
        value = function.__globals__.get(name)
        if _is_helper(value, function):
            namespace[name] = _jit_with_helpers(value, cache, done)
    return jitted


def _is_helper(value: Any, caller: Any) -> bool:
    """A plain function defined in the caller's module (or compiled from one by the user)."""
    if isinstance(value, Dispatcher):
        return True
    return isinstance(value, types.FunctionType) and value.__module__ == caller.__module__


def _global_names(code: types.CodeType) -> Iterator[str]:
    yield from code.co_names
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from _global_names(constant)


def _copy_function(
    function: types.FunctionType, namespace: dict[str, Any], cache: numba_cache.FamilyCache | None
) -> types.FunctionType:
    copy = types.FunctionType(
        function.__code__, namespace, function.__name__, function.__defaults__, function.__closure__
    )
    copy.__qualname__ = function.__qualname__
    copy.__module__ = function.__module__
    copy.__doc__ = function.__doc__
    setattr(copy, numba_cache.FAMILY_ATTRIBUTE, cache)
    return copy


def _compiled_functions(module: types.ModuleType) -> Iterator[tuple[str, Dispatcher]]:
    for name, value in vars(module).items():
        if isinstance(value, Dispatcher) and value.py_func.__module__ == module.__name__:
            yield name, value


def _is_library(module: types.ModuleType) -> bool:
    """numpy, numba, the standard library, negamax itself: not the game's own code."""
    root = module.__name__.partition(".")[0]
    return root in ("numpy", "numba", "negamax", "math", "cmath") or root in sys.stdlib_module_names


def _module_source(module_name: str) -> bytes:
    module = sys.modules.get(module_name)
    path = getattr(module, "__file__", None)
    if path is None:
        return module_name.encode()
    try:
        return Path(path).read_bytes()
    except OSError:
        return module_name.encode()


def _cache_location(name: str, digest: str) -> numba_cache.FamilyCache | None:
    """The family's cache directory, or ``None`` (compile in memory only) when it cannot
    be written."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:80]
    # A directory per version of the package, not only per game: numba names a function's
    # files by its line, and reads an index and then the data file it names without
    # checking that they belong together. Two versions running at once (two installs, or
    # a checkout being edited) would otherwise overwrite each other's files between those
    # two reads and load one version's machine code for the other.
    stamp = f"{numba_cache.package_digest()}:{digest}"
    directory = cache_root() / f"{safe}-{hashlib.sha256(stamp.encode()).hexdigest()[:16]}"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=directory).close()
        os.utime(directory)  # used now: see UNUSED_DAYS
    except OSError:
        return None
    remove_unused_families(directory.parent)
    return numba_cache.FamilyCache(str(directory), stamp)


def remove_unused_families(root: Path, days: float = UNUSED_DAYS) -> list[Path]:
    """Removes the family directories under ``root`` that no process has used for ``days``
    (their modification time, renewed at each use); returns them."""
    oldest = time.time() - days * 86400
    removed: list[Path] = []
    try:
        directories = [entry for entry in root.iterdir() if entry.is_dir()]
    except OSError:
        return removed
    for directory in directories:
        try:
            unused = directory.stat().st_mtime < oldest
        except OSError:
            continue
        if unused:
            shutil.rmtree(directory, ignore_errors=True)
            removed.append(directory)
    return removed


def compile_hint(message: str) -> str:
    """What to do about the usual reasons numba gives for a game's rule (empty if none)."""
    found = re.search(r"Untyped global name '([^']+)'", message)
    if found is None:
        return ""
    name = found.group(1)
    if hasattr(builtins, name):
        return f"; numba cannot call the built-in {name}(): write it with integer operations"
    return (
        f"; {name} is not a plain function of the game's own module: a rule may call such functions"
        " (compiled with it), functions you compiled with numba.njit, and module-level constants"
        " (integers, NumPy arrays)"
    )


def condensed_numba_error(message: str) -> str:
    """numba's typing error cut to what a game author needs: its first sentence and where."""
    plain = re.sub(r"\x1b\[[0-9;]*m", "", message)
    lines = [line.strip() for line in plain.splitlines() if line.strip()]
    first = next((line for line in lines if not line.startswith(("-", "During:", "No implementation"))), "")
    if first.startswith("Failed in nopython mode pipeline"):
        first = next((line for line in lines[1:] if not line.startswith(("During:", "-"))), first)
    where = next((line for line in lines if line.startswith("File ")), "")
    found = re.search(r'File "([^"]+)", line (\d+)', where)
    located = f" ({Path(found.group(1)).name}, line {found.group(2)})" if found else ""
    return (first or "numba could not compile it") + located
