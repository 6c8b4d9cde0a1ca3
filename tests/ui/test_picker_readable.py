"""Issue #31: a picker that helps. At 1280x720 every visible row of every category reads
differently (two-line names that keep what differs), the selection stays on the part just
added, and a slot row of the build opens the list of parts that fit it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Slot
from dlhw_desktop.core.fields import Category
from dlhw_desktop.ui.common.part_table_model import PART_ROLE
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.planner.picker_names import two_lines, visible_text
from dlhw_desktop.ui.shell.main_window import BUILD, MainWindow

CPU_7950X = "cpu/amd-ryzen-9-7950x"


@pytest.fixture
def window(qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> MainWindow:
    win = MainWindow(catalog, app_settings)
    qtbot.addWidget(win)
    win.resize(1280, 720)
    win.show()
    win.tabs.setCurrentIndex(BUILD)
    qtbot.waitUntil(lambda: win.build_tab.picker.table.viewport().width() > 200)
    return win


def shown_rows(window: MainWindow) -> list[str]:
    """The name of each row of the picker's first page, as the screen shows it."""
    QApplication.processEvents()
    table = window.build_tab.picker.table
    model = table.model()
    height = table.viewport().height()
    texts = []
    for row in range(model.rowCount()):
        rect = table.visualRect(model.index(row, 0))
        if rect.top() >= height:
            break
        texts.append(visible_text(table, model.index(row, 0)))
    return texts


@pytest.mark.parametrize("search", ["", "rog strix", "rog strix 4090", "enthoo pro",
                                    "dark power"])
def test_at_1280x720_no_two_visible_rows_read_alike(window: MainWindow, search: str) -> None:
    """The first page of every category (and the look-alike searches of the issue:
    eight "ROG STRIX …", "Enthoo P…", "Dark Po…") shows each part's name differently."""
    picker = window.build_tab.picker
    picker.search.setText(search)
    checked = 0
    for category in (None, *Category):  # All parts, then each category
        picker.set_category(category)
        picker.apply_query()
        texts = shown_rows(window)
        if not texts:
            continue
        checked += 1
        assert len(texts) >= min(6, picker.catalog_model.total), (category, texts)
        twins = {t for t in texts if texts.count(t) > 1}
        assert not twins, (category, search, texts)
        for text in texts:  # a name is never cut to its first word alone
            assert len(text.split()) >= 2 or "…" not in text, (category, text)
    assert checked >= (len(Category) if not search else 1)


@pytest.mark.parametrize("slot", [Category.PSU, Category.CASE, Category.COOLER,
                                  Category.MEMORY])
def test_the_lists_an_empty_slot_opens_read_apart_too(window: MainWindow,
                                                      slot: Category) -> None:
    """A one-GPU workstation missing its supply, case, cooler or memory: the fitting
    parts' first page (Lian Li's four "SX … SXP Compact …" supplies among them)."""
    tab = window.build_tab
    tab.apply_template("single-rtx-4090")
    tab.remove_parts([i.part_id for i in tab.build.items() if i.part.category is slot])
    tab.open_slot_picker(slot)
    texts = shown_rows(window)
    assert len(texts) >= 6
    twins = {t for t in texts if texts.count(t) > 1}
    assert not twins, (slot, texts)
    tab.undo_stack.setClean()


def test_the_model_number_in_brackets_stays_in_view(window: MainWindow) -> None:
    """"Enthoo Pro 2 ATX Full Tower Black (PH-ES620PTG_BK02)": the maker's model number
    at the end of a long name is kept when the middle gives way."""
    picker = window.build_tab.picker
    picker.set_category(Category.CASE)
    picker.search.setText("enthoo pro 2")
    picker.apply_query()
    model = picker.table.model()
    names = {model.index(r, 0).data(PART_ROLE).name: visible_text(picker.table,
                                                                   model.index(r, 0))
             for r in range(model.rowCount())}
    bracketed = {n: t for n, t in names.items() if n.endswith(")")}
    assert bracketed
    for name, text in bracketed.items():
        number = name[name.rindex("("):]
        assert number in text, (name, text)


