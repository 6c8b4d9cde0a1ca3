"""One way to type a number everywhere ("70B", "2T", "100M", "1e9", "1.5k"), applied as
you type, and a number that cannot be read marks its field while the last answer stays."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.templates import template
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.numbers import NumberField, parse_number
from dlhw_desktop.ui.catalog.catalog_tab import CatalogTab
from dlhw_desktop.ui.cluster.cluster_tab import ClusterTab
from dlhw_desktop.ui.common.number_input import NumberSpinBox
from dlhw_desktop.ui.common.part_table_model import PART_ROLE


@pytest.mark.parametrize(("text", "value"), [
    ("70B", 70e9), ("2T", 2e12), ("100M", 100e6), ("1e9", 1e9), ("1.5k", 1500.0),
    ("70,000,000,000", 70e9), ("8g", 8e9), (" 350 m ", 350e6)])
def test_the_one_reading_of_a_typed_number(text: str, value: float) -> None:
    assert parse_number(text) == value
    assert NumberField("x", "X", 0, 1e15).check(text) == value  # files, flags, the GUI


@pytest.mark.parametrize("text", ["70Q", "1,5", "1_000", "B70", "nan", ""])
def test_what_is_not_a_number(text: str) -> None:
    assert parse_number(text) is None


def _typed(qtbot: QtBot, edit: QLineEdit, text: str) -> None:
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, text)  # no Enter: it applies once typing pauses


def _tree(tab: ClusterTab) -> dict[str, str]:
    return {f"{tab.tree.topLevelItem(i).text(0)}/{top.child(j).text(0)}": top.child(j).text(1)
            for i in range(tab.tree.topLevelItemCount())
            for top in [tab.tree.topLevelItem(i)] for j in range(top.childCount())}


def test_the_cluster_tab_reads_70b_and_2t_and_keeps_its_plan_on_a_bad_field(
        qtbot: QtBot, catalog: Catalog) -> None:
    build = template("dgx-h100").build(catalog.get)
    tab = ClusterTab(catalog, lambda: build)
    qtbot.addWidget(tab)
    tab.show()
    _typed(qtbot, tab.params, "70B")
    _typed(qtbot, tab.tokens, "2T")
    qtbot.waitUntil(lambda: tab.plan is not None and tab.plan.spec.tokens == 2e12)
    assert tab.plan.spec.params == 70e9
    good = _tree(tab)
    assert good  # a whole plan, not a blank one
    _typed(qtbot, tab.tokens, "2 trillion")
    qtbot.waitUntil(lambda: bool(tab.tokens.property("invalid")))
    assert "Training tokens: '2 trillion' is not a number" in tab.message.text()
    assert "(tokens)" not in tab.message.text()  # the label, not the file's key
    assert tab.tokens.toolTip() and _tree(tab) == good  # marked; the plan stays
    _typed(qtbot, tab.tokens, "1.5T")
    qtbot.waitUntil(lambda: tab.plan.spec.tokens == 1.5e12)
    assert not tab.tokens.property("invalid") and tab.tokens.toolTip() == ""


def test_catalog_number_filters_read_1_5k_and_apply_as_you_type(
        qtbot: QtBot, catalog: Catalog) -> None:
    tab = CatalogTab(catalog)
    qtbot.addWidget(tab)
    tab.resize(1300, 800)
    tab.show()
    tab.set_category(Category.ACCELERATOR)
    before = tab.model.total
    box = tab._filter_widgets["price_usd:min"]  # the bar is rebuilt per category
    assert isinstance(box, NumberSpinBox)
    box.setFocus()
    box.lineEdit().selectAll()
    qtbot.keyClicks(box, "1.5k")  # no Enter
    qtbot.waitUntil(lambda: box.value() == 1500 and tab.model.total < before)
    parts = [tab.model.index(r, 0).data(PART_ROLE) for r in range(tab.model.rowCount())]
    assert parts and all(p.price_usd >= 1500 for p in parts)


def test_the_build_tabs_token_count_reads_2t_and_a_bad_one_keeps_the_answer(
        qtbot: QtBot, catalog: Catalog) -> None:
    from dlhw_desktop.core.build.build import Build
    from dlhw_desktop.core.workload.build_workload import BuildWorkload
    from dlhw_desktop.ui.workload.workload_panel import WorkloadPanel

    build = Build(workload=BuildWorkload.from_mapping(
        {"model": "gpt2", "mode": "training", "precision": "BF16", "tokens": 1e8}))
    build.add(catalog.get("accelerator/nvidia-geforce-rtx-4090"), 2)
    panel = WorkloadPanel(catalog)
    qtbot.addWidget(panel)
    panel.resize(460, 900)
    panel.set_build(build)
    panel.show()
    tokens = panel.form.tokens_edit
    _typed(qtbot, tokens, "2T")
    qtbot.waitUntil(lambda: panel.workload().tokens == 2e12)
    answer = panel.results.time_label.text()
    assert "2T tokens" in answer
    _typed(qtbot, tokens, "2 trillion")
    qtbot.waitUntil(lambda: bool(tokens.property("invalid")))
    assert "“2 trillion” is not a number" in panel.hint_label.text()
    assert panel.results.isVisible() and panel.results.time_label.text() == answer


def test_every_spin_box_reads_the_same_way(qtbot: QtBot) -> None:
    from dlhw_desktop.ui.common.number_input import CountSpinBox

    budget = NumberSpinBox(suffix=" USD")
    budget.setRange(0, 1e6)
    nodes = CountSpinBox()
    nodes.setRange(1, 100_000)
    for box, text, value in ((budget, "1.5k", 1500), (nodes, "2k", 2000),
                             (nodes, "4,096", 4096)):
        qtbot.addWidget(box)
        box.show()
        box.setFocus()
        box.lineEdit().selectAll()
        qtbot.keyClicks(box, text)
        assert box.value() == value, text
