"""Catalog rows as parts: every cell read defensively.

A damaged or hand-edited file can hold anything in any column (SQLite does not enforce
column types); this module turns what it finds into values the app can use, or unknown.
"""

from __future__ import annotations

import math
from typing import Any

from dlhw_desktop.catalog.source_refs import expand
from dlhw_desktop.core.errors import CatalogError
from dlhw_desktop.core.fields import COMMON_NAMES, Category, fields_for
from dlhw_desktop.core.limits import MAX_FIGURE
from dlhw_desktop.core.parts import FigureSource, Part


def row_to_part(row: dict[str, Any], sources: dict[str, FigureSource] | None = None,
                custom: bool = False) -> Part:
    """A plain row (column -> value) as a Part; used for the catalog and user parts.

    A damaged or hand-edited file can hold anything in any column (SQLite does not enforce
    column types): a number column's text or infinity reads as unknown, bytes and
    unencodable text are decoded with replacement marks, and a row of an unknown category
    is a ``CatalogError`` naming it, so nothing downstream meets a value it cannot use.
    """
    part_id = _text(row.get("id")) or "?"
    try:
        category = Category(row.get("category"))
    except ValueError:
        raise CatalogError(f"the part {part_id[:80]!r} has an unknown category "
                           f"{_text(row.get('category'))[:40]!r}; the file is damaged or "
                           "of another version") from None
    specs: dict[str, Any] = {}
    for spec in fields_for(category):
        if spec.name in COMMON_NAMES:
            continue
        value = read_cell(spec.kind, row.get(spec.name))
        if value is not None:
            specs[spec.name] = value
    year = read_cell("int", row.get("release_year"))
    return Part(
        id=part_id,
        category=category,
        vendor=_text(row.get("vendor")),
        name=_text(row.get("name")) or part_id,
        source=expand(_text(row.get("source"))),
        source_date=_text(row.get("source_date")),
        price_usd=read_cell("float", row.get("price_usd")),
        price_high_usd=read_cell("float", row.get("price_high_usd")),
        price_date=read_cell("text", row.get("price_date")),
        price_kind=read_cell("text", row.get("price_kind")),
        release_year=int(year) if year is not None else None,
        family=read_cell("text", row.get("family")),
        notes=read_cell("text", row.get("notes")),
        specs=specs,
        figure_sources=sources or {},
        custom=custom,
    )


def _text(value: Any) -> str:
    """Any cell as text a file or terminal can take (bytes and lone surrogates replaced)."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    text = value if isinstance(value, str) else str(value)
    return text.encode("utf-8", errors="replace").decode("utf-8")


def read_cell(kind: str, value: Any) -> Any:
    """A cell of a ``kind`` column as the app uses it; ``None`` (unknown) when it is not."""
    if value is None:
        return None
    if kind == "text":
        return _text(value)
    if kind == "bool":
        return bool(value) if isinstance(value, int | float) else None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None  # text or bytes in a number column
    if not math.isfinite(value) or abs(value) > MAX_FIGURE:
        return None
    return value
