"""The committed OpenDB extract -> catalog parts, merged with the curated rows.

Rules (each a small function in ``rules``/``chipsets``/``mappers``):
- A curated row describing the same part (same id, or one of the open row's
  manufacturer part numbers in its name) wins: the open data fills only its empty cells,
  each filled figure carrying the OpenDB file as its own source.
- Two open rows with the same id: the first by ``opendb_id`` keeps it, the next gets the
  start of its ``opendb_id`` appended; both are listed in the report.
- A row that cannot be a part is skipped with its file, id and reason; nothing stops the
  build.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dlhw_desktop.catalog.opendb import mappers
from dlhw_desktop.catalog.opendb.mappers import Cleaned, Mapper, Skip
from dlhw_desktop.catalog.source_refs import (
    OPENDB_ATTRIBUTION,
    OPENDB_COMMIT,
    OPENDB_DATE,
    OPENDB_REPOSITORY,
    opendb_ref,
)
from dlhw_desktop.core.fields import FIELDS_BY_NAME, Category
from dlhw_desktop.core.files.csv_cells import restore_cell
from dlhw_desktop.core.parts import make_part_id

OPEN_DATA_DIR = "opendb"
REPOSITORY = OPENDB_REPOSITORY
SOURCE_COMMIT = OPENDB_COMMIT
SOURCE_DATE = OPENDB_DATE
ATTRIBUTION = OPENDB_ATTRIBUTION
DISAGREEMENT_SHARE = 0.05

# Fields an open row never sets on a curated row (bookkeeping, the curated row's own).
_NOT_MERGED = frozenset({"id", "category", "vendor", "name", "family", "source",
                         "source_date", "notes", "price_usd", "price_date", "price_kind"})


@dataclass(frozen=True, slots=True)
class OpenSource:
    """One extract file: its dataset folder, the category it feeds, its mapper."""

    file: str
    directory: str
    category: Category
    mapper: Mapper
    # Rows of one name are one part (a boxed and a tray CPU): the later row fills the
    # first one's gaps instead of becoming a second part.
    one_part_per_name: bool = False


IMPORTS: list[OpenSource] = [
    OpenSource("CPU.csv", "CPU", Category.CPU, mappers.cpu, one_part_per_name=True),
    OpenSource("Motherboard.csv", "Motherboard", Category.MOTHERBOARD, mappers.board),
    OpenSource("PSU.csv", "PSU", Category.PSU, mappers.psu),
    OpenSource("RAM.csv", "RAM", Category.MEMORY, mappers.memory),
    OpenSource("PCCase.csv", "PCCase", Category.CASE, mappers.case),
    OpenSource("CPUCooler.csv", "CPUCooler", Category.COOLER, mappers.cooler),
    OpenSource("Storage.csv", "Storage", Category.STORAGE, mappers.storage),
]


def source_url(directory: str, opendb_id: str) -> str:
    """The stored source of an imported row (``source_refs.expand`` gives its address)."""
    return opendb_ref(directory, opendb_id)


@dataclass(frozen=True, slots=True)
class SkippedRow:
    file: str
    opendb_id: str
    reason: str

    def line(self) -> str:
        return f"{self.file}\t{self.opendb_id or '-'}\t{self.reason}"


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A curated figure and the open data's figure for the same part that differ."""

    part_id: str
    field: str
    curated: Any
    open_value: Any
    opendb_id: str

    @property
    def share(self) -> float | None:
        if isinstance(self.curated, int | float) and isinstance(self.open_value, int | float) \
                and not isinstance(self.curated, bool) and self.curated:
            return abs(float(self.open_value) - float(self.curated)) / abs(float(self.curated))
        return None


@dataclass(slots=True)
class CategoryCounts:
    imported: int = 0
    merged: int = 0
    renamed: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    cleaned: Counter[str] = field(default_factory=Counter)


@dataclass(slots=True)
class OpenDataReport:
    categories: dict[str, CategoryCounts] = field(default_factory=dict)
    skipped: list[SkippedRow] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    card_lines: list[str] = field(default_factory=list)
    """What the board-partner card import (``catalog.partner_cards``) says of itself."""

    @property
    def imported(self) -> int:
        return sum(c.imported for c in self.categories.values())

    @property
    def merged(self) -> int:
        return sum(c.merged for c in self.categories.values())

    def lines(self) -> list[str]:
        """The full report: every skipped row, duplicate and cleaning count."""
        out = ["# skipped rows: file, opendb_id, reason"]
        out += [s.line() for s in self.skipped]
        out.append("# duplicate ids inside the open data")
        out += self.duplicates
        out.append("# cleaning rules applied (category, rule, rows)")
        for category in sorted(self.categories):
            for rule, n in sorted(self.categories[category].cleaned.items()):
                out.append(f"{category}\t{rule}\t{n}")
        return out


