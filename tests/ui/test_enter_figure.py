""""Enter it…": an unknown check offers to enter the missing figure, the dialog refuses a
bad value in words and saves a good one, and the verdict changes; the details pane offers
the same for every "n/a" and shows the figure as yours."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.catalog.user_figures_store import UserFiguresStore
from dlhw_desktop.ui.catalog.catalog_tab import CatalogTab
from dlhw_desktop.ui.common import figure_dialog
from dlhw_desktop.ui.common.figure_dialog import FigureDialog
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.shell.composition import make_build_tab

CPU = "cpu/intel-core-i9-13900k"
PSU = "psu/corsair-hx1500i-cp-9020309-na"
CARD = "accelerator/nvidia-geforce-rtx-4090"


def _answer(monkeypatch: pytest.MonkeyPatch, *texts: str) -> list[str]:
    """Drive the dialog as a user would: type each text, press Save; the last must hold."""
    shown: list[str] = []

    def exec_(dialog: FigureDialog) -> int:
        for text in texts:
            dialog.value.setEditText(text) if hasattr(dialog.value, "setEditText") \
                else dialog.value.setText(text)
            dialog.accept()
            shown.append(dialog.error.text())
        return QDialog.DialogCode.Accepted if dialog.figure else QDialog.DialogCode.Rejected

    monkeypatch.setattr(FigureDialog, "exec", exec_)
    return shown


def test_an_unknown_check_offers_the_figure_and_the_verdict_follows_it(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings,
        monkeypatch: pytest.MonkeyPatch) -> None:
    tab = make_build_tab(catalog, app_settings, QUndoStack())
    qtbot.addWidget(tab)
    psu = tab.resolver.find(PSU)
    assert psu is not None
    from dataclasses import replace

    unknown_atx = replace(psu, specs={**psu.specs, "atx_version": None})
    monkeypatch.setattr(tab.resolver.catalog, "find",
                        lambda pid, _f=tab.resolver.catalog.find:
                        unknown_atx if pid == PSU else _f(pid))
    tab.add_parts([CPU, CARD, PSU])
    tab.set_quantity(CARD, 2)
    report = tab.recheck()
    transients = report.get("power.transients")
    assert transients is not None and transients.status == "warn"
    assert "judged as ATX 2.x" in transients.message
    assert (PSU, "atx_version") in tab.checks.enter_rows()

    errors = _answer(monkeypatch, "4.0", "3.1")
    tab.checks.figure_requested.emit(PSU, "atx_version")
    assert "ATX version" in errors[0] and "such as 3.1" in errors[0]  # refused in words
    after = tab.report.get("power.transients")
    assert after is not None and "ATX 3.1" in after.message  # judged at 200 % now
    assert "judged as ATX 2.x" not in after.message
    assert any(u.kind == "your figure" for u in after.basis)
    assert (PSU, "atx_version") not in tab.checks.enter_rows()
    assert UserFiguresStore().for_part(PSU)[0].value == "3.1"


def test_the_details_pane_offers_every_missing_figure_and_shows_yours(
        qtbot: QtBot, catalog: Catalog, monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    tab = CatalogTab(catalog)
    qtbot.addWidget(tab)
    tab.resize(1300, 800)
    tab.show()
    assert tab.select_part(PSU)
    html = tab.details.toHtml()
    assert "Enter it…" in html  # PCIe 8-pin count is n/a for this unit
    _answer(monkeypatch, "6")
    with qtbot.waitSignal(tab.figure_changed, timeout=2000):
        tab.details.open_link(QUrl("dlhw-enter:connectors_pcie_8pin"))
    text = tab.details.toPlainText()
    assert "6 connectors (your figure, entered" in text and "Remove" in text
    with qtbot.waitSignal(tab.figure_changed, timeout=2000):
        tab.details.open_link(QUrl("dlhw-forget:connectors_pcie_8pin"))
    assert "your figure" not in tab.details.toPlainText()
    assert figure_dialog.enter_figure(tab, tab.details.part, "no_such_field",
                                      UserFiguresStore()) is None
