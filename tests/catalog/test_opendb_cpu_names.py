"""One CPU, one part: the open data's spellings of a CPU's name (a trademark sign, a
Threadripper PRO written without "PRO") land on the same id as the plain name."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest

from dlhw_desktop.catalog.opendb import rules
from dlhw_desktop.catalog.opendb.extract import EXTRACTORS
from dlhw_desktop.catalog.opendb.importer import import_open_data

CPU_HEADER = next(e for e in EXTRACTORS if e.output == "CPU.csv").header


@pytest.mark.parametrize(("raw", "expected"), [
    ("Ryzen\u2122 5 7500F", "Ryzen 5 7500F"),
    ("Ryzen\u2122 Threadripper\u2122 7960X", "Ryzen Threadripper 7960X"),
    ("Core(TM) i7-9700K", "Core i7-9700K"),
    ("Ryzen Threadripper 9985WX", "Ryzen Threadripper PRO 9985WX"),
    ("Ryzen Threadripper 3945WX OEM/Tray", "Ryzen Threadripper PRO 3945WX"),
    ("Ryzen Threadripper PRO 9985WX", "Ryzen Threadripper PRO 9985WX"),
    # Second-generation WX parts were not PRO parts; X parts are not either.
    ("Ryzen Threadripper 2990WX", "Ryzen Threadripper 2990WX"),
    ("Ryzen Threadripper 9980X", "Ryzen Threadripper 9980X"),
])
def test_cpu_names_read_as_the_vendor_sells_them(raw: str, expected: str) -> None:
    assert rules.cpu_name(raw) == expected


def _write_cpus(folder: Path, rows: list[dict[str, str]]) -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CPU_HEADER)
    for row in rows:
        writer.writerow([row.get(c, "") for c in CPU_HEADER])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "CPU.csv").write_text(buffer.getvalue(), encoding="utf-8")


def test_a_trademarked_name_is_the_same_cpu_as_the_plain_one(tmp_path: Path) -> None:
    _write_cpus(tmp_path, [
        {"opendb_id": "11111111-0000-0000-0000-000000000000", "manufacturer": "AMD",
         "name": "AMD Ryzen 5 7500F OEM/Tray", "socket": "AM5", "cores": "6"},
        {"opendb_id": "22222222-0000-0000-0000-000000000000", "manufacturer": "AMD",
         "name": "AMD Ryzen\u2122 5 7500F", "socket": "AM5", "cores": "6", "tdp_w": "65"},
    ])
    parts: dict[str, dict[str, Any]] = {}
    import_open_data(tmp_path, parts, {})
    assert list(parts) == ["cpu/amd-ryzen-5-7500f"]
    assert parts["cpu/amd-ryzen-5-7500f"]["tdp_w"] == 65


def test_a_threadripper_pro_without_pro_merges_into_the_curated_row(tmp_path: Path) -> None:
    curated_id = "cpu/amd-ryzen-threadripper-pro-9985wx"
    parts: dict[str, dict[str, Any]] = {curated_id: {
        "id": curated_id, "category": "cpu", "vendor": "AMD",
        "name": "Ryzen Threadripper PRO 9985WX", "cores": 64, "socket": "sTR5"}}
    _write_cpus(tmp_path, [
        {"opendb_id": "33333333-0000-0000-0000-000000000000", "manufacturer": "AMD",
         "name": "AMD Ryzen Threadripper 9985WX", "socket": "sTR5", "cores": "64",
         "threads": "128"},
    ])
    report = import_open_data(tmp_path, parts, {})
    assert list(parts) == [curated_id]
    assert parts[curated_id]["threads"] == 128
    assert report.categories["cpu"].merged == 1
