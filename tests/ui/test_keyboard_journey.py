"""The main journeys from the keyboard alone: every step is a key press sent to the widget
that has focus, as a person without a mouse would make it.

Find a card in the catalog, add it to the build, compare it, complete the build from the
picker, read the checks, describe the workload and share the result."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QLineEdit, QWidget
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Slot
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.shell.main_window import MainWindow

CTRL = Qt.KeyboardModifier.ControlModifier
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None, "nothing has keyboard focus"
    return widget


def press(qtbot: QtBot, key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
          ) -> None:
    """A key press to whatever has focus, as the keyboard would send it."""
    qtbot.keyClick(focused(), key, modifier)


def type_text(qtbot: QtBot, text: str) -> None:
    qtbot.keyClicks(focused(), text)


def open_window(qtbot: QtBot, catalog: Catalog, settings: AppSettings) -> MainWindow:
    window = MainWindow(catalog, settings, progressive=True)  # started as the app starts it
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    window.activateWindow()
    qtbot.waitActive(window)
    window.finish_startup()
    # the first paint comes first; the catalog rows and the search focus on the next turn
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.catalog_tab.search)
    return window


def test_find_add_compare_and_build_from_the_keyboard(qtbot: QtBot, catalog: Catalog,
                                                      app_settings: AppSettings) -> None:
    window = open_window(qtbot, catalog, app_settings)
    # Find: Ctrl+F puts the cursor in the catalog search; typing filters as you type.
    press(qtbot, Qt.Key.Key_F, CTRL)
    search = focused()
    assert isinstance(search, QLineEdit) and search is window.catalog_tab.search
    type_text(qtbot, "RTX 4090")
    table = window.catalog_tab.table
    qtbot.waitUntil(lambda: table.model().rowCount() > 0
                    and "4090" in str(table.model().index(0, 0).data()))
    # Enter moves into the results with the first row selected.
    press(qtbot, Qt.Key.Key_Return)
    assert focused() is table
    assert table.selected_ids()
    chosen = table.selected_ids()[0]
    assert "4090" in catalog.get(chosen).name
    # Ctrl+B adds the selection to the build; Ctrl+Shift+C to the comparison.
    press(qtbot, Qt.Key.Key_B, CTRL)
    assert chosen in [entry.part.id for entry in window.build_tab.build]
    press(qtbot, Qt.Key.Key_C, CTRL_SHIFT)
    assert chosen in window.compare_tab.part_ids
    # Ctrl+2 shows the comparison; Ctrl+3 the build with the card in it.
    press(qtbot, Qt.Key.Key_2, CTRL)
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Compare"
    press(qtbot, Qt.Key.Key_3, CTRL)
    build_tab = window.build_tab
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Build"
    assert build_tab.build.find(chosen) is not None

    # Complete the build from the picker: its search takes focus, Enter picks, Enter adds.
    picker = build_tab.picker
    picker.search.setFocus()  # Ctrl+F is the catalog's: the picker is one Tab stop away
    assert focused() is picker.search
    type_text(qtbot, "1000")
    qtbot.waitUntil(lambda: picker.table.model().rowCount() > 0)
    press(qtbot, Qt.Key.Key_Return)
    assert focused() is picker.table
    picked = picker.table.selected_ids()
    assert picked
    press(qtbot, Qt.Key.Key_Return)
    assert build_tab.build.find(picked[0]) is not None

    # The checks answer at once; undo from the keyboard takes the last part out again.
    assert build_tab.checks.report is not None and build_tab.checks.report.results
    press(qtbot, Qt.Key.Key_Z, CTRL)
    assert build_tab.build.find(picked[0]) is None
    press(qtbot, Qt.Key.Key_Z, CTRL_SHIFT)
    assert build_tab.build.find(picked[0]) is not None

    # Share: Ctrl+Shift+M copies the build as Markdown with the card in it.
    press(qtbot, Qt.Key.Key_M, CTRL_SHIFT)
    shared = QGuiApplication.clipboard().text()
    assert "4090" in shared and "| Part | Qty |" in shared


def test_tab_reaches_every_control_of_the_build_tab(qtbot: QtBot, catalog: Catalog,
                                                    app_settings: AppSettings) -> None:
    """Tab walks through the Build tab without a trap: the picker, the build list, the
    workload panel and the notes are all reachable, and focus comes back round."""
    window = open_window(qtbot, catalog, app_settings)
    press(qtbot, Qt.Key.Key_3, CTRL)
    build_tab = window.build_tab
    build_tab.apply_template("single-rtx-4090")
    build_tab.picker.search.setFocus()
    start = focused()
    seen: list[QWidget] = []
    for _ in range(80):
        press(qtbot, Qt.Key.Key_Tab)
        widget = focused()
        if widget is start:
            break
        seen.append(widget)
    else:
        trail = [w.objectName() or type(w).__name__ for w in seen[-5:]]
        raise AssertionError(f"Tab never came back to where it started (a focus trap): {trail}")
    inside = [w for w in seen if build_tab.isAncestorOf(w)]
    assert build_tab.picker.table in inside
    assert build_tab.view in inside
    assert build_tab.notes_edit in inside
    workload = build_tab.workload_panel
    assert workload is not None
    assert any(workload.isAncestorOf(w) for w in inside), "the workload panel is unreachable"


def test_the_workload_is_described_from_the_keyboard(qtbot: QtBot, catalog: Catalog,
                                                     app_settings: AppSettings) -> None:
    window = open_window(qtbot, catalog, app_settings)
    press(qtbot, Qt.Key.Key_3, CTRL)
    build_tab = window.build_tab
    build_tab.apply_template("single-rtx-4090")
    assert build_tab.build.items(Slot.ACCELERATOR)
    panel = build_tab.workload_panel
    assert panel is not None
    form = panel.form  # type: ignore[attr-defined]
    form.model_combo.setFocus()
    before = build_tab.build.workload
    press(qtbot, Qt.Key.Key_Down)  # the next model in the list
    qtbot.waitUntil(lambda: build_tab.build.workload != before)
    assert build_tab.build.workload.workload is not None
