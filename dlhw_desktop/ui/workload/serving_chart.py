"""The serving chart: output tokens/s of all users (left axis) and tokens/s per user
(right axis) against concurrent users (a log scale: 1 to 10 users matter as much as 100 to
1,000), with the speed target, the most users served at it and the memory's limit.

Imported when the first serving estimate is shown (pyqtgraph costs ~0.4 s to import).
The plot items are made once; a new estimate only calls ``setData`` / ``setValue``.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QSizePolicy, QVBoxLayout, QWidget

from dlhw_desktop.core.workload.serving import ServingEstimate

AGGREGATE_COLOUR = "#1f77b4"
PER_USER_COLOUR = "#d95f02"
TARGET_COLOUR = "#2e7d32"


class ServingChart(QWidget):
    """Throughput and speed per user against concurrency, for one ``ServingEstimate``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("serving_chart")
        self.setMinimumHeight(220)
        self.plot_widget = pg.PlotWidget()
        self.plot_widget.setMinimumSize(0, 0)  # never wider than the panel's column
        self.plot_widget.setSizePolicy(QSizePolicy.Policy.Ignored,
                                       QSizePolicy.Policy.Expanding)
        self.plot_widget.setBackground(None)
        plot = self.plot = self.plot_widget.getPlotItem()
        plot.setMenuEnabled(False)
        plot.hideButtons()
        plot.getViewBox().setMouseEnabled(x=False, y=False)
        plot.showGrid(x=True, y=True, alpha=0.15)
        plot.setLabel("bottom", "Concurrent users (log scale)")
        plot.setLogMode(x=True, y=False)
        plot.setLabel("left", "Output tokens/s, all users")
        plot.showAxis("right")
        plot.setLabel("right", "Tokens/s per user")
        self.right = pg.ViewBox()
        self.right.setMouseEnabled(x=False, y=False)
        plot.scene().addItem(self.right)
        plot.getAxis("right").linkToView(self.right)
        self.right.setXLink(plot)
        plot.getViewBox().sigResized.connect(self._sync_views)
        self.legend = plot.addLegend(offset=(-8, -8))  # bottom right: below both curves
        self.aggregate_curve = plot.plot(name="All users (left)",
                                         pen=pg.mkPen(AGGREGATE_COLOUR, width=2))
        self.per_user_curve = pg.PlotDataItem(name="Per user (right)",
                                              pen=pg.mkPen(PER_USER_COLOUR, width=2))
        self.per_user_curve.setLogMode(True, False)  # its view box is not the plot's
        self.right.addItem(self.per_user_curve)
        self.legend.addItem(self.per_user_curve, "Per user (right)")
        self.target_line = pg.InfiniteLine(
            angle=0, pen=pg.mkPen(TARGET_COLOUR, width=1.5, style=Qt.PenStyle.DashLine),
            label="target {value:,.3g} tokens/s",
            labelOpts={"position": 0.12, "color": TARGET_COLOUR, "anchors": [(0, 1), (0, 1)]})
        self.right.addItem(self.target_line)
        self.capacity_line = pg.InfiniteLine(
            angle=90, pen=pg.mkPen("#888888", width=1, style=Qt.PenStyle.DotLine),
            label="", labelOpts={"position": 0.92, "color": "#888888",
                                 "anchors": [(1, 0), (1, 0)]})
        plot.addItem(self.capacity_line)
        self.answer_line = pg.InfiniteLine(
            angle=90, pen=pg.mkPen(TARGET_COLOUR, width=1, style=Qt.PenStyle.DashLine))
        plot.addItem(self.answer_line)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot_widget)
        self._apply_palette()

    def set_estimate(self, estimate: ServingEstimate) -> None:
        points = estimate.curve()
        users = [p.concurrency for p in points]
        self.aggregate_curve.setData(users, [p.aggregate_tokens_per_s for p in points])
        per_user = [p.per_user_tokens_per_s for p in points]
        self.per_user_curve.setData(users, per_user)
        speed = next((t for t in estimate.targets if t.kind == "tps"), None)
        self.target_line.setVisible(speed is not None)
        top = max(per_user) if per_user else 1.0
        if speed is not None:
            self.target_line.setValue(speed.target)
            top = max(top, speed.target)
        answered = [t.concurrency for t in estimate.targets if t.concurrency is not None]
        self.answer_line.setVisible(bool(answered))
        if answered:
            self.answer_line.setValue(math.log10(min(answered)))
        most = estimate.max_concurrency
        self.capacity_line.setVisible(most > 0)
        self.capacity_line.setValue(math.log10(max(most, 1)))  # the axis is log10
        limit = "batch limit" if estimate.limit == "batch" else "memory holds"
        self.capacity_line.label.setFormat(f"{limit} {most:,}")
        self.plot.setXRange(0, math.log10(users[-1]) if users else 1, padding=0.02)
        in_all = [p.aggregate_tokens_per_s for p in points]
        self.plot.setYRange(0, (max(in_all) if in_all else 1.0) * 1.1, padding=0)
        self.right.setYRange(0, top * 1.1, padding=0)
        self._sync_views()

    def _sync_views(self) -> None:
        self.right.setGeometry(self.plot.getViewBox().sceneBoundingRect())
        self.right.linkedViewChanged(self.plot.getViewBox(), self.right.XAxis)

    def _apply_palette(self) -> None:
        text = self.palette().color(QPalette.ColorRole.WindowText)
        muted = QColor(text)
        muted.setAlpha(150)
        for side in ("left", "bottom", "right"):
            axis = self.plot.getAxis(side)
            axis.setPen(pg.mkPen(muted))
            axis.setTextPen(pg.mkPen(text))
            axis.setLabel(axis.labelText, color=text.name())
        self.legend.setLabelTextColor(text)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_palette()
        super().changeEvent(event)
