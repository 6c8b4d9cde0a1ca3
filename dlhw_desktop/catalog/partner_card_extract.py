"""The board-partner cards' extract, ``resources/catalog/opendb/GPU.csv``: written from the
OpenDB snapshot, read back by the catalog build.

``extract_gpu_csv`` turns the GPU category of the BuildCores OpenDB snapshot (a tarball of
one JSON file per card) into the compact CSV: only the fields the catalog uses, one row
per card, sorted by ``opendb_id``, numbers written the same way every time, so the same
snapshot gives the same bytes. ``read_extract`` reads it back for ``catalog.partner_cards``,
which cleans the rows and links each card to its chip; a user's clone has the CSV, never
the snapshot.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dlhw_desktop.core.errors import CatalogSourceError

EXTRACT_FILE = "opendb/GPU.csv"
EXTRACT_COLUMNS = (
    "opendb_id", "manufacturer", "name", "chipset_manufacturer", "chipset", "memory_gb",
    "boost_clock_mhz", "length_mm", "tdp_w",
    "total_slot_width", "case_expansion_slot_width", "cooling", "pcie_6_pin",
    "pcie_8_pin", "pcie_12vhpwr", "pcie_12v_2x6", "release_year", "part_numbers",
)
_GPU_MEMBER = re.compile(r"(?:^|/)open-db/GPU/([^/]+)\.json$")
_MAX_PART_NUMBERS = 4

# --- extract: snapshot tarball -> GPU.csv -------------------------------------------------


@dataclass(frozen=True, slots=True)
class ExtractReport:
    rows: int
    skipped: dict[str, int]
    size_bytes: int


def _number(value: Any) -> str:
    """A JSON number as text, the same way every time (``356``, ``357.6``); else empty."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return ""
    if value != value or value in (float("inf"), float("-inf")):
        return ""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.6g}"


def clean_text(value: Any) -> str:
    """A JSON string with its spacing collapsed and trade marks dropped; else empty."""
    if not isinstance(value, str):
        return ""
    return " ".join(value.replace("\u2122", "").replace("\u00ae", "").split())


def extract_row(record: dict[str, Any]) -> dict[str, str]:
    """One OpenDB GPU document as an extract row (only the fields the catalog uses)."""
    meta = record.get("metadata") or {}
    power = record.get("power_connectors") or {}
    if not isinstance(meta, dict):
        meta = {}
    if not isinstance(power, dict):
        power = {}
    numbers = meta.get("part_numbers") or []
    if not isinstance(numbers, list):
        numbers = []
    parts = [clean_text(n) for n in numbers if clean_text(n)][:_MAX_PART_NUMBERS]
    return {
        "opendb_id": clean_text(record.get("opendb_id")),
        "manufacturer": clean_text(meta.get("manufacturer")),
        "name": clean_text(meta.get("name")),
        "chipset_manufacturer": clean_text(record.get("chipset_manufacturer")),
        "chipset": clean_text(record.get("chipset")),
        "memory_gb": _number(record.get("memory")),
        "boost_clock_mhz": _number(record.get("core_boost_clock")),
        "length_mm": _number(record.get("length")),
        "tdp_w": _number(record.get("tdp")),
        "total_slot_width": _number(record.get("total_slot_width")),
        "case_expansion_slot_width": _number(record.get("case_expansion_slot_width")),
        "cooling": clean_text(record.get("cooling")),
        "pcie_6_pin": _number(power.get("pcie_6_pin")),
        "pcie_8_pin": _number(power.get("pcie_8_pin")),
        "pcie_12vhpwr": _number(power.get("pcie_12VHPWR")),
        "pcie_12v_2x6": _number(power.get("pcie_12V_2x6")),
        "release_year": _number(meta.get("releaseYear")),
        "part_numbers": "; ".join(parts),
    }


def extract_gpu_csv(tarball: Path, output: Path) -> ExtractReport:
    """Write the GPU extract from the snapshot; the same snapshot gives the same bytes."""
    rows: list[dict[str, str]] = []
    skipped: Counter[str] = Counter()
    import tarfile  # build-time only: the app never reads the snapshot

    try:
        with tarfile.open(tarball, "r:*") as archive:
            for member in archive:
                match = _GPU_MEMBER.search(member.name)
                if match is None or not member.isfile():
                    continue
                handle = archive.extractfile(member)
                try:
                    record = json.loads(handle.read().decode("utf-8")) if handle else None
                except (UnicodeDecodeError, json.JSONDecodeError):
                    skipped["not valid JSON"] += 1
                    continue
                if not isinstance(record, dict):
                    skipped["not a JSON object"] += 1
                    continue
                row = extract_row(record)
                if not row["opendb_id"]:
                    row["opendb_id"] = match.group(1)
                rows.append(row)
    except (OSError, EOFError, tarfile.TarError) as exc:
        raise CatalogSourceError(f"{tarball}: cannot read the snapshot ({exc})") from None
    rows.sort(key=lambda r: (r["opendb_id"], r["name"]))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=EXTRACT_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    data = buffer.getvalue().encode("utf-8")
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_bytes(data)
    return ExtractReport(len(rows), dict(sorted(skipped.items())), len(data))


def read_extract(path: Path) -> list[dict[str, str]]:
    """The rows of ``GPU.csv``; an absent file is no cards (a tree without the extract)."""
    if not path.exists():
        return []
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in EXTRACT_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise CatalogSourceError(f"{path.name}: missing columns {missing}")
        return [{k: (v or "").strip() for k, v in row.items() if k} for row in reader]
