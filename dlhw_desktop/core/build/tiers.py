"""Workload tiers: the minimum and recommended parts per component, as catalog data.

The catalog's ``workload_tiers`` table (the seed article's tables, one row per tier,
component and level) arrives here as plain dict rows; this module turns them into
``WorkloadTier`` objects the tier checks read. There is no built-in copy: tiers come
from the catalog, so a corrected source fixes the checks without a code change.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from dlhw_desktop.core.build.build import TIER_NAMES
from dlhw_desktop.core.errors import CatalogError

COMPONENTS: tuple[str, ...] = (
    "cpu", "gpu", "ram", "storage_primary", "storage_secondary", "storage_optional",
    "psu", "cooling",
)
LEVELS: tuple[str, ...] = ("minimum", "recommended")

TIER_LABELS: dict[str, str] = {"demanding": "Demanding", "less-demanding": "Less demanding"}

_NUMBER_COLUMNS = ("cores", "threads", "memory_gb", "ram_gb", "capacity_gb", "wattage_w")
_NAME_SEPARATORS = re.compile(r"\s*[;|\n]\s*")


@dataclass(frozen=True, slots=True)
class TierRequirement:
    """One row: what a tier asks of one component at one level. ``None`` = not asked."""

    tier: str
    component: str
    level: str
    description: str = ""
    cores: int | None = None
    threads: int | None = None
    memory_gb: float | None = None
    ram_gb: float | None = None
    capacity_gb: float | None = None
    storage_kind: str | None = None
    wattage_w: int | None = None
    efficiency_rating: str | None = None
    example_part_names: tuple[str, ...] = ()
    source: str = ""
    source_date: str = ""

    @property
    def storage_kinds(self) -> tuple[str, ...]:
        """``"sata-ssd/hdd"`` -> ``("sata-ssd", "hdd")``: any of them satisfies the row."""
        if not self.storage_kind:
            return ()
        return tuple(k.strip().lower() for k in re.split(r"[/|,;]", self.storage_kind)
                     if k.strip())


@dataclass(frozen=True, slots=True)
class WorkloadTier:
    """Every requirement of one tier ("demanding" or "less-demanding")."""

    name: str
    requirements: tuple[TierRequirement, ...]

    @property
    def label(self) -> str:
        return TIER_LABELS.get(self.name, self.name)

    def get(self, component: str, level: str) -> TierRequirement | None:
        for req in self.requirements:
            if req.component == component and req.level == level:
                return req
        return None

    def levels(self, component: str) -> tuple[TierRequirement | None, TierRequirement | None]:
        """``(minimum, recommended)`` for a component; either may be ``None``."""
        return self.get(component, "minimum"), self.get(component, "recommended")

    def example_names(self, component: str) -> tuple[str, ...]:
        """Part names the tier's rows give as examples, minimum first."""
        names: list[str] = []
        for req in self.levels(component):
            if req is not None:
                names.extend(n for n in req.example_part_names if n not in names)
        return tuple(names)


def requirement_from_row(row: Mapping[str, Any]) -> TierRequirement:
    """One ``workload_tiers`` row -> ``TierRequirement``; ``CatalogError`` when malformed."""
    tier = _text(row, "tier")
    component = _text(row, "component")
    level = _text(row, "level")
    where = f"workload tier row ({tier!r}, {component!r}, {level!r})"
    if tier not in TIER_NAMES:
        raise CatalogError(f"{where}: tier must be one of {', '.join(TIER_NAMES)}")
    if component not in COMPONENTS:
        raise CatalogError(f"{where}: component must be one of {', '.join(COMPONENTS)}")
    if level not in LEVELS:
        raise CatalogError(f"{where}: level must be minimum or recommended")
    numbers: dict[str, float | None] = {}
    for column in _NUMBER_COLUMNS:
        value = row.get(column)
        if value is None or (isinstance(value, str) and not value.strip()):
            numbers[column] = None
            continue
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise CatalogError(f"{where}: {column} is not a number: {value!r}") from None
        if number < 0:
            raise CatalogError(f"{where}: {column} is negative")
        numbers[column] = number
    return TierRequirement(
        tier=tier, component=component, level=level,
        description=_text(row, "description"),
        cores=_int(numbers["cores"]), threads=_int(numbers["threads"]),
        memory_gb=numbers["memory_gb"], ram_gb=numbers["ram_gb"],
        capacity_gb=numbers["capacity_gb"],
        storage_kind=_text(row, "storage_kind") or None,
        wattage_w=_int(numbers["wattage_w"]),
        efficiency_rating=_text(row, "efficiency_rating") or None,
        example_part_names=_names(row.get("example_part_names")),
        source=_text(row, "source"), source_date=_text(row, "source_date"),
    )


def tiers_from_rows(rows: Iterable[Mapping[str, Any]]) -> dict[str, WorkloadTier]:
    """All rows -> ``{tier name: WorkloadTier}``; a repeated (tier, component, level) is an
    error, since two rows for one cell would make the checks depend on row order."""
    by_tier: dict[str, list[TierRequirement]] = {}
    seen: set[tuple[str, str, str]] = set()
    for row in rows:
        req = requirement_from_row(row)
        key = (req.tier, req.component, req.level)
        if key in seen:
            raise CatalogError(f"workload tier row {key} appears twice")
        seen.add(key)
        by_tier.setdefault(req.tier, []).append(req)
    return {name: WorkloadTier(name, tuple(reqs)) for name, reqs in by_tier.items()}


def _text(row: Mapping[str, Any], column: str) -> str:
    value = row.get(column)
    return "" if value is None else str(value).strip()


def _int(value: float | None) -> int | None:
    return None if value is None else round(value)


def _names(value: Any) -> tuple[str, ...]:
    """Example names: a list, or text separated by ``;``, ``|`` or new lines (commas stay:
    product names contain them)."""
    if value is None:
        return ()
    if isinstance(value, str):
        parts: Iterable[Any] = _NAME_SEPARATORS.split(value)
    else:
        parts = value
    return tuple(str(p).strip() for p in parts if str(p).strip())
