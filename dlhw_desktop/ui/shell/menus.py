"""The main window's menus: File, Edit, View, Build and Help, and what fills them.

A mixin of ``MainWindow``. The menu titles are in the first frame (``_make_menu_bar``);
their actions, each named and with its shortcut from ``ui.common.actions``, come once the
window is up (``_fill_menus``), and most of them call the tab that does the work. The
Build menu gains the planner's own actions the first time it opens, which is when the
Build tab is created; Open recent is filled each time it opens.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QActionGroup

from dlhw_desktop.ui.common.actions import make_action

if TYPE_CHECKING:
    from PySide6.QtGui import QUndoStack
    from PySide6.QtWidgets import QTabWidget

    from dlhw_desktop.ui.common.settings import AppSettings
    from dlhw_desktop.ui.planner.build_tab import BuildTab


class MainMenus:
    """The menu bar of ``MainWindow`` (a mixin)."""

    # what the mixin reads of the window
    settings: AppSettings
    undo_stack: QUndoStack
    tabs: QTabWidget
    _menus_filled: bool
    _build_menu_filled: bool

    if TYPE_CHECKING:  # declared for type checkers only: at run time the window's own win
        build_tab: BuildTab

        def _build_call(self, method: str) -> None: ...

        def open_build_file(self, path: Path) -> None: ...

    def _make_menu_bar(self) -> None:
        """The menu titles, in the first frame; their actions come with ``_fill_menus``."""
        bar = self.menuBar()
        self.file_menu = bar.addMenu("&File")
        self.edit_menu = bar.addMenu("&Edit")
        self.view_menu = bar.addMenu("&View")
        self.build_menu = bar.addMenu("&Build")
        self.build_menu.setObjectName("build_menu")
        self.help_menu = bar.addMenu("&Help")
        self.actions_by_name: dict[str, QAction] = {}

    def _fill_menus(self) -> None:
        if self._menus_filled:
            return
        self._menus_filled = True

        def act(name: str, slot=None) -> QAction:
            action = make_action(name, self)
            if slot is not None:
                action.triggered.connect(slot)
            self.actions_by_name[name] = action
            return action

        file_menu, edit_menu, view_menu = self.file_menu, self.edit_menu, self.view_menu
        build_menu, help_menu = self.build_menu, self.help_menu
        for name, method in (("action_new_build", "new_build"),
                             ("action_open_build", "open_build"),
                             ("action_save_build", "save_build"),
                             ("action_save_build_as", "save_build_as"),
                             ("action_export_sheet", "export_sheet")):
            file_menu.addAction(act(name, lambda _c=False, m=method: self._build_call(m)))
            if name == "action_save_build_as":
                file_menu.addSeparator()
        file_menu.addAction(act("action_open_model", self.open_model))
        share = file_menu.addMenu("&Share build")
        share.setObjectName("share_menu")
        for name, fmt in (("action_copy_markdown", "markdown"), ("action_copy_bbcode", "bbcode"),
                          ("action_copy_text", "text")):
            share.addAction(act(name, lambda _c=False, f=fmt: self._share(f)))
        self.recent_menu = file_menu.addMenu("Open &recent")
        self.recent_menu.setObjectName("recent_menu")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        file_menu.addSeparator()
        file_menu.addAction(act("action_import_prices", self.import_prices))
        file_menu.addAction(act("action_export_prices", self.export_prices))
        file_menu.addSeparator()
        file_menu.addAction(act("action_quit", self.close))

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
        # The Catalog tab's Add to build / Compare join this menu when the tab is built.

        for index, name in enumerate(("action_show_catalog", "action_show_compare",
                                      "action_show_build", "action_show_cluster")):
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

        build_menu.addAction(act("action_detect_computer",
                                 lambda: self._build_call("detect_computer")))
        # The planner's own actions (templates, custom parts, check settings) join the
        # menu the first time it opens, which is when the Build tab is created.
        build_menu.aboutToShow.connect(self._fill_build_menu)

        help_menu.addAction(act("action_user_guide", self.show_user_guide))
        help_menu.addAction(act("action_shortcuts", self.show_shortcuts))
        help_menu.addSeparator()
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

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        files = [f for f in self.settings.get("build/recent_files") if f]
        if not files:
            self.recent_menu.addAction("(none)").setEnabled(False)
        for path in files[:10]:
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _c=False, p=path: self.open_build_file(Path(p)))
