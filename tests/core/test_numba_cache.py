"""numba's cache must notice a change anywhere a kernel is built from, not only in the
kernel's own file (a stale cache once made CI compute with an old draughts evaluation)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numba")

from negamax.core import numba_cache


def write_package(root: Path) -> None:
    for subpackage in numba_cache.KERNEL_SOURCES:
        (root / subpackage).mkdir(parents=True)
        (root / subpackage / "module.py").write_text(f"VALUE = 1  # {subpackage}\n")
    (root / "cli").mkdir()
    (root / "cli" / "main.py").write_text("print('hello')\n")


def test_digest_changes_with_any_kernel_source_and_only_with_them(tmp_path: Path) -> None:
    write_package(tmp_path)
    before = numba_cache.sources_digest(tmp_path)
    (tmp_path / "cli" / "main.py").write_text("print('changed')\n")
    assert numba_cache.sources_digest(tmp_path) == before
    for subpackage in numba_cache.KERNEL_SOURCES:
        module = tmp_path / subpackage / "module.py"
        original = module.read_text()
        module.write_text(original.replace("1", "2"))
        assert numba_cache.sources_digest(tmp_path) != before, subpackage
        module.write_text(original)
        assert numba_cache.sources_digest(tmp_path) == before
    (tmp_path / "games" / "new_game.py").write_text("")
    assert numba_cache.sources_digest(tmp_path) != before


def test_kernels_and_game_primitives_are_stamped_with_the_package_digest() -> None:
    from negamax.games.connect4 import compiled as connect4_compiled
    from negamax.games.draughts import compiled as draughts_compiled
    from negamax.search.compiled import families, move_list_kernel, placement_kernel

    digest = numba_cache.sources_digest(numba_cache.PACKAGE_ROOT)
    locator = draughts_compiled.generate._cache._impl.locator
    assert type(locator).negamax_package_locator and locator.get_source_stamp()[1] == digest
    for module, spec in ((placement_kernel, connect4_compiled.SPEC), (move_list_kernel, draughts_compiled.SPEC)):
        kernels, _ = families.kernels_for(module, spec)
        for name in ("solve", "search") if module is placement_kernel else ("search",):
            if hasattr(kernels.module, name):
                family_locator = getattr(kernels, name)._cache._impl.locator
                assert family_locator.get_source_stamp().startswith(digest)


def test_other_code_keeps_numba_default_locators(tmp_path: Path) -> None:
    import importlib.util

    from numba.core import caching

    numba_cache.install()
    numba_cache.install()
    classes = numba_cache._cache_impl_class(caching)._locator_classes
    assert sum(1 for locator in classes if getattr(locator, "negamax_package_locator", False)) >= 2
    module_path = tmp_path / "user_module.py"
    module_path.write_text("from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n")
    spec = importlib.util.spec_from_file_location("user_module", module_path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.twice(21) == 42
    assert not getattr(type(module.twice._cache._impl.locator), "negamax_package_locator", False)


def test_a_function_not_on_disk_runs_as_python_unless_compiling_is_allowed() -> None:
    from numba import njit

    @njit
    def twice(value: int) -> int:
        return 2 * value

    assert numba_cache.call_without_compiling(twice, 21) == 42
    assert not twice.overloads  # ran as Python: nothing compiled
    with numba_cache.compiling_allowed():
        assert numba_cache.call_without_compiling(twice, 21) == 42
    assert twice.overloads
