"""The window as a person meets it: sized to the screen, the last tab back, help at F1,
the Compare tab's libraries loaded before its first use."""

from __future__ import annotations

import subprocess
import sys

from PySide6.QtCore import QRect
from PySide6.QtGui import QAction, QKeySequence
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.ui.common.actions import ACTIONS
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.shell.help_window import shortcut_rows
from dlhw_desktop.ui.shell.main_window import BUILD, COMPARE, FIRST_SIZE, MainWindow, first_size


def make_window(qtbot: QtBot, catalog: Catalog, settings: AppSettings) -> MainWindow:
    window = MainWindow(catalog, settings)
    qtbot.addWidget(window)
    return window


def test_the_first_window_fits_a_small_screen() -> None:
    assert first_size(QRect(0, 0, 2560, 1440)) == FIRST_SIZE
    width, height = first_size(QRect(0, 0, 1280, 720))
    assert width <= 1280 and height <= 720 and height >= 600
    assert first_size(None) == FIRST_SIZE


def test_a_window_saved_on_a_bigger_screen_is_brought_within_this_one(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    window = make_window(qtbot, catalog, app_settings)
    window.show()
    area = window._available()
    assert area is not None
    window.resize(area.width() + 900, area.height() + 700)
    window.save_state()
    again = make_window(qtbot, catalog, app_settings)
    assert again.width() <= area.width() and again.height() <= area.height()


def test_the_last_tab_comes_back(qtbot: QtBot, catalog: Catalog,
                                 app_settings: AppSettings) -> None:
    window = make_window(qtbot, catalog, app_settings)
    window.show()
    window.tabs.setCurrentIndex(BUILD)
    window.save_state()
    again = make_window(qtbot, catalog, app_settings)
    again.show()
    assert again.tabs.currentIndex() == 0  # the Catalog paints first ...
    again.restore_last_tab()
    assert again.tabs.currentIndex() == BUILD  # ... then the tab left in front


def test_f1_opens_the_bundled_guide_and_the_shortcut_list_matches_the_actions(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    window = make_window(qtbot, catalog, app_settings)
    guide = window.findChild(QAction, "action_user_guide")
    assert guide is not None
    assert guide.shortcut() == QKeySequence(QKeySequence.StandardKey.HelpContents)
    guide.trigger()
    text = window.help_window().browser.toPlainText()  # type: ignore[attr-defined]
    for words in ("The four tabs", "drag them onto the build", "The checks",
                  "The workload fit", "The command line", "dlhw check"):
        assert words in text
    window.findChild(QAction, "action_shortcuts").trigger()
    listed = window.help_window().browser.toPlainText()  # type: ignore[attr-defined]
    for spec in ACTIONS.values():
        if spec.shortcut is not None:
            keys = QKeySequence(spec.shortcut).toString(
                QKeySequence.SequenceFormat.NativeText)
            assert keys in listed, spec.name
    keys = [row[0] for row in shortcut_rows()]
    assert "F1" in keys and len(keys) == len(set(keys))  # each key listed once


def test_the_compare_tab_libraries_load_in_the_background() -> None:
    """In a fresh interpreter: after the warm-up thread, the tab only builds its widgets."""
    code = """
import os, sys, tempfile
os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ["DLHW_DATA_DIR"] = tempfile.mkdtemp()
from PySide6.QtCore import QSettings
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.shell.app import create_application
from dlhw_desktop.ui.shell.main_window import COMPARE, MainWindow
app = create_application()
settings = AppSettings(QSettings(os.path.join(os.environ["DLHW_DATA_DIR"], "s.ini"),
                                 QSettings.Format.IniFormat))
window = MainWindow(Catalog.open(), settings)
assert "pyqtgraph" not in sys.modules
window.warm_up_compare()
window._warming.join(60)
assert "pyqtgraph" in sys.modules and not window.compare_page.is_created
window.show()
window.tabs.setCurrentIndex(COMPARE)
app.processEvents()
assert window.compare_page.is_created and window.compare_tab.objectName() == "compare_tab"
from PySide6.QtCore import QTimer
QTimer.singleShot(100, window.close)  # quit as a person does: the window closes
app.exec()
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-2000:]
    assert COMPARE == 1
