"""CPU platforms (``platforms.csv``): what a socket and CPU series give a build.

One row per platform: a socket plus, where one socket carries series that differ (sTR5
Threadripper 7000 vs Threadripper PRO 7000 WX, LGA4677 Xeon W-2400 vs W-3400 vs Xeon
Scalable), a regular expression matched against the CPU's family and name. The build
fills the EMPTY platform figures of every CPU row (curated or imported) from the first
platform row of its socket that matches, and records that row's source as the figure's
source. A figure a CPU row states itself is never replaced.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dlhw_desktop.catalog.sources import coerce
from dlhw_desktop.core.errors import CatalogSourceError
from dlhw_desktop.core.fields import Category

PLATFORMS_FILE = "platforms.csv"

# The CPU figures a platform row fills when the CPU row leaves them empty.
FILLED_FIELDS: tuple[str, ...] = ("pcie_lanes", "pcie_generation", "memory_channels",
                                  "ecc_support", "dimm_kinds", "max_sockets")
_COLUMNS = ("platform", "socket", "cpu_pattern", "memory_types", *FILLED_FIELDS,
            "source", "source_date", "notes")
_REQUIRED = ("platform", "socket", "source", "source_date")


@dataclass(frozen=True, slots=True)
class Platform:
    """One platform row: a socket, the CPUs of it that it covers, and their figures."""

    name: str
    socket: str
    pattern: re.Pattern[str] | None  # None: every CPU of the socket
    memory_types: str
    figures: dict[str, Any]  # field -> value (None = unknown) for FILLED_FIELDS
    source: str
    source_date: str
    notes: str
    origin: str

    def covers(self, cpu: dict[str, Any]) -> bool:
        """True when ``cpu`` sits in this platform's socket and matches its series."""
        if socket_key(cpu.get("socket")) != socket_key(self.socket):
            return False
        if self.pattern is None:
            return True
        text = f"{cpu.get('family') or ''} {cpu.get('name') or ''}"
        return self.pattern.search(text) is not None


def socket_key(socket: Any) -> str:
    """``'Socket sTR5'``, ``'LGA 1700'`` and ``'lga-1700'`` compare as one socket."""
    text = str(socket or "").lower().replace("socket", "")
    return re.sub(r"[^a-z0-9]", "", text)


def read_platforms(directory: Path) -> list[Platform]:
    """Every platform row, in file order (an absent file is no platforms)."""
    path = directory / PLATFORMS_FILE
    if not path.exists():
        return []
    platforms: list[Platform] = []
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in _COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise CatalogSourceError(f"{PLATFORMS_FILE}: missing columns {missing}")
        for line, record in enumerate(reader, start=2):
            origin = f"{PLATFORMS_FILE}:{line}"
            cells = {k: (v or "").strip() for k, v in record.items() if k is not None}
            for column in _REQUIRED:
                if not cells.get(column):
                    raise CatalogSourceError(f"{origin}: {column} is empty")
            if not re.match(r"^\d{4}-\d{2}-\d{2}$", cells["source_date"]):
                raise CatalogSourceError(
                    f"{origin}: source_date {cells['source_date']!r} is not an ISO date")
            try:
                pattern = (re.compile(cells["cpu_pattern"], re.IGNORECASE)
                           if cells["cpu_pattern"] else None)
            except re.error as exc:
                raise CatalogSourceError(
                    f"{origin}: cpu_pattern {cells['cpu_pattern']!r}: {exc}") from None
            figures = {f: coerce(f, cells.get(f, ""), origin) for f in FILLED_FIELDS}
            platforms.append(Platform(cells["platform"], cells["socket"], pattern,
                                      cells["memory_types"], figures, cells["source"],
                                      cells["source_date"], cells["notes"], origin))
    return platforms


def platform_for(cpu: dict[str, Any], platforms: list[Platform]) -> Platform | None:
    """The platform row of ``cpu``: the first row of its socket whose pattern matches,
    else the socket's catch-all row (no pattern), else None."""
    catch_all: Platform | None = None
    for platform in platforms:
        if not platform.covers(cpu):
            continue
        if platform.pattern is not None:
            return platform
        if catch_all is None:
            catch_all = platform
    return catch_all


def apply_platforms(parts: dict[str, dict[str, Any]], platforms: list[Platform],
                    figure_sources: dict[tuple[str, str], tuple[str, ...]]) -> int:
    """Fill the empty platform figures of every CPU from its platform row; return how
    many figures were filled. Each filled figure's source is the platform row's."""
    filled = 0
    for part_id in sorted(parts):
        values = parts[part_id]
        if values.get("category") != Category.CPU.value or not values.get("socket"):
            continue
        platform = platform_for(values, platforms)
        if platform is None:
            continue
        for field in FILLED_FIELDS:
            value = platform.figures.get(field)
            if value is None or values.get(field) is not None:
                continue
            values[field] = value
            figure_sources[(part_id, field)] = (
                part_id, field, platform.source, platform.source_date,
                platform_note(values, platform))
            filled += 1
    return filled


_MODEL_NUMBER = re.compile(r"\b[a-z]{0,2}-?\d{3,5}[a-z]{0,3}\b")


def platform_note(values: dict[str, Any], platform: Platform) -> str:
    """How a platform figure reads on a CPU: the vendor's when the platform row's page is
    this CPU's own; otherwise derived, saying whose page it was read on (every CPU of the
    platform shares it: the audit found such figures cited as if from the CPU's page)."""
    numbers = {n.replace("-", "") for n in _MODEL_NUMBER.findall(values.get("name", "").lower())
               if len(n) >= 4}
    page = platform.source.lower().replace("-", "")
    if numbers and any(n in page for n in numbers):
        return f"platform figure: {platform.name} ({platform.socket})"
    return (f"derived: the {platform.name} platform's figure ({platform.socket}), shared by "
            "its CPUs; read on the page cited, which is another CPU's of the platform")
