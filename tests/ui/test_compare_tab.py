"""The Compare tab as a buyer drives it: pick, reorder, switch precision, read, export."""

from __future__ import annotations

import csv
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QImage
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.compare.comparison import MAX_PARTS
from dlhw_desktop.core.compare.presets import PRESETS, Preset, resolve_preset
from dlhw_desktop.core.fields import PRECISION_FIELDS, Category
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.compare.charts.bars import HBarPanel
from dlhw_desktop.ui.compare.charts.base import DARK, LIGHT
from dlhw_desktop.ui.compare.compare_tab import CompareTab

A100 = "accelerator/nvidia-a100-pcie-40-gb"
TPU_V4 = "accelerator/google-tpu-v4"
MI250X = "accelerator/amd-instinct-mi250x"
ALVEO = "accelerator/amd-alveo-u250"
RTX_4090 = "accelerator/nvidia-geforce-rtx-4090"
RADEON_VII = "accelerator/amd-radeon-vii"
H100 = "accelerator/nvidia-h100-sxm5-80-gb"
SEED = [A100, TPU_V4, MI250X, ALVEO]


def make_tab(qtbot: QtBot, catalog: Catalog, settings: AppSettings) -> CompareTab:
    tab = CompareTab(catalog, settings)
    qtbot.addWidget(tab)
    tab.resize(1360, 780)
    tab.show()
    return tab


def bar_lengths(panel: HBarPanel) -> list[list[float]]:
    """Each slot's bar lengths in a horizontal bar panel (the BarGraphItem's widths)."""
    return [list(np.atleast_1d(np.asarray(b.opts["width"], dtype=float))) for b in panel.bars]


# --- charts against the catalog -------------------------------------------------------------
@pytest.mark.parametrize("precision", ["FP32", "BF16", "FP8", "INT8"])
def test_bar_lengths_are_the_catalog_figures(qtbot: QtBot, catalog: Catalog,
                                             app_settings: AppSettings, precision: str) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    ids = [*SEED, RTX_4090, RADEON_VII]
    tab.add_parts(ids)
    tab.set_precision(precision)
    tab.set_chart_kind("bars")
    chart = tab.chart("bars")
    field = PRECISION_FIELDS[precision]
    for slot, part_id in enumerate(ids):
        expected = catalog.get(part_id).number(field)
        lengths = bar_lengths(chart.panel)[slot]
        if expected is None:
            assert lengths == [], f"{part_id} has no {precision} figure: no bar"
            label = chart.panel.absent_labels[slot]
            assert label.isVisible() and f"no {precision} figure" in label.textItem.toPlainText()
        else:
            assert lengths == [pytest.approx(expected)]
            assert list(chart.panel.bars[slot].opts["y"]) == [slot]
    assert any("No " + precision + " figure" in n for n in chart.notes_text()) or all(
        catalog.get(i).number(field) is not None for i in ids)


def test_every_metric_draws_its_figure(qtbot: QtBot, catalog: Catalog,
                                       app_settings: AppSettings) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.add_parts([A100, RTX_4090, TPU_V4])
    chart = tab.chart("bars")
    a100, rtx = catalog.get(A100), catalog.get(RTX_4090)
    cases = {"memory": ("memory_gb", None), "bandwidth": ("memory_bandwidth_gb_s", None),
             "tdp": ("tdp_w", None), "price": ("price_usd", None)}
    for key, (field, _) in cases.items():
        tab.metric_combo.setCurrentIndex(tab.metric_combo.findData(key))
        assert tab.metric == key
        lengths = bar_lengths(chart.panel)
        assert lengths[0] == [pytest.approx(a100.number(field))]
        assert lengths[1] == [pytest.approx(rtx.number(field))]
    assert bar_lengths(chart.panel)[2] == []  # TPU v4 has no purchase price
    # Derived: BF16 TFLOPS per $1,000 and per watt.
    tab.set_metric("throughput_per_kusd")
    assert bar_lengths(chart.panel)[1] == [pytest.approx(
        rtx.number("bf16_tensor_tflops") / rtx.price_usd * 1000)]
    tab.set_metric("throughput_per_w")
    assert bar_lengths(chart.panel)[0] == [pytest.approx(
        a100.number("bf16_tensor_tflops") / a100.number("tdp_w"))]


