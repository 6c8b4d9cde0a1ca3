"""Importing the OpenDB extract: bad rows are skipped and reported, never stop the build;
curated rows win; duplicate ids are resolved or named; search finds normalised names."""

from __future__ import annotations

import csv
import io
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from dlhw_desktop.catalog.builder import collect
from dlhw_desktop.catalog.opendb.extract import EXTRACTORS
from dlhw_desktop.catalog.opendb.importer import (
    IMPORTS,
    SOURCE_DATE,
    import_open_data,
    source_url,
)
from dlhw_desktop.catalog.search import fts_query, search_text
from dlhw_desktop.catalog.source_refs import expand
from dlhw_desktop.core.errors import CatalogSourceError
from dlhw_desktop.resources import catalog_sources_dir

OPEN_DIR = catalog_sources_dir() / "opendb"
PSU_HEADER = next(e for e in EXTRACTORS if e.output == "PSU.csv").header


def _write(folder: Path, name: str, header: tuple[str, ...], rows: list[dict[str, str]]) -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([row.get(c, "") for c in header])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(buffer.getvalue(), encoding="utf-8")


def _psu(opendb_id: str, name: str, **cells: str) -> dict[str, str]:
    return {"opendb_id": opendb_id, "manufacturer": "Corsair", "name": name,
            "wattage_w": "850", "efficiency_rating": "80+ Gold", "form_factor": "ATX",
            **cells}


def test_bad_rows_are_skipped_with_file_id_and_reason(tmp_path: Path) -> None:
    folder = tmp_path / "opendb"
    _write(folder, "PSU.csv", PSU_HEADER, [
        _psu("00000000-0000-0000-0000-000000000001", "Corsair RM850x 850W"),
        _psu("00000000-0000-0000-0000-000000000002", ""),                  # no name
        _psu("00000000-0000-0000-0000-000000000003", "Corsair X", wattage_w="0"),
        _psu("not-an-id!", "Corsair Y"),
        _psu("00000000-0000-0000-0000-000000000001", "Corsair RM850x again"),  # repeated
    ])
    with (folder / "PSU.csv").open("a", encoding="utf-8") as handle:
        handle.write("00000000-0000-0000-0000-000000000009,Corsair,too,many,cells,"
                     "1,2,3,4,5,6,7,8,9,10,11,12\n")
    parts: dict[str, dict[str, Any]] = {}
    report = import_open_data(folder, parts, {})
    assert list(parts) == ["psu/corsair-rm850x-850w"]
    reasons = {(s.opendb_id[-1:], s.reason) for s in report.skipped}
    assert ("2", "no name") in reasons
    assert ("3", "rated output missing or impossible") in reasons
    assert ("1", "opendb_id repeated in the file") in reasons
    assert any("cell count" in s.reason for s in report.skipped)
    assert any("no opendb_id" in s.reason for s in report.skipped)
    assert all(s.file == "PSU.csv" for s in report.skipped)
    assert report.categories["psu"].imported == 1
    assert sum(report.categories["psu"].skipped.values()) == 5
    assert any("PSU.csv\t" in line for line in report.lines())


def test_an_unreadable_file_is_reported_not_raised(tmp_path: Path) -> None:
    folder = tmp_path / "opendb"
    folder.mkdir()
    (folder / "CPU.csv").write_bytes(b"\xff\xfe not utf-8")
    (folder / "RAM.csv").write_text("no,header,we,know\n", encoding="utf-8")
    report = import_open_data(folder, {}, {})
    assert {s.file for s in report.skipped} == {"CPU.csv", "RAM.csv"}


