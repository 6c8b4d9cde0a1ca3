"""The Build tab from the keyboard: Tab moves on, even out of the notes."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.shell.composition import make_build_tab


def test_tab_leaves_the_notes_and_ctrl_tab_types_a_tab(qtbot: QtBot, catalog: Catalog,
                                                       app_settings: AppSettings) -> None:
    tab = make_build_tab(catalog, app_settings, QUndoStack())
    qtbot.addWidget(tab)
    tab.resize(1400, 860)
    tab.show()
    qtbot.waitExposed(tab)
    notes = tab.notes_edit
    notes.setFocus()
    qtbot.keyClicks(notes, "quote")
    qtbot.keyClick(notes, Qt.Key.Key_Tab)
    assert "\t" not in notes.toPlainText()
    assert QApplication.focusWidget() is not notes  # Tab moved on
    notes.setFocus()
    notes.moveCursor(notes.textCursor().MoveOperation.End)
    qtbot.keyClick(notes, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    assert notes.toPlainText() == "quote\t"
    tab.editors.flush()
    assert tab.build.notes == "quote\t"


def test_an_empty_build_offers_the_ways_in(qtbot: QtBot, catalog: Catalog,
                                           app_settings: AppSettings) -> None:
    tab = make_build_tab(catalog, app_settings, QUndoStack())
    qtbot.addWidget(tab)
    tab.resize(1280, 720)
    tab.show()
    qtbot.waitExposed(tab)
    guide = tab.guide
    assert guide.isVisible() and guide.detect_button.isVisible()
    guide.buttons["single-rtx-4090"].click()
    assert len(tab.build) > 0 and not guide.isVisible()
    tab.undo_stack.undo()
    assert len(tab.build) == 0 and guide.isVisible()


def test_the_share_menu_copies_the_build_as_markdown(qtbot: QtBot, catalog: Catalog,
                                                     app_settings: AppSettings) -> None:
    from PySide6.QtGui import QAction, QGuiApplication

    from dlhw_desktop.ui.shell.main_window import MainWindow

    window = MainWindow(catalog, app_settings)
    qtbot.addWidget(window)
    window.show()
    window.tabs.setCurrentIndex(2)
    window.build_tab.apply_template("single-rtx-4090")
    window.findChild(QAction, "action_copy_markdown").trigger()
    text = QGuiApplication.clipboard().text()
    assert text.startswith("## ") and "| Part | Qty | Price | Subtotal |" in text
    assert "GeForce RTX 4090" in text
    window.build_tab.undo_stack.setClean()  # nothing to ask about when the window closes


def test_the_price_cell_takes_your_quote_and_keeps_it_for_every_build(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    from dlhw_desktop.core.build.build import Slot
    from dlhw_desktop.ui.planner.build_model import PRICE

    tab = make_build_tab(catalog, app_settings, QUndoStack())
    qtbot.addWidget(tab)
    board = "motherboard/asus-pro-ws-wrx90e-sage-se"
    assert catalog.get(board).price_usd is None  # no sourced price in the catalog
    tab.add_parts([board])
    model = tab.model
    index = model.index(0, PRICE, model.slot_index(Slot.MOTHERBOARD))
    assert model.flags(index) & Qt.ItemFlag.ItemIsEditable
    said: list[str] = []
    tab.status_message.connect(lambda text, _ms: said.append(text))
    assert model.setData(index, "$1,299.00")
    assert tab.build.find(board).part.price_usd == 1299
    assert index.data() == "$1,299" and "your quote" in said[-1]
    assert tab.resolver.price_book.get(board).amount == 1299  # kept for every build
    model.setData(index, "cheap")  # not a price: said, nothing changed
    assert "Price not changed" in said[-1] and tab.build.find(board).part.price_usd == 1299
    model.setData(index, "")  # cleared: the catalog's (none) holds again
    assert tab.build.find(board).part.price_usd is None


def test_a_price_in_euros_stays_in_euros(qtbot: QtBot, catalog: Catalog,
                                         app_settings: AppSettings) -> None:
    from dlhw_desktop.core.build.build import Slot
    from dlhw_desktop.ui.planner.build_model import PRICE

    tab = make_build_tab(catalog, app_settings, QUndoStack())
    qtbot.addWidget(tab)
    board = "motherboard/asus-pro-ws-wrx90e-sage-se"
    tab.add_parts([board])
    index = tab.model.index(0, PRICE, tab.model.slot_index(Slot.MOTHERBOARD))
    tab.model.setData(index, "1.099,00 €")
    saved = tab.resolver.price_book.get(board)
    assert saved.currency == "EUR" and saved.amount == 1099
    assert tab.build.find(board).part.price_usd is None  # no EUR rate set: not in USD totals
