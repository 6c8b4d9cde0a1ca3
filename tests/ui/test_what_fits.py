"""What fits: the ranked catalog options for a workload, and "Add to build"."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.workload import Workload, preset
from dlhw_desktop.core.workload.memory import GiB
from dlhw_desktop.ui.workload.what_fits import ADD_COLUMN, COLUMNS, WhatFitsDialog

LLAMA_70B = Workload(preset("llama-3.1-70b"), "inference", "BF16")


def make_dialog(qtbot: QtBot, catalog: Catalog, workload: Workload = LLAMA_70B
                ) -> WhatFitsDialog:
    dialog = WhatFitsDialog(catalog, workload)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_llama_70b_needs_several_gpus_or_the_cloud_ranked_by_cost(
        qtbot: QtBot, catalog: Catalog) -> None:
    dialog = make_dialog(qtbot, catalog)
    options = dialog.options()
    assert len(options) > 10
    # 70B in BF16 is ~141 GB of weights: no single card in the catalog holds it with room
    assert all(o.count > 1 or o.kind == "cloud" or o.vram_bytes >= 141 * GiB
               for o in options)
    assert any(o.kind == "own" and o.count > 1 for o in options)
    assert any(o.kind == "cloud" for o in options)
    costs = [o.cost_usd for o in options if o.cost_usd is not None]
    assert costs == sorted(costs)
    assert all(o.status in ("pass", "warn", "unknown") for o in options)
    # what the user reads in the first row
    model = dialog.table.model()
    first = [model.index(0, c).data() for c in range(len(COLUMNS))]
    assert first[0] == "1" and first[1] == options[0].label
    assert first[3] in ("Fits", "Tight") and "GiB of" in first[4]
    assert "Llama 3.1 70B" in dialog.summary.text()


def test_the_add_button_of_a_row_requests_the_gpus_with_their_count(
        qtbot: QtBot, catalog: Catalog) -> None:
    dialog = make_dialog(qtbot, catalog)
    table = dialog.table
    row = next(r for r, o in enumerate(dialog.options()) if o.kind == "own")
    option = dialog.options()[row]
    table.scrollTo(table.model().index(row, ADD_COLUMN))
    rect = table.visualRect(table.model().index(row, ADD_COLUMN))
    with qtbot.waitSignal(dialog.add_requested) as blocker:
        qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton,
                         pos=rect.center())
    assert blocker.args == [option.accelerator.id, option.count]


def test_enter_on_a_rented_option_adds_the_offering_once(qtbot: QtBot,
                                                         catalog: Catalog) -> None:
    dialog = make_dialog(qtbot, catalog)
    row = next(r for r, o in enumerate(dialog.options()) if o.kind == "cloud")
    cloud = dialog.options()[row]
    dialog.table.setFocus()
    dialog.table.selectRow(row)
    assert dialog.add_button.isEnabled()
    with qtbot.waitSignal(dialog.add_requested) as blocker:
        qtbot.keyClick(dialog.table, Qt.Key.Key_Return)
    assert blocker.args == [cloud.part_id, 1]
    assert cloud.part_id.startswith("cloud/")
    with qtbot.waitSignal(dialog.add_requested):
        dialog.add_action.trigger()  # the context-menu twin


def test_filters_hide_bought_or_rented_options(qtbot: QtBot, catalog: Catalog) -> None:
    dialog = make_dialog(qtbot, catalog)
    total = len(dialog.options())
    dialog.buy_check.setChecked(False)
    rented = dialog.options()
    assert rented and all(o.kind == "cloud" for o in rented)
    dialog.rent_check.setChecked(False)
    assert dialog.options() == [] and dialog.empty_label.isVisible()
    dialog.buy_check.setChecked(True)
    dialog.rent_check.setChecked(True)
    assert len(dialog.options()) == total
    dialog.tight_check.setChecked(False)
    assert all(o.status != "warn" for o in dialog.options())


def test_sorting_by_a_column_and_back_to_the_ranking(qtbot: QtBot, catalog: Catalog) -> None:
    dialog = make_dialog(qtbot, catalog)
    ranked = [o.label for o in dialog.options()]
    memory = next(c for c, (key, _) in enumerate(COLUMNS) if key == "memory")
    dialog.table.sortByColumn(memory, Qt.SortOrder.AscendingOrder)
    fractions = [o.fraction for o in dialog.options()]
    assert fractions == sorted(fractions)
    dialog.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    assert [o.label for o in dialog.options()] == ranked


def test_a_workload_nothing_can_run_says_how_to_shrink_it(qtbot: QtBot,
                                                          catalog: Catalog) -> None:
    huge = Workload(preset("llama-3.1-405b"), "training", "FP32", batch=8)
    dialog = make_dialog(qtbot, catalog, huge)
    assert dialog.options() == []
    assert dialog.empty_label.isVisible() and "QLoRA" in dialog.empty_label.text()
    dialog.set_workload(Workload(preset("llama-3.1-405b"), "inference", "Q4_K_M"))
    assert dialog.options() and not dialog.empty_label.isVisible()
