"""The Compare tab as the Compare tests open it."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.compare.compare_tab import CompareTab


def make_tab(qtbot: QtBot, catalog: Catalog, settings: AppSettings) -> CompareTab:
    tab = CompareTab(catalog, settings)
    qtbot.addWidget(tab)
    tab.resize(1360, 780)
    tab.show()
    qtbot.waitExposed(tab)
    return tab
