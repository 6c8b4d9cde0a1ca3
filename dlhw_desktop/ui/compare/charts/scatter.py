"""Every accelerator of the catalog at once: throughput against price or power.

One scatter item per vendor (colour and legend entry), created once; the compared parts
are ringed and named, and the notable outliers (highest throughput, most per dollar or
watt) named too, each label placed where it crosses no other (``label_layout``). Hover a
point for its figures; click it to add it to the comparison.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGraphicsItem, QWidget

from dlhw_desktop.core.compare.comparison import M_THROUGHPUT
from dlhw_desktop.core.compare.scatter import (
    SCATTER_X,
    ScatterData,
    ScatterPoint,
    notable_points,
    short_name,
)
from dlhw_desktop.core.parts import Part
from dlhw_desktop.ui.compare.charts.base import (
    OTHER_VENDOR,
    SLOT_COLOURS,
    VENDOR_COLOURS,
    ChartBase,
    make_plot,
    set_axis_label,
    style_plot,
    text_item,
)
from dlhw_desktop.ui.compare.charts.label_layout import LabelRequest, place_labels

X_WORDS = {"price": "price", "tdp": "board power (TDP)"}
NOTABLE = 6
"""Outliers named besides the compared parts."""
PADDING = 0.06
"""Of the data's span on each side, so that edge markers are whole."""


def marker_size(memory_gb: float | None) -> float:
    """Marker diameter in pixels: area grows with memory; unknown memory is small."""
    if memory_gb is None or memory_gb <= 0:
        return 6.0
    return float(min(34.0, max(6.0, 4.0 + 2.2 * math.sqrt(memory_gb))))


def _tip(x: float, y: float, data: object) -> str:
    return data.tooltip if isinstance(data, ScatterPoint) else ""


