"""The Compare tab: up to eight accelerators side by side, charted and tabulated.

The selection lives in ``core.compare.Comparison``; this widget drives it (the sidebar's
picker, list and presets, in ``compare_sidebar``; the Catalog tab's "Compare") and redraws
from its change events. Every figure comes from the catalog through ``core/compare.py``;
the charts are in ``ui/charts``. The main window imports this module only when the tab is
first shown (pyqtgraph is slow to import).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QByteArray, QEvent, Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.compare.comparison import (
    BASE_METRICS,
    DERIVED_METRICS,
    METRICS,
    PRECISIONS,
    AddResult,
)
from dlhw_desktop.core.compare.scatter import scatter_points, short_name
from dlhw_desktop.core.compare.table import SpecTable, spec_table
from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.core.parts import Part
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.compare.charts.bars import BarsChart, DerivedChart, NormalisedChart
from dlhw_desktop.ui.compare.charts.base import (
    ChartBase,
    ChartStyle,
    compared_colour,
    current_style,
)
from dlhw_desktop.ui.compare.charts.scatter import ScatterChart
from dlhw_desktop.ui.compare.compare_exports import CompareExports
from dlhw_desktop.ui.compare.compare_sidebar import CompareSidebar
from dlhw_desktop.ui.compare.compare_state import CHART_KINDS, CompareState
from dlhw_desktop.ui.compare.compare_widgets import SpecTableView


class CompareTab(CompareSidebar, CompareExports, QWidget):
    """Choose up to eight accelerators; read bars, ratios, the catalog scatter and a table."""

    status_message = Signal(str)

    def __init__(self, catalog: Catalog, settings: AppSettings,
                 parent: QWidget | None = None,
                 priced: Callable[[Part], Part] | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("compare_tab")
        self.catalog = catalog
        self.settings = settings
        self.state = CompareState(catalog, settings, priced)
        self.comparison = self.state.comparison
        self._charts: dict[str, ChartBase] = {}
        self._dirty: set[str] = set(CHART_KINDS)
        self._style: ChartStyle = current_style()

        self._build_sidebar()
        self._build_toolbar()
        self._build_body()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.sidebar)
        layout.addLayout(self.right, 1)

        self.kind_buttons[self.state.kind].setChecked(True)
        self._sync_controls()
        self.comparison.subscribe(self._comparison_changed)
        self._comparison_changed("parts")

    # --- construction ---------------------------------------------------------------
    def _build_toolbar(self) -> None:
        self.toolbar = QHBoxLayout()
        self.kind_group = QButtonGroup(self)
        self.kind_group.setExclusive(True)
        self.kind_buttons: dict[str, QToolButton] = {}
        for kind, text in CHART_KINDS.items():
            button = QToolButton(objectName=f"chart_kind_{kind}")
            button.setText(text)
            button.setCheckable(True)
            button.setAutoRaise(False)
            button.clicked.connect(lambda _c=False, k=kind: self.set_chart_kind(k))
            self.kind_group.addButton(button)
            self.kind_buttons[kind] = button
            self.toolbar.addWidget(button)
        self.toolbar.addSpacing(12)

        self.precision_combo = QComboBox(objectName="precision_combo")
        for precision in PRECISIONS:
            self.precision_combo.addItem(precision, precision)
        self.precision_combo.setToolTip("Precision of the throughput figures (dense)")
        self.precision_combo.currentIndexChanged.connect(
            lambda _i: self.comparison.set_precision(self.precision_combo.currentData()))
        self.metric_combo = QComboBox(objectName="metric_combo")
        self.metric_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        for metric in (*BASE_METRICS, *DERIVED_METRICS):
            self.metric_combo.addItem(metric.key, metric.key)
        self.metric_combo.insertSeparator(len(BASE_METRICS))
        self.metric_combo.currentIndexChanged.connect(
            lambda _i: self.set_metric(self.metric_combo.currentData()))
        self.baseline_combo = QComboBox(objectName="baseline_combo")
        self.baseline_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.baseline_combo.activated.connect(
            lambda _i: self.comparison.set_baseline(self.baseline_combo.currentData()))
        self.scatter_x_combo = QComboBox(objectName="scatter_x_combo")
        self.scatter_x_combo.addItem("TDP (W)", "tdp")
        self.scatter_x_combo.addItem("Price (USD)", "price")
        self.scatter_x_combo.currentIndexChanged.connect(
            lambda _i: self.set_scatter_x(self.scatter_x_combo.currentData()))
        self.log_check = QCheckBox("Log scale", objectName="log_check")
        self.log_check.toggled.connect(self.set_log)

        self.control_labels: dict[str, QLabel] = {}
        for name, text, widget in (("precision", "Precision", self.precision_combo),
                                   ("metric", "Metric", self.metric_combo),
                                   ("baseline", "Baseline", self.baseline_combo),
                                   ("scatter_x", "X axis", self.scatter_x_combo)):
            label = QLabel(text)
            label.setBuddy(widget)
            self.control_labels[name] = label
            self.toolbar.addWidget(label)
            self.toolbar.addWidget(widget)
        self.toolbar.addWidget(self.log_check)
        self.toolbar.addStretch(1)

        self.export_button = QToolButton(objectName="compare_export")
        self.export_button.setText("Export")
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_button)
        for name, text, slot in (
            ("action_compare_save_png", "Save chart as PNG…", lambda: self._save("png")),
            ("action_compare_save_svg", "Save chart as SVG…", lambda: self._save("svg")),
            ("action_compare_copy_image", "Copy chart image", self.copy_chart_image),
            (None, None, None),
            ("action_compare_save_csv", "Save table as CSV…", lambda: self._save("csv")),
            ("action_compare_save_md", "Save table as Markdown…", lambda: self._save("md")),
            ("action_compare_copy_csv", "Copy table as CSV", lambda: self.copy_table("csv")),
            ("action_compare_copy_md", "Copy table as Markdown",
             lambda: self.copy_table("md")),
        ):
            if name is None:
                menu.addSeparator()
                continue
            menu.addAction(self._action(name, text, None, slot))
        self.export_button.setMenu(menu)
        self.toolbar.addWidget(self.export_button)

    def _build_body(self) -> None:
        self.chart_stack = QStackedWidget(objectName="chart_stack")
        self.chart_stack.setMinimumHeight(260)
        self.table = SpecTableView()
        self.splitter = QSplitter(Qt.Orientation.Vertical, objectName="compare_splitter")
        self.splitter.addWidget(self.chart_stack)
        self.splitter.addWidget(self.table)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([480, 270])
        state = self.settings.get("compare/splitter")
        if state:
            self.splitter.restoreState(QByteArray(state))
        self.splitter.splitterMoved.connect(
            lambda _p, _i: self.settings.set("compare/splitter",
                                             bytes(self.splitter.saveState().data())))
        self.right = QVBoxLayout()
        self.right.addLayout(self.toolbar)
        self.right.addWidget(self.splitter, 1)

    # --- public API (main window, tests) --------------------------------------------------
    @property
    def part_ids(self) -> list[str]:
        return list(self.comparison.ids)

    @property
    def chart_kind(self) -> str:
        return self.state.kind

    @property
    def metric(self) -> str:
        return self.state.metric

    def parts(self) -> list[Part]:
        """The compared parts, in order."""
        return self.state.parts()

    def add_parts(self, part_ids: Sequence[str]) -> AddResult:
        """Add accelerators (from the Catalog tab, the picker, the scatter); say what happened."""
        result, message = self.state.add(part_ids)
        self.show_message(message)
        return result

    def remove_part(self, part_id: str) -> bool:
        return self.comparison.remove(part_id)

    def move_part(self, part_id: str, delta: int) -> bool:
        return self.comparison.move(part_id, delta)

    def load_preset(self, name: str) -> list[str]:
        ids, message = self.state.load_preset(name)
        self.show_message(message)
        return ids

    def set_precision(self, precision: str) -> None:
        self.comparison.set_precision(precision)

    def set_chart_kind(self, kind: str) -> None:
        self.state.set_kind(kind)
        self.kind_buttons[kind].setChecked(True)
        self._sync_controls()
        self._show_current_chart()

    def set_metric(self, key: str | None) -> None:
        if self.state.set_metric(key):
            self._sync_controls()
            self._invalidate({"bars"})

    def set_scatter_x(self, key: str | None) -> None:
        if self.state.set_scatter_x(key):
            self._invalidate({"scatter"})

    def set_log(self, on: bool) -> None:
        kind = self.state.set_log(on)
        if kind is not None:
            self._invalidate({kind})

    def chart(self, kind: str | None = None) -> ChartBase:
        """The chart of ``kind`` (the current one by default), created on first use."""
        kind = kind or self.state.kind
        chart = self._charts.get(kind)
        if chart is None:
            chart = self._make_chart(kind)
            self._charts[kind] = chart
            self.chart_stack.addWidget(chart)
        return chart

    def current_table(self) -> SpecTable:
        return self.state.current_table()

    # --- reacting to the model --------------------------------------------------------------
    def _comparison_changed(self, what: str) -> None:
        if what == "parts":
            self._fill_list()
            self._fill_baselines()
            self._invalidate(set(CHART_KINDS), table=True)
        elif what == "precision":
            self._sync_controls()
            self._invalidate(set(CHART_KINDS), table=True)
        elif what == "baseline":
            self._fill_baselines()
            self._invalidate({"normalised"})

    def prices_changed(self, part_ids: Sequence[str]) -> None:
        """The user's price of these parts changed: the per-dollar figures follow."""
        self.state.reprice(part_ids)
        self._invalidate(set(CHART_KINDS), table=True)

    def _invalidate(self, kinds: set[str], table: bool = False) -> None:
        """Mark charts stale; redraw the visible one now, the others when shown."""
        self._dirty |= kinds
        if table:
            self._fill_table()
        self._show_current_chart()

    def _show_current_chart(self) -> None:
        chart = self.chart()
        self._draw_if_dirty(self.state.kind)
        self.chart_stack.setCurrentWidget(chart)
        self.chart_stack.setMinimumHeight(chart_min_height(self.state.kind,
                                                           len(self.comparison)))

    def _draw_if_dirty(self, kind: str) -> None:
        if kind in self._dirty:
            self._dirty.discard(kind)
            self._draw(kind)

    def _draw(self, kind: str) -> None:
        chart = self.chart(kind)
        parts = self.parts()
        precision = self.comparison.precision
        if isinstance(chart, BarsChart):
            chart.show_metric(parts, METRICS[self.state.metric], precision)
        elif isinstance(chart, NormalisedChart):
            chart.show_parts(parts, precision, self.comparison.baseline_index,
                             self.state.log["normalised"])
        elif isinstance(chart, DerivedChart):
            chart.show_parts(parts, precision)
        elif isinstance(chart, ScatterChart):
            data = scatter_points(self.state.accelerators(), precision, self.state.scatter_x)
            chart.show_data(data, parts, precision, self.state.scatter_x, self.state.log["scatter"])

    def _make_chart(self, kind: str) -> ChartBase:
        chart: ChartBase
        if kind == "bars":
            chart = BarsChart()
        elif kind == "normalised":
            chart = NormalisedChart()
        elif kind == "derived":
            chart = DerivedChart()
        elif kind == "scatter":
            vendors: dict[str, int] = {}
            for part in self.state.accelerators():
                vendors[part.vendor] = vendors.get(part.vendor, 0) + 1
            chart = ScatterChart(sorted(vendors, key=lambda v: (-vendors[v], v)))
            chart.part_clicked.connect(lambda part_id: self.add_parts([part_id]))
        else:
            raise ValueError(f"unknown chart kind {kind!r}")
        chart.source_line = self._source_line()
        chart.colour_of = self._colour_of
        if chart.style_ != self._style:
            chart.apply_style(self._style)
        return chart

    def _colour_of(self, part_id: str) -> str:
        return compared_colour(self.comparison.colour_index(part_id))

    def _source_line(self) -> str:
        """What an exported chart says about where its figures come from."""
        try:
            info = self.catalog.info()
        except DlhwError:
            return "Source: DL Hardware Desktop catalog"
        return (f"Source: DL Hardware Desktop catalog {info.catalog_version} (figures as of "
                f"{info.data_date}; each part's own source in the app). Tensor figures dense.")

    # --- widgets from the model ---------------------------------------------------------
    def _fill_baselines(self) -> None:
        combo = self.baseline_combo
        combo.blockSignals(True)
        combo.clear()
        for part in self.parts():
            combo.addItem(short_name(part), part.id)
        baseline = self.comparison.baseline
        if baseline is not None:
            combo.setCurrentIndex(max(0, combo.findData(baseline)))
        combo.blockSignals(False)

    def _sync_controls(self) -> None:
        precision = self.comparison.precision
        self.precision_combo.blockSignals(True)
        self.precision_combo.setCurrentIndex(max(0, self.precision_combo.findData(precision)))
        self.precision_combo.blockSignals(False)
        self.metric_combo.blockSignals(True)
        for index in range(self.metric_combo.count()):
            key = self.metric_combo.itemData(index)
            if key in METRICS:
                self.metric_combo.setItemText(index, METRICS[key].short_title(precision))
        self.metric_combo.setCurrentIndex(max(0, self.metric_combo.findData(self.state.metric)))
        self.metric_combo.blockSignals(False)
        self.scatter_x_combo.blockSignals(True)
        self.scatter_x_combo.setCurrentIndex(
            max(0, self.scatter_x_combo.findData(self.state.scatter_x)))
        self.scatter_x_combo.blockSignals(False)
        kind = self.state.kind
        visible = {"metric": kind == "bars", "baseline": kind == "normalised",
                   "scatter_x": kind == "scatter", "precision": True}
        for name, widget in (("metric", self.metric_combo), ("baseline", self.baseline_combo),
                             ("scatter_x", self.scatter_x_combo)):
            widget.setVisible(visible[name])
            self.control_labels[name].setVisible(visible[name])
        self.log_check.setVisible(kind in self.state.log)
        self.log_check.blockSignals(True)
        self.log_check.setChecked(self.state.log.get(kind, False))
        self.log_check.blockSignals(False)

    def _fill_table(self) -> None:
        parts = self.parts()
        self.table.show_table(parts, spec_table(parts, self.comparison.precision),
                              self._style.dark, [self._colour_of(p.id) for p in parts])

    # --- user actions -----------------------------------------------------------------------
    def show_message(self, text: str) -> None:
        self.message.setText(text)
        if text:
            self.status_message.emit(text)

    # --- palette --------------------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            style = current_style()
            if style != self._style:
                self.apply_style(style)

    def apply_style(self, style: ChartStyle) -> None:
        """Re-colour charts and table for a light or dark palette."""
        self._style = style
        for chart in self._charts.values():
            chart.apply_style(style)
        self._fill_table()


CHART_MIN_PX = 260
BAR_ROW_PX = 26
"""A bar's row with its label: the label's line height and a little air."""


def chart_min_height(kind: str, parts: int) -> int:
    """The height a chart needs so that no bar label overlaps its neighbour: the "per $
    and per watt" view stacks two rows of panels of one bar per part, so on a small
    screen it takes room from the spec table instead of squeezing its bars."""
    if kind != "derived":
        return CHART_MIN_PX
    return max(CHART_MIN_PX, 2 * (parts * BAR_ROW_PX + 80) + 60)
