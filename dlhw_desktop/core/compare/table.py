"""The Compare tab's side-by-side table: one column per accelerator, one row per figure,
the best of each row marked; and the same table as CSV and Markdown for a report.

Pure Python; unknown figures are ``None`` and print as "n/a" (never 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dlhw_desktop.core.compare.comparison import (
    DERIVED_METRICS,
    best_indices,
    format_metric,
    metric_figure,
)
from dlhw_desktop.core.fields import FIELDS_BY_NAME, PRECISION_FIELDS
from dlhw_desktop.core.files.csv_cells import csv_text
from dlhw_desktop.core.formatting import markdown_text, price_range_text
from dlhw_desktop.core.parts import Part, format_value

Cell = float | str | None


@dataclass(frozen=True, slots=True)
class TableRow:
    """One figure across the compared parts: raw values, display texts, best, sources."""

    key: str
    label: str  # with its unit, e.g. "Memory (GB)"
    values: tuple[Cell, ...]
    texts: tuple[str, ...]
    sources: tuple[str, ...]
    best: frozenset[int] = frozenset()
    emphasised: bool = False  # the chosen precision's row
    derived: bool = False


@dataclass(frozen=True, slots=True)
class SpecTable:
    ids: tuple[str, ...]
    names: tuple[str, ...]
    rows: tuple[TableRow, ...]
    part_sources: tuple[str, ...] = ()  # each part's own source, with the date it was read

    def row(self, key: str) -> TableRow:
        return next(r for r in self.rows if r.key == key)


_TEXT_ROWS_TOP = ("vendor", "accelerator_type", "market_segment", "form_factor")
_NUMBER_ROWS = (("memory_gb", True), ("memory_bandwidth_gb_s", True), ("tdp_w", False),
                ("price_usd", False))
_TEXT_ROWS_BOTTOM = ("memory_type", "interconnect", "software", "release_year")


def _source_text(part: Part, name: str) -> str:
    src = part.source_of(name)
    text = f"{src.source} (read {src.source_date})" if src.source_date else src.source
    return f"{text} — {src.note}" if src.note else text


def spec_table(parts: Sequence[Part], precision: str) -> SpecTable:
    """Rows of figures with units, one column per part, "n/a" for unknown, best marked."""
    rows: list[TableRow] = []

    def text_row(name: str) -> TableRow:
        spec = FIELDS_BY_NAME[name]
        values = tuple(p.get(name) for p in parts)
        texts = tuple(format_value(name, v) if name != "accelerator_type" or v is None
                      else str(v).upper() for v in values)
        return TableRow(name, spec.label, tuple(None if v is None else str(v) for v in values),
                        texts, tuple(_source_text(p, name) for p in parts))

    def number_row(name: str, higher: bool, emphasised: bool = False) -> TableRow:
        spec = FIELDS_BY_NAME[name]
        values = [metric_figure(p, name, precision).value for p in parts]
        texts = [_number_text(name, v) for v in values]
        if name == "price_usd":  # a reported range reads as one; the low end ranks it
            texts = [price_range_text(v, p.price_high_usd) if v is not None and
                     p.price_high_usd is not None else t
                     for v, p, t in zip(values, parts, texts, strict=True)]
        return TableRow(name, spec.header, tuple(values), tuple(texts),
                        tuple(_source_text(p, name) for p in parts),
                        best_indices(values, higher), emphasised)

    rows.extend(text_row(n) for n in _TEXT_ROWS_TOP)
    for prec, name in PRECISION_FIELDS.items():
        rows.append(number_row(name, True, emphasised=prec == precision))
    rows.extend(number_row(n, higher) for n, higher in _NUMBER_ROWS)
    for metric in DERIVED_METRICS:
        values = [metric.value(p, precision).value for p in parts]
        fields = metric.fields(precision)
        sources = tuple(
            "Derived: " + " ÷ ".join(FIELDS_BY_NAME[f].label for f in fields) + "\n"
            + "\n".join(f"{FIELDS_BY_NAME[f].label}: {_source_text(p, f)}" for f in fields)
            for p in parts)
        rows.append(TableRow(metric.key, metric.short_title(precision), tuple(values),
                             tuple(format_metric(v, metric) for v in values), sources,
                             best_indices(values, metric.higher_is_better), derived=True))
    rows.extend(text_row(n) for n in _TEXT_ROWS_BOTTOM)
    return SpecTable(tuple(p.id for p in parts), tuple(p.display_name for p in parts),
                     tuple(rows), tuple(_part_source(p) for p in parts))


def _part_source(part: Part) -> str:
    return f"{part.source} (read {part.source_date})" if part.source_date else part.source


def _number_text(name: str, value: float | None) -> str:
    """A figure without its unit (the row label carries it): ``1,555``, ``$11,000``."""
    if value is None:
        return "n/a"
    if name == "price_usd":
        return f"${value:,.0f}"
    if value.is_integer():
        return f"{int(value):,}"
    if abs(value) < 100:
        return f"{value:,.2f}".rstrip("0").rstrip(".")
    return f"{value:,.1f}"


def _plain(value: Cell) -> str:
    """Machine-readable cell: ``312``, ``0.0284``, text as is, empty for unknown (a
    spreadsheet then reads the column as numbers, and "unknown" is not a number)."""
    if value is None or value == "":
        return ""
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.6g}"
    return str(value)


def table_csv(table: SpecTable) -> str:
    """CSV for a spreadsheet: one row per part, one column per figure with its unit in the
    header, plain numbers (no separators), empty for unknown; the part's id, its source,
    and the sources of figures that come from elsewhere ("Label: source; ...")."""
    rows: list[list[object]] = [["Part id", "Name", *(row.label for row in table.rows),
                                 "Source", "Other figure sources"]]
    for column, (part_id, name) in enumerate(zip(table.ids, table.names, strict=True)):
        own = table.part_sources[column] if column < len(table.part_sources) else ""
        others = [f"{row.label}: {row.sources[column]}" for row in table.rows
                  if not row.derived and row.values[column] is not None
                  and row.sources[column] != own]
        rows.append([part_id, name, *(_plain(row.values[column]) for row in table.rows),
                     own, "; ".join(others)])
    return csv_text(rows)  # a cell such as "=HYPERLINK(...)" is neutralised


def _md(text: str) -> str:
    return markdown_text(text)


def table_markdown(table: SpecTable, precision: str | None = None) -> str:
    """A GitHub-style pipe table; the best value of each row in bold."""
    lines = ["| Figure | " + " | ".join(_md(n) for n in table.names) + " |",
             "|---|" + "---:|" * len(table.names)]
    for row in table.rows:
        cells = [f"**{_md(t)}**" if i in row.best else _md(t) for i, t in enumerate(row.texts)]
        label = f"**{_md(row.label)}**" if row.emphasised else _md(row.label)
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    foot = "Best value per row in bold; n/a = no figure in the catalog."
    if precision:
        foot = f"Derived figures at {precision}. " + foot
    return "\n".join(lines) + "\n\n" + foot + "\n"
