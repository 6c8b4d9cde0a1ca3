"""Snapshot of the BuildCores OpenDB -> the compact CSVs under
``resources/catalog/opendb/`` (only the fields the catalog uses).

The extract keeps the dataset's own values, flattened (lists joined with ``;``); the
cleaning rules run when the catalog is built (``opendb.importer``), so what was cleaned
and why is in the build's report. Output is deterministic: rows sorted by ``opendb_id``,
``\\n`` line ends, UTF-8, no timestamps.

Adding a category: write an :class:`Extractor` (dataset folder, output file, columns, a
function from one JSON record to those columns) and call :func:`register` when your module
is imported; list the module in ``PLUGIN_MODULES`` of ``scripts/extract_opendb.py``
(``dlhw_desktop.catalog.partner_cards`` is already there), which runs every registered
extractor. Turning the new CSV into parts is the new module's own importer (the ones here
are ``opendb.importer.IMPORTS``).
"""

from __future__ import annotations

import json
import tarfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dlhw_desktop.core.files.csv_cells import csv_text

COMMON_COLUMNS = ("opendb_id", "manufacturer", "name", "series", "part_numbers",
                  "release_year")
MAX_PART_NUMBERS = 4


@dataclass(frozen=True, slots=True)
class Extractor:
    """One dataset folder (``open-db/<directory>/*.json``) -> one CSV (``output``)."""

    directory: str
    output: str
    columns: tuple[str, ...]
    row: Callable[[dict[str, Any]], dict[str, Any]]

    @property
    def header(self) -> tuple[str, ...]:
        return COMMON_COLUMNS + self.columns


@dataclass(slots=True)
class ExtractReport:
    rows: dict[str, int] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    bytes_written: dict[str, int] = field(default_factory=dict)


def _get(record: dict[str, Any], *path: str) -> Any:
    value: Any = record
    for key in path:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def _joined(values: Any) -> str:
    if not isinstance(values, list):
        return "" if values is None else str(values)
    return ";".join(str(v).strip() for v in values if v is not None and str(v).strip())


def _common(record: dict[str, Any]) -> dict[str, Any]:
    numbers = _get(record, "metadata", "part_numbers")
    numbers = numbers if isinstance(numbers, list) else []
    return {
        "opendb_id": record.get("opendb_id"),
        "manufacturer": _get(record, "metadata", "manufacturer"),
        "name": _get(record, "metadata", "name"),
        "series": _get(record, "metadata", "series"),
        "part_numbers": _joined(numbers[:MAX_PART_NUMBERS]),
        "release_year": _get(record, "metadata", "releaseYear"),
    }


def _cpu(r: dict[str, Any]) -> dict[str, Any]:
    memory = _get(r, "specifications", "memory") or {}
    return {
        "cores": _get(r, "cores", "total"), "threads": _get(r, "cores", "threads"),
        "base_clock": _get(r, "clocks", "performance", "base"),
        "boost_clock": _get(r, "clocks", "performance", "boost"),
        "tdp_w": _get(r, "specifications", "tdp"), "ppt_w": _get(r, "specifications", "ppt"),
        "socket": r.get("socket"),
        "memory_types": _joined(memory.get("types")), "memory_channels": memory.get("channels"),
        "max_memory_gb": memory.get("maxSupport"),
        "ecc_support": _get(r, "specifications", "eccSupport"),
        "cpu_series": r.get("series"), "microarchitecture": r.get("microarchitecture"),
    }


def _slots(slots: Any) -> str:
    """``[{gen, lanes, quantity}]`` -> ``"4.0x16*1;4.0x1*2"``."""
    if not isinstance(slots, list):
        return ""
    items = []
    for slot in slots:
        if isinstance(slot, dict):
            items.append(f"{slot.get('gen') or ''}x{slot.get('lanes') or ''}"
                         f"*{slot.get('quantity') or ''}")
    return ";".join(items)


