"""The teaching notebooks (notebooks/*.ipynb) run top to bottom in a fresh kernel without error.

Each notebook keeps its sample sizes small (it says so where it simulates), so one runs in
seconds. The kernel is the ``python3`` kernelspec, started with the Python running the tests
(jupyter_client puts ``sys.executable`` in place of the spec's ``python``); the first cell we
add checks that, so a notebook never silently runs against another installation of dicelab.
"""
from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell

NOTEBOOK_DIR = Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
EXPECTED = ["01_bones_odds", "02_thousand_pits_and_barrel", "03_under40",
            "04_yahtzee_dynamic_programming", "05_strategy_tournament", "06_playing_to_win",
            "07_coach", "08_luck_and_skill"]


def test_all_notebooks_present():
    assert [p.stem for p in NOTEBOOKS] == EXPECTED


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_stored_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert not cell.outputs and cell.execution_count is None, \
                f"{path.name}: clear the outputs before committing"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path):
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(0, new_code_cell(
        "import sys\n"
        f"assert sys.prefix == {sys.prefix!r}, "
        "f'kernel runs {sys.executable}, not the test venv'"))
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK_DIR)}})
    client.execute()  # raises CellExecutionError, naming the cell, on any error
