"""What the New custom part dialog offers and accepts, without Qt: the choices a text
figure takes and how a typed number is read (with the reason when it is not one).

Choices come from the field vocabulary (``core/fields.py`` describes each closed list)
plus what the catalog itself holds (``Catalog.distinct``), so a custom part speaks the
words the checks match on ("gpu", "pcie", "AM5") and "gpuu" cannot be entered.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from dlhw_desktop.core.build.file_bounds import POSITIVE_FIELDS
from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.core.fields import Category, FieldSpec
from dlhw_desktop.core.limits import MAX_FIGURE

CLOSED_CHOICES: dict[str, tuple[tuple[str, str], ...]] = {
    "accelerator_type": (("gpu", "GPU"), ("tpu", "TPU"), ("fpga", "FPGA"),
                         ("asic", "Other AI chip (ASIC)")),
    "market_segment": (("consumer", "Consumer"), ("workstation", "Workstation"),
                       ("datacenter", "Data centre"), ("cloud", "Cloud only")),
    "form_factor": (("pcie", "PCIe card"), ("sxm", "SXM module"), ("oam", "OAM module"),
                    ("integrated", "Built into a system's chip"), ("cloud", "Cloud only")),
    "cooling": (("active", "Active (open-air fans)"), ("blower", "Blower"),
                ("passive", "Passive (needs server airflow)")),
    "storage_kind": (("nvme", "NVMe SSD"), ("sata-ssd", "SATA SSD"), ("hdd", "Hard disk"),
                     ("system", "Networked storage system")),
    "efficiency_rating": (("White", "80 PLUS White"), ("Bronze", "80 PLUS Bronze"),
                          ("Silver", "80 PLUS Silver"), ("Gold", "80 PLUS Gold"),
                          ("Platinum", "80 PLUS Platinum"),
                          ("Titanium", "80 PLUS Titanium")),
    "atx_version": (("2.x", "ATX 2.x"), ("3.0", "ATX 3.0"), ("3.1", "ATX 3.1")),
    "cooler_kind": (("air", "Air"), ("aio", "All-in-one liquid (AIO)"),
                    ("custom-loop", "Custom loop")),
    "case_kind": (("tower", "Tower"), ("rackmount", "Rackmount"),
                  ("open-frame", "Open frame")),
}
"""Fields whose every value the checks know: a fixed list (value, label), no free text."""

OPEN_CHOICES: dict[str, tuple[str, ...]] = {
    "memory_type": ("DDR4", "DDR5", "GDDR6", "GDDR6X", "GDDR7", "HBM2e", "HBM3", "HBM3e"),
    "socket": ("AM5", "LGA1700", "LGA1851", "sTR5", "SP5"),
    "board_form_factor": ("ATX", "E-ATX", "EEB", "CEB", "Micro-ATX", "Mini-ITX"),
    "interface": (),
    "power_connectors": ("none (slot power)", "1x 8-pin", "2x 8-pin", "3x 8-pin",
                         "1x 16-pin (12V-2x6)", "1x 8-pin CPU (EPS)"),
    "interconnect": (),
    "software": ("CUDA", "ROCm", "oneAPI"),
    "chipset": (),
}
"""Fields with a vocabulary that still grows (a new socket, a new memory type): offered
as a list, the catalog's own values added, and a new value may be typed."""

Vocabulary = Callable[[Category, str], Iterable[str]]
"""``(category, field) -> the catalog's distinct values`` (``Catalog.distinct``)."""


def closed_choices(spec: FieldSpec, category: Category,
                   vocabulary: Vocabulary | None = None) -> tuple[tuple[str, str], ...]:
    """(value, label) pairs; the catalog's values the fixed list lacks are added as they
    are (so a value the catalog uses is never refused)."""
    fixed = CLOSED_CHOICES[spec.name]
    known = {value.lower() for value, _ in fixed}
    extra = tuple((v, v) for v in catalog_values(vocabulary, category, spec.name)
                  if v.lower() not in known)
    return fixed + extra


def open_choices(spec: FieldSpec, category: Category,
                 vocabulary: Vocabulary | None = None) -> tuple[str, ...]:
    values = dict.fromkeys((*OPEN_CHOICES[spec.name],
                            *catalog_values(vocabulary, category, spec.name)))
    return tuple(values)


def catalog_values(vocabulary: Vocabulary | None, category: Category, name: str) -> list[str]:
    """The catalog's values of a field (none when the catalog cannot say: they are
    suggestions, and the field's own list still stands)."""
    if vocabulary is None:
        return []
    try:
        return [v for v in vocabulary(category, name) if v and v.strip()]
    except DlhwError:
        return []


@dataclass(frozen=True, slots=True)
class Reading:
    """A typed figure: its value (``None`` = left empty, unknown) or why it is refused."""

    value: float | int | None
    error: str = ""


def number_range(spec: FieldSpec) -> str:
    """What a figure field accepts, for its tooltip: ``whole number from 0 to 1,000,000,000``."""
    low = "1" if spec.name in POSITIVE_FIELDS else "0"
    kind = "a whole number" if spec.kind == "int" else "a number"
    return f"{kind} from {low} to {MAX_FIGURE:,.0f}"


def read_number(text: str, spec: FieldSpec) -> Reading:
    """``"1,150"`` -> 1150; ``"350 W"`` -> 350 (the field's own unit may be typed);
    empty -> unknown; anything else -> the reason, in words a user reads."""
    cleaned = text.strip()
    if not cleaned:
        return Reading(None)
    if spec.unit and cleaned.lower().endswith(spec.unit.lower()):
        cleaned = cleaned[: -len(spec.unit)].strip()
    cleaned = cleaned.replace(",", "").replace("_", "").replace(" ", "")
    try:
        value = float(cleaned)
    except ValueError:
        return Reading(None, f"“{_short(text.strip())}” is not a number")
    if not math.isfinite(value):
        return Reading(None, f"“{_short(text.strip())}” is not a number")
    positive = spec.name in POSITIVE_FIELDS
    if value < 0 or (positive and value == 0):
        return Reading(None, "must be more than 0" if positive else "must be 0 or more")
    if value > MAX_FIGURE:
        return Reading(None, f"at most {MAX_FIGURE:,.0f}")
    if spec.kind == "int":
        if not value.is_integer():
            return Reading(None, "must be a whole number")
        return Reading(int(value))
    return Reading(value)


def _short(text: str, most: int = 24) -> str:
    return text if len(text) <= most else text[:most] + "…"
