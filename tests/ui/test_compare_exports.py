"""Charts a person puts in a report: no label cut or crossed, a source and date under every
exported chart, no on-screen hints in the file."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFontMetricsF
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.compare.charts.bars import INSIDE_FRACTION
from dlhw_desktop.ui.compare.charts.label_layout import LabelRequest, place_labels
from tests.ui.compare_helpers import make_tab

SEED = ["accelerator/nvidia-a100-pcie-40-gb", "accelerator/google-tpu-v4",
        "accelerator/amd-instinct-mi250x", "accelerator/amd-alveo-u250"]


def test_exports_carry_the_source_and_date_not_the_hover_hints(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings, tmp_path: Path) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.add_parts(SEED)
    version = catalog.info().catalog_version
    for kind in ("bars", "normalised", "derived", "scatter"):
        tab.set_chart_kind(kind)
        chart = tab.chart()
        assert any(line.startswith("Hover") for line in chart.notes_text())  # on screen
        svg = tab.export_chart_svg(tmp_path / f"{kind}.svg").read_text(encoding="utf-8")
        assert "Hover" not in svg and "click it" not in svg
        assert f"DL Hardware Desktop catalog {version}" in svg
        assert chart.title_text in svg  # the title travels with the chart
        # the screen gets its hints back after the export
        assert any(line.startswith("Hover") for line in chart.notes_text())


def test_the_scatter_names_compared_parts_and_outliers_without_overlap(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.add_parts(SEED)
    tab.set_chart_kind("scatter")
    chart = tab.chart("scatter")
    qtbot.wait(50)
    shown = [label for label in chart.labels if label.isVisible()]
    texts = [label.textItem.toPlainText() for label in shown]
    assert "A100 PCIe 40 GB" in texts and "Instinct MI250X" in texts
    assert len(shown) >= 3  # an outlier named too, not just the two compared ones
    boxes = [label.textItem.mapRectToScene(label.textItem.boundingRect()) for label in shown]
    plot_area = chart.plot.getViewBox().sceneBoundingRect()
    for i, box in enumerate(boxes):
        assert plot_area.contains(box.adjusted(4, 4, -4, -4)), texts[i]  # not cut by the edge
        for other in boxes[i + 1:]:
            overlap = box.intersected(other)
            assert overlap.width() * overlap.height() < 20, texts[i]


def test_long_bars_carry_their_figure_inside_so_nothing_is_clipped(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.add_parts(SEED)
    tab.set_chart_kind("derived")
    chart = tab.chart("derived")
    qtbot.wait(50)  # laid out
    for panel in chart.panels:
        plot_box = panel.plot.getViewBox().sceneBoundingRect()
        for label in panel.value_labels:
            if label.isVisible():
                box = label.textItem.mapRectToScene(label.textItem.boundingRect())
                assert plot_box.contains(box.adjusted(2, 2, -2, -2)), label.textItem.toPlainText()
    assert 0 < INSIDE_FRACTION < 1


def test_the_reference_line_passes_behind_the_ratio_labels(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.add_parts(SEED)
    tab.set_chart_kind("normalised")
    chart = tab.chart("normalised")
    labels = [label for label in chart._labels if label.isVisible()]
    assert labels and all(label.zValue() > chart.reference.zValue() for label in labels)
    assert all(label.fill.color().alpha() == 255 for label in labels)  # opaque: no strike


def test_label_layout_moves_a_label_off_its_neighbour_and_drops_optional_ones() -> None:
    bounds = (0.0, 0.0, 400.0, 300.0)
    near = [LabelRequest(100, 100, 80, 14, required=True),
            LabelRequest(100, 122, 80, 14, required=True),
            LabelRequest(105, 100, 80, 14), LabelRequest(108, 101, 80, 14),
            LabelRequest(106, 99, 80, 14), LabelRequest(104, 118, 80, 14)]
    placed = place_labels(near, bounds)
    assert {p.index for p in placed} >= {0, 1}  # required labels are always placed
    rects = [p.rect for p in placed]
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
            h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
            assert w <= 0 or h <= 0
    edge = place_labels([LabelRequest(395, 150, 80, 14)], bounds)
    (only,) = edge
    assert only.rect[0] + only.rect[2] <= 400  # flipped to the left of a point at the edge


def test_the_per_dollar_view_takes_room_so_bar_labels_do_not_touch_at_1280x720(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.resize(1000, 640)  # the Compare tab's share of a 1280x720 window
    tab.load_preset("Current flagships")
    tab.set_chart_kind("derived")
    qtbot.wait(50)
    chart = tab.chart("derived")
    for panel in chart.panels:
        rows = len(panel.state.names) if panel.state else 0
        label = next(lb for lb in panel.value_labels + panel.absent_labels if lb.isVisible())
        row_px = panel.plot.getViewBox().height() / max(rows, 1)
        line_px = QFontMetricsF(label.textItem.font()).height()
        assert row_px >= line_px + 4  # a line of text and some air between bars
