"""The Catalog tab as a user drives it: type, filter, sort, read details, add, drag."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.fields import Category
from dlhw_desktop.ui.catalog.catalog_tab import CatalogTab
from dlhw_desktop.ui.common.dnd import PART_MIME, part_ids_from_mime
from dlhw_desktop.ui.common.part_table_model import CHUNK, PART_ROLE

RTX_4090 = "accelerator/nvidia-geforce-rtx-4090"


def make_tab(qtbot: QtBot, catalog: Catalog) -> CatalogTab:
    tab = CatalogTab(catalog)
    qtbot.addWidget(tab)
    tab.resize(1300, 800)
    tab.show()
    return tab


def shown_ids(tab: CatalogTab) -> list[str]:
    model = tab.model
    return [model.index(r, 0).data(PART_ROLE).id for r in range(model.rowCount())]


def test_typing_filters_the_table(qtbot: QtBot, catalog: Catalog) -> None:
    tab = make_tab(qtbot, catalog)
    before = tab.model.total
    qtbot.keyClicks(tab.search, "rtx 409")
    qtbot.waitUntil(lambda: tab.model.total < before)
    assert RTX_4090 in shown_ids(tab)
    assert all("409" in tab.model.part_at(r).name for r in range(tab.model.rowCount()))
    assert tab.result_label.text() == f"{tab.model.total} parts"


def test_search_with_fts_syntax_shows_no_error(qtbot: QtBot, catalog: Catalog) -> None:
    tab = make_tab(qtbot, catalog)
    for text in ['"', "NEAR(", "4090*", "((", "🙂"]:
        tab.search.setText(text)
        tab.apply_query()
    assert tab.model.total == 0  # an emoji matches nothing, and nothing broke


def test_filters_narrow_the_rows(qtbot: QtBot, catalog: Catalog) -> None:
    tab = make_tab(qtbot, catalog)
    memory = tab.findChild(object, "filter_memory_gb_min")
    memory.setValue(48)
    tab.apply_query()
    parts = [tab.model.part_at(r) for r in range(tab.model.rowCount())]
    assert parts and all(p.number("memory_gb") >= 48 for p in parts)


def test_boards_filter_lists_chips_or_partner_cards(qtbot: QtBot, catalog: Catalog) -> None:
    tab = make_tab(qtbot, catalog)
    assert tab.model.total > 1000  # the default shows chips and cards
    everything = tab.model.total
    boards = tab.findChild(object, "filter_chip_id_boards")
    boards.setCurrentIndex(boards.findText("chips only"))
    chips = tab.model.total
    assert 0 < chips < everything
    assert all(tab.model.part_at(r).get("chip_id") is None
               for r in range(tab.model.rowCount()))
    boards.setCurrentIndex(boards.findText("partner cards only"))
    assert tab.model.total == everything - chips
    assert all(tab.model.part_at(r).get("chip_id") for r in range(tab.model.rowCount()))


def test_header_click_sorts_in_sql_with_unknown_last(qtbot: QtBot, catalog: Catalog) -> None:
    tab = make_tab(qtbot, catalog)
    column = tab.model.columns.index("tdp_w")
    tab.table.sortByColumn(column, Qt.SortOrder.DescendingOrder)
    while tab.model.canFetchMore():
        tab.model.fetchMore()
    values = [tab.model.part_at(r).number("tdp_w") for r in range(tab.model.rowCount())]
    known = [v for v in values if v is not None]
    assert known == sorted(known, reverse=True)
    assert values[: len(known)] == known


def test_details_show_every_figure_with_na_and_source(qtbot: QtBot, catalog: Catalog) -> None:
    tab = make_tab(qtbot, catalog)
    assert tab.select_part(RTX_4090)
    html = tab.details.toHtml()
    text = tab.details.toPlainText()
    assert "GeForce RTX 4090" in text and "24 GB" in text
    part = catalog.get(RTX_4090)
    missing = [s for s, v in part.figures() if v is None]
    if missing:
        assert "n/a" in text
    assert part.source in html


def test_category_change_changes_columns(qtbot: QtBot, catalog: Catalog) -> None:
    tab = make_tab(qtbot, catalog)
    tab.set_category(Category.PSU)
    headers = [tab.model.headerData(c, Qt.Orientation.Horizontal)
               for c in range(tab.model.columnCount())]
    assert "Rated output (W)" in headers
    tab.set_category(Category.ACCELERATOR)
    headers = [tab.model.headerData(c, Qt.Orientation.Horizontal)
               for c in range(tab.model.columnCount())]
    assert "Memory (GB)" in headers and "TDP (W)" in headers


def test_enter_and_action_add_to_build(qtbot: QtBot, catalog: Catalog) -> None:
    tab = make_tab(qtbot, catalog)
    tab.select_part(RTX_4090)
    tab.table.setFocus()
    with qtbot.waitSignal(tab.add_to_build_requested) as blocker:
        qtbot.keyClick(tab.table, Qt.Key.Key_Return)
    assert blocker.args == [[RTX_4090]]
    action = tab.findChild(QAction, "action_add_to_build")
    with qtbot.waitSignal(tab.add_to_build_requested) as blocker:
        action.trigger()
    assert blocker.args == [[RTX_4090]]
    with qtbot.waitSignal(tab.compare_requested) as blocker:
        tab.findChild(QAction, "action_compare_part").trigger()
    assert blocker.args == [[RTX_4090]]


def test_drag_payload_is_the_part_id(qtbot: QtBot, catalog: Catalog) -> None:
    tab = make_tab(qtbot, catalog)
    tab.select_part(RTX_4090)
    row = tab.model.row_of(RTX_4090)
    mime = tab.model.mimeData([tab.model.index(row, 0), tab.model.index(row, 2)])
    assert mime.hasFormat(PART_MIME)
    assert part_ids_from_mime(mime) == [RTX_4090]


def test_large_catalog_fetches_lazily(qtbot: QtBot, big_catalog_path: Path) -> None:
    big = Catalog.open(big_catalog_path)
    tab = make_tab(qtbot, big)
    tab.set_category(None)
    assert tab.model.total >= 100_000
    assert tab.model.rowCount() == CHUNK
    assert tab.model.canFetchMore()
    tab.model.fetchMore()
    assert tab.model.rowCount() == 2 * CHUNK
    tab.search.setText("strix gaming")  # real ROG Strix boards and synthetic variants
    tab.apply_query()
    assert 0 < tab.model.total < 100_000
