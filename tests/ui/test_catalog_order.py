"""Issue #31, the Catalog tab: a useful first order, a search that says where it did find
parts, columns sized to what they hold and filters that wrap instead of scrolling."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.part_query import RELEVANCE, PartQuery
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.fields import Category
from dlhw_desktop.ui.catalog.catalog_tab import CatalogTab
from dlhw_desktop.ui.catalog.catalog_view import FIGURE_MAX_PX


def make_tab(qtbot: QtBot, catalog: Catalog, width: int = 1268) -> CatalogTab:
    tab = CatalogTab(catalog)
    qtbot.addWidget(tab)
    tab.resize(width, 660)
    tab.show()
    qtbot.waitUntil(lambda: tab.table.viewport().width() > 300)
    return tab


def test_a_category_opens_newest_first_with_part_numbers_after_names(
        qtbot: QtBot, catalog: Catalog) -> None:
    """Not "(PH-EC600PSC…", "0A65633 1TB HDD" and 2009 AM3+ boards first."""
    tab = make_tab(qtbot, catalog)
    for category in (Category.STORAGE, Category.MOTHERBOARD, Category.PSU, Category.CASE):
        tab.set_category(category)
        first = tab.model.part_at(0)
        newest = max(p.release_year or 0 for p in catalog.parts(category))
        assert first.release_year == newest, (category, first.name)
    rows = catalog.search(PartQuery(category=Category.STORAGE, sort_field=RELEVANCE), 0,
                          5_000)
    undated = [p.name for p in rows if p.release_year is None]
    kinds = [0 if n[0].isalpha() else 1 if n[0].isdigit() else 2 for n in undated]
    assert kinds == sorted(kinds)  # letters, then digits, then punctuation
    assert 1 in kinds


def test_a_header_click_still_sorts_and_a_new_category_starts_over(
        qtbot: QtBot, catalog: Catalog) -> None:
    tab = make_tab(qtbot, catalog)
    tab.set_category(Category.CPU)
    tab.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    assert tab.model.query.sort_field == "name"
    tab.search.setText("ryzen")
    tab.apply_query()
    assert tab.model.query.sort_field == "name"  # typing keeps the user's order
    tab.set_category(Category.PSU)
    assert tab.model.query.sort_field == RELEVANCE


def test_a_search_that_finds_nothing_here_says_where_it_does(qtbot: QtBot,
                                                             catalog: Catalog) -> None:
    tab = make_tab(qtbot, catalog)
    tab.set_category(Category.CPU)
    tab.search.setText("rm1000x")
    tab.apply_query()
    assert tab.model.total == 0
    text = tab.result_label.text()
    psus = catalog.count(PartQuery(category=Category.PSU, text="rm1000x"))
    assert psus > 0
    assert "No match here" in text and f"{psus:,} in Power supplies" in text
    assert tab.empty_note.isVisible() and tab.empty_note.text() == text  # in the list too
    tab.result_label.linkActivated.emit(f"category:{Category.PSU.value}")
    assert tab.category is Category.PSU
    assert tab.model.total == psus
    assert tab.search.text() == "rm1000x"
    assert not tab.empty_note.isVisible()


def test_columns_fit_what_they_hold(qtbot: QtBot, catalog: Catalog) -> None:
    """All parts at 1280: "Motherboard" whole in the category column, no figure column
    stretched to hundreds of pixels."""
    tab = make_tab(qtbot, catalog)
    tab.set_category(None)
    tab.search.setText("b650")  # boards among the first rows
    tab.apply_query()
    header = tab.table.horizontalHeader()
    metrics = tab.table.fontMetrics()
    column = tab.model.columns.index("category")
    assert header.sectionSize(column) >= metrics.horizontalAdvance("Motherboard") + 8
    for n in range(1, tab.model.columnCount()):
        assert header.sectionSize(n) <= FIGURE_MAX_PX
    assert header.sectionSize(0) >= 230


def test_filters_wrap_instead_of_scrolling_sideways(qtbot: QtBot, catalog: Catalog) -> None:
    tab = make_tab(qtbot, catalog)
    tab.set_category(Category.ACCELERATOR)
    qtbot.wait(10)
    host = tab.findChild(type(tab.table.parentWidget()), "filters_host")
    assert host is not None
    for widget in tab._filter_widgets.values():
        right = widget.mapTo(host, widget.rect().topRight()).x()
        assert widget.isVisible() and right <= host.width(), widget.objectName()
