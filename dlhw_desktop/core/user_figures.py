"""Figures the user enters from the box: validated like a custom part's, applied to a part.

Where the catalog holds no figure (a cooler's heat capacity, a power supply's connector
count, a board's x16 slot spacing), the user can read it from the maker's page or the box
and enter it. It is kept in their data (``catalog.user_figures_store``), applied to the
part wherever the part is looked up, so every check and estimate uses it, and it shows as
"your figure, <date>" wherever the figure is shown. A build file carries the figures of
its parts, so a colleague opening it gets the same verdict.

Every value is checked here, once, for every path (command line, dialog, build file,
the store on read): the field must be a figure of the part's category that a user may
set, a number must be finite and inside the field's range, a choice one of its choices.
An error names the field as a user knows it, with the range.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.core.fields import FIELDS_BY_NAME, Category, FieldSpec, fields_for
from dlhw_desktop.core.limits import MAX_FIGURE, MAX_TEXT_CHARS
from dlhw_desktop.core.parts import YOUR_FIGURE_SOURCE, FigureSource, Part, Value

MAX_FIGURES = 10_000
"""Most figures one store or one build file holds: far above any real use."""

NOT_SETTABLE = frozenset({
    "id", "category", "vendor", "name", "family", "source", "source_date", "notes",
    "price_usd", "price_date", "price_kind", "chip_id", "accelerator_id",
    "supported_gpus", "price_per_hour_usd", "price_per_accelerator_hour_usd",
    "price_per_month_usd",
})
"""Identity, provenance and prices: prices have their own book (``dlhw price``)."""

RANGES: dict[str, tuple[float, float]] = {
    "tdp_w": (1, 3_000), "sustained_power_w": (1, 2_000),
    "cooling_capacity_w": (10, 2_000), "measured_capacity_w": (10, 2_000),
    "measured_capacity_at_least_w": (10, 2_000),
    "height_mm": (10, 250), "radiator_mm": (80, 560),
    "wattage_w": (50, 20_000),
    "connectors_12vhpwr": (0, 16), "connectors_pcie_8pin": (0, 24), "connectors_eps": (0, 8),
    "pcie_x16_slots": (0, 16), "pcie_x4_x8_slots": (0, 16), "x16_slot_spacing": (1, 8),
    "m2_slots": (0, 32),
    "memory_slots": (0, 64), "cpu_sockets": (1, 8), "max_sockets": (1, 8),
    "slot_width": (1, 6), "board_length_mm": (50, 450), "suggested_psu_w": (100, 20_000),
    "max_gpu_length_mm": (100, 800), "max_cooler_height_mm": (20, 300),
    "expansion_slots": (1, 20), "max_radiator_mm": (80, 560), "fans_included": (0, 30),
    "case_fan_mm": (40, 250), "psu_bays": (0, 8),
    "heat_capacity_w": (10, 50_000),
    "memory_gb": (0.1, 100_000), "memory_bandwidth_gb_s": (1, 100_000),
    "cores": (1, 1_024), "threads": (1, 4_096), "pcie_lanes": (1, 1_024),
    "memory_channels": (1, 32), "release_year": (1970, 2100),
}
"""Plausible ranges of the figures users most often enter: a typo (a PSU of 85 W, a
cooler 1,600 mm tall) is refused with the range instead of judged."""

CHOICES: dict[str, tuple[str, ...]] = {
    "cooling": ("active", "blower", "passive"),
    "case_kind": ("tower", "rackmount", "open-frame"),
    "cooler_kind": ("air", "aio", "custom-loop"),
    "form_factor": ("pcie", "sxm", "oam", "integrated", "cloud"),
    "storage_kind": ("nvme", "sata-ssd", "hdd", "system"),
}
"""Text figures with a closed vocabulary: the checks read only these words."""

_ATX = re.compile(r"^(atx\s*)?([23])\.(\d|x)$", re.IGNORECASE)


class UserFigureError(DlhwError):
    """A figure the user entered cannot be used (wrong field, type or range)."""


@dataclass(frozen=True, slots=True)
class UserFigure:
    """One figure the user entered: which part, which field, the value, and when."""

    part_id: str
    field: str
    value: Value
    entered: str
    note: str = ""

    @property
    def label(self) -> str:
        spec = FIELDS_BY_NAME.get(self.field)
        return spec.label if spec is not None else self.field

    def to_dict(self) -> dict[str, Any]:
        return {"part_id": self.part_id, "field": self.field, "value": self.value,
                "entered": self.entered, "note": self.note}


def settable_fields(category: Category) -> list[FieldSpec]:
    """The figures of a category a user may enter (not identity, provenance or prices)."""
    return [spec for spec in fields_for(category) if spec.name not in NOT_SETTABLE]


def range_text(spec: FieldSpec) -> str:
    """``"a whole number of W from 50 to 20,000"``, ``"one of: active, blower, passive"``."""
    if spec.kind == "bool":
        return "yes or no"
    if spec.kind == "text":
        choices = CHOICES.get(spec.name)
        if choices:
            return "one of: " + ", ".join(choices)
        if spec.name == "atx_version":
            return "an ATX version such as 3.1, 3.0 or 2.x"
        return f"text of at most {MAX_TEXT_CHARS:,} characters"
    low, high = RANGES.get(spec.name, (0, MAX_FIGURE))
    if spec.name == "release_year":
        return f"a year from {low:.0f} to {high:.0f}"
    what = "a whole number" if spec.kind == "int" else "a number"
    unit = f" of {spec.unit}" if spec.unit else ""
    return f"{what}{unit} from {low:,g} to {high:,g}"


def field_for(category: Category, field: str) -> FieldSpec:
    """The field a user named (by its name or its label, any case) for this category."""
    wanted = field.strip().lower()
    settable = settable_fields(category)
    for spec in settable:
        if wanted in (spec.name, spec.label.lower()):
            return spec
    if wanted in NOT_SETTABLE or (wanted in FIELDS_BY_NAME
                                  and FIELDS_BY_NAME[wanted].name in NOT_SETTABLE):
        raise UserFigureError(f"{field!r} cannot be entered as a figure (prices go in your "
                              "price book: dlhw price set)")
    names = ", ".join(s.name for s in settable)
    raise UserFigureError(f"{field!r} is not a figure of a {category.label.lower()}; "
                          f"one of: {names}")


def check_value(spec: FieldSpec, raw: object) -> Value:
    """The value, typed and in range, or ``UserFigureError`` naming the field and range."""
    label = spec.label
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        raise UserFigureError(f"{label}: empty; enter {range_text(spec)}")
    if spec.kind == "bool":
        if isinstance(raw, bool):
            return raw
        word = str(raw).strip().lower()
        if word in ("yes", "true", "1"):
            return True
        if word in ("no", "false", "0"):
            return False
        raise UserFigureError(f"{label}: {_shown(raw)} is not yes or no")
    if spec.kind == "text":
        if not isinstance(raw, str):
            raise UserFigureError(f"{label}: {_shown(raw)} is not text")
        text = raw.strip()
        if len(text) > MAX_TEXT_CHARS or not text.isprintable():
            raise UserFigureError(f"{label}: not {range_text(spec)}")
        choices = CHOICES.get(spec.name)
        if choices:
            if text.lower() not in choices:
                raise UserFigureError(f"{label}: {_shown(text)} is not {range_text(spec)}")
            return text.lower()
        if spec.name == "atx_version":
            match = _ATX.match(text)
            if match is None:
                raise UserFigureError(f"{label}: {_shown(text)} is not {range_text(spec)}")
            return f"{match.group(2)}.{match.group(3).lower()}"
        return text
    number = _number(raw)
    low, high = RANGES.get(spec.name, (0, MAX_FIGURE))
    if number is None or not low <= number <= high:
        raise UserFigureError(f"{label}: {_shown(raw)} is not {range_text(spec)}")
    if spec.kind == "int":
        if not float(number).is_integer():
            raise UserFigureError(f"{label}: {_shown(raw)} is not {range_text(spec)}")
        return int(number)
    return float(number)


def _number(raw: object) -> float | None:
    """A finite number from a number or plain decimal text (no thousands separators, at
    most 30 characters: "1e308" and 5,000-digit strings are not figures)."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int | float):
        value = float(raw) if not isinstance(raw, int) or abs(raw) < 10**18 else math.inf
    elif isinstance(raw, str):
        text = raw.strip()
        if len(text) > 30 or not re.fullmatch(r"[+-]?(\d+(\.\d*)?|\.\d+)", text):
            return None
        value = float(text)
    else:
        return None
    return value if math.isfinite(value) else None


