"""A malformed curated source file is a clear error naming file and line; nothing is written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dlhw_desktop.catalog.builder import build_catalog
from dlhw_desktop.catalog.sources import read_figure_values
from dlhw_desktop.cli import main
from dlhw_desktop.core.errors import CatalogSourceError
from dlhw_desktop.resources import catalog_sources_dir


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    folder = tmp_path / "sources"
    shutil.copytree(catalog_sources_dir(), folder)
    return folder


def _append(path: Path, line: str) -> None:
    with path.open("a", encoding="utf-8") as handle:
        handle.write(line + "\n")


def _cpu_row(sources: Path, **cells: str) -> str:
    header = (sources / "cpus.csv").read_text(encoding="utf-8").splitlines()[0].split(",")
    row = {"vendor": "Acme", "name": "Test CPU", "source": "https://example.com",
           "source_date": "2026-11-25", **cells}
    return ",".join(row.get(column, "") for column in header)


@pytest.mark.parametrize(("cells", "message"), [
    ({"cores": "many"}, "cpus.csv:.*cores"),
    ({"cores": "8.5"}, "not a whole number"),
    ({"max_sockets": "two"}, "cpus.csv:.*max_sockets"),
    ({"tdp_w": "-170"}, "cpus.csv:.*tdp_w.*negative"),
    ({"source": ""}, "source is empty"),
    ({"source_date": "25/11/2026"}, "not an ISO date"),
    ({"name": "Ryzen 7 7700X", "vendor": "AMD"}, "duplicate id"),
])
def test_bad_rows_name_the_file_and_line(sources: Path, tmp_path: Path,
                                         cells: dict[str, str], message: str) -> None:
    _append(sources / "cpus.csv", _cpu_row(sources, **cells))
    target = tmp_path / "out.db"
    with pytest.raises(CatalogSourceError, match=message):
        build_catalog(sources, target)
    assert not target.exists()
    assert list(tmp_path.glob(".catalog-*")) == []  # no half-written temporary file


def test_a_yes_no_column_takes_only_yes_or_no(sources: Path, tmp_path: Path) -> None:
    path = sources / "psus.csv"
    header = path.read_text(encoding="utf-8").splitlines()[0].split(",")
    cells = {"vendor": "Acme", "name": "Test PSU", "source": "https://example.com",
             "source_date": "2026-11-25", "redundant": "maybe"}
    _append(path, ",".join(cells.get(column, "") for column in header))
    with pytest.raises(CatalogSourceError, match=r"psus.csv:.*redundant.*not yes/no"):
        build_catalog(sources, tmp_path / "out.db")


def test_unknown_column_and_unknown_figure_source(sources: Path, tmp_path: Path) -> None:
    path = sources / "cases.csv"
    text = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([text[0] + ",colour", *text[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(CatalogSourceError, match="unknown columns"):
        build_catalog(sources, tmp_path / "out.db")


def test_cli_build_with_bad_sources_exits_2(sources: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    _append(sources / "figure_sources_platform.csv",
            "cpu/no-such-part,cores,https://example.com,2026-11-25,")
    code = main(["catalog", "build", "--sources", str(sources), "-o", str(tmp_path / "x.db")])
    err = capsys.readouterr().err
    assert code == 2 and "unknown part" in err and err.count("\n") == 1
    assert not (tmp_path / "x.db").exists()



@pytest.mark.parametrize(("row", "says"), [
    ("cpu/amd-ryzen-9-7950x,no_such_field,1,https://a.example/,2026-11-26,", "unknown field"),
    ("cpu/amd-ryzen-9-7950x,sustained_power_w,lots,https://a.example/,2026-11-26,", "lots"),
    ("cpu/amd-ryzen-9-7950x,sustained_power_w,,https://a.example/,2026-11-26,", "no value"),
    ("cpu/amd-ryzen-9-7950x,sustained_power_w,-5,https://a.example/,2026-11-26,", "negative"),
    ("cpu/amd-ryzen-9-7950x,sustained_power_w,230,,2026-11-26,", "source"),
    ("cpu/amd-ryzen-9-7950x,sustained_power_w,230,https://a.example/,yesterday,", "source_date"),
])
def test_a_bad_figure_row_is_refused_with_its_file_and_line(tmp_path: Path, row: str,
                                                          says: str) -> None:
    (tmp_path / "figures_bad.csv").write_text(
        "part_id,field,value,source,source_date,note\n" + row + "\n", encoding="utf-8")
    with pytest.raises(CatalogSourceError) as error:
        read_figure_values(tmp_path)
    assert says in str(error.value) and "figures_bad.csv" in str(error.value)


def test_a_figures_file_with_other_columns_is_refused(tmp_path: Path) -> None:
    (tmp_path / "figures_bad.csv").write_text("id,value\nx,1\n", encoding="utf-8")
    with pytest.raises(CatalogSourceError, match="columns must be"):
        read_figure_values(tmp_path)


def test_the_shipped_figures_files_read_cleanly() -> None:
    rows = read_figure_values(catalog_sources_dir())
    assert len(rows) >= 40 and all(r.source.startswith("http") for r in rows)