def test_best_bar_is_outlined(qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.add_parts([A100, MI250X])
    tab.set_metric("tdp")  # lower is better: the A100's 250 W beats 500 W
    bars = tab.chart("bars").panel.bars
    assert bars[0].opts["pen"].style() != Qt.PenStyle.NoPen
    assert bars[1].opts["pen"].style() == Qt.PenStyle.NoPen


def test_derived_panels(qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.add_parts([RTX_4090, A100, TPU_V4])
    tab.set_precision("FP16")
    tab.set_chart_kind("derived")
    chart = tab.chart("derived")
    rtx, a100 = catalog.get(RTX_4090), catalog.get(A100)
    per_kusd = bar_lengths(chart.panel_for("throughput_per_kusd"))
    assert per_kusd[0] == [pytest.approx(rtx.number("fp16_tensor_tflops") / 1599 * 1000)]
    assert per_kusd[1] == [pytest.approx(a100.number("fp16_tensor_tflops") / 11000 * 1000)]
    assert per_kusd[2] == []
    bw = bar_lengths(chart.panel_for("bandwidth_per_w"))
    assert bw[1] == [pytest.approx(a100.number("memory_bandwidth_gb_s") / a100.number("tdp_w"))]
    assert any(n.startswith("Price unknown: TPU v4") for n in chart.notes_text())


def test_normalised_view_is_relative_to_the_chosen_baseline(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.add_parts([A100, MI250X, TPU_V4])
    tab.set_chart_kind("normalised")
    chart = tab.chart("normalised")
    # Default baseline: the first part; its bars are all 1.0.
    assert chart.bars[0].opts["height"].tolist() == pytest.approx([1.0] * 7)
    tab.baseline_combo.setCurrentIndex(tab.baseline_combo.findData(MI250X))
    tab.baseline_combo.activated.emit(tab.baseline_combo.currentIndex())
    assert tab.comparison.baseline == MI250X
    a100, mi = catalog.get(A100), catalog.get(MI250X)
    heights = chart.bars[0].opts["height"].tolist()
    assert heights[0] == pytest.approx(a100.number("bf16_tensor_tflops")
                                       / mi.number("bf16_tensor_tflops"))
    assert heights[1] == pytest.approx(a100.number("memory_gb") / mi.number("memory_gb"))
    assert chart.reference.value() == 1.0
    # Both have a price (the MI250X a reported one): every group is normalised, the
    # derived TFLOPS per watt among them.
    assert len(heights) == 7
    per_watt = ((a100.number("bf16_tensor_tflops") / a100.number("tdp_w"))
                / (mi.number("bf16_tensor_tflops") / mi.number("tdp_w")))
    assert any(h == pytest.approx(per_watt) for h in heights)
    assert not any("lacks Price" in n for n in chart.notes_text())
    # Log scale: bars grow from 1.0 (log 0) up or down.
    tab.log_check.setChecked(True)
    logs = chart.bars[0].opts["height"].tolist()
    assert logs[1] == pytest.approx(np.log10(40 / 128)) and chart.reference.value() == 0.0


def test_scatter_plots_every_accelerator_with_both_figures(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.add_parts([A100])
    tab.set_chart_kind("scatter")
    tab.scatter_x_combo.setCurrentIndex(tab.scatter_x_combo.findData("price"))
    chart = tab.chart("scatter")
    priced = [p for p in catalog.parts(Category.ACCELERATOR, chips_only=True)
              if p.price_usd and p.number("bf16_tensor_tflops")]
    plotted = {pt.data().part_id: pt for item in chart.vendor_items.values()
               for pt in item.points()}
    assert set(plotted) == {p.id for p in priced}
    point = plotted[A100]
    assert (10 ** point.pos().x(), 10 ** point.pos().y()) == (
        pytest.approx(11000), pytest.approx(312))
    assert "NVIDIA A100 PCIe 40 GB" in point.data().tooltip
    # Linear axes plot the raw figures.
    tab.log_check.setChecked(False)
    nvidia = chart.vendor_items["NVIDIA"]
    point = next(pt for pt in nvidia.points() if pt.data().part_id == A100)
    assert (point.pos().x(), point.pos().y()) == (11000, 312)
    # Clicking a point adds its part.
    rtx = next(pt for pt in nvidia.points() if pt.data().part_id == RTX_4090)
    nvidia.sigClicked.emit(nvidia, [rtx], None)
    assert tab.part_ids == [A100, RTX_4090]


# --- choosing parts ------------------------------------------------------------------------
def test_picker_adds_and_the_list_removes(qtbot: QtBot, catalog: Catalog,
                                          app_settings: AppSettings) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.picker.setFocus()
    qtbot.keyClicks(tab.picker, "rtx 4090")
    qtbot.waitUntil(lambda: tab.completions.rowCount() > 0)
    assert tab.completions.item(0).data(Qt.ItemDataRole.UserRole) == RTX_4090
    qtbot.keyClick(tab.picker, Qt.Key.Key_Return)
    assert tab.part_ids == [RTX_4090]
    assert tab.picker.text() == ""
    # A completion chosen from the popup adds too.
    tab.picker.setText("a100 pcie 40")
    tab.update_completions()
    index = tab.completer.completionModel().index(0, 0)
    tab.completer.activated[type(index)].emit(index)
    assert tab.part_ids == [RTX_4090, A100]
    assert [tab.part_list.item(r).data(Qt.ItemDataRole.UserRole)
            for r in range(tab.part_list.count())] == [RTX_4090, A100]
    # Delete removes the selected part.
    tab.part_list.setFocus()
    tab.part_list.setCurrentRow(0)
    qtbot.keyClick(tab.part_list, Qt.Key.Key_Delete)
    assert tab.part_ids == [A100]


def test_reorder_with_buttons(qtbot: QtBot, catalog: Catalog,
                              app_settings: AppSettings) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.add_parts([A100, TPU_V4, MI250X])
    tab.part_list.setCurrentRow(2)
    qtbot.mouseClick(tab.up_button, Qt.MouseButton.LeftButton)
    assert tab.part_ids == [A100, MI250X, TPU_V4]
    assert tab.part_list.currentRow() == 1
    tab.findChild(QAction, "action_compare_move_down").trigger()
    assert tab.part_ids == [A100, TPU_V4, MI250X]
    # The chart follows the order: slot 2 is now the MI250X.
    lengths = bar_lengths(tab.chart("bars").panel)
    assert lengths[2] == [pytest.approx(catalog.get(MI250X).number("bf16_tensor_tflops"))]


def test_at_most_eight_with_a_message(qtbot: QtBot, catalog: Catalog,
                                      app_settings: AppSettings) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    ids = [p.id for p in catalog.parts(Category.ACCELERATOR)
           if p.number("bf16_tensor_tflops")][:MAX_PARTS + 2]
    result = tab.add_parts(ids)
    assert tab.part_ids == ids[:MAX_PARTS]
    assert result.rejected == tuple(ids[MAX_PARTS:])
    assert "at most 8" in tab.message.text()
    assert tab.count_label.text().startswith("8 of 8")
    assert not tab.picker.isEnabled()


def test_non_accelerators_are_refused(qtbot: QtBot, catalog: Catalog,
                                      app_settings: AppSettings) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    cpu = catalog.parts(Category.CPU)[0]
    tab.add_parts([cpu.id, "accelerator/does-not-exist", A100])
    assert tab.part_ids == [A100]
    assert "Only accelerators" in tab.message.text()


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.name)
def test_presets_load_catalog_parts(qtbot: QtBot, catalog: Catalog,
                                    app_settings: AppSettings, preset: Preset) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.add_parts([H100])
    index = tab.preset_combo.findData(preset.name)
    tab.preset_combo.setCurrentIndex(index)
    tab.preset_combo.activated.emit(index)
    expected = resolve_preset(preset, lambda i: catalog.find(i) is not None)
    assert tab.part_ids == expected and len(expected) == len(preset.slots)
    assert tab.part_list.count() == len(expected)
    assert tab.comparison.precision == preset.precision


def test_the_catalog_tabs_compare_action_fills_the_tab(qtbot: QtBot, catalog: Catalog,
                                                       app_settings: AppSettings) -> None:
    from dlhw_desktop.ui.shell.main_window import COMPARE, MainWindow

    window = MainWindow(catalog, app_settings)
    qtbot.addWidget(window)
    window.compare_parts([RTX_4090, A100])
    assert window.tabs.currentIndex() == COMPARE
    assert isinstance(window.compare_tab, CompareTab)
    assert window.compare_tab.part_ids == [RTX_4090, A100]


def test_the_comparison_survives_a_restart(qtbot: QtBot, catalog: Catalog,
                                           app_settings: AppSettings) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.add_parts([TPU_V4, A100, MI250X])
    tab.set_precision("INT8")
    tab.comparison.set_baseline(A100)
    tab.set_chart_kind("scatter")
    tab.scatter_x_combo.setCurrentIndex(tab.scatter_x_combo.findData("price"))
    app_settings.sync()
    again = make_tab(qtbot, catalog, app_settings)
    assert again.part_ids == [TPU_V4, A100, MI250X]
    assert again.comparison.precision == "INT8"
    assert again.precision_combo.currentText() == "INT8"
    assert again.comparison.baseline == A100
    assert again.chart_kind == "scatter" and again.kind_buttons["scatter"].isChecked()
    assert again.scatter_x_combo.currentData() == "price"


# --- table and export -----------------------------------------------------------------------
def test_table_has_na_best_and_sources(qtbot: QtBot, catalog: Catalog,
                                       app_settings: AppSettings) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.add_parts([A100, TPU_V4, MI250X])
    table = tab.table
    assert [table.horizontalHeaderItem(c).text() for c in range(3)] == [
        "A100 PCIe 40 GB", "TPU v4", "Instinct MI250X"]
    rows = {table.verticalHeaderItem(r).text(): r for r in range(table.rowCount())}
    bf16 = rows["BF16 tensor (TFLOPS)"]
    assert [table.item(bf16, c).text() for c in range(3)] == ["312", "275", "383"]
    assert table.item(bf16, 2).font().bold() and not table.item(bf16, 0).font().bold()
    tdp = rows["TDP (W)"]
    assert table.item(tdp, 1).text() == "n/a"
    source = catalog.get(A100).source_of("tdp_w")
    assert source.source in table.item(tdp, 0).toolTip()


def test_export_png_svg_csv_markdown(qtbot: QtBot, catalog: Catalog,
                                     app_settings: AppSettings, tmp_path: Path) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.add_parts(SEED)
    for kind in ("bars", "normalised", "derived", "scatter"):
        tab.set_chart_kind(kind)
        png = tab.export_chart_png(tmp_path / f"{kind}.png")
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        image = QImage(str(png))
        assert not image.isNull() and image.width() >= tab.chart().width()
        svg = tab.export_chart_svg(tmp_path / f"{kind}.svg")
        root = ET.parse(svg).getroot()
        assert root.tag.endswith("svg")
    with (tab.export_table_csv(tmp_path / "t.csv")).open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    names = [catalog.get(i).display_name for i in SEED]
    assert [r["Name"] for r in rows] == names and [r["Part id"] for r in rows] == SEED
    prices = [catalog.get(i).price_usd for i in SEED]
    assert [r["Price (USD)"] for r in rows] == [f"{p:.0f}" if p else "" for p in prices]
    assert prices[0] and not prices[1]  # a priced card and an unpriced TPU
    assert all(r["Source"] for r in rows)
    markdown = tab.export_table_markdown(tmp_path / "t.md").read_text()
    assert markdown.startswith("| Figure | " + " | ".join(names) + " |")
    assert "| **BF16 tensor (TFLOPS)** | 312 | 275 | **383** | n/a |" in markdown
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_copy_table_to_clipboard(qtbot: QtBot, catalog: Catalog,
                                 app_settings: AppSettings) -> None:
    from PySide6.QtGui import QGuiApplication

    tab = make_tab(qtbot, catalog, app_settings)
    tab.add_parts([A100])
    tab.findChild(QAction, "action_compare_copy_md").trigger()
    assert QGuiApplication.clipboard().text().startswith("| Figure | NVIDIA A100 PCIe 40 GB |")


def test_dark_palette_recolours_the_charts(qtbot: QtBot, catalog: Catalog,
                                           app_settings: AppSettings) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.add_parts(SEED)
    tab.set_chart_kind("normalised")
    tab.apply_style(DARK)
    chart = tab.chart("normalised")
    assert chart.backgroundBrush().color().name() == DARK.background
    assert chart.plot.getAxis("left").textPen().color().name() == DARK.foreground
    tab.set_chart_kind("bars")  # created dark, too
    assert tab.chart("bars").backgroundBrush().color().name() == DARK.background
    tab.apply_style(LIGHT)
    assert tab.chart("bars").backgroundBrush().color().name() == LIGHT.background


def test_hovering_a_bar_shows_its_figure(qtbot: QtBot, catalog: Catalog,
                                         app_settings: AppSettings) -> None:
    from PySide6.QtCore import QPointF
    from PySide6.QtWidgets import QToolTip

    tab = make_tab(qtbot, catalog, app_settings)
    tab.add_parts([A100, TPU_V4])
    chart = tab.chart("bars")
    vb = chart.panel.plot.getViewBox()
    chart._hover(vb.mapViewToScene(QPointF(100, 0)))  # inside the A100's bar (312 TFLOPS)
    assert QToolTip.text() == "A100 PCIe 40 GB\nBF16 tensor throughput: 312 TFLOPS"
    QToolTip.hideText()


def test_pyqtgraph_stays_off_the_start_up_path() -> None:
    import subprocess
    import sys

    code = ("import sys; import dlhw_desktop.ui.shell.main_window, dlhw_desktop.ui.shell.app; "
            "print('pyqtgraph' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60)
    assert out.stdout.strip() == "False"
