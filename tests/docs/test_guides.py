"""The guides run exactly as written: their code blocks make one module (a file, as a
user's would be), and their interactive examples run against it as doctests."""

from __future__ import annotations

import doctest
import importlib.util
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def run_guide(path: Path, module_directory: Path) -> doctest.TestResults:
    text = path.read_text()
    blocks = [(match.group(1), text.count("\n", 0, match.start()) + 2) for match in BLOCK.finditer(text)]
    code = "\n\n".join(block for block, _ in blocks if not block.lstrip().startswith(">>>"))
    name = path.stem.replace("-", "_")
    module_file = module_directory / f"{name}.py"
    module_file.write_text(code)
    spec = importlib.util.spec_from_file_location(name, module_file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
        parser = doctest.DocTestParser()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        globs = dict(vars(module))  # shared by the examples, in order, as in one session
        for block, line in blocks:
            if block.lstrip().startswith(">>>"):
                example = parser.get_doctest(block, globs, f"{path.name}:{line}", str(path), line)
                runner.run(example, clear_globs=False)
                globs.update(example.globs)  # a DocTest works on a copy
        return runner.summarize(verbose=False)
    finally:
        del sys.modules[name]


@pytest.mark.compiles
def test_the_your_own_game_guide_runs_as_written(tmp_path: Path) -> None:
    results = run_guide(ROOT / "docs" / "your-own-game.md", tmp_path)
    assert results.attempted > 10 and results.failed == 0


def test_the_monte_carlo_guide_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # it names examples/hex.py as a user in the repository would
    results = run_guide(ROOT / "docs" / "mcts.md", tmp_path)
    assert results.attempted >= 4 and results.failed == 0
