"""The BuildCores OpenDB is credited wherever its data is shown or shipped (ODC-By 1.0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.cli import main
from dlhw_desktop.resources import catalog_sources_dir


@pytest.fixture(scope="module")
def built(fresh_catalog_path: Path) -> Path:
    return fresh_catalog_path


def test_catalog_info_and_about_box_credit_the_open_data(
        built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--catalog", str(built), "catalog", "info"]) == 0
    out = capsys.readouterr().out
    assert "BuildCores OpenDB (ODC-By 1.0)" in out and "136a77a" in out
    catalog = Catalog.open(built)
    assert catalog.info().total > 20_000
    from dlhw_desktop.ui.common.dialogs import about_html

    html = about_html(catalog)
    assert "BuildCores OpenDB" in html and "ODC-By 1.0" in html


def test_the_extract_ships_its_licence_and_attribution() -> None:
    folder = catalog_sources_dir() / "opendb"
    assert "ODC Attribution License" in (folder / "LICENSE").read_text(encoding="utf-8")
    readme = (catalog_sources_dir() / "README.md").read_text(encoding="utf-8")
    assert "BuildCores OpenDB" in readme and "ODC-By 1.0" in readme


def test_catalog_build_reports_each_category(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "skipped.tsv"
    assert main(["catalog", "build", "-o", str(tmp_path / "c.db"), "--report",
                 str(report)]) == 0
    out = capsys.readouterr().out
    assert "Motherboards" in out and "imported" in out and "merged with a curated row" in out
    assert "skipped" in out and "CPU soldered to the board (no socket)" in out
    lines = report.read_text(encoding="utf-8").splitlines()
    assert any(line.startswith("Motherboard.csv\t") for line in lines)