def test_imported_rows_carry_their_opendb_source_and_attribution(tmp_path: Path) -> None:
    folder = tmp_path / "opendb"
    _write(folder, "PSU.csv", PSU_HEADER, [_psu("abcdef12-0000-0000-0000-000000000001",
                                                "Corsair RM850x 850W", eps_8pin="0")])
    parts: dict[str, dict[str, Any]] = {}
    import_open_data(folder, parts, {})
    row = parts["psu/corsair-rm850x-850w"]
    assert row["source"] == source_url("PSU", "abcdef12-0000-0000-0000-000000000001")
    # stored compact; read back as the row's file in the repository at the pinned commit
    assert expand(row["source"]) == (
        "https://github.com/buildcores/buildcores-open-db/blob/"
        "136a77aec16a30ba81a7cc6b448a8bace9a25359/open-db/PSU/"
        "abcdef12-0000-0000-0000-000000000001.json")
    assert row["source_date"] == SOURCE_DATE == "2026-08-17"
    assert row["connectors_eps"] is None  # 0 on an 850 W unit is unknown


def test_duplicate_ids_inside_open_data_are_kept_apart_and_reported(tmp_path: Path) -> None:
    folder = tmp_path / "opendb"
    _write(folder, "PSU.csv", PSU_HEADER, [
        _psu("11111111-0000-0000-0000-000000000000", "Corsair RM850x", part_numbers="CP-1"),
        _psu("22222222-0000-0000-0000-000000000000", "Corsair RM850x", part_numbers="CP-2"),
    ])
    parts: dict[str, dict[str, Any]] = {}
    report = import_open_data(folder, parts, {})
    assert sorted(parts) == ["psu/corsair-rm850x", "psu/corsair-rm850x-22222222"]
    assert parts["psu/corsair-rm850x-22222222"]["name"] == "RM850x (CP-2)"
    assert len(report.duplicates) == 1 and "11111111" in report.duplicates[0]


def test_a_curated_row_wins_and_only_its_empty_cells_are_filled(tmp_path: Path) -> None:
    folder = tmp_path / "opendb"
    _write(folder, "PSU.csv", PSU_HEADER, [
        _psu("33333333-0000-0000-0000-000000000000", "Corsair RM850x", wattage_w="900",
             pcie_8pin="4", form_factor="ATX")])
    curated = {"id": "psu/corsair-rm850x", "category": "psu", "vendor": "Corsair",
               "name": "RM850x", "wattage_w": 850, "connectors_pcie_8pin": None,
               "source": "https://www.corsair.com/", "source_date": "2026-11-25"}
    parts = {curated["id"]: dict(curated)}
    figure_sources: dict[tuple[str, str], tuple[str, ...]] = {}
    report = import_open_data(folder, parts, figure_sources)
    row = parts["psu/corsair-rm850x"]
    assert row["wattage_w"] == 850                 # the curated figure wins
    assert row["source"] == "https://www.corsair.com/"
    assert row["connectors_pcie_8pin"] == 4        # filled, with its own source
    assert expand(figure_sources[("psu/corsair-rm850x", "connectors_pcie_8pin")][2]).startswith(
        "https://github.com/buildcores/")
    assert report.categories["psu"].merged == 1
    assert [(d.field, d.curated, d.open_value) for d in report.disagreements] == [
        ("wattage_w", 850, 900)]


def test_a_duplicate_curated_id_names_both_places(tmp_path: Path) -> None:
    sources = tmp_path / "sources"
    sources.mkdir()
    header = "vendor,name,source,source_date,cores"
    row = "Acme,Test CPU,https://example.com,2026-11-25,8"
    (sources / "cpus.csv").write_text(f"{header}\n{row}\n{row}\n", encoding="utf-8")
    with pytest.raises(CatalogSourceError, match=r"cpus.csv:3: duplicate id .*cpus.csv:2"):
        collect(sources)


@pytest.fixture(scope="module")
def open_parts() -> dict[str, dict[str, Any]]:
    parts: dict[str, dict[str, Any]] = {}
    import_open_data(OPEN_DIR, parts, {}, [s for s in IMPORTS if s.file == "PSU.csv"])
    return parts