def _storage_m2(slots: Any) -> list[dict[str, Any]] | None:
    """The M.2 slots a drive can use: an E-key slot holds the Wi-Fi card (595 records list
    one among their M.2 slots), so it is not counted."""
    if not isinstance(slots, list):
        return None
    return [s for s in slots if isinstance(s, dict) and "E" not in str(s.get("key") or "")]


def _board(r: dict[str, Any]) -> dict[str, Any]:
    m2 = _storage_m2(r.get("m2_slots"))
    return {
        "socket": r.get("socket"), "chipset": r.get("chipset"), "form_factor": r.get("form_factor"),
        "memory_type": _get(r, "memory", "ram_type"), "memory_slots": _get(r, "memory", "slots"),
        "max_memory_gb": _get(r, "memory", "max"), "ecc_support": r.get("ecc_support"),
        "pcie_slots": _slots(r.get("pcie_slots")),
        "m2_slots": len(m2) if m2 is not None else None,
        "m2_interfaces": _joined([s.get("interface") for s in m2] if m2 is not None else None),
    }


def _memory(r: dict[str, Any]) -> dict[str, Any]:
    return {
        "ram_type": r.get("ram_type"), "speed": r.get("speed"), "form_factor": r.get("form_factor"),
        "modules": _get(r, "modules", "quantity"), "module_gb": _get(r, "modules", "capacity_gb"),
        "capacity_gb": r.get("capacity"), "cas_latency": r.get("cas_latency"),
        "ecc": r.get("ecc"), "registered": r.get("registered"),
    }


def _case(r: dict[str, Any]) -> dict[str, Any]:
    return {
        "form_factor": r.get("form_factor"),
        "board_form_factors": _joined(r.get("supported_motherboard_form_factors")),
        "max_gpu_length_mm": r.get("max_video_card_length"),
        "max_cooler_height_mm": r.get("max_cpu_cooler_height"),
        "expansion_slots": r.get("expansion_slots"),
        "width_mm": _get(r, "dimensions_mm", "width"),
    }


def _cooler(r: dict[str, Any]) -> dict[str, Any]:
    return {
        "height_mm": r.get("height"), "sockets": _joined(r.get("cpu_sockets")),
        "water_cooled": r.get("water_cooled"), "radiator_mm": r.get("radiator_size"),
        "fanless": r.get("fanless"),
    }


def _psu(r: dict[str, Any]) -> dict[str, Any]:
    return {
        "wattage_w": r.get("wattage"), "form_factor": r.get("form_factor"),
        "efficiency_rating": r.get("efficiency_rating"),
        "eps_8pin": _get(r, "connectors", "eps_8_pin"),
        "pcie_8pin": _get(r, "connectors", "pcie_6_plus_2_pin"),
        "pcie_12vhpwr": _get(r, "connectors", "pcie_12vhpwr"),
    }


def _storage(r: dict[str, Any]) -> dict[str, Any]:
    return {
        "capacity_gb": r.get("capacity"), "type": r.get("type") or r.get("storage_type"),
        "form_factor": r.get("form_factor"), "interface": r.get("interface"), "nvme": r.get("nvme"),
    }


EXTRACTORS: list[Extractor] = [
    Extractor("CPU", "CPU.csv", ("cores", "threads", "base_clock", "boost_clock", "tdp_w",
                                 "ppt_w", "socket", "memory_types", "memory_channels",
                                 "max_memory_gb", "ecc_support", "cpu_series",
                                 "microarchitecture"), _cpu),
    Extractor("CPUCooler", "CPUCooler.csv",
              ("height_mm", "sockets", "water_cooled", "radiator_mm", "fanless"), _cooler),
    Extractor("Motherboard", "Motherboard.csv",
              ("socket", "chipset", "form_factor", "memory_type", "memory_slots",
               "max_memory_gb", "ecc_support", "pcie_slots", "m2_slots", "m2_interfaces"),
              _board),
    Extractor("PCCase", "PCCase.csv", ("form_factor", "board_form_factors",
                                       "max_gpu_length_mm", "max_cooler_height_mm",
                                       "expansion_slots", "width_mm"), _case),
    Extractor("PSU", "PSU.csv", ("wattage_w", "form_factor", "efficiency_rating", "eps_8pin",
                                 "pcie_8pin", "pcie_12vhpwr"), _psu),
    Extractor("RAM", "RAM.csv", ("ram_type", "speed", "form_factor", "modules", "module_gb",
                                 "capacity_gb", "cas_latency", "ecc", "registered"), _memory),
    Extractor("Storage", "Storage.csv",
              ("capacity_gb", "type", "form_factor", "interface", "nvme"), _storage),
]


