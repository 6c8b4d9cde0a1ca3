"""Bar charts of the compared accelerators: one metric, the derived ratios, normalised.

One ``BarGraphItem`` per comparison slot (so a slot keeps its colour in every chart and
the legend), created once; a redraw only calls ``setOpts``. A part without the figure
gets no bar: a muted "n/a" with the reason sits where its bar would be.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QWidget

from dlhw_desktop.core.compare.comparison import (
    DERIVED_METRICS,
    MAX_PARTS,
    Metric,
    MetricValue,
    NormalisedGroup,
    absent_notes,
    best_indices,
    format_metric,
    format_number,
    metric_values,
    normalised_groups,
)
from dlhw_desktop.core.compare.scatter import short_name
from dlhw_desktop.core.parts import Part
from dlhw_desktop.ui.common.theme import ink_on
from dlhw_desktop.ui.compare.charts.base import (
    SLOT_COLOURS,
    ChartBase,
    ChartStyle,
    Hit,
    NumberAxis,
    layout_legend,
    make_plot,
    set_axis_label,
    style_plot,
    text_item,
    wrap_name,
)

BAR_THICKNESS = 0.68
NO_PEN = pg.mkPen(None)


@dataclass(frozen=True, slots=True)
class BarsState:
    """What a bar panel shows, kept so a palette change can redraw it."""

    names: tuple[str, ...]
    values: tuple[MetricValue, ...]
    metric: Metric
    precision: str
    colours: tuple[str, ...] = ()


INSIDE_FRACTION = 0.55
"""Bars at least this share of the longest carry their figure inside (see ``show``)."""


class HBarPanel:
    """A plot of horizontal bars, one per compared part, names on the left axis."""

    def __init__(self, style: ChartStyle, show_names: bool = True) -> None:
        self.style = style
        self.show_names = show_names
        self.plot = make_plot(style)
        self.plot.getViewBox().invertY(True)
        self.plot.showGrid(x=True, y=False, alpha=style.grid_alpha)
        # Major ticks only: fewer grid lines to read past, and half the axis paint time.
        self.plot.getAxis("bottom").setStyle(maxTickLevel=0)
        self.bars: list[pg.BarGraphItem] = []
        self.value_labels: list[pg.TextItem] = []
        self.absent_labels: list[pg.TextItem] = []
        for colour in SLOT_COLOURS[:MAX_PARTS]:
            bar = pg.BarGraphItem(x0=0.0, width=np.zeros(0), y=np.zeros(0),
                                  height=BAR_THICKNESS, brush=colour, pen=NO_PEN)
            self.plot.addItem(bar)
            self.bars.append(bar)
            value = text_item(style, (0.0, 0.5))
            absent = text_item(style, (0.0, 0.5), size_pt=8.5)
            for label in (value, absent):
                label.setVisible(False)
                self.plot.addItem(label)
            self.value_labels.append(value)
            self.absent_labels.append(absent)
        self.state: BarsState | None = None

    def set_title(self, text: str) -> None:
        self.plot.setTitle(escape(text), color=self.style.foreground, size="10pt")

    def show(self, names: Sequence[str], values: Sequence[MetricValue], metric: Metric,
             precision: str, colours: Sequence[str] = ()) -> list[Hit]:
        colours = list(colours) or list(SLOT_COLOURS[:len(values)])
        self.state = BarsState(tuple(names), tuple(values), metric, precision, tuple(colours))
        style = self.style
        count = len(values)
        raw = [v.value for v in values]
        best = best_indices(raw, metric.higher_is_better)
        known = [v for v in raw if v is not None]
        top = max(known) if known else 1.0
        hits: list[Hit] = []
        for slot, bar in enumerate(self.bars):
            value_label, absent_label = self.value_labels[slot], self.absent_labels[slot]
            value = raw[slot] if slot < count else None
            if slot >= count or value is None:
                bar.setOpts(width=np.zeros(0), y=np.zeros(0))
                value_label.setVisible(False)
                if slot < count:
                    reason = values[slot].reason or "unknown"
                    absent_label.setText(f"n/a ({reason})", color=style.muted)
                    absent_label.setPos(0, slot)
                    absent_label.setVisible(True)
                    hits.append(Hit(self.plot, QRectF(0, slot - 0.4, top, 0.8),
                                    f"{names[slot]}: n/a, {reason}"))
                else:
                    absent_label.setVisible(False)
                continue
            is_best = slot in best
            bar.setOpts(width=np.array([value]), y=np.array([float(slot)]),
                        brush=colours[slot],
                        pen=pg.mkPen(style.best_pen, width=2) if is_best else NO_PEN)
            text = format_metric(value, metric)
            weight = "bold" if is_best else "normal"
            suffix = "  (best)" if is_best else ""
            # A long bar carries its figure inside its end, so that no label runs past the
            # plot's edge at any size; a short one carries it after its end.
            inside = value >= top * INSIDE_FRACTION
            colour = ink_on(colours[slot]) if inside else style.foreground
            value_label.setHtml(f"<span style='color:{colour}; font-weight:{weight}'>"
                                + ("" if inside else "&nbsp;")
                                + f"{escape(text)}{suffix}" + ("&nbsp;" if inside else "")
                                + "</span>")
            value_label.setAnchor((1.0, 0.5) if inside else (0.0, 0.5))
            value_label.setPos(value, slot)
            value_label.setVisible(True)
            absent_label.setVisible(False)
            unit = metric.unit_for(precision)
            hits.append(Hit(self.plot, QRectF(0, slot - BAR_THICKNESS / 2, value,
                                              BAR_THICKNESS),
                            f"{names[slot]}\n{metric.title(precision)}: {text}"
                            + ("" if text.startswith("$") else f" {unit}")))
        axis = self.plot.getAxis("left")
        ticks = [(float(i), wrap_name(n) if self.show_names else "") for i, n in enumerate(names)]
        axis.setTicks([ticks, []])
        self.plot.getViewBox().setRange(xRange=(0, top * 1.28), yRange=(-0.6, max(count, 1) - 0.4),
                                        padding=0)
        return hits

    def restyle(self, style: ChartStyle) -> list[Hit]:
        self.style = style
        style_plot(self.plot, style)
        self.plot.showGrid(x=True, y=False, alpha=style.grid_alpha)
        for label in self.value_labels + self.absent_labels:
            label.setColor(style.foreground)
        if self.state is None:
            return []
        s = self.state
        return self.show(s.names, s.values, s.metric, s.precision, s.colours)


class BarsChart(ChartBase):
    """One metric for every compared part: the figure a buyer ranks by."""

    kind = "bars"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.panel = HBarPanel(self.style_)
        self.ci.addItem(self.title, row=0, col=0)
        self.ci.addItem(self.panel.plot, row=1, col=0)
        self.ci.addItem(self.notes, row=2, col=0)
        self._last: tuple[list[Part], Metric, str] | None = None

    @property
    def bars(self) -> list[pg.BarGraphItem]:
        return self.panel.bars

    def plots(self) -> list[pg.PlotItem]:
        return [self.panel.plot]

    def show_metric(self, parts: Sequence[Part], metric: Metric, precision: str) -> None:
        self._last = (list(parts), metric, precision)
        names = [short_name(p) for p in parts]
        values = metric_values(parts, metric, precision)
        better = "higher is better" if metric.higher_is_better else "lower is better"
        if parts:
            self.set_title(metric.title(precision), f"{better}; best outlined")
        else:
            self.set_title("No accelerators to compare",
                           "add some with the search box, a preset, or the Catalog tab")
        set_axis_label(self.panel.plot, "bottom", f"{metric.axis_label(precision)}", self.style_)
        self.set_hits(self.panel.show(names, values, metric, precision, self.colours(parts)))
        self.set_notes(absent_notes(names, values),
                       hints=["Hover a bar for its exact figure."])

    def restyle(self) -> None:
        self.panel.style = self.style_
        if self._last is not None:
            self.panel.restyle(self.style_)
            self.show_metric(*self._last)


class DerivedChart(ChartBase):
    """Small multiples of the ratios: per $1,000 and per watt, side by side."""

    kind = "derived"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.panels = [HBarPanel(self.style_, show_names=(i % 2 == 0))
                       for i in range(len(DERIVED_METRICS))]
        self.ci.addItem(self.title, row=0, col=0, colspan=2)
        for i, panel in enumerate(self.panels):
            self.ci.addItem(panel.plot, row=1 + i // 2, col=i % 2)
        self.ci.addItem(self.notes, row=3, col=0, colspan=2)
        self._last: tuple[list[Part], str] | None = None

    def plots(self) -> list[pg.PlotItem]:
        return [p.plot for p in self.panels]

    def panel_for(self, metric_key: str) -> HBarPanel:
        index = [m.key for m in DERIVED_METRICS].index(metric_key)
        return self.panels[index]

    def show_parts(self, parts: Sequence[Part], precision: str) -> None:
        self._last = (list(parts), precision)
        names = [short_name(p) for p in parts]
        self.set_title("Value for money and for power", f"at {precision}; higher is better; "
                       "best outlined")
        hits: list[Hit] = []
        notes: list[str] = []
        width = _names_width(names, self.panels[0].plot)
        for metric, panel in zip(DERIVED_METRICS, self.panels, strict=True):
            values = metric_values(parts, metric, precision)
            panel.set_title(metric.short_title(precision))
            set_axis_label(panel.plot, "bottom", metric.unit_for(precision), self.style_)
            panel.plot.getAxis("left").setWidth(width if panel.show_names else 8)
            hits.extend(panel.show(names, values, metric, precision, self.colours(parts)))
            for line in absent_notes(names, values):
                if line not in notes:
                    notes.append(line)
        self.set_hits(hits)
        self.set_notes(_merge_notes(notes),
                       hints=["Hover a bar for its exact figure."])

    def restyle(self) -> None:
        for panel in self.panels:
            panel.restyle(self.style_)
        if self._last is not None:
            self.show_parts(*self._last)


def _names_width(names: Sequence[str], plot: pg.PlotItem) -> int:
    """Width of the widest wrapped name, so left and right panels line up."""
    axis = plot.getAxis("left")
    metrics = QFontMetrics(axis.style.get("tickFont") or axis.font())
    widest = max((metrics.horizontalAdvance(line) for n in names
                  for line in wrap_name(n).split("\n")), default=40)
    return int(widest + 18)


def _merge_notes(notes: list[str]) -> list[str]:
    """Collapse ``No X figure, price unknown: A`` lines into one line per reason."""
    by_reason: dict[str, list[str]] = {}
    for line in notes:
        reason, _, who = line.partition(": ")
        for part in reason.split(", "):
            key = part[:1].upper() + part[1:]
            for name in who.split(", "):
                if name not in by_reason.setdefault(key, []):
                    by_reason[key].append(name)
    return [f"{reason}: {', '.join(who)}" for reason, who in by_reason.items()]


class NormalisedChart(ChartBase):
    """Every metric relative to a baseline part (= 1.0): grouped bars, a reference line."""

    kind = "normalised"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        style = self.style_
        self.plot = make_plot(style, left_suffix="×")
        self.plot.showGrid(x=False, y=True, alpha=style.grid_alpha)
        self.bars: list[pg.BarGraphItem] = []
        for colour in SLOT_COLOURS[:MAX_PARTS]:
            bar = pg.BarGraphItem(x=np.zeros(0), height=np.zeros(0), width=0.1, y0=0.0,
                                  brush=colour, pen=NO_PEN)
            self.plot.addItem(bar)
            self.bars.append(bar)
        self.reference = pg.InfiniteLine(pos=1.0, angle=0, movable=False,
                                         pen=pg.mkPen(style.foreground, width=1.5,
                                                      style=Qt.PenStyle.DashLine))
        self.reference.setZValue(10)
        self.plot.addItem(self.reference)
        self._labels: list[pg.TextItem] = []
        self.legend = layout_legend(columns=4)
        self.ci.addItem(self.title, row=0, col=0)
        self.ci.addItem(self.plot, row=1, col=0)
        self.ci.addItem(self.legend, row=2, col=0)
        self.ci.addItem(self.notes, row=3, col=0)
        self.groups: list[NormalisedGroup] = []
        self._legend_key: tuple[tuple[str, ...], tuple[str, ...], ChartStyle] | None = None
        self._last: tuple[list[Part], str, int | None, bool] | None = None

    def plots(self) -> list[pg.PlotItem]:
        return [self.plot]

    def _label(self, index: int) -> pg.TextItem:
        while len(self._labels) <= index:
            label = text_item(self.style_, (0.0, 0.5), size_pt=8, angle=90, opaque=True)
            label.setZValue(20)  # over the 1x line, which passes behind the labels
            self.plot.addItem(label)
            self._labels.append(label)
        return self._labels[index]

    def show_parts(self, parts: Sequence[Part], precision: str, baseline: int | None,
                   log: bool = False) -> None:
        self._last = (list(parts), precision, baseline, log)
        style = self.style_
        names = [short_name(p) for p in parts]
        count = len(parts)
        groups = normalised_groups(parts, precision, baseline)
        self.groups = groups
        base_name = names[baseline] if baseline is not None and baseline < count else ""
        self.set_title("Relative to a baseline",
                       f"{base_name} = 1.0; bars above the line are larger values "
                       "(better, except TDP and price)" if base_name else
                       "add accelerators to compare")
        step = 0.84 / max(count, 1)
        colours = self.colours(parts)
        hits: list[Hit] = []
        used = 0
        top = 1.0
        bottom = 1.0
        for slot, bar in enumerate(self.bars):
            xs: list[float] = []
            hs: list[float] = []
            for g, group in enumerate(groups if slot < count else []):
                x = g + (slot - (count - 1) / 2) * step
                ratio = group.ratios[slot]
                value = group.values[slot]
                label = self._label(used)
                used += 1
                if ratio is None:
                    why = (value.reason if value.value is None
                           else f"baseline has no {group.metric.short_title(precision)}")
                    label.setText("n/a", color=style.muted)
                    label.setPos(x, 1.0 if not log else 0.0)
                    label.setAnchor((0.0, 0.5))
                    hits.append(Hit(self.plot, QRectF(x - step / 2, 0, step, 1.0 if not log
                                                      else 0.3),
                                    f"{names[slot]}: n/a ({why})"))
                    continue
                height = math.log10(ratio) if log else ratio
                xs.append(x)
                hs.append(height)
                top = max(top, ratio)
                bottom = min(bottom, ratio)
                label.setText(f"{_ratio_text(ratio)}", color=style.foreground)
                label.setPos(x, height)
                label.setAnchor((0.0, 0.5) if height >= 0 else (1.0, 0.5))
                unit = group.metric.unit_for(precision)
                raw = format_metric(value.value, group.metric)
                hits.append(Hit(self.plot, QRectF(x - step / 2, 0, step, height),
                                f"{names[slot]}\n{group.metric.title(precision)}: {raw}"
                                + ("" if raw.startswith("$") else f" {unit}")
                                + f"\n{_ratio_text(ratio)} the baseline"))
            bar.setOpts(x=np.array(xs), height=np.array(hs), width=step * 0.9,
                        y0=0.0, **({"brush": colours[slot]} if slot < count else {}))
            bar.setVisible(slot < count)
        for label in self._labels[used:]:
            label.setVisible(False)
        for label in self._labels[:used]:
            label.setVisible(True)
        # Axes and the baseline line.
        ticks = [(float(g), _group_tick(group.metric, precision)) for g, group in
                 enumerate(groups)]
        bottom_axis = self.plot.getAxis("bottom")
        bottom_axis.setTicks([ticks, []])
        lines = max((t.count("\n") + 1 for _x, t in ticks), default=1)
        bottom_axis.setHeight(QFontMetrics(bottom_axis.font()).lineSpacing() * lines + 14)
        left = self.plot.getAxis("left")
        left.setLogMode(log)
        left.setStyle(maxTickLevel=2 if log else 0)  # log needs the 2, 3, 5 ticks
        set_axis_label(self.plot, "left", "Relative to the baseline (×)", style)
        self.reference.setPos(0.0 if log else 1.0)
        if log:
            span = max(math.log10(top), 0.1) * 1.25
            low = min(math.log10(bottom), -0.1) * 1.25
            self.plot.getViewBox().setRange(xRange=(-0.5, len(groups) - 0.5),
                                            yRange=(low, span), padding=0)
        else:
            self.plot.getViewBox().setRange(xRange=(-0.5, len(groups) - 0.5),
                                            yRange=(0, top * 1.18), padding=0)
        legend_key = (tuple(names), tuple(colours), style)
        if legend_key != self._legend_key:  # rebuilding it costs ~5 ms; names rarely change
            self._legend_key = legend_key
            self.legend.clear()
            self.legend.setLabelTextColor(style.foreground)
            for slot in range(count):
                self.legend.addItem(self.bars[slot], escape(names[slot]))
        self.set_hits(hits)
        self.set_notes(_normalised_notes(groups, names, baseline, precision),
                       hints=["Hover a bar for the figure behind its ratio."])

    def restyle(self) -> None:
        for label in self._labels:
            label.fill = pg.mkBrush(self.style_.background)
        self.plot.showGrid(x=False, y=True, alpha=self.style_.grid_alpha)
        self.reference.setPen(pg.mkPen(self.style_.foreground, width=1.5,
                                       style=Qt.PenStyle.DashLine))
        if self._last is not None:
            self.show_parts(*self._last)


def _ratio_text(ratio: float) -> str:
    return f"{format_number(ratio)}×"


def _group_tick(metric: Metric, precision: str) -> str:
    arrow = "↑" if metric.higher_is_better else "↓"
    return f"{wrap_name(metric.short_title(precision), 18)}\n({arrow} better)"


def _normalised_notes(groups: Sequence[NormalisedGroup], names: Sequence[str],
                      baseline: int | None, precision: str) -> list[str]:
    if baseline is None or not names:
        return []
    lines: list[str] = []
    missing_for_baseline = [g.metric.short_title(precision) for g in groups
                            if not g.baseline_known]
    if missing_for_baseline:
        lines.append(f"The baseline {names[baseline]} lacks "
                     f"{', '.join(missing_for_baseline)}: those groups cannot be normalised "
                     "(choose another baseline)")
    notes: list[str] = []
    for group in groups[:5]:
        if group.baseline_known:
            notes.extend(absent_notes(names, group.values))
    lines.extend(_merge_notes(notes))
    return lines


def normalised_heights(chart: NormalisedChart) -> list[list[float]]:
    """Each slot's bar heights, for tests and benchmarks."""
    return [list(np.asarray(b.opts["height"], dtype=float)) for b in chart.bars]


__all__ = ["BarsChart", "DerivedChart", "HBarPanel", "NormalisedChart", "NumberAxis",
           "normalised_heights"]
