"""A game that breaks the library's contract, met by a command: one line naming the
mistake, exit status 2, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from negamax import SearchLimits, search
from negamax.cli.main import main
from negamax.core.errors import GameDefinitionError
from negamax.games.plugins import load_reference


@pytest.mark.parametrize(
    "arguments",
    [
        ["solve", "tests.core.test_keys:PartisanGame"],
        ["analyze", "tests.core.test_keys:PartisanGame", "--depth", "4", "--algorithm", "mtdf"],
    ],
)
def test_a_key_that_confuses_positions_is_one_line_and_exit_2(
    arguments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(arguments) == 2
    stderr = capsys.readouterr().err
    assert stderr.startswith("negamax: error: key() gave 7 to two positions a search must tell apart"), stderr
    assert len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr


BROKEN = Path(__file__).resolve().parents[1] / "data" / "broken_games.py"


def line_of(text: str) -> int:
    """The line of ``broken_games.py`` that holds ``text``."""
    return next(number for number, line in enumerate(BROKEN.read_text().splitlines(), 1) if text in line)


NAMED = [
    ("RaisesKey", "RaisesKey.legal_moves raised KeyError('boom') (broken_games.py:{})", 'table["boom"]'),
    (
        "Recurses",
        "Recurses.evaluate raised RecursionError('maximum recursion depth exceeded') (broken_games.py:{})",
        "return self.evaluate()",
    ),
    (
        "AssertsInUndo",
        "AssertsInUndo.undo raised AssertionError('undo cannot restore') (broken_games.py:{})",
        "assert self.stones",
    ),
    (
        "UnhashableKey",
        "UnhashableKey.key (broken_games.py:{}) returned a list, which is not hashable",
        "def key(self):\n        return [",
    ),
]


def _expected(template: str, marker: str) -> str:
    if "\n" in marker:  # a method's first line
        text = BROKEN.read_text()
        return template.format(text[: text.index(marker)].count("\n") + 1)
    return template.format(line_of(marker))


@pytest.mark.parametrize(("name", "template", "marker"), NAMED)
@pytest.mark.parametrize("command", [["analyze", "--depth", "4"], ["solve"]])
def test_an_exception_of_the_users_code_names_the_method_and_line(
    name: str, template: str, marker: str, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 72, finding 6: "internal error" before, with neither the method nor the line."""
    arguments = [command[0], f"{BROKEN}:{name}", *command[1:]]
    assert main(arguments) == 2
    stderr = capsys.readouterr().err
    assert stderr.startswith(f"negamax: error: {_expected(template, marker)}"), stderr
    assert len(stderr.strip().splitlines()) == 1 and "internal error" not in stderr


@pytest.mark.parametrize(("name", "template", "marker"), NAMED)
def test_the_api_raises_a_game_definition_error_naming_the_method(name: str, template: str, marker: str) -> None:
    game = load_reference(f"{BROKEN}:{name}")
    with pytest.raises(GameDefinitionError) as raised:
        search(game.new_position(None), SearchLimits(depth=3), backend="python")
    assert str(raised.value).startswith(_expected(template, marker))


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("RaisesKey", "RaisesKey.legal_moves raised KeyError('boom') (broken_games.py:{})"),
        ("MutatingEvaluate", "MutatingEvaluate.evaluate (broken_games.py:{}) changed the position it was asked about"),
        ("UnhashableKey", "UnhashableKey.key (broken_games.py:{}) returned list, which is not hashable"),
    ],
)
def test_check_names_the_method_as_a_search_does(name: str, expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``negamax check`` ended in "internal error" on a raising legal_moves, and called an
    evaluate that changes the position "copy() shares its state"."""
    assert main(["check", f"{BROKEN}:{name}", "--games", "5"]) == 1
    out = capsys.readouterr().out
    method = expected.split(" ")[0].split(".")[1]
    if "raised" in expected:
        line = line_of('table["boom"]')
    else:
        text = BROKEN.read_text()
        start = text.index(f"class {name}")
        line = text[: text.index(f"def {method}(", start)].count("\n") + 1
    assert f"  - {expected.format(line)}" in out, out
    assert "shares its state" not in out
