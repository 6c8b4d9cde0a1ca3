"""The shell's wiring of features that work together: the Build tab and its workload panel.

The planner and the workload panel do not import each other; this module makes both and
joins them, for the main window and for tests that want the Build tab as a user sees it.
"""

from __future__ import annotations

from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QWidget

from dlhw_desktop.catalog.price_store import PriceBook
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.catalog.userparts import UserParts
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.planner.build_tab import BuildTab
from dlhw_desktop.ui.workload.workload_panel import WorkloadPanel


def make_build_tab(catalog: Catalog, settings: AppSettings, undo_stack: QUndoStack,
                   parent: QWidget | None = None,
                   user_parts: UserParts | None = None,
                   price_book: PriceBook | None = None) -> BuildTab:
    """The Build tab with its workload panel installed."""
    tab = BuildTab(catalog, settings, undo_stack, parent=parent, user_parts=user_parts,
                   price_book=price_book)
    tab.install_workload_panel(WorkloadPanel(catalog, settings=settings))
    return tab
