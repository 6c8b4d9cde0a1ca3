"""The Compare tab's inputs: a suggestion clicked leaves the box empty for the next name,
and a part keeps its colour when another leaves the comparison."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.compare.comparison import Comparison
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.compare.compare_tab import CompareTab
from tests.ui.compare_helpers import make_tab

A100 = "accelerator/nvidia-a100-pcie-40-gb"
TPU_V4 = "accelerator/google-tpu-v4"
MI250X = "accelerator/amd-instinct-mi250x"
RTX_4090 = "accelerator/nvidia-geforce-rtx-4090"


def test_a_clicked_suggestion_is_added_and_leaves_the_box_empty(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.picker.setFocus()
    qtbot.keyClicks(tab.picker, "rtx 4090")
    tab.update_completions()  # as the typing pause would
    tab.completer.complete()  # the popup, even where another window holds the focus
    popup = tab.completer.popup()
    qtbot.waitUntil(lambda: popup.isVisible() and popup.model().rowCount() > 0)
    first = popup.model().index(0, 0)
    qtbot.mouseClick(popup.viewport(), Qt.MouseButton.LeftButton,
                     pos=popup.visualRect(first).center())
    assert tab.part_ids == [RTX_4090]
    qtbot.waitUntil(lambda: tab.picker.text() == "")  # not the chosen name left behind


def _brush(tab: CompareTab, slot: int) -> str:
    return tab.chart("bars").bars[slot].opts["brush"]


def _swatch(tab: CompareTab, row: int) -> int:
    return tab.part_list.item(row).icon().pixmap(12, 12).toImage().pixel(6, 6)


def test_removing_a_part_recolours_none_of_the_others(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    tab = make_tab(qtbot, catalog, app_settings)
    tab.add_parts([A100, TPU_V4, MI250X])
    tab.set_chart_kind("bars")
    before = {pid: (_brush(tab, i), _swatch(tab, i)) for i, pid in enumerate(tab.part_ids)}
    tab.remove_part(A100)
    tab.set_chart_kind("bars")
    after = {pid: (_brush(tab, i), _swatch(tab, i)) for i, pid in enumerate(tab.part_ids)}
    assert after == {pid: before[pid] for pid in (TPU_V4, MI250X)}
    tab.add_parts([RTX_4090])  # a newcomer takes the freed colour, not a used one
    colours = [_brush(tab, i) for i in range(3)]
    assert len(set(colours)) == 3 and colours[2] == before[A100][0]


def test_colours_stay_with_parts_through_moves_and_removals() -> None:
    comparison = Comparison(["a", "b", "c"])
    assert [comparison.colour_index(i) for i in "abc"] == [0, 1, 2]
    comparison.move("c", -2)
    comparison.remove("a")
    assert [comparison.colour_index(i) for i in "cb"] == [2, 1]
    comparison.add(["d"])
    assert comparison.colour_index("d") == 0