@pytest.mark.parametrize("typed", ["RM1000x", "rm1000x", "RM1000X (2021)", "corsair rm1000x"])
def test_search_finds_the_corsair_rm1000x_however_it_is_typed(
        open_parts: dict[str, dict[str, Any]], typed: str) -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE f USING fts5(t, id UNINDEXED)")
    conn.executemany("INSERT INTO f VALUES (?, ?)", [
        (search_text(p["vendor"], p["name"], p.get("family"), p.get("notes")), pid)
        for pid, p in open_parts.items()])
    query = fts_query(typed)
    found = [r[0] for r in conn.execute("SELECT id FROM f WHERE f MATCH ?", (query,))]
    names = [open_parts[i]["name"] for i in found]
    assert any(n.startswith("RM1000x (2021)") for n in names), names
    assert all("rm1000x" in n.lower() for n in names)


def test_the_committed_extract_gives_thousands_of_parts_per_category() -> None:
    parts: dict[str, dict[str, Any]] = {}
    report = import_open_data(OPEN_DIR, parts, {})
    counts = {c: v.imported for c, v in report.categories.items()}
    assert counts["cpu"] > 500 and counts["motherboard"] > 3000 and counts["psu"] > 3000
    assert counts["memory"] > 4000 and counts["case"] > 3000 and counts["cooler"] > 2000
    assert counts["storage"] > 3000
    # Known defects do not reach the catalog.
    years = [p["release_year"] for p in parts.values() if p.get("release_year")]
    assert max(years) <= 2027
    lga775 = [p for p in parts.values() if p.get("socket") == "LGA775"]
    assert lga775 and all((p.get("pcie_generation") or 0) <= 2 for p in lga775)
    rm850x = [p for p in parts.values() if p["name"].startswith("RM850x (2024)")]
    assert rm850x and all(p["connectors_pcie_8pin"] is None for p in rm850x)
    assert all(p["wattage_w"] > 0 for p in parts.values() if p["category"] == "psu")


def test_a_boxed_and_a_tray_cpu_are_one_part(tmp_path: Path) -> None:
    header = next(e for e in EXTRACTORS if e.output == "CPU.csv").header
    folder = tmp_path / "opendb"
    _write(folder, "CPU.csv", header, [
        {"opendb_id": "11111111-0000-0000-0000-000000000000", "manufacturer": "AMD",
         "name": "AMD Ryzen 5 2600", "socket": "AM4", "cores": "6", "threads": "12"},
        {"opendb_id": "22222222-0000-0000-0000-000000000000", "manufacturer": "AMD",
         "name": "AMD Ryzen 5 2600 OEM/Tray", "socket": "AM4", "cores": "6",
         "tdp_w": "65"},
    ])
    parts: dict[str, dict[str, Any]] = {}
    figure_sources: dict[tuple[str, str], tuple[str, ...]] = {}
    report = import_open_data(folder, parts, figure_sources)
    assert list(parts) == ["cpu/amd-ryzen-5-2600"]
    cpu = parts["cpu/amd-ryzen-5-2600"]
    assert cpu["threads"] == 12 and cpu["tdp_w"] == 65
    assert "22222222" in figure_sources[("cpu/amd-ryzen-5-2600", "tdp_w")][2]
    assert report.categories["cpu"].imported == 1


def test_a_boards_pcie_generation_names_the_chipset_as_its_source(tmp_path: Path) -> None:
    header = next(e for e in EXTRACTORS if e.output == "Motherboard.csv").header
    folder = tmp_path / "opendb"
    _write(folder, "Motherboard.csv", header, [
        {"opendb_id": "11111111-0000-0000-0000-000000000000", "manufacturer": "ASUS",
         "name": "ASUS P5G41", "socket": "LGA 775", "chipset": "Intel G41",
         "form_factor": "Micro ATX", "memory_type": "DDR3", "pcie_slots": "4.0x16*1"}])
    parts: dict[str, dict[str, Any]] = {}
    figure_sources: dict[tuple[str, str], tuple[str, ...]] = {}
    import_open_data(folder, parts, figure_sources)
    board = parts["motherboard/asus-p5g41"]
    assert board["pcie_generation"] == 1 and board["socket"] == "LGA775"
    assert board["board_form_factor"] == "Micro-ATX" and board["pcie_x16_slots"] == 1
    source = figure_sources[("motherboard/asus-p5g41", "pcie_generation")]
    assert "ark.intel.com" in source[2] and "G41" in source[4]
