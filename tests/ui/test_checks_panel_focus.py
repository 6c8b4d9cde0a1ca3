"""The checks a buyer must read come to them: a new failure is shown, the banner leads to
the check that decides the verdict, and every check says what it looks at."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QMouseEvent, QUndoStack
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.checks.explain import EXPLANATIONS, explain
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.shell.composition import make_build_tab

RTX_4090 = "accelerator/nvidia-geforce-rtx-4090"


def test_a_change_that_makes_a_check_fail_scrolls_to_it_and_the_banner_leads_there(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> None:
    tab = make_build_tab(catalog, app_settings, QUndoStack())
    qtbot.addWidget(tab)
    tab.resize(1280, 720)
    tab.show()
    tab.apply_template("single-rtx-4090")
    assert tab.report is not None and tab.report.verdict != "fail"
    tab.set_quantity(RTX_4090, 3)  # three 4090s on the template's supply: power fails
    panel = tab.checks
    selected = panel.selected_result()
    assert selected is not None and selected.status == "fail"
    item = panel.tree.currentItem()
    assert panel.tree.visualItemRect(item).intersects(panel.tree.viewport().rect())
    panel.tree.clearSelection()
    panel.tree.scrollToBottom()
    banner = panel.banner
    click = QMouseEvent(QMouseEvent.Type.MouseButtonRelease, QPointF(5, 5),
                        QPointF(banner.mapToGlobal(banner.rect().topLeft())),
                        Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier)
    banner.mouseReleaseEvent(click)
    again = panel.selected_result()
    assert again is not None and again.status == "fail"


def test_every_check_has_a_whats_this(qtbot: QtBot, catalog: Catalog,
                                      app_settings: AppSettings) -> None:
    tab = make_build_tab(catalog, app_settings, QUndoStack())
    qtbot.addWidget(tab)
    tab.apply_template("four-gpu-workstation")
    tree = tab.checks.tree
    for i in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(i)
        for j in range(top.childCount()):
            child = top.child(j)
            assert len(child.whatsThis(0)) > 30, child.text(0)
    assert explain("power.psu_load") == EXPLANATIONS["power.psu_load"]
    assert explain("tier.gpu") == EXPLANATIONS["tier"] and explain("nothing.at_all") == ""