_PART_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9/_.-]{5,}")
# A part-number match is the same part only when these figures agree (a kit's part-number
# stem is shared by its 8, 16, 32 and 64 GB kits).
_IDENTITY: dict[str, tuple[str, ...]] = {
    Category.MEMORY.value: ("capacity_gb", "modules", "speed_mt_s"),
    Category.STORAGE.value: ("capacity_gb",), Category.PSU.value: ("wattage_w",),
    Category.CPU.value: ("cores",), Category.COOLER.value: ("cooler_kind",),
}


def _part_key(text: str) -> str | None:
    """A manufacturer part number as a match key (``CMK32GX5M2B6000C30``), or ``None``
    for words too short or too common to identify a part."""
    key = re.sub(r"[^A-Z0-9]", "", text.upper())
    if len(key) < 8 or key.startswith("DDR") or not re.search(r"\d", key) \
            or not re.search(r"[A-Z]", key):
        return None
    return key


def _curated_index(parts: dict[str, dict[str, Any]]) -> dict[tuple[str, str], str]:
    """(category, part-number key) -> curated id, from the words of curated names."""
    index: dict[tuple[str, str], str] = {}
    for part_id in sorted(parts):
        values = parts[part_id]
        for word in _PART_TOKEN.findall(str(values.get("name") or "")):
            key = _part_key(word)
            if key:
                index.setdefault((values["category"], key), part_id)
    return index


def read_rows(path: Path) -> tuple[list[dict[str, str]], str | None]:
    """The rows of one extract file; a file that is not a CSV with ``opendb_id`` is a
    reason, not an exception."""
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            if not reader.fieldnames or "opendb_id" not in reader.fieldnames:
                return [], "no opendb_id column"
            return [{k: restore_cell(v) if isinstance(v, str) else v
                     for k, v in row.items()} for row in reader], None
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        return [], f"unreadable: {exc}"


def import_open_data(directory: Path, parts: dict[str, dict[str, Any]],
                     figure_sources: dict[tuple[str, str], tuple[str, ...]],
                     sources: list[OpenSource] | None = None) -> OpenDataReport:
    """Add the extract's parts to ``parts`` (the curated rows), merging where a curated
    row describes the same part. Returns what was imported, merged and skipped."""
    report = OpenDataReport()
    curated_ids = frozenset(parts)
    index = _curated_index(parts)
    origin: dict[str, str] = {}
    for source in sources or IMPORTS:
        counts = report.categories.setdefault(source.category.value, CategoryCounts())
        path = directory / source.file
        if not path.exists():
            continue
        rows, problem = read_rows(path)
        if problem:
            report.skipped.append(SkippedRow(source.file, "", problem))
            counts.skipped[problem] += 1
            continue
        seen: set[str] = set()
        for line, record in enumerate(rows, start=2):
            opendb_id = (record.get("opendb_id") or "").strip()
            reason = _row_problem(record, opendb_id, seen)
            values: dict[str, Any] | None = None
            derived: dict[str, tuple[str, str, str]] = {}
            cleaned = Cleaned()
            if reason is None:
                try:
                    values, derived = _values(source, record, cleaned)
                except Skip as exc:
                    reason = str(exc)
                except (ValueError, TypeError, KeyError, AttributeError) as exc:
                    reason = f"malformed row (line {line}): {exc}"
            if values is None:
                reason = reason or "malformed row"
                report.skipped.append(SkippedRow(source.file, opendb_id, reason))
                counts.skipped[reason] += 1
                continue
            seen.add(opendb_id)
            counts.cleaned.update(cleaned.rules)
            target = _curated_match(values, record, parts, curated_ids, index)
            if target is not None:
                _merge(parts[target], values, figure_sources, report, opendb_id)
                counts.merged += 1
                continue
            part_id = values["id"]
            if part_id in parts and source.one_part_per_name and part_id in origin:
                _fill(parts[part_id], values, figure_sources)
                reason = "same model as another row (boxed/tray): fills its gaps"
                report.skipped.append(SkippedRow(source.file, opendb_id,
                                                 f"{reason} ({origin[part_id]})"))
                counts.skipped[reason] += 1
                continue
            if part_id in parts:
                renamed = f"{part_id}-{opendb_id[:8].lower()}"
                report.duplicates.append(
                    f"{source.file}: {opendb_id} has the id {part_id} of {origin[part_id]}; "
                    f"kept as {renamed}")
                counts.renamed += 1
                part_id = values["id"] = renamed
                numbers = [n.strip() for n in (record.get("part_numbers") or "").split(";")
                           if n.strip() and n.strip().lower() not in values["name"].lower()]
                if numbers:  # a name a person can tell apart from the first row's
                    values["name"] = f"{values['name']} ({numbers[0]})"
                if part_id in parts:
                    reason = f"duplicate id {part_id}"
                    report.skipped.append(SkippedRow(source.file, opendb_id, reason))
                    counts.skipped[reason] += 1
                    continue
            parts[part_id] = values
            for name, (url, read, note) in derived.items():
                figure_sources[(part_id, name)] = (part_id, name, url, read, note)
            origin[part_id] = f"{source.file} {opendb_id}"
            counts.imported += 1
    return report


