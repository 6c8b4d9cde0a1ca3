"""Bar charts drawn as vectors with QPainter: crisp at any zoom, text selectable.

Horizontal bars suit the sheet's long labels (part names). Unknown values print "n/a"
where the bar would start and draw nothing: a missing figure never looks like a zero.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPaintDevice, QPainter, QPen

from dlhw_desktop.reports.sheet_model import BarChart
from dlhw_desktop.ui.pdf.blocks import Block, PaintBlock, draw_document, make_document
from dlhw_desktop.ui.pdf.page import mm
from dlhw_desktop.ui.pdf.style import (
    BAR,
    BODY_PT,
    HIGHLIGHT,
    INK,
    MUTED,
    RULE,
    SERIES,
    font,
)

LABEL_PT = 6.6
TICK_PT = 6.0
PITCH = mm(6.4)
BAR_FRACTION = 0.62
MARKER_STYLES = (Qt.PenStyle.SolidLine, Qt.PenStyle.DashLine, Qt.PenStyle.DotLine)
MARKER_COLOURS = ("#c62828", "#6b7280", "#6b7280")


def nice_step(maximum: float, ticks: int = 4) -> float:
    """A round tick step (1, 2, 2.5 or 5 x 10^n) giving about ``ticks`` intervals."""
    if maximum <= 0:
        return 1.0
    raw = maximum / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * power:
            return factor * power
    return 10 * power


def _tick_text(value: float, step: float) -> str:
    places = 0 if float(step).is_integer() else (1 if float(step * 10).is_integer() else 2)
    return f"{value:,.{places}f}"


class ChartLayout:
    """Measures one chart for a given width: where the labels, bars and legend go."""

    def __init__(self, chart: BarChart, width: float, device: QPaintDevice) -> None:
        self.chart = chart
        self.width = width
        self.device = device
        self.label_font = font(LABEL_PT)
        self.bold_label_font = font(LABEL_PT, bold=True)
        self.tick_font = font(TICK_PT)
        self.title_font = font(BODY_PT, bold=True)
        label_metrics = QFontMetricsF(self.label_font, device)
        title_flags = int(Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap)
        self.title_h = QFontMetricsF(self.title_font, device).boundingRect(
            QRectF(0, 0, width, 1e6), title_flags, chart.title).height() + mm(1.2)
        bold_metrics = QFontMetricsF(self.bold_label_font, device)
        widest = max(((bold_metrics if b.highlight else label_metrics).horizontalAdvance(b.label)
                      for b in chart.bars), default=0.0)
        self.label_w = min(max(widest + mm(1), width * 0.15), width * 0.36)
        self.value_w = max((label_metrics.horizontalAdvance(b.text) for b in chart.bars),
                           default=0.0) + mm(1.5)
        self.plot_w = max(width - self.label_w - self.value_w - mm(1.5), width * 0.25)
        # A row grows to hold its label wrapped (a long name takes three lines): a label
        # is never cut at the row's edge nor drawn over its neighbour's.
        wrap = int(Qt.AlignmentFlag.AlignRight | Qt.TextFlag.TextWordWrap)
        self.pitches = [max(PITCH, (bold_metrics if b.highlight else label_metrics)
                            .boundingRect(QRectF(0, 0, self.label_w, 1e6), wrap, b.label)
                            .height() + mm(1.2)) for b in chart.bars]
        self.bars_h = sum(self.pitches) if chart.bars else PITCH
        self.axis_h = QFontMetricsF(self.tick_font, device).height() + mm(1.6)
        self.legend = [(name, SERIES[i % len(SERIES)], None)
                       for i, name in enumerate(chart.series)] if chart.stacked else []
        self.legend += [(m.label, MARKER_COLOURS[i % 3], MARKER_STYLES[i % 3])
                        for i, m in enumerate(chart.markers)]
        self.legend_rows = self._legend_rows(label_metrics)
        self.legend_h = len(self.legend_rows) * (label_metrics.height() + mm(0.8))
        self.notes = None
        if chart.notes:
            html = "<br>".join(escape(n) for n in chart.notes)
            self.notes = make_document(f'<span style="color:{MUTED}">{html}</span>', width,
                                       device, TICK_PT)
        notes_h = self.notes.size().height() + mm(1.0) if self.notes is not None else 0.0
        self.height = self.title_h + self.bars_h + self.axis_h + self.legend_h + notes_h
        top = max(self.chart.max_value, 0.0)
        self.step = nice_step(top)
        self.scale_max = max(self.step * math.ceil(top / self.step), self.step) if top else 1.0

    def _legend_rows(self, metrics: QFontMetricsF) -> list[list[tuple[str, str, object]]]:
        rows: list[list[tuple[str, str, object]]] = []
        current: list[tuple[str, str, object]] = []
        used = 0.0
        for entry in self.legend:
            need = mm(4.5) + metrics.horizontalAdvance(entry[0]) + mm(3)
            if current and used + need > self.width:
                rows.append(current)
                current, used = [], 0.0
            current.append(entry)
            used += need
        if current:
            rows.append(current)
        return rows

    def x_of(self, value: float) -> float:
        return value / self.scale_max * self.plot_w

    def draw(self, painter: QPainter, rect: QRectF) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        chart = self.chart
        x0, y = rect.left(), rect.top()
        painter.setFont(self.title_font)
        painter.setPen(QColor(INK))
        painter.drawText(QRectF(x0, y, self.width, self.title_h),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
                         | Qt.TextFlag.TextWordWrap, chart.title)
        y += self.title_h
        plot_x = x0 + self.label_w + mm(1.5)
        plot_top, plot_bottom = y, y + self.bars_h
        # grid and axis
        painter.setFont(self.tick_font)
        value = 0.0
        tick_h = self.axis_h - mm(0.6)
        while value <= self.scale_max + 1e-9:
            gx = plot_x + self.x_of(value)
            painter.setPen(QPen(QColor(RULE), mm(0.12)))
            painter.drawLine(QPointF(gx, plot_top), QPointF(gx, plot_bottom))
            painter.setPen(QColor(MUTED))
            painter.drawText(QRectF(gx - mm(8), plot_bottom + mm(0.6), mm(16), tick_h),
                             Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                             _tick_text(value, self.step))
            value += self.step
        painter.setPen(QPen(QColor(MUTED), mm(0.2)))
        painter.drawLine(QPointF(plot_x, plot_top), QPointF(plot_x, plot_bottom))
        # bars
        top = plot_top
        for bar, pitch in zip(chart.bars, self.pitches, strict=True):
            painter.setFont(self.bold_label_font if bar.highlight else self.label_font)
            painter.setPen(QColor(INK))
            painter.drawText(QRectF(x0, top, self.label_w, pitch),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                             | Qt.TextFlag.TextWordWrap, bar.label)
            bar_h = PITCH * BAR_FRACTION
            bar_y = top + (pitch - bar_h) / 2
            end = plot_x
            if bar.known:
                for j, segment in enumerate(bar.segments):
                    if segment.value is None or segment.value <= 0:
                        continue
                    if chart.stacked:
                        colour = SERIES[j % len(SERIES)]
                    else:
                        colour = HIGHLIGHT if bar.highlight else BAR
                    w = self.x_of(segment.value)
                    painter.fillRect(QRectF(end, bar_y, w, bar_h), QColor(colour))
                    end += w
            painter.setFont(self.label_font)
            painter.setPen(QColor(INK if bar.known else MUTED))
            if chart.markers:  # text after the plot, clear of the reference lines
                end = plot_x + self.plot_w
            painter.drawText(QRectF(end + mm(1.0), top, self.value_w + mm(4), pitch),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             bar.text)
            top += pitch
        # reference lines
        for i, marker in enumerate(chart.markers):
            mx = plot_x + self.x_of(marker.value)
            pen = QPen(QColor(MARKER_COLOURS[i % 3]), mm(0.3))
            pen.setStyle(MARKER_STYLES[i % 3])
            painter.setPen(pen)
            painter.drawLine(QPointF(mx, plot_top - mm(0.6)), QPointF(mx, plot_bottom))
        y = plot_bottom + self.axis_h
        # legend
        metrics = QFontMetricsF(self.label_font, self.device)
        line_h = metrics.height() + mm(0.8)
        painter.setFont(self.label_font)
        for row in self.legend_rows:
            lx = x0 + self.label_w * 0.0
            for label, colour, style in row:
                mid = y + line_h / 2
                if style is None:
                    painter.fillRect(QRectF(lx, mid - mm(1.1), mm(3), mm(2.2)), QColor(colour))
                else:
                    pen = QPen(QColor(colour), mm(0.35))
                    pen.setStyle(style)  # type: ignore[arg-type]
                    painter.setPen(pen)
                    painter.drawLine(QPointF(lx + mm(1.5), mid - mm(1.3)),
                                     QPointF(lx + mm(1.5), mid + mm(1.3)))
                painter.setPen(QColor(INK))
                text_w = metrics.horizontalAdvance(label)
                painter.drawText(QRectF(lx + mm(4.5), y, text_w + mm(1), line_h),
                                 Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                                 label)
                lx += mm(4.5) + text_w + mm(3)
            y += line_h
        if self.notes is not None:
            draw_document(painter, self.notes, x0, y + mm(0.5))


def chart_row_block(charts: Sequence[BarChart], width: float, device: QPaintDevice,
                    gap: float = mm(8)) -> Block:
    """One or two charts side by side, as one block that never splits."""
    columns = max(len(charts), 1)
    column_w = (width - gap * (columns - 1)) / columns
    layouts = [ChartLayout(c, column_w, device) for c in charts]
    height = max((layout.height for layout in layouts), default=0.0)

    def paint(painter: QPainter, rect: QRectF) -> None:
        for i, layout in enumerate(layouts):
            painter.save()
            layout.draw(painter, QRectF(rect.left() + i * (column_w + gap), rect.top(),
                                        column_w, layout.height))
            painter.restore()

    return PaintBlock(height, width, paint)
