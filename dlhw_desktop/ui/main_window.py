"""The main window: composition only — tabs, menus, status bar, wiring between tabs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QUndoStack
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QTabWidget, QWidget

from dlhw_desktop import APP_NAME
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.ui.actions import make_action
from dlhw_desktop.ui.catalog_tab import CatalogTab
from dlhw_desktop.ui.lazy_tab import LazyTab
from dlhw_desktop.ui.settings import AppSettings
from dlhw_desktop.ui.theme import apply_theme

if TYPE_CHECKING:  # both are imported when their tab is first shown (start-up stays light)
    from dlhw_desktop.ui.build_tab import BuildTab
    from dlhw_desktop.ui.compare_tab import CompareTab

CATALOG, COMPARE, BUILD = 0, 1, 2
UNDO_LIMIT = 500


class MainWindow(QMainWindow):
    """Tabs Catalog, Compare and Build; the last two are built when first needed."""

    first_paint = Signal()

    def __init__(self, catalog: Catalog, settings: AppSettings | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("main_window")
        self.setWindowTitle(APP_NAME)
        self.catalog = catalog
        self.settings = settings or AppSettings()
        self.undo_stack = QUndoStack(self)
        self.undo_stack.setObjectName("undo_stack")
        self.undo_stack.setUndoLimit(UNDO_LIMIT)  # bounded memory over a long session

        self.tabs = QTabWidget(objectName="main_tabs")
        self.tabs.setDocumentMode(True)
        self.catalog_tab = CatalogTab(catalog)
        self.compare_page = LazyTab(self._make_compare_tab, "compare")
        self.build_page = LazyTab(self._make_build_tab, "build")
        self.tabs.addTab(self.catalog_tab, "Catalog")
        self.tabs.addTab(self.compare_page, "Compare")
        self.tabs.addTab(self.build_page, "Build")
        self.setCentralWidget(self.tabs)

        self.catalog_tab.compare_requested.connect(self.compare_parts)
        self.catalog_tab.add_to_build_requested.connect(self.add_to_build)

        self._make_menus()
        info = catalog.info()
        self.catalog_label = QLabel(
            f"Catalog {info.catalog_version} · {info.total:,} parts · data as of "
            f"{info.data_date}", objectName="catalog_status")
        self.statusBar().addPermanentWidget(self.catalog_label)
        self._restore_state()
        self._painted = False
        self._build_menu_filled = False

    # --- tabs built on demand -------------------------------------------------------
    def _make_compare_tab(self) -> QWidget:
        from dlhw_desktop.ui.compare_tab import CompareTab  # pyqtgraph: only when needed

        return CompareTab(self.catalog, self.settings)

    def _make_build_tab(self) -> QWidget:
        from dlhw_desktop.ui.build_tab import BuildTab

        tab = BuildTab(self.catalog, self.settings, self.undo_stack)
        tab.status_message.connect(self.statusBar().showMessage)
        return tab

    @property
    def compare_tab(self) -> CompareTab:
        return self.compare_page.widget()  # type: ignore[return-value]

    @property
    def build_tab(self) -> BuildTab:
        return self.build_page.widget()  # type: ignore[return-value]

    def compare_parts(self, part_ids: list[str]) -> None:
        self.compare_tab.add_parts(part_ids)
        self.tabs.setCurrentIndex(COMPARE)

    def add_to_build(self, part_ids: list[str]) -> None:
        self.build_tab.add_parts(part_ids)
        self.statusBar().showMessage(
            f"Added {len(part_ids)} part{'s' if len(part_ids) != 1 else ''} to the build", 4000)

    # --- menus ------------------------------------------------------------------------
    def _make_menus(self) -> None:
        self.actions_by_name: dict[str, QAction] = {}

        def act(name: str, slot=None) -> QAction:
            action = make_action(name, self)
            if slot is not None:
                action.triggered.connect(slot)
            self.actions_by_name[name] = action
            return action

        file_menu = self.menuBar().addMenu("&File")
        for name, method in (("action_new_build", "new_build"),
                             ("action_open_build", "open_build"),
                             ("action_save_build", "save_build"),
                             ("action_save_build_as", "save_build_as"),
                             ("action_export_sheet", "export_sheet")):
            file_menu.addAction(act(name, lambda _c=False, m=method: self._build_call(m)))
            if name == "action_save_build_as":
                file_menu.addSeparator()
        self.recent_menu = file_menu.addMenu("Open &recent")
        self.recent_menu.setObjectName("recent_menu")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        file_menu.addSeparator()
        file_menu.addAction(act("action_quit", self.close))

        edit_menu = self.menuBar().addMenu("&Edit")
        undo = self.undo_stack.createUndoAction(self, "&Undo")
        undo.setObjectName("action_undo")
        undo.setShortcut(make_action("action_undo", self).shortcut())
        redo = self.undo_stack.createRedoAction(self, "&Redo")
        redo.setObjectName("action_redo")
        redo.setShortcuts([make_action("action_redo", self).shortcut(),
                           make_action("action_undo", self).shortcut().fromString("Ctrl+Y")[0]])
        self.actions_by_name.update(action_undo=undo, action_redo=redo)
        edit_menu.addAction(undo)
        edit_menu.addAction(redo)
        edit_menu.addSeparator()
        edit_menu.addAction(act("action_find", self._find))
        edit_menu.addAction(self.catalog_tab.action_add)
        edit_menu.addAction(self.catalog_tab.action_compare)

        view_menu = self.menuBar().addMenu("&View")
        for index, name in enumerate(("action_show_catalog", "action_show_compare",
                                      "action_show_build")):
            view_menu.addAction(act(name, lambda _c=False, i=index: self.tabs.setCurrentIndex(i)))
        view_menu.addSeparator()
        group = QActionGroup(self)
        current = self.settings.get("view/theme")
        for theme in ("system", "light", "dark"):
            action = act(f"action_theme_{theme}", lambda _c=False, t=theme: self.set_theme(t))
            action.setCheckable(True)
            action.setChecked(theme == current)
            group.addAction(action)
            view_menu.addAction(action)

        self.build_menu = build_menu = self.menuBar().addMenu("&Build")
        build_menu.setObjectName("build_menu")
        build_menu.addAction(act("action_detect_computer",
                                 lambda: self._build_call("detect_computer")))
        # The planner's own actions (templates, custom parts, check settings) join the
        # menu the first time it opens, which is when the Build tab is created.
        build_menu.aboutToShow.connect(self._fill_build_menu)

        help_menu = self.menuBar().addMenu("&Help")
        help_menu.addAction(act("action_about", self._about))
        help_menu.addAction(act("action_data_sources", self._about))

    def _fill_build_menu(self) -> None:
        if self._build_menu_filled:
            return
        self._build_menu_filled = True
        actions = self.build_tab.menu_actions()
        first = self.build_menu.actions()[0] if self.build_menu.actions() else None
        for action in actions:
            self.build_menu.insertAction(first, action)
        if actions:
            self.build_menu.insertSeparator(first)

    def offer_recovery(self) -> None:
        """A build left unsaved by a session that did not end normally: offer it back."""
        from dlhw_desktop.ui.autosave import discard_autosave, pending_autosave

        path = pending_autosave()
        if path is None:
            return
        from datetime import datetime

        from PySide6.QtWidgets import QMessageBox

        when = datetime.fromtimestamp(path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
        answer = QMessageBox.question(
            self, "Restore unsaved build?",
            f"The last session ended with a build that was not saved (autosaved {when}).\n"
            "Restore it?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.Yes)
        if answer == QMessageBox.StandardButton.Yes:
            self.tabs.setCurrentIndex(BUILD)
            self.build_tab.restore_autosave(path)
        else:
            discard_autosave()

    def _about(self) -> None:
        from dlhw_desktop.ui.dialogs import show_about

        show_about(self, self.catalog)

    def _build_call(self, method: str) -> None:
        handler = getattr(self.build_tab, method)
        self.tabs.setCurrentIndex(BUILD)
        handler()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        files = [f for f in self.settings.get("build/recent_files") if f]
        if not files:
            self.recent_menu.addAction("(none)").setEnabled(False)
        for path in files[:10]:
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _c=False, p=path: self.open_build_file(Path(p)))

    def open_build_file(self, path: Path) -> None:
        self.tabs.setCurrentIndex(BUILD)
        self.build_tab.open_build_file(path)

    def _find(self) -> None:
        self.tabs.setCurrentIndex(CATALOG)
        self.catalog_tab.focus_search()

    def set_theme(self, theme: str) -> None:
        self.settings.set("view/theme", theme)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            apply_theme(app, theme)

    # --- state ------------------------------------------------------------------------
    def _restore_state(self) -> None:
        geometry = self.settings.get("window/geometry")
        if geometry:
            self.restoreGeometry(QByteArray(geometry))
        else:
            self.resize(1360, 820)
        state = self.settings.get("window/state")
        if state:
            self.restoreState(QByteArray(state))
        splitter = self.settings.get("catalog/splitter")
        if splitter:
            self.catalog_tab.splitter.restoreState(QByteArray(splitter))

    def save_state(self) -> None:
        self.settings.set("window/geometry", bytes(self.saveGeometry().data()))
        self.settings.set("window/state", bytes(self.saveState().data()))
        self.settings.set("window/tab", self.tabs.currentIndex())
        self.settings.set("catalog/splitter",
                          bytes(self.catalog_tab.splitter.saveState().data()))
        self.settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.build_page.is_created:
            if not self.build_tab.maybe_save():
                event.ignore()
                return
            self.build_tab.shutdown()
        self.save_state()
        super().closeEvent(event)

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            self.first_paint.emit()
