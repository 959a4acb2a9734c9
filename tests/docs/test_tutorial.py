"""The tutorial notebook runs from top to bottom; its cells assert the node counts they
show, so a change in any search shows up here."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = Path(__file__).resolve().parents[2] / "docs" / "tutorial.ipynb"


def test_the_tutorial_notebook_runs() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3").execute()
    errors = [output for cell in notebook.cells for output in cell.get("outputs", []) if output.output_type == "error"]
    assert errors == []
    shown = "".join(
        output.get("text", "") for cell in notebook.cells for output in cell.get("outputs", []) if "text" in output
    )
    assert "nodes visited: 549,946" in shown and "heaps where the side to move loses" in shown
