"""Output files: resumable, whole chunks only, never duplicated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from negamax.parallel.cases import Case, read_cases
from negamax.parallel.outputs import OutputError, open_output, read_results
from negamax.parallel.worker import RECORD_FIELDS


def record(line: int, text: str, score: int = 0) -> dict[str, object]:
    values: dict[str, object] = dict.fromkeys(RECORD_FIELDS)
    values.update(line=line, position=text, score=score, bound="exact", pv="4 4", correct=True, cpu_s=0.5)
    return values


@pytest.mark.parametrize("name", ["out.jsonl", "out.csv", "out.sqlite"])
def test_an_output_remembers_what_it_holds_and_never_duplicates(tmp_path: Path, name: str) -> None:
    path = str(tmp_path / name)
    output = open_output(path)
    output.write([record(1, "44"), record(3, "45", -2)])
    output.write([record(3, "45", -2), record(4, "4")])  # line 3 again: ignored
    output.close()
    reopened = open_output(path)
    assert reopened.done() == {1: "44", 3: "45", 4: "4"}
    cases = [Case(1, "44"), Case(2, "1"), Case(3, "45"), Case(4, "4"), Case(5, "7")]
    assert [case.line for case in reopened.pending(cases)] == [2, 5]
    reopened.close()
    rows = read_results(path)
    assert [int(row["line"]) for row in rows] == [1, 3, 4]
    assert [str(row["pv"]) for row in rows] == ["4 4", "4 4", "4 4"]


@pytest.mark.parametrize("name", ["out.jsonl", "out.csv"])
def test_a_line_cut_short_by_a_crash_is_dropped_on_reopening(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    output = open_output(str(path))
    output.write([record(1, "44"), record(2, "45")])
    output.close()
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"line": 3, "posi' if name.endswith("jsonl") else "3,4")
    reopened = open_output(str(path))
    assert sorted(reopened.done()) == [1, 2]
    reopened.write([record(3, "4")])
    reopened.close()
    assert [int(row["line"]) for row in read_results(str(path))] == [1, 2, 3]
    if name.endswith("jsonl"):
        for line in path.read_text().splitlines():
            json.loads(line)


def test_a_result_for_another_position_on_the_same_line_is_refused(tmp_path: Path) -> None:
    output = open_output(str(tmp_path / "out.jsonl"))
    output.write([record(1, "44")])
    with pytest.raises(OutputError, match="another input"):
        output.pending([Case(1, "45")])
    output.close()


def test_foreign_files_and_unknown_extensions_are_refused(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="extension"):
        open_output(str(tmp_path / "out.txt"))
    foreign = tmp_path / "notes.jsonl"
    foreign.write_text("hello\n")
    with pytest.raises(OutputError, match="not a batch result"):
        open_output(str(foreign))
    not_sqlite = tmp_path / "notes.sqlite"
    not_sqlite.write_text("hello, this is not a database\n" * 10)
    with pytest.raises(OutputError):
        open_output(str(not_sqlite))


def test_position_files_give_line_numbers_and_expected_scores(tmp_path: Path) -> None:
    path = tmp_path / "cases.txt"
    path.write_text("# a comment\n4455 3\n\n12\n44 -1\n")
    assert list(read_cases(str(path))) == [Case(2, "4455", 3), Case(4, "12"), Case(5, "44", -1)]