def _shown(raw: object) -> str:
    text = repr(raw)
    return text if len(text) <= 40 else text[:37] + "..."


def make_figure(part: Part, field: str, raw: object, note: str = "",
                entered: str | None = None) -> UserFigure:
    """A checked figure for one part (``UserFigureError`` when it cannot be used)."""
    if part.category is Category.CLOUD:
        raise UserFigureError("a cloud offering's figures come from its provider; "
                              "enter a quote in your price book instead")
    spec = field_for(part.category, field)
    if len(note) > MAX_TEXT_CHARS or not note.isprintable():
        raise UserFigureError(f"the note: at most {MAX_TEXT_CHARS:,} printable characters")
    when = entered or date.today().isoformat()
    if not _is_date(when):
        raise UserFigureError(f"the date entered: {_shown(when)} is not a date (YYYY-MM-DD)")
    return UserFigure(part.id, spec.name, check_value(spec, raw), when, note)


def _is_date(text: str) -> bool:
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        return False
    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


def revalidated(part: Part, figure: UserFigure) -> UserFigure:
    """A stored or carried figure checked again against this part (its category may have
    changed, a field may have been renamed): ``UserFigureError`` when it no longer fits."""
    return make_figure(part, figure.field, figure.value, figure.note, figure.entered)


def apply_figures(part: Part, figures: Iterable[UserFigure]) -> Part:
    """The part with the user's figures in place of its own (each sourced "your figure")."""
    mine = [f for f in figures if f.part_id == part.id]
    if not mine:
        return part
    specs = dict(part.specs)
    sources = dict(part.figure_sources)
    common: dict[str, Value] = {}
    for figure in mine:
        if figure.field == "release_year":
            common["release_year"] = figure.value
        else:
            specs[figure.field] = figure.value
        sources[figure.field] = FigureSource(
            YOUR_FIGURE_SOURCE, figure.entered,
            figure.note or f"entered by you on {figure.entered}")
    return replace(part, specs=specs, figure_sources=sources, **common)  # type: ignore[arg-type]


def figures_of(part: Part) -> list[UserFigure]:
    """The user's figures a part carries (to save them with a build)."""
    return [UserFigure(part.id, name, part.get(name), source.source_date,
                       "" if source.note.startswith("entered by you") else source.note)
            for name, source in sorted(part.figure_sources.items())
            if source.source == YOUR_FIGURE_SOURCE]


def from_mapping(data: Mapping[str, Any]) -> UserFigure:
    """A figure from a build file's or a store's row (checked for shape only; the value is
    checked against the part with ``revalidated``)."""
    part_id, field = data.get("part_id"), data.get("field")
    entered, note = data.get("entered", ""), data.get("note", "")
    if not isinstance(part_id, str) or not isinstance(field, str):
        raise UserFigureError("a figure without a part id and field")
    if not isinstance(entered, str) or not isinstance(note, str):
        raise UserFigureError(f"the figure {field} of {part_id}: date or note is not text")
    return UserFigure(part_id, field, data.get("value"), entered, note)
