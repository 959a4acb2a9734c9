"""The compiled protocols' registry (``negamax.core.compiled``): a game's implementations
end up inside the kernels that call them."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numba")

REFLECTION = """
@njit
def wide_reflection(spec, mask):
    # A helper of the implementation, as draughts' play is (inlined with it), and as dear.
    reflected = 0
    for column in range(spec.width):
        reflected |= ((mask >> (column * 7)) & 127) << ((spec.width - 1 - column) * 7)
    for row in range(spec.height):
        reflected = (reflected * 29 + spec.columns[(row * 3) % 15]) % (2 ** spec.key_bits - 3)
    for column in range(spec.width):
        reflected ^= (spec.columns[column] >> (column % 5)) * (mask % (column + 7))
    return reflected
"""

PLAIN_MODULE = "from numba import njit\n" + REFLECTION

GAME_MODULE = (
    '''
from typing import NamedTuple

from numba import njit

from negamax.core import compiled
from negamax.core.compiled import implements


class WideSpec(NamedTuple):
    """Many fields, as a sized Connect 4 board's spec has: a call passes every one."""

    width: int
    height: int
    key_bits: int
    columns: tuple[int, int, int, int, int, int, int, int, int, int, int, int, int, int, int]

'''
    + REFLECTION
    + """

@implements(compiled.position_key, WideSpec)
def wide_key(spec, current, mask):
    # Loops the spec bounds, as Connect 4's sized keys have: too dear for LLVM's own choice.
    reflected = wide_reflection(spec, mask) ^ wide_reflection(spec, current)
    for column in range(spec.width):
        if (current >> column) & 1:
            reflected ^= spec.columns[column] * (column + 3)
        else:
            reflected += (mask >> column) % (column + 2)
    for row in range(spec.height):
        reflected = (reflected * 31 + spec.columns[row % 15]) % (2 ** spec.key_bits - 1)
    return min(current + mask, reflected)
"""
)

KERNEL_MODULE = """
from numba import njit

import wide_plain
from negamax.core import compiled


@njit
def reflections_of(spec, count):
    total = 0
    for position in range(count):
        total += wide_plain.wide_reflection(spec, position)
        if total & 1:
            total -= wide_plain.wide_reflection(spec, total & 1023)
    return total


@njit
def keys_of(spec, count):
    total = 0
    for position in range(count):
        total += compiled.position_key(spec, position, position * 3)
        if total & 1:
            total += compiled.position_key(spec, total & 1023, position)
        else:
            total -= compiled.position_key(spec, position, total & 1023)
    return total
"""


def calls(kernel: Any, module: str, name: str) -> bool:
    """Whether ``kernel``'s code (its first signature's) calls ``module``'s ``name``."""
    code = kernel.inspect_llvm(kernel.signatures[0])
    return re.search(rf'call [^\n]*@"?_ZN{len(module)}{module}{len(name)}{name}', code) is not None


def load(path: Path, name: str, source: str) -> object:
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # numba looks the module up by name to compile from it
    spec.loader.exec_module(module)
    return module


def test_a_games_implementation_and_its_helpers_are_inlined_into_the_kernel(tmp_path: Path) -> None:
    game: object = load(tmp_path / "wide_game.py", "wide_game", GAME_MODULE)
    load(tmp_path / "wide_plain.py", "wide_plain", PLAIN_MODULE)
    kernel: object = load(tmp_path / "wide_kernel.py", "wide_kernel", KERNEL_MODULE)
    try:
        spec = game.WideSpec(7, 6, 49, tuple(range(15)))  # type: ignore[attr-defined]
        keys_of = kernel.keys_of  # type: ignore[attr-defined]
        key = game.wide_key  # type: ignore[attr-defined]
        total = 0
        for position in range(100):  # the kernel's sums, in Python
            total += key(spec, position, position * 3)
            if total & 1:
                total += key(spec, total & 1023, position)
            else:
                total -= key(spec, position, total & 1023)
        assert keys_of(spec, 100) == total
        code = keys_of.inspect_llvm(keys_of.signatures[0])
        defined = re.findall(r"^define .*$", code, flags=re.MULTILINE)
        assert any("wide_kernel" in line and "keys_of" in line for line in defined)
        assert not calls(keys_of, "wide_game", "wide_key") and not calls(keys_of, "wide_game", "wide_reflection")
        # the control: the same helper in a module that implements nothing stays a call
        reflections_of = kernel.reflections_of  # type: ignore[attr-defined]
        reflections_of(spec, 50)
        assert calls(reflections_of, "wide_plain", "wide_reflection")
    finally:
        sys.modules.pop("wide_game", None)
        sys.modules.pop("wide_plain", None)
        sys.modules.pop("wide_kernel", None)
