"""The parts table as a buyer reads it: whole names, the name kept in view sideways."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.part_query import PartQuery
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.fields import Category
from dlhw_desktop.ui.common.part_table import PartTable
from dlhw_desktop.ui.common.part_table_model import PART_ROLE, PartTableModel


def make_table(qtbot: QtBot, catalog: Catalog) -> PartTable:
    table = PartTable(objectName="test_table")
    qtbot.addWidget(table)
    model = PartTableModel(catalog)
    model.set_query(PartQuery(category=Category.CPU))
    table.setModel(model)
    table.setSortingEnabled(True)
    table.setDragEnabled(True)
    table.resize(320, 400)
    table.setColumnWidth(0, 150)
    table.show()
    qtbot.waitExposed(table)
    return table


def test_the_name_column_stays_in_view_when_scrolling_sideways(
        qtbot: QtBot, catalog: Catalog) -> None:
    table = make_table(qtbot, catalog)
    bar = table.horizontalScrollBar()
    assert bar.maximum() > 0  # the CPU figures do not fit in 320 px
    bar.setValue(bar.maximum())
    qtbot.wait(20)
    assert table.columnViewportPosition(0) < 0  # the table's own name column scrolled off
    frozen = table.frozen
    assert frozen.isVisible() and frozen.width() == table.columnWidth(0)
    first = table.model().index(0, 0)
    assert frozen.visualRect(first).left() >= 0  # ... and the frozen one shows the name
    assert all(frozen.isColumnHidden(c) for c in range(1, table.model().columnCount()))


def test_the_frozen_column_shares_selection_sorting_and_scrolling(
        qtbot: QtBot, catalog: Catalog) -> None:
    table = make_table(qtbot, catalog)
    frozen = table.frozen
    assert frozen.selectionModel() is table.selectionModel()
    table.selectRow(5)
    assert frozen.selectionModel().isRowSelected(5)
    table.verticalScrollBar().setValue(3)
    assert frozen.verticalScrollBar().value() == 3
    parts = [table.model().index(r, 0).data(PART_ROLE) for r in range(2)]
    assert all(p is not None for p in parts)
    assert frozen.dragEnabled()


def test_long_names_are_elided_in_the_middle_and_whole_on_hover(
        qtbot: QtBot, catalog: Catalog) -> None:
    table = make_table(qtbot, catalog)
    assert table.textElideMode() == Qt.TextElideMode.ElideMiddle
    assert table.frozen.textElideMode() == Qt.TextElideMode.ElideMiddle
    index = table.model().index(0, 0)
    part = index.data(PART_ROLE)
    assert part.display_name in index.data(Qt.ItemDataRole.ToolTipRole)


def test_an_empty_category_says_where_the_typed_part_is(qtbot: QtBot, catalog: Catalog) -> None:
    from dlhw_desktop.catalog.userparts import UserParts
    from dlhw_desktop.ui.planner.part_picker import PartPicker

    picker = PartPicker(catalog, UserParts())
    qtbot.addWidget(picker)
    picker.category.setCurrentIndex(picker.category.findData(Category.ACCELERATOR.value))
    picker.search.setText("threadripper")
    picker.apply_query()
    text = picker.count_label.text()
    assert text.startswith("No accelerators match") and "in CPUs</a>" in text
    picker.count_label.linkActivated.emit(f"category:{Category.CPU.value}")  # the link
    assert picker.current_category() is Category.CPU
    assert picker.catalog_model.total > 0 and picker.search.text() == "threadripper"
    picker.set_category(Category.ACCELERATOR)
    picker.search.setText("zzzznotapart")
    picker.apply_query()
    assert picker.count_label.text() == "Nothing matches “zzzznotapart”"


def test_enabling_sorting_keeps_the_order_and_runs_no_query(
        qtbot: QtBot, catalog: Catalog) -> None:
    """The frozen column's header must not re-sort the model (descending, a second query
    over the whole catalog at every start-up)."""
    table = PartTable(objectName="sort_table")
    qtbot.addWidget(table)
    model = PartTableModel(catalog)
    model.set_query(PartQuery(category=Category.CPU))
    queries: list[PartQuery] = []
    model.modelReset.connect(lambda: queries.append(model.query))
    table.setModel(model)
    table.horizontalHeader().setSortIndicator(0, Qt.SortOrder.AscendingOrder)
    table.setSortingEnabled(True)
    assert queries == []
    assert model.query.sort_field == "name" and not model.query.descending
    names = [model.part_at(r).name.lower() for r in range(model.rowCount())]
    assert names == sorted(names)


def test_the_pickers_narrow_list_tells_rtx_pro_cards_apart(qtbot: QtBot, catalog: Catalog
                                                            ) -> None:
    """Three "RTX PRO 6000 …" cards read "RTX PRO …· NVIDIA" alike when cut on one line;
    the picker's two-line names keep what differs (Server, Workstation Edition, 96GB)."""
    from dlhw_desktop.catalog.userparts import UserParts
    from dlhw_desktop.ui.planner.part_picker import PartPicker
    from dlhw_desktop.ui.planner.picker_names import visible_text

    picker = PartPicker(catalog, UserParts())
    qtbot.addWidget(picker)
    picker.resize(300, 500)
    picker.show()
    picker.search.setText("rtx pro 6000 blackwell")
    picker.apply_query()
    model = picker.table.model()
    shown = [visible_text(picker.table, model.index(r, 0)) for r in range(model.rowCount())]
    assert len(shown) >= 3
    assert len(set(shown)) == len(shown), shown
