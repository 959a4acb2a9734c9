"""A game from outside the package is compiled into kernels of its own, cached apart from
the package's: its module can disappear and every built-in kernel still loads, and a script
run twice compiles once."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numba")

import negamax

GAME = '''
from negamax import ONGOING, WIN, CompiledGame


class TakeAway(CompiledGame):
    """Take 1, 2 or 3 stones; whoever takes the last one wins."""

    state_size = 1
    max_moves = 3

    @staticmethod
    def start(state):
        state[0] = 21

    @staticmethod
    def legal_moves(state, moves):
        count = 0
        for take in (3, 2, 1):
            if take <= state[0]:
                moves[count] = take
                count += 1
        return count

    @staticmethod
    def play(state, take):
        state[0] -= take

    @staticmethod
    def undo(state, take):
        state[0] += take

    @staticmethod
    def outcome(state):
        return -WIN if state[0] == 0 else ONGOING

    @staticmethod
    def evaluate(state):
        return 0

    @staticmethod
    def key(state):
        return state[0]


if __name__ == "__main__":
    from negamax import solve

    print(solve(TakeAway().new_position(), backend="compiled").score_text)
'''


def package_cache_files() -> list[Path]:
    """Every file numba may keep the package's kernels in (its own families' directories,
    and numba's places for the package's modules)."""
    from numba.core import config
    from numba.misc.appdirs import AppDirs

    from negamax.core import numba_cache

    places = [
        Path(negamax.__file__).parent,
        Path(AppDirs(appname="numba", appauthor=False).user_cache_dir),
        numba_cache.cache_root(),
    ]
    if config.CACHE_DIR:
        places.append(Path(config.CACHE_DIR))
    return [path for place in places if place.is_dir() for path in place.rglob("*.nb[ic]")]


def run(arguments: list[str], environment: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *arguments], capture_output=True, text=True, env=environment, cwd=cwd, timeout=600
    )


@pytest.mark.compiles
def test_a_deleted_game_module_leaves_the_package_kernels_loadable(tmp_path: Path) -> None:
    module_name = f"isolated_{uuid.uuid4().hex[:12]}"
    script = tmp_path / f"{module_name}.py"
    script.write_text(GAME)
    environment = {**os.environ, "NEGAMAX_CACHE_DIR": str(tmp_path / "games")}
    compiled = run([str(script)], environment, tmp_path)
    assert compiled.returncode == 0, compiled.stderr
    assert compiled.stdout.startswith("win in")  # 21 stones: take 1, leave a multiple of 4
    family = [path for path in (tmp_path / "games").rglob("*.nbi")]
    assert any(module_name in path.name for path in family), family
    package_files = [*package_cache_files(), *(tmp_path / "games").glob("kernels/package-*/**/*.nbi")]
    assert not any(module_name.encode() in path.read_bytes() for path in package_files)

    # the game's second run loads everything it compiled: no file is written again (the
    # directories' own times are renewed by each use, which keeps them from being cleaned up)
    def files() -> dict[Path, int]:
        return {path: path.stat().st_mtime_ns for path in (tmp_path / "games").rglob("*") if path.is_file()}

    written = files()
    again = run([str(script)], environment, tmp_path)
    assert again.returncode == 0 and again.stdout == compiled.stdout
    assert files() == written

    script.unlink()
    # the built-in kernels where this machine keeps them (usually loaded from disk by now)
    environment = {name: value for name, value in os.environ.items() if name != "NEGAMAX_CACHE_DIR"}
    solved = run(["-m", "negamax", "solve", "connect4", "44455554221", "--backend", "compiled"], environment, tmp_path)
    assert solved.returncode == 0, solved.stderr
    assert solved.stdout.split()[:2] == ["score", "-15"]


def test_two_versions_of_the_package_never_share_a_family_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # numba names a function's files by its line: versions sharing a directory would load
    # each other's machine code when they ran at once (engines of two builds played moves
    # of the side not to move)
    from negamax.core import numba_cache
    from negamax.search.compiled import families

    monkeypatch.setenv("NEGAMAX_CACHE_DIR", str(tmp_path))
    first = families._cache_location("move_list_kernel-Game", "game digest")
    monkeypatch.setattr(numba_cache, "package_digest", lambda: "another version of the package")
    second = families._cache_location("move_list_kernel-Game", "game digest")
    assert first is not None and second is not None
    assert first.directory != second.directory and first.stamp != second.stamp
    assert Path(first.directory).parent == Path(second.directory).parent == tmp_path / "kernels"


def test_family_directories_unused_for_a_month_are_removed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from negamax.search.compiled import families

    monkeypatch.setenv("NEGAMAX_CACHE_DIR", str(tmp_path))
    kernels = tmp_path / "kernels"
    old, recent = kernels / "move_list_kernel-Old-0123", kernels / "move_list_kernel-Recent-4567"
    for directory in (old, recent):
        directory.mkdir(parents=True)
        (directory / "kernel.nbi").write_bytes(b"index")
    month_ago = time.time() - (families.UNUSED_DAYS + 1) * 86400
    os.utime(old, (month_ago, month_ago))
    os.utime(recent, (time.time() - 86400, time.time() - 86400))
    # the directory about to be used is renewed first, however old it was
    used = families._cache_location("move_list_kernel-Game", "game digest")
    assert used is not None
    os.utime(used.directory, (month_ago, month_ago))
    again = families._cache_location("move_list_kernel-Game", "game digest")
    assert again is not None and again.directory == used.directory
    assert sorted(path.name for path in kernels.iterdir()) == sorted([recent.name, Path(used.directory).name])


RULES_ONLY = """
import importlib.util, sys
from negamax.search.compiled import families
spec = importlib.util.spec_from_file_location(sys.argv[2], sys.argv[1])
module = importlib.util.module_from_spec(spec)
sys.modules[sys.argv[2]] = module
spec.loader.exec_module(module)
rules = module.TakeAway().new_position().move_list_form()[0]
cache = families._cache_location(f"move_list_kernel-{rules.name}", families.rules_digest(rules))
families.compile_rules(rules.name, rules.rule_functions(), cache)
"""


def compile_rules_as(script: Path, module_name: str, environment: dict[str, str]) -> None:
    """Compile the game's rules alone (not the kernels: seconds, not tens of them) with the
    file loaded as ``module_name``, in a process of its own."""
    done = run(["-c", RULES_ONLY, str(script), module_name], environment, script.parent)
    assert done.returncode == 0, done.stderr


def test_a_game_file_imported_under_another_module_name_compiles_its_rules_again(tmp_path: Path) -> None:
    # numba's cached code imports its module by name when it loads: rules compiled for the
    # module name the command line gives a game file, then loaded by a script that imported
    # the file under its own name, raised ModuleNotFoundError
    environment = {**os.environ, "NEGAMAX_CACHE_DIR": str(tmp_path / "cache")}
    script = tmp_path / "take_away.py"
    # a global array: numba's cached code for it keeps its module's name
    game = GAME.replace("for take in (3, 2, 1):", "for take in TAKES:")
    script.write_text("import numpy as np\nTAKES = np.array([3, 2, 1])\n" + game)
    compile_rules_as(script, "negamax_game_take_away_1", environment)
    compile_rules_as(script, "take_away", environment)


def rules_taking_up_to(most: int, state_size: int = 1, max_moves: int = 8) -> object:
    """A take-away game's rules made for one largest take, held in their closure."""
    from negamax.games.compiled_game import GameRules

    def legal_moves(state: object, moves: object) -> int:
        count = 0
        for take in range(most, 0, -1):
            moves[count] = take  # type: ignore[index]
            count += 1
        return count

    return GameRules("TakeUpTo", state_size, max_moves, {"legal_moves": legal_moves})