class ScatterChart(ChartBase):
    """Throughput at the chosen precision against price or TDP, for the whole catalog."""

    kind = "scatter"
    part_clicked = Signal(str)

    def __init__(self, vendors: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        style = self.style_
        self.plot = make_plot(style)
        self.plot.getViewBox().setMouseEnabled(x=True, y=True)
        self.plot.showGrid(x=True, y=True, alpha=style.grid_alpha)
        # Top left: the corner a chip would need to beat every other (rarely populated).
        self.legend = self.plot.addLegend(offset=(10, 8), labelTextSize="9pt",
                                          brush=pg.mkBrush(style.background + "e0"),
                                          pen=pg.mkPen(style.muted))
        self.legend.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, False)
        self.vendor_items: dict[str, pg.ScatterPlotItem] = {}
        for vendor in vendors:
            colour = VENDOR_COLOURS.get(vendor, OTHER_VENDOR)
            item = pg.ScatterPlotItem(
                size=9, pen=pg.mkPen(colour, width=1), brush=pg.mkBrush(colour + "99"),
                hoverable=True, hoverPen=pg.mkPen(style.foreground, width=2), tip=_tip,
                name=vendor)
            item.sigClicked.connect(self._clicked)
            self.plot.addItem(item)
            self.vendor_items[vendor] = item
        self.rings = pg.ScatterPlotItem(size=14, brush=None, pxMode=True)
        self.plot.addItem(self.rings)
        self.labels: list[pg.TextItem] = []
        for _ in range(len(SLOT_COLOURS) + NOTABLE):
            label = text_item(style, (0.0, 0.0), size_pt=9)
            label.setVisible(False)
            self.plot.addItem(label)
            self.labels.append(label)
        # (label, x, y in plot coordinates, marker radius in pixels, required)
        self._wanted: list[tuple[pg.TextItem, float, float, float, bool]] = []
        self.plot.getViewBox().sigResized.connect(self._layout_labels)
        self.plot.getViewBox().sigRangeChangedManually.connect(self._layout_labels)
        self.ci.addItem(self.title, row=0, col=0)
        self.ci.addItem(self.plot, row=1, col=0)
        self.ci.addItem(self.notes, row=2, col=0)
        self.data: ScatterData | None = None
        self._last: tuple[ScatterData, list[Part], str, str, bool] | None = None

    def plots(self) -> list[pg.PlotItem]:
        return [self.plot]

    def _clicked(self, _item: pg.ScatterPlotItem, points: Sequence[pg.SpotItem],
                 _event: object) -> None:
        if len(points):
            data = points[0].data()
            if isinstance(data, ScatterPoint):
                self.part_clicked.emit(data.part_id)

    def show_data(self, data: ScatterData, compared: Sequence[Part], precision: str,
                  x_key: str, log: bool) -> None:
        """Plot ``data`` (from ``core.compare.scatter_points``); ring the compared parts."""
        self._last = (data, list(compared), precision, x_key, log)
        self.data = data
        style = self.style_

        def tx(v: float) -> float:
            return math.log10(v) if log else v

        groups = data.by_vendor()
        self.legend.clear()
        self.legend.setLabelTextColor(style.foreground)
        for vendor, item in self.vendor_items.items():
            points = groups.get(vendor, [])
            item.setData(x=np.array([tx(p.x) for p in points]),
                         y=np.array([tx(p.y) for p in points]),
                         size=np.array([marker_size(p.memory_gb) for p in points]),
                         data=np.array(points, dtype=object) if points else None)
            item.setVisible(bool(points))
            if points:
                self.legend.addItem(item, f"{vendor} ({len(points)})")
        # Ring and name the compared parts that have both figures, then the outliers.
        by_id = {p.part_id: p for p in data.points}
        rings_x: list[float] = []
        rings_y: list[float] = []
        rings_size: list[float] = []
        pens = []
        missing: list[str] = []
        wanted: list[tuple[str, ScatterPoint, bool]] = []
        colours = self.colours(compared)
        for slot, part in enumerate(compared[:len(SLOT_COLOURS)]):
            point = by_id.get(part.id)
            if point is None:
                missing.append(short_name(part))
                continue
            rings_x.append(tx(point.x))
            rings_y.append(tx(point.y))
            rings_size.append(marker_size(point.memory_gb) + 8)
            pens.append(pg.mkPen(colours[slot], width=2.5))
            wanted.append((short_name(part), point, True))
        compared_ids = {p.id for p in compared}
        wanted += [(point.name, point, False) for point in notable_points(data, NOTABLE)
                   if point.part_id not in compared_ids]
        self._wanted = []
        for label, (text, point, required) in zip(self.labels, wanted, strict=False):
            colour = style.foreground if required else style.muted
            label.setText(text, color=colour)
            self._wanted.append((label, tx(point.x), tx(point.y),
                                 marker_size(point.memory_gb) / 2 + 2, required))
        for label in self.labels[len(self._wanted):]:
            label.setVisible(False)
        self.rings.setData(x=np.array(rings_x), y=np.array(rings_y),
                           size=np.array(rings_size), pen=pens, brush=None)
        x_metric = SCATTER_X[x_key]
        for axis in ("bottom", "left"):
            self.plot.getAxis(axis).setLogMode(log)
        set_axis_label(self.plot, "bottom", x_metric.axis_label(precision)
                       + ("  [log scale]" if log else ""), style)
        set_axis_label(self.plot, "left", M_THROUGHPUT.axis_label(precision)
                       + ("  [log scale]" if log else ""), style)
        x_words = X_WORDS[x_key]
        self.set_title(f"{M_THROUGHPUT.short_title(precision)} against {x_words}, "
                       "whole catalog",
                       f"{len(data.points)} accelerators with both figures; up and to the "
                       f"{'left' if not x_metric.higher_is_better else 'right'} is better")
        notes = ["Marker area grows with memory size. Compared parts are ringed and named; "
                 "the highest and the most efficient others are named in grey."]
        if data.omitted:
            notes.append(f"{data.omitted} accelerators lack a {precision} figure or a "
                         f"{x_words} and are not plotted"
                         + (f" (of those compared: {', '.join(missing)})" if missing else ""))
        self.set_notes(notes, hints=["Hover a point for its figures; click it to add it to "
                                     "the comparison."])
        xs = [tx(p.x) for p in data.points] or [0.0, 1.0]
        ys = [tx(p.y) for p in data.points] or [0.0, 1.0]
        self.plot.getViewBox().setRange(xRange=_padded(xs), yRange=_padded(ys), padding=0)
        self._layout_labels()

    def _layout_labels(self, *_args: object) -> None:
        """Place the names where none crosses another or the plot's edge (re-run when the
        plot is resized or panned: the pixels per unit change)."""
        vb = self.plot.getViewBox()
        (x0, x1), (y0, y1) = vb.viewRange()
        width, height = max(vb.width(), 1.0), max(vb.height(), 1.0)
        if x1 <= x0 or y1 <= y0 or not self._wanted:
            return
        requests = []
        for label, x, y, radius, required in self._wanted:
            box = label.textItem.boundingRect()  # pixels: the label ignores the zoom
            requests.append(LabelRequest((x - x0) / (x1 - x0) * width,
                                         (y1 - y) / (y1 - y0) * height,
                                         box.width(), box.height(), radius, required))
        shown = {p.index: p for p in place_labels(requests, (0.0, 0.0, width, height))}
        for index, (label, *_rest) in enumerate(self._wanted):
            placement = shown.get(index)
            label.setVisible(placement is not None)
            if placement is not None:
                left, top = placement.rect[0], placement.rect[1]
                label.setPos(x0 + left / width * (x1 - x0), y1 - top / height * (y1 - y0))

    def restyle(self) -> None:
        style = self.style_
        style_plot(self.plot, style)
        self.plot.showGrid(x=True, y=True, alpha=style.grid_alpha)
        self.legend.setBrush(pg.mkBrush(style.background + "e0"))
        self.legend.setPen(pg.mkPen(style.muted))
        for item in self.vendor_items.values():
            item.opts["hoverPen"] = pg.mkPen(style.foreground, width=2)
        if self._last is not None:
            self.show_data(*self._last)


def _padded(values: Sequence[float]) -> tuple[float, float]:
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    return low - span * PADDING, high + span * PADDING
