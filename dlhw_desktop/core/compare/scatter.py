"""The whole catalog as a scatter: every accelerator with the two figures plotted, the
outliers worth naming, short names for crowded axes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dlhw_desktop.core.compare.comparison import (
    BASE_METRICS,
    M_PRICE,
    M_TDP,
    M_THROUGHPUT,
    Metric,
    format_metric,
)
from dlhw_desktop.core.parts import Part


# --- names -----------------------------------------------------------------------------
def short_name(part: Part) -> str:
    """The name without its vendor (``A100 PCIe 40 GB``) for crowded axes."""
    name = part.name
    vendor = part.vendor
    if name.lower().startswith(vendor.lower() + " "):
        name = name[len(vendor) + 1:]
    return name


# --- the scatter of the whole catalog --------------------------------------------------
@dataclass(frozen=True, slots=True)
class ScatterPoint:
    part_id: str
    name: str
    vendor: str
    x: float
    y: float
    memory_gb: float | None
    tooltip: str


@dataclass(frozen=True, slots=True)
class ScatterData:
    points: tuple[ScatterPoint, ...]
    omitted: int  # parts without the x or y figure

    def by_vendor(self) -> dict[str, list[ScatterPoint]]:
        groups: dict[str, list[ScatterPoint]] = {}
        for point in self.points:
            groups.setdefault(point.vendor, []).append(point)
        return groups


SCATTER_X: dict[str, Metric] = {"price": M_PRICE, "tdp": M_TDP}


def notable_points(data: ScatterData, limit: int = 6) -> list[ScatterPoint]:
    """The points a reader of the whole-catalog scatter looks for first, in turn: the
    highest throughput, then the most throughput per unit of x (per dollar or per watt:
    both axes' x figures are costs); at most ``limit``, none twice."""
    by_y = sorted(data.points, key=lambda p: (-p.y, p.name))
    by_ratio = sorted((p for p in data.points if p.x > 0),
                      key=lambda p: (-p.y / p.x, p.name))
    chosen: list[ScatterPoint] = []
    seen: set[str] = set()
    for pair in zip(by_y, by_ratio, strict=False):
        for point in pair:
            if point.part_id not in seen and len(chosen) < limit:
                seen.add(point.part_id)
                chosen.append(point)
    return chosen


def part_tooltip(part: Part, precision: str) -> str:
    """Name and the figures a buyer looks at first, for hover tips."""
    lines = [part.display_name]
    for metric in BASE_METRICS:
        value = metric.value(part, precision).value
        lines.append(f"{metric.short_title(precision)}: {format_metric(value, metric)}"
                     + (f" {metric.unit_for(precision)}" if value is not None
                        and metric is not M_PRICE else ""))
    return "\n".join(lines)


def scatter_points(parts: Iterable[Part], precision: str, x_key: str = "price") -> ScatterData:
    """Every part with both figures: x = price or TDP, y = throughput at ``precision``."""
    x_metric = SCATTER_X[x_key]
    points: list[ScatterPoint] = []
    omitted = 0
    for part in parts:
        x = x_metric.value(part, precision).value
        y = M_THROUGHPUT.value(part, precision).value
        if x is None or y is None:
            omitted += 1
            continue
        points.append(ScatterPoint(part.id, part.display_name, part.vendor, x, y,
                                   part.number("memory_gb"), part_tooltip(part, precision)))
    return ScatterData(tuple(points), omitted)