def test_a_second_enter_adds_the_same_part(qtbot: QtBot, window: MainWindow) -> None:
    tab = window.build_tab
    picker = tab.picker
    picker.set_category(Category.ACCELERATOR)
    picker.apply_query()
    table = picker.table
    table.setFocus()
    table.selectRow(3)
    chosen = picker.selected_ids()
    assert len(chosen) == 1
    qtbot.keyClick(table, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: len(tab.build.accelerators) == 1)
    picker.apply_query()  # what the build-change timer runs
    assert picker.selected_ids() == chosen
    qtbot.keyClick(table, Qt.Key.Key_Return)
    items = tab.build.accelerators
    assert [i.part_id for i in items] == chosen
    assert items[0].quantity == 2


def slot_index(window: MainWindow, slot: Slot):  # type: ignore[no-untyped-def]
    model = window.build_tab.model
    for row in range(model.rowCount()):
        index = model.index(row, 0)
        if model.slot_at(index) is slot:
            return index
    raise AssertionError(f"no {slot} row")


def test_clicking_an_empty_slot_lists_what_fits_it(qtbot: QtBot, window: MainWindow) -> None:
    tab = window.build_tab
    tab.add_parts([CPU_7950X])
    picker = tab.picker
    picker.set_category(Category.ACCELERATOR)
    picker.search.setText("4090")
    view = tab.view
    rect = view.visualRect(slot_index(window, Slot.MOTHERBOARD))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=QPoint(rect.left() + 20, rect.center().y()))
    assert picker.current_category() is Category.MOTHERBOARD
    assert picker.search.text() == ""
    qtbot.waitUntil(lambda: picker.catalog_model.query.compat is not None)
    assert "fit the build" in picker.count_label.text()


def test_enter_and_double_click_on_a_slot_move_to_its_list(qtbot: QtBot,
                                                           window: MainWindow) -> None:
    tab = window.build_tab
    view = tab.view
    view.setFocus()
    view.setCurrentIndex(slot_index(window, Slot.PSU))
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert tab.picker.current_category() is Category.PSU
    assert tab.picker.table.hasFocus()
    view.setFocus()
    rect = view.visualRect(slot_index(window, Slot.CASE))
    where = QPoint(rect.left() + 20, rect.center().y())
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=where)
    assert tab.picker.current_category() is Category.CASE
    assert view.hasFocus()  # a click only shows the list
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=where)
    assert tab.picker.table.hasFocus()


def advance(text: str) -> int:
    return 10 * len(text)


def test_two_lines_keeps_a_short_name_whole_and_wraps_a_longer_one() -> None:
    assert two_lines("DGX H100", 200, advance) == ("DGX H100", "")
    assert two_lines("Enthoo Pro 2 Server Edition", 150, advance) == (
        "Enthoo Pro 2", "Server Edition")


def test_two_lines_gives_up_the_words_look_alikes_share() -> None:
    common = {"rog": 8, "strix": 8, "gaming": 6, "geforce": 8, "rtx": 8, "4080": 5,
              "16gb": 5, "gddr6x": 7, "black": 4}
    first, second = two_lines("ROG STRIX GAMING GeForce RTX 4080 16GB GDDR6X White", 200,
                              advance, common)
    assert "White" in second
    assert first.startswith("ROG")
    assert max(advance(first), advance(second)) <= 200


def test_two_lines_keeps_the_end_of_a_name_too_long_for_two() -> None:
    first, second = two_lines("Enthoo Pro 2 ATX Full Tower Black (PH-ES620PTG_BK02)", 190,
                              advance)
    assert first.startswith("Enthoo")
    assert second.endswith("(PH-ES620PTG_BK02)")
    assert max(advance(first), advance(second)) <= 190
