"""The package's layers, read from its source: imports only point downwards, and searching is
owned by ``negamax.search`` alone (no front end builds or imports a compiled searcher)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "negamax"
FRONT_ENDS = ("cli", "viz", "engines", "parallel")
LAYER = {"core": 0, "search": 1, "games": 1, "engines": 2, "viz": 2, "parallel": 2, "cli": 3}
"""A module may import its own subpackage and any of a lower layer; search and games are
side by side and never import each other; the command line is a shell over the rest."""
ALLOWED = {("search/warmup.py", "negamax.games")}
"""The one import across: the process that compiles kernels turns a game's name into the
game with the registry, imported there and nowhere else in ``search``."""


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def imported(path: Path) -> list[str]:
    """Every module ``path`` imports, at any depth of its code (lazy imports included)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return [name for name in names if name.startswith("negamax")]


def subpackage(path: Path) -> str | None:
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 else None


@pytest.mark.parametrize("path", modules(), ids=lambda path: str(path.relative_to(PACKAGE)))
def test_imports_point_downwards(path: Path) -> None:
    own = subpackage(path)
    if own is None:
        return  # the package's top: it may use everything
    for name in imported(path):
        parts = name.split(".")
        if len(parts) < 2 or parts[1] not in LAYER or parts[1] == own:
            continue
        where = path.relative_to(PACKAGE).as_posix()
        assert LAYER[parts[1]] < LAYER[own] or (where, name) in ALLOWED, f"{where} imports {name}"


def test_no_front_end_reaches_into_the_compiled_searches() -> None:
    for front in FRONT_ENDS:
        for path in (PACKAGE / front).rglob("*.py"):
            source = path.read_text()
            assert not any(name.startswith("negamax.search.compiled") for name in imported(path)), path
            for built in ("CompiledSolver(", "CompiledSearcher("):
                assert built not in source, f"{path.relative_to(PACKAGE)} builds a {built[:-1]}"


def test_compiled_searchers_are_built_only_in_search() -> None:
    for path in modules():
        if subpackage(path) == "search":
            continue
        source = path.read_text()
        assert "CompiledSolver(" not in source and "CompiledSearcher(" not in source, path


ARCHITECTURE = PACKAGE.parents[1] / "docs" / "architecture.md"


def test_the_architecture_page_names_every_module_and_data_file() -> None:
    page = ARCHITECTURE.read_text()
    files = [*modules(), *PACKAGE.rglob("*.npz")]
    unnamed = [
        path.relative_to(PACKAGE).as_posix()
        for path in files
        if path.name not in ("__init__.py", "__main__.py") and path.name not in page
    ]
    assert not unnamed, f"docs/architecture.md does not name {', '.join(unnamed)}"


def test_the_architecture_page_names_the_one_import_across() -> None:
    page = " ".join(ARCHITECTURE.read_text().split())
    for where, name in ALLOWED:
        assert f"`{where}`" in page and f"`{name}`" in page, (where, name)
