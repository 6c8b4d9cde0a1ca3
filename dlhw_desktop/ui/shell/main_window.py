"""The main window: composition only — tabs, menus (``MainMenus``), status bar, wiring
between tabs."""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QRect, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QGuiApplication, QUndoStack
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QTabWidget, QWidget

from dlhw_desktop import APP_NAME
from dlhw_desktop.core.fields import Category
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.common.theme import apply_theme
from dlhw_desktop.ui.shell.lazy_tab import LazyTab
from dlhw_desktop.ui.shell.menus import MainMenus

if TYPE_CHECKING:  # the tabs are imported when first built (start-up stays light)
    from dlhw_desktop.catalog.price_store import PriceBook
    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.core.parts import Part
    from dlhw_desktop.ui.catalog.catalog_tab import CatalogTab
    from dlhw_desktop.ui.cluster.cluster_tab import ClusterTab
    from dlhw_desktop.ui.compare.compare_tab import CompareTab
    from dlhw_desktop.ui.planner.autosave import Recovery
    from dlhw_desktop.ui.planner.build_tab import BuildTab

CATALOG, COMPARE, BUILD, CLUSTER = 0, 1, 2, 3
UNDO_LIMIT = 500
FIRST_SIZE = (1360, 820)
"""The first window's size where the screen has room; smaller screens get 94 % of theirs."""


def first_size(area: QRect | None) -> tuple[int, int]:
    """The size of the first window on a screen whose free area is ``area``."""
    if area is None or area.width() < 200 or area.height() < 200:
        return FIRST_SIZE
    return (min(FIRST_SIZE[0], int(area.width() * 0.94)),
            min(FIRST_SIZE[1], int(area.height() * 0.94)))


