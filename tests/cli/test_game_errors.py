"""A game that breaks the library's contract, met by a command: one line naming the
mistake, exit status 2, no traceback."""

from __future__ import annotations

import pytest

from negamax.cli.main import main


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