def register(extractor: Extractor) -> None:
    """Add an extractor (another category's folder) unless one writes the same file."""
    if any(e.output == extractor.output for e in EXTRACTORS):
        raise ValueError(f"an extractor already writes {extractor.output}")
    EXTRACTORS.append(extractor)


def cell(value: Any) -> str:
    """One CSV cell, the same bytes on every run."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return " ".join(str(value).split())


def iter_records(snapshot: Path, directories: Iterable[str],
                 report: ExtractReport) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(directory, file name, record) for every JSON file of the wanted folders, from the
    tarball or an unpacked folder; a file that is not a JSON object is reported."""
    wanted = set(directories)

    def parse(name: str, data: bytes) -> dict[str, Any] | None:
        try:
            record = json.loads(data)
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            report.skipped.append(f"{name}: not JSON ({exc})")
            return None
        if not isinstance(record, dict):
            report.skipped.append(f"{name}: not a JSON object")
            return None
        return record

    if snapshot.is_dir():
        root = snapshot / "open-db"
        for directory in sorted(wanted):
            for path in sorted((root / directory).glob("*.json")):
                record = parse(f"{directory}/{path.name}", path.read_bytes())
                if record is not None:
                    yield directory, path.name, record
        return
    with tarfile.open(snapshot, "r:*") as tar:
        for member in tar:
            parts = member.name.lstrip("./").split("/")
            if (not member.isfile() or len(parts) != 3 or parts[0] != "open-db"
                    or parts[1] not in wanted or not parts[2].endswith(".json")):
                continue
            handle = tar.extractfile(member)
            if handle is None:
                continue
            record = parse(f"{parts[1]}/{parts[2]}", handle.read())
            if record is not None:
                yield parts[1], parts[2], record


def extract(snapshot: Path, output_dir: Path,
            extractors: Iterable[Extractor] | None = None) -> ExtractReport:
    """Write one CSV per extractor from ``snapshot`` (the .tar.gz or its unpacked folder)."""
    chosen = {e.directory: e for e in (extractors or EXTRACTORS)}
    report = ExtractReport()
    rows: dict[str, list[list[str]]] = {d: [] for d in chosen}
    for directory, file_name, record in iter_records(snapshot, chosen, report):
        extractor = chosen[directory]
        if not record.get("opendb_id"):
            report.skipped.append(f"{directory}/{file_name}: no opendb_id")
            continue
        try:
            values = {**_common(record), **extractor.row(record)}
        except (AttributeError, TypeError, ValueError) as exc:
            report.skipped.append(f"{directory}/{file_name}: {exc}")
            continue
        rows[directory].append([cell(values.get(c)) for c in extractor.header])
    output_dir.mkdir(parents=True, exist_ok=True)
    for directory, extractor in chosen.items():
        # cells neutralised against spreadsheet formulas; the importer restores them
        data = csv_text([extractor.header, *sorted(rows[directory],
                                                   key=lambda r: r[0])]).encode("utf-8")
        (output_dir / extractor.output).write_bytes(data)
        report.rows[extractor.output] = len(rows[directory])
        report.bytes_written[extractor.output] = len(data)
    return report