def _row_problem(record: dict[str, str], opendb_id: str, seen: set[str]) -> str | None:
    if None in record or any(v is None for v in record.values()):
        return "malformed row: cell count differs from the header"
    if not re.fullmatch(r"[0-9a-fA-F-]{8,64}", opendb_id):
        return "malformed row: no opendb_id"
    if opendb_id in seen:
        return "opendb_id repeated in the file"
    return None


def _values(source: OpenSource, record: dict[str, str], cleaned: Cleaned
            ) -> tuple[dict[str, Any], dict[str, tuple[str, str, str]]]:
    """The row's field values, and the figures derived from elsewhere with their source."""
    values = mappers.common(record, source.category, cleaned)
    source.mapper(record, values, cleaned)
    note = values.pop("_note", None)
    derived = values.pop("_derived", {})
    values["id"] = make_part_id(source.category, values["vendor"], values["name"])
    opendb_id = record["opendb_id"].strip()
    values["source"] = source_url(source.directory, opendb_id)
    values["source_date"] = SOURCE_DATE
    numbers = (record.get("part_numbers") or "").replace(";", ", ")
    # The licence's credit is the source itself (BuildCores, the row's id, the date) and
    # the About box: not repeated in 26,000 notes.
    values["notes"] = "; ".join(x for x in (
        f"part numbers {numbers}" if numbers else "", note or "") if x) or None
    for name in list(values):
        if name not in FIELDS_BY_NAME:
            raise ValueError(f"mapper set unknown field {name!r}")
    return values, derived


def _curated_match(values: dict[str, Any], record: dict[str, str],
                   parts: dict[str, dict[str, Any]], curated: frozenset[str],
                   index: dict[tuple[str, str], str]) -> str | None:
    if values["id"] in curated:
        return values["id"]
    for number in (record.get("part_numbers") or "").split(";"):
        key = _part_key(number)
        target = index.get((values["category"], key)) if key else None
        if target is not None and _same_part(parts[target], values):
            return target
    return None


def _same_part(curated: dict[str, Any], values: dict[str, Any]) -> bool:
    for name in _IDENTITY.get(values["category"], ()):
        mine, theirs = curated.get(name), values.get(name)
        if mine is not None and theirs is not None and _differs(mine, theirs):
            return False
    return True


def _fill(target: dict[str, Any], values: dict[str, Any],
          figure_sources: dict[tuple[str, str], tuple[str, ...]]) -> None:
    """Another open row of the same part: its figures fill the first row's empty cells,
    each with the other row's file as its source."""
    for name, value in sorted(values.items()):
        if name not in _NOT_MERGED and value is not None and target.get(name) is None:
            target[name] = value
            figure_sources[(target["id"], name)] = (
                target["id"], name, values["source"], values["source_date"],
                f"{ATTRIBUTION}: from another row of the same model")


def _merge(target: dict[str, Any], values: dict[str, Any],
           figure_sources: dict[tuple[str, str], tuple[str, ...]], report: OpenDataReport,
           opendb_id: str) -> None:
    """Fill the curated row's empty cells; note where both have a figure and differ."""
    part_id = target["id"]
    for name, value in sorted(values.items()):
        if name in _NOT_MERGED or value is None:
            continue
        current = target.get(name)
        if current is None:
            if (part_id, name) in figure_sources:
                continue  # a figure source names a figure the curated row will get
            target[name] = value
            figure_sources[(part_id, name)] = (
                part_id, name, values["source"], values["source_date"],
                f"{ATTRIBUTION}: filled in where the curated row had no figure")
        elif (name in _COMPARED_TEXT or not isinstance(current, str)) \
                and _differs(current, value):
            report.disagreements.append(Disagreement(part_id, name, current, value, opendb_id))


# Text figures worth comparing (descriptions such as the interface text are worded
# differently by each source and say the same).
_COMPARED_TEXT = frozenset({"socket", "chipset", "memory_type", "cooler_kind", "storage_kind",
                            "efficiency_rating", "board_form_factor", "psu_form_factor"})


def _differs(curated: Any, open_value: Any) -> bool:
    if isinstance(curated, bool) or isinstance(open_value, bool):
        return bool(curated) != bool(open_value)
    if isinstance(curated, int | float) and isinstance(open_value, int | float):
        if not curated:
            return bool(open_value)
        return abs(open_value - curated) / abs(curated) > DISAGREEMENT_SHARE
    words = [sorted(re.findall(r"[a-z0-9]+", str(v).lower().replace("ssi-", "")))
             for v in (curated, open_value)]
    return words[0] != words[1]
