"""A catalog part as the rest of the program sees it: plain data, no SQL, no Qt."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dlhw_desktop.core.field_values import value_label
from dlhw_desktop.core.fields import FIELDS_BY_NAME, Category, FieldSpec, fields_for

Value = str | int | float | bool | None

YOUR_FIGURE_SOURCE = "your figure"
"""The source a figure the user entered from the box carries (``core.user_figures``)."""


@dataclass(frozen=True, slots=True)
class FigureSource:
    """Where one figure came from, when it is not the part's own source."""

    source: str
    source_date: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Part:
    """One part: identity, price, provenance and its category's figures.

    ``specs`` holds the category's figures by field name; a missing or ``None``
    value means *unknown* (shown as "n/a", never treated as zero).
    """

    id: str
    category: Category
    vendor: str
    name: str
    source: str
    source_date: str
    price_usd: float | None = None
    price_high_usd: float | None = None
    """The top of a reported price range (``price_usd`` its bottom); None for one figure."""
    price_date: str | None = None
    price_kind: str | None = None
    release_year: int | None = None
    family: str | None = None
    notes: str | None = None
    specs: dict[str, Value] = field(default_factory=dict)
    figure_sources: dict[str, FigureSource] = field(default_factory=dict)
    custom: bool = False

    def get(self, name: str) -> Value:
        """Any field by name (common or category figure); ``None`` when unknown."""
        if name in _COMMON_ATTRS:
            return getattr(self, name)
        return self.specs.get(name)

    def number(self, name: str) -> float | None:
        """A numeric figure as float, ``None`` when unknown or not a number."""
        value = self.get(name)
        if value is None or isinstance(value, bool | str):
            return None
        return float(value)

    def text(self, name: str) -> str:
        value = self.get(name)
        return "" if value is None else str(value)

    def source_of(self, name: str) -> FigureSource:
        """The provenance of one figure: its own source, else the part's."""
        return self.figure_sources.get(name) or FigureSource(self.source, self.source_date)

    def figure_kind(self, name: str) -> str:
        """What one figure is: "your figure" (entered by the user), "measured" (a review's
        measurement), "derived" (by a published rule), "estimated", else "vendor" (the
        maker's figure as the catalog's sources give it; a custom part's figures are the
        user's own)."""
        own = self.figure_sources.get(name)
        if own is not None:
            if own.source == YOUR_FIGURE_SOURCE:
                return "your figure"
            lead = own.note.split(":", 1)[0].strip().lower() if own.note else ""
            if lead in ("measured", "derived", "estimated"):
                return lead
        return "your figure" if self.custom else "vendor"

    @property
    def display_name(self) -> str:
        return self.name if self.name.lower().startswith(self.vendor.lower()) else (
            f"{self.vendor} {self.name}"
        )

    def figures(self) -> list[tuple[FieldSpec, Value]]:
        """Every field of the category with its value (unknowns included), in order."""
        return [(spec, self.get(spec.name)) for spec in fields_for(self.category)]

    def to_dict(self) -> dict[str, Any]:
        """Flat JSON-ready form: every field of the category plus figure sources."""
        data: dict[str, Any] = {spec.name: value for spec, value in self.figures()}
        data["category"] = self.category.value
        data["custom"] = self.custom
        data["figure_sources"] = {
            k: {"source": v.source, "source_date": v.source_date, "note": v.note}
            for k, v in sorted(self.figure_sources.items())
        }
        return data


_COMMON_ATTRS = frozenset(
    {"id", "category", "vendor", "name", "source", "source_date", "price_usd",
     "price_high_usd", "price_date", "price_kind", "release_year", "family", "notes"}
)


_PLURAL_UNITS = frozenset({"slots"})  # "1 slot", "2 slots"


def format_value(name: str, value: Value) -> str:
    """Human text for a figure: unit-aware, ``n/a`` for unknown."""
    if value is None or value == "":
        return "n/a"
    spec = FIELDS_BY_NAME.get(name)
    if isinstance(value, bool) or (spec is not None and spec.kind == "bool"):
        return "yes" if value else "no"
    if isinstance(value, float | int) and spec is not None and spec.numeric:
        if name.endswith("_usd"):
            text = f"{value:,.2f}" if value < 100 else f"{value:,.0f}"
            return f"${text}" + (f"/{spec.unit.split('/')[1]}" if "/" in spec.unit else "")
        if isinstance(value, float) and not value.is_integer():
            text = f"{value:,.2f}".rstrip("0").rstrip(".") if value < 100 else f"{value:,.1f}"
        else:
            text = f"{int(value):,}" if name != "release_year" else str(int(value))
        if not spec.unit or name == "release_year":
            return text
        unit = spec.unit[:-1] if spec.unit in _PLURAL_UNITS and value == 1 else spec.unit
        return f"{text} {unit}"
    if isinstance(value, Category):
        return value.label
    return value_label(name, str(value))


def slugify(text: str) -> str:
    """Lower-case ASCII slug: ``GeForce RTX 4090`` -> ``geforce-rtx-4090``."""
    import re
    import unicodedata

    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def make_part_id(category: Category | str, vendor: str, name: str) -> str:
    """The stable id ``category/vendor-model``; a name that repeats the vendor is not doubled."""
    cat = category.value if isinstance(category, Category) else category
    vendor_slug, name_slug = slugify(vendor), slugify(name)
    if name_slug.startswith(vendor_slug + "-") or name_slug == vendor_slug:
        return f"{cat}/{name_slug}"
    return f"{cat}/{vendor_slug}-{name_slug}"