class MainWindow(MainMenus, QMainWindow):
    """Tabs Catalog, Compare, Build and Cluster, each built when first needed.

    With ``progressive=True`` (how the app starts) the window paints its frame first —
    menu bar, tabs, status bar — and the caller calls ``finish_startup()`` on the next turn
    of the event loop to fill the menus and build the Catalog tab, so the window appears
    before the catalog's widgets and first rows are ready. ``first_paint`` marks the first
    frame, ``catalog_ready`` the Catalog tab's first painted rows.
    """

    first_paint = Signal()
    catalog_ready = Signal()

    def __init__(self, catalog: Catalog, settings: AppSettings | None = None,
                 parent: QWidget | None = None, *, progressive: bool = False) -> None:
        super().__init__(parent)
        self.setObjectName("main_window")
        self.setWindowTitle(APP_NAME)
        self.catalog = catalog
        self.settings = settings or AppSettings()
        self.undo_stack = QUndoStack(self)
        self._price_book: PriceBook | None = None
        self.undo_stack.setObjectName("undo_stack")
        self.undo_stack.setUndoLimit(UNDO_LIMIT)  # bounded memory over a long session

        self.tabs = QTabWidget(objectName="main_tabs")
        self.tabs.setDocumentMode(True)
        self.catalog_page = LazyTab(self._make_catalog_tab, "catalog",
                                    build_on_show=not progressive)
        self.catalog_page.created.connect(self._catalog_tab_created)
        self.compare_page = LazyTab(self._make_compare_tab, "compare")
        self.build_page = LazyTab(self._make_build_tab, "build")
        self.cluster_page = LazyTab(self._make_cluster_tab, "cluster")
        self.tabs.addTab(self.catalog_page, "Catalog")
        self.tabs.addTab(self.compare_page, "Compare")
        self.tabs.addTab(self.build_page, "Build")
        self.tabs.addTab(self.cluster_page, "Cluster")
        self.setCentralWidget(self.tabs)

        self._make_menu_bar()
        info = catalog.info()
        self.catalog_label = QLabel(
            f"Catalog {info.catalog_version} · {info.total:,} parts · data as of "
            f"{info.data_date}", objectName="catalog_status")
        self.statusBar().addPermanentWidget(self.catalog_label)
        self._restore_state()
        self._painted = False
        self._build_menu_filled = False
        self._menus_filled = False
        self._ready = False  # catalog_ready is announced once
        self._help: QWidget | None = None
        self._warming: threading.Thread | None = None
        if not progressive:
            self.finish_startup()

    def finish_startup(self) -> None:
        """Fill the menus (actions and shortcuts) and build the Catalog tab; once."""
        self._fill_menus()
        created = self.catalog_page.is_created
        self.catalog_page.widget()
        if not created and self.tabs.currentWidget() is not self.catalog_page:
            # Another tab is in front (a build opened from the command line): the Catalog
            # tab has nothing to paint yet, so start-up is complete now.
            QTimer.singleShot(0, self._announce_ready)

    def _announce_ready(self) -> None:
        if not self._ready:
            self._ready = True
            self.catalog_ready.emit()

    # --- tabs built on demand -------------------------------------------------------
    def _make_catalog_tab(self) -> QWidget:
        from dlhw_desktop.ui.catalog.catalog_tab import CatalogTab

        self._fill_menus()  # its actions follow the Edit menu's own
        tab = CatalogTab(self.catalog, category=self._saved_category(),
                         price_book=self.price_book)
        tab.price_changed.connect(self._part_changed)
        tab.figure_changed.connect(self._part_changed)  # the build shows the part anew
        tab.compare_requested.connect(self.compare_parts)
        tab.add_to_build_requested.connect(self.add_to_build)
        tab.status_message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.edit_menu.addAction(tab.action_add)
        self.edit_menu.addAction(tab.action_compare)
        splitter = self.settings.get("catalog/splitter")
        if splitter:
            tab.splitter.restoreState(QByteArray(splitter))
        # Announced on the next turn of the event loop, once the frame is painted.
        tab.table.first_painted.connect(lambda: QTimer.singleShot(0, self._announce_ready))
        return tab

    def _saved_category(self) -> Category | None:
        """The category the Catalog tab showed last ("" is All parts)."""
        value = self.settings.get("catalog/category")
        if not value:
            return None
        try:
            return Category(value)
        except ValueError:  # a category this version does not have
            return Category.ACCELERATOR

    def _catalog_tab_created(self, tab: CatalogTab) -> None:
        if self.isVisible() and self.tabs.currentWidget() is self.catalog_page:
            tab.search.setFocus()  # built after the window showed: typing searches at once

    def warm_up_compare(self) -> None:
        """Import the Compare tab's chart library (pyqtgraph and numpy, ~0.4 s) on a
        background thread once the catalog is on screen, so that the first switch to the
        tab only builds its widgets. Pure imports: no Qt object is made off this thread."""
        if "dlhw_desktop.ui.compare.compare_tab" in sys.modules or self._warming is not None:
            return
        self._warming = threading.Thread(target=_import_compare, name="warm-compare",
                                         daemon=True)
        self._warming.start()

    def _make_compare_tab(self) -> QWidget:
        from dlhw_desktop.ui.compare.compare_tab import CompareTab  # pyqtgraph: only when needed

        return CompareTab(self.catalog, self.settings, priced=self._priced)

    def _make_build_tab(self) -> QWidget:
        from dlhw_desktop.ui.shell.composition import make_build_tab

        tab = make_build_tab(self.catalog, self.settings, self.undo_stack,
                             price_book=self.price_book)
        tab.status_message.connect(self.statusBar().showMessage)
        tab.price_changed.connect(self._build_price_changed)
        return tab

    def _build_price_changed(self, part_id: str) -> None:
        """A price set in the build's list: the Catalog table and the comparison show it."""
        if self.catalog_page.is_created:
            self.catalog_tab.prices_changed([part_id])
        if self.compare_page.is_created:
            self.compare_tab.prices_changed([part_id])

    def _make_cluster_tab(self) -> QWidget:
        from dlhw_desktop.ui.cluster.cluster_tab import ClusterTab

        return ClusterTab(self.catalog, lambda: self.build_tab.build,
                          price_book=self.price_book,
                          build_loader=lambda build, name: self.build_tab.load_plan_build(
                              build, name))

    @property
    def price_book(self) -> PriceBook:
        """The user's price book, one for every tab (a quote set in the Catalog tab's
        details pane is the one the Build tab counts)."""
        if self._price_book is None:
            from dlhw_desktop.catalog.price_store import PriceBook

            self._price_book = PriceBook()
        return self._price_book

    def report_price_book(self) -> list[str]:
        """At start-up: what of the price book cannot be read (rows of the wrong type, each
        named, or the whole file), said in the status bar and on stderr; the rest counts."""
        from dlhw_desktop.core.prices.book import PriceBookError

        try:
            problems = self.price_book.problems()
        except PriceBookError as exc:
            problems = [f"{exc}; your own prices are not counted"]
        for line in problems[:20]:
            print(f"dlhw: warning: {line}", file=sys.stderr)
        if problems:
            first = problems[0]
            more = f" (and {len(problems) - 1:,} more)" if len(problems) > 1 else ""
            self.statusBar().showMessage(first[:1].upper() + first[1:] + more)
            self.statusBar().setToolTip("\n".join(problems[:50]))
        return problems

    def _priced(self, part: Part) -> Part:
        """The part with the user's price (the catalog's when the book cannot be read)."""
        from dlhw_desktop.core.prices.book import PriceBookError

        try:
            return self.price_book.apply(part)
        except PriceBookError:
            return part

    def _part_changed(self, part_id: str) -> None:
        """A price or a figure of the part changed in another tab: the build and the
        comparison show it."""
        if self.build_page.is_created:
            self.build_tab.part_changed(part_id)
        if self.compare_page.is_created:
            self.compare_tab.prices_changed([part_id])

    def import_prices(self) -> None:
        """File > Import price list…: preview a CSV, save what the user confirms."""
        from dlhw_desktop.ui.prices.price_files import import_price_list

        build = ({item.part_id for item in self.build_tab.build}
                 if self.build_page.is_created else set())
        import_price_list(self, self.catalog, self.price_book, self._prices_imported,
                          build_ids=build)

    def _prices_imported(self, part_ids: list[str]) -> None:
        if self.build_page.is_created:
            for part_id in part_ids:
                self.build_tab.part_changed(part_id)
        if self.compare_page.is_created:  # one redraw for the whole list
            self.compare_tab.prices_changed(part_ids)
        if self.catalog_page.is_created:
            self.catalog_tab.prices_changed(part_ids)
        if self.build_page.is_created:  # an exported book brings rates and a currency too
            self.build_tab.recheck()
        if self.cluster_page.is_created:  # and network-gear quotes
            self.cluster_tab.refresh()
        self.statusBar().showMessage(
            f"Saved {len(part_ids):,} price{'s' if len(part_ids) != 1 else ''} to your "
            "price book", 6000)

    def export_prices(self) -> None:
        from dlhw_desktop.ui.prices.price_files import export_prices

        path = export_prices(self, self.price_book)
        if path is not None:
            self.statusBar().showMessage(f"Wrote your prices to {path}", 6000)

    @property
    def cluster_tab(self) -> ClusterTab:
        return self.cluster_page.widget()  # type: ignore[return-value]

    @property
    def catalog_tab(self) -> CatalogTab:
        return self.catalog_page.widget()  # type: ignore[return-value]

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

    # --- what the menus call ------------------------------------------------------------
    def offer_recovery(self) -> None:
        """Builds left unsaved by sessions that did not end normally (and whose instance is
        gone): offer each back, newest first, until one is restored."""
        from dlhw_desktop.ui.planner.autosave import take_stale_recoveries

        restored = False
        for recovery in take_stale_recoveries():
            if restored:
                recovery.release()  # one build at a time: the rest wait for the next start
                continue
            restored = self._offer(recovery)

    def _offer(self, recovery: Recovery) -> bool:
        from html import escape

        from PySide6.QtWidgets import QMessageBox

        from dlhw_desktop.core.errors import DlhwError
        from dlhw_desktop.ui.common.dialogs import show_error

        answer = QMessageBox.question(
            self, "Restore unsaved build?",
            # Rich text with the name escaped: it comes from the file.
            f"<qt>A session that did not end normally left “{escape(recovery.name)}” "
            f"unsaved (autosaved {recovery.saved_text}).<br>Restore it?</qt>",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.Yes)
        if answer != QMessageBox.StandardButton.Yes:
            recovery.discard()
            return False
        self.tabs.setCurrentIndex(BUILD)
        try:
            if not self.build_tab.restore_autosave(recovery.path):
                recovery.release()  # the user kept the open build: offered next time
                return False
        except DlhwError as exc:
            kept = recovery.keep_aside()
            show_error(self, "Cannot restore the unsaved build",
                       f"{exc}\nThe autosaved file is kept at {kept}")
            return False
        from dlhw_desktop.ui.planner.autosave import pending_autosave

        if pending_autosave() is not None:  # this instance's own copy is on disk
            recovery.discard()
        else:  # it could not be written: keep the old one rather than risk the build
            recovery.release()
        return True

    def help_window(self) -> QWidget:
        from dlhw_desktop.ui.shell.help_window import HelpWindow

        if self._help is None:
            self._help = HelpWindow(self)
        return self._help

    def show_user_guide(self) -> None:
        self.help_window().show_guide()  # type: ignore[attr-defined]

    def show_shortcuts(self) -> None:
        self.help_window().show_shortcuts()  # type: ignore[attr-defined]

    def _share(self, fmt: str) -> None:
        self.tabs.setCurrentIndex(BUILD)
        self.build_tab.copy_share(fmt)

    def open_model(self) -> None:
        """File > Open model…: the Build tab's workload panel reads it."""
        self.tabs.setCurrentIndex(BUILD)
        panel = self.build_tab.workload_panel
        if panel is not None:
            panel.open_model_dialog()  # type: ignore[attr-defined]

    def _about(self) -> None:
        from dlhw_desktop.ui.common.dialogs import show_about

        show_about(self, self.catalog)

    def _build_call(self, method: str) -> None:
        handler = getattr(self.build_tab, method)
        self.tabs.setCurrentIndex(BUILD)
        handler()

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
        if not geometry or not self.restoreGeometry(QByteArray(geometry)):
            self.resize(*first_size(self._available()))
        self._fit_screen()
        state = self.settings.get("window/state")
        if state:
            self.restoreState(QByteArray(state))

    def _available(self) -> QRect | None:
        screen = self.screen() or QGuiApplication.primaryScreen()
        return screen.availableGeometry() if screen is not None else None

    def _fit_screen(self) -> None:
        """A window saved on a larger screen (or a first start on a small one) is brought
        within the screen it opens on: every tab stays usable at 1280x720."""
        area = self._available()
        if area is None or area.width() < 200 or area.height() < 200:
            return
        frame = self.frameGeometry()
        extra_w = max(0, frame.width() - self.width())
        extra_h = max(0, frame.height() - self.height())
        width = min(self.width(), area.width() - extra_w)
        height = min(self.height(), area.height() - extra_h)
        if (width, height) != (self.width(), self.height()):
            self.resize(width, height)
        if not area.contains(self.frameGeometry().topLeft()):
            self.move(area.topLeft())

    def restore_last_tab(self) -> None:
        """Bring back the tab that was in front when the app closed (after start-up, so a
        Compare or Build tab is not built before the window first paints)."""
        index = self.settings.get("window/tab")
        if isinstance(index, int) and 0 < index < self.tabs.count():
            self.tabs.setCurrentIndex(index)

    def save_state(self) -> None:
        self.settings.set("window/geometry", bytes(self.saveGeometry().data()))
        self.settings.set("window/state", bytes(self.saveState().data()))
        self.settings.set("window/tab", self.tabs.currentIndex())
        if self.catalog_page.is_created:
            tab = self.catalog_tab
            self.settings.set("catalog/splitter", bytes(tab.splitter.saveState().data()))
            self.settings.set("catalog/category", tab.category.value if tab.category else "")
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


def _import_compare() -> None:
    try:
        import dlhw_desktop.ui.compare.compare_tab  # noqa: F401
    except Exception:
        return
