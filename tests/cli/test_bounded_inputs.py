"""Every input bounded (issue 72, findings 5 and 7): a position or a game's name of any
size is refused in one short line, and a command that could run without end says when
it gives up."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from negamax.cli.main import main
from negamax.engines.session import clipped

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_thirty_thousand_heaps_are_refused_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    """30,000 heaps grew by 70 MB a second until MemoryError, deaf to Ctrl-C."""
    assert main(["solve", "nim", ",".join(["3"] * 30_000)]) == 2
    err = capsys.readouterr().err
    assert err.endswith("30,000 heaps; at most 100\n") and len(err) < 200, err


def test_a_nim_too_large_to_solve_is_refused_without_a_limit_and_searched_with_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    heaps = ",".join(["3"] * 30)  # 4**30 states
    assert main(["solve", "nim", heaps]) == 2
    assert "cannot be solved exactly here" in capsys.readouterr().err
    assert main(["solve", "nim", heaps, "--nodes", "2000"]) == 0
    capsys.readouterr()
    assert main(["solve", "nim", "3,4,5"]) == 0  # a small one is solved as before
    assert "win in" in capsys.readouterr().out


def test_compare_of_a_game_too_big_to_finish_gives_up_at_its_node_limit(capsys: pytest.CaptureFixture[str]) -> None:
    """``compare kalah.py:Kalah`` ran plain negamax without a limit, silent for 10 minutes."""
    assert main(["compare", f"{EXAMPLES / 'kalah.py'}:Kalah", "--nodes", "20000"]) == 2
    captured = capsys.readouterr()
    assert captured.out.startswith("algorithm")
    assert captured.err.startswith("negamax: error: negamax did not search to the end within 20,000 nodes ("), captured
    assert "give a --depth" in captured.err


def test_compare_still_compares_what_fits(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "tictactoe"]) == 0
    assert "every algorithm finds the same value (0)" in capsys.readouterr().out


def test_a_huge_game_name_is_not_echoed_whole(capsys: pytest.CaptureFixture[str]) -> None:
    """A 120 KB game name came back whole in the error line."""
    assert main(["solve", "x.py:" + "x" * 120_000]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) <= 520 and "[...119,537 characters...]" in err, len(err)


@pytest.mark.parametrize("text", ["3_2-2_8", "\u0663\u0662-\u0662\u0668", "32-28\x00"])
def test_hub_reads_only_ascii_digits(text: str) -> None:
    """HUB took ``3_2-2_8`` and Arabic-Indic digits for 32-28."""
    pytest.importorskip("draughts")
    from negamax.engines.hub import HubProtocolError, parse_hub_move
    from negamax.games.draughts.rules import DraughtsGame

    position = DraughtsGame().new_position(None)
    assert parse_hub_move(position, "32-28") is not None
    with pytest.raises(HubProtocolError, match="is not a move"):
        parse_hub_move(position, text)


def test_a_reply_quoting_input_escapes_nul_and_replaced_bytes() -> None:
    """UCI repeated raw NUL and 0xFF bytes in ``info string``."""
    line = b"hello\x00\xff there".decode("utf-8", errors="replace")
    shown = clipped(line)
    assert shown == "hello\\x00\\ufffd there" and shown.isascii() and shown.isprintable()


def test_uci_never_writes_a_raw_control_byte() -> None:
    import subprocess

    command = [sys.executable, "-m", "negamax.engines.uci"]
    done = subprocess.run(command, input=b"uci\nhel\x00lo\xff\nquit\n", capture_output=True, timeout=60)
    strings = [line for line in done.stdout.splitlines() if line.startswith(b"info string")]
    assert strings and all(line.isascii() and b"\x00" not in line for line in strings), strings
