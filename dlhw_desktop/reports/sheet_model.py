"""The build sheet as plain data: what a PDF (or any other renderer) prints, already as text.

Every figure is a string ready to print, with "n/a" for unknown; the raw numbers a
renderer needs (chart values) are kept beside them as ``float | None``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dlhw_desktop.core.verdict import Status

if TYPE_CHECKING:
    from dlhw_desktop.reports.cluster_section import ClusterSection


@dataclass(frozen=True, slots=True)
class Figure:
    """One labelled value: ``Sustained power`` = ``1,393 W`` (note: how it was reached)."""

    label: str
    value: str
    note: str = ""
    key: str = ""


@dataclass(frozen=True, slots=True)
class PartRow:
    """One line of the parts table."""

    category: str
    name: str
    part_id: str
    quantity: int
    unit_price: str
    subtotal: str
    source: str
    source_ref: int | None = None
    """1-based number of the part's source in ``BuildSheet.sources``."""
    price_date: str = ""
    unit_price_usd: float | None = None
    subtotal_usd: float | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class CheckRow:
    """One check: its status and the one-line message with the numbers that decided it."""

    id: str
    kind: str
    kind_label: str
    status: Status
    message: str
    suggestion: str = ""
    basis: str = ""
    """What the verdict rests on: its figures and their kinds (vendor, measured,
    estimated, derived, your figure), in one line."""


@dataclass(frozen=True, slots=True)
class WorkloadSection:
    """The workload fit: will the model fit, how long, what it costs (when a model is set)."""

    title: str
    status: Status
    settings: tuple[Figure, ...] = ()
    memory: tuple[Figure, ...] = ()
    """Per-GPU memory, item by item; the last row is the total."""
    verdicts: tuple[CheckRow, ...] = ()
    estimates: tuple[Figure, ...] = ()
    notes: tuple[str, ...] = ()
    error: str = ""
    """Why the workload could not be estimated (the section then holds only this)."""


@dataclass(frozen=True, slots=True)
class Segment:
    """One stacked piece of a bar; ``value`` ``None`` = unknown (not drawn, said in text)."""

    name: str
    value: float | None


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    segments: tuple[Segment, ...]
    highlight: bool = False
    """The build's own item among alternatives."""
    text: str = ""
    """What to print at the end of the bar (the total with its unit, or "n/a")."""

    @property
    def known(self) -> bool:
        return any(s.value is not None for s in self.segments)

    @property
    def total(self) -> float | None:
        values = [s.value for s in self.segments if s.value is not None]
        return sum(values) if values else None


@dataclass(frozen=True, slots=True)
class Marker:
    """A reference line across the bars (a GPU's memory size, a 90 % line)."""

    label: str
    value: float


@dataclass(frozen=True, slots=True)
class BarChart:
    """Horizontal bars, optionally stacked; ``series`` names the stack order (the legend)."""

    key: str
    title: str
    unit: str
    bars: tuple[Bar, ...]
    series: tuple[str, ...] = ()
    markers: tuple[Marker, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def stacked(self) -> bool:
        return len(self.series) > 1

    @property
    def max_value(self) -> float:
        values = [b.total for b in self.bars if b.total is not None]
        values += [m.value for m in self.markers]
        return max(values, default=0.0)


@dataclass(frozen=True, slots=True)
class SourceRow:
    """A distinct data source of the parts (and model) on the sheet."""

    ref: int
    source: str
    read: str
    used_by: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BuildSheet:
    """Everything a build sheet prints, in reading order."""

    title: str
    build_name: str
    notes: str
    date: str
    tier: str
    verdict: Status
    verdict_counts: tuple[tuple[Status, int], ...]
    headline: tuple[Figure, ...]
    parts: tuple[PartRow, ...]
    price_total: Figure
    totals: tuple[Figure, ...]
    checks: tuple[CheckRow, ...]
    workload: WorkloadSection | None
    charts: tuple[BarChart, ...]
    sources: tuple[SourceRow, ...]
    catalog_version: str
    data_date: str
    app_name: str
    app_version: str
    warnings: tuple[str, ...] = ()
    assumptions: tuple[str, ...] = ()
    incomplete: str = ""
    """What the build still lacks ("Not yet chosen: ..."), "" when complete."""
    cluster: ClusterSection | None = None
    """N nodes of this build: the cluster section (a sheet exported from the Cluster tab)."""
    your_figures: tuple[str, ...] = ()
    """Figures the builder entered from the box ("Noctua NH-L9i: rated heat capacity 95 W,
    entered 2026-11-20"), carried in the build file."""

    def chart(self, key: str) -> BarChart | None:
        return next((c for c in self.charts if c.key == key), None)

    def texts(self) -> Iterator[str]:
        """Every string the sheet prints (a renderer checks its font can draw them)."""
        yield from (self.title, self.build_name, self.notes, self.date, self.tier,
                    self.catalog_version, self.data_date, self.app_name, self.app_version,
                    self.incomplete)
        yield from self.warnings
        yield from self.assumptions
        yield from self.your_figures
        for figure in (*self.headline, self.price_total, *self.totals):
            yield from (figure.label, figure.value, figure.note)
        for part in self.parts:
            yield from (part.category, part.name, part.unit_price, part.subtotal, part.source,
                        part.price_date, part.note)
        for check in self.checks:
            yield from (check.kind_label, check.message, check.suggestion, check.basis)
        if self.workload is not None:
            w = self.workload
            yield from (w.title, w.error, *w.notes)
            for figure in (*w.settings, *w.memory, *w.estimates):
                yield from (figure.label, figure.value, figure.note)
            for check in w.verdicts:
                yield from (check.message, check.suggestion)
        for chart in self.charts:
            yield from (chart.title, chart.unit, *chart.series, *chart.notes)
            for bar in chart.bars:
                yield from (bar.label, bar.text)
            for marker in chart.markers:
                yield marker.label
        for source in self.sources:
            yield from (source.source, source.read, *source.used_by)
        if self.cluster is not None:
            yield from self.cluster.texts()