def test_a_family_is_keyed_by_what_numba_compiles_not_by_the_sizes() -> None:
    from negamax.search.compiled import families

    digest = families.rules_digest
    # the sizes are the kernel's arguments: the same code and values, the same family
    same = digest(rules_taking_up_to(3, state_size=4, max_moves=9))  # type: ignore[arg-type]
    assert digest(rules_taking_up_to(3)) == same  # type: ignore[arg-type]
    # a value numba freezes (here in a closure, as a module's constant) is compiled in: its own family
    assert digest(rules_taking_up_to(3)) != digest(rules_taking_up_to(4))  # type: ignore[arg-type]


USER_RULES = """
def weight(state, side):
    # dear enough that LLVM's own cost model keeps it a call, as a real game's rules
    total = 0
    for square in range(state.shape[0]):
        total = (total * 31 + state[square] * (square + side + 3)) % 1000003
    for square in range(state.shape[0]):
        total ^= (state[square] >> (square % 5)) * (side + square % 7)
    return total


def evaluate(state):
    return weight(state, 0) - weight(state, 1)
"""

PLAIN_RULES = USER_RULES.replace("\ndef ", "\n@njit\ndef ")
"""The same rules compiled as any numba functions, in a module that implements nothing."""

USER_KERNEL = """
from numba import njit

rule = None


@njit
def evaluations(state, count):
    total = 0
    for number in range(count):
        state[0] = number
        total += rule(state)
        if total & 1:
            total -= rule(state)
    return total
"""


def test_a_games_rules_and_their_helpers_are_inlined_into_the_kernels(tmp_path: Path) -> None:
    import numpy as np

    from negamax.search.compiled import families
    from tests.core.test_compiled import calls, load

    try:
        rules: Any = load(tmp_path / "inlined_rules.py", "inlined_rules", USER_RULES)
        kernel: Any = load(tmp_path / "inlined_kernel.py", "inlined_kernel", USER_KERNEL)
        kernel.rule = families.compile_rules("Inlined", {"evaluate": rules.evaluate}, None)["evaluate"]
        state = np.arange(40, dtype=np.int64)
        expected = 0
        for number in range(50):
            state[0] = number
            expected += rules.evaluate(state)
            if expected & 1:
                expected -= rules.evaluate(state)
        assert kernel.evaluations(state, 50) == expected
        assert not calls(kernel.evaluations, "inlined_rules", "evaluate")
        assert not calls(kernel.evaluations, "inlined_rules", "weight")
        # the control: the same rule compiled as any numba function stays a call
        plain: Any = load(tmp_path / "plain_rules.py", "plain_rules", "from numba import njit\n" + PLAIN_RULES)
        control: Any = load(tmp_path / "plain_kernel.py", "plain_kernel", USER_KERNEL)
        control.rule = plain.evaluate
        assert control.evaluations(state, 50) == kernel.evaluations(state, 50)
        assert calls(control.evaluations, "plain_rules", "evaluate")
    finally:
        sys.modules.pop("inlined_rules", None)
        sys.modules.pop("inlined_kernel", None)
        sys.modules.pop("plain_rules", None)
        sys.modules.pop("plain_kernel", None)
