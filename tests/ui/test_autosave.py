"""Autosave of the unsaved build, and its recovery after a session that did not end well."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core import buildfile
from dlhw_desktop.core.build import Build
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.planner import autosave
from dlhw_desktop.ui.planner.build_commands import AddPartCommand
from dlhw_desktop.ui.shell.main_window import MainWindow

RTX_4090 = "accelerator/nvidia-geforce-rtx-4090"


def test_unsaved_changes_are_autosaved_and_cleared_when_clean(qtbot: QtBot,
                                                              catalog: Catalog) -> None:
    build, stack = Build(name="Work in progress"), QUndoStack()
    saver = autosave.Autosaver(build, stack)
    stack.push(AddPartCommand(build, catalog.get(RTX_4090), 2))
    qtbot.waitUntil(lambda: autosave.pending_autosave() is not None,
                    timeout=autosave.AUTOSAVE_DELAY_MS + 3000)
    restored = buildfile.load(autosave.autosave_path(), catalog.find).build
    assert [(i.part.id, i.quantity) for i in restored.items()] == [(RTX_4090, 2)]
    stack.undo()  # back to the clean state: nothing to recover
    assert autosave.pending_autosave() is None
    stack.redo()
    saver.save_now()
    assert autosave.pending_autosave() is not None
    saver.stop()  # a normal quit
    assert autosave.pending_autosave() is None


def test_next_start_offers_to_restore(qtbot: QtBot, catalog: Catalog,
                                      app_settings: AppSettings,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    crashed = Build(name="Before the crash")
    crashed.add(catalog.get(RTX_4090), 3)
    target = autosave.autosave_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    buildfile.save(crashed, target)
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: (
        asked.append(a[1]), QMessageBox.StandardButton.Yes)[1])
    window = MainWindow(catalog, app_settings)
    qtbot.addWidget(window)
    window.offer_recovery()
    assert asked == ["Restore unsaved build?"]
    tab = window.build_tab
    assert tab.build.name == "Before the crash"
    assert [(i.part.id, i.quantity) for i in tab.build.items()] == [(RTX_4090, 3)]
    assert tab.is_modified() and tab.path is None  # unsaved, no file: nothing overwritten
    tab.ask_save_changes = lambda: "discard"  # closing the window at teardown


def test_declining_discards_the_autosave(qtbot: QtBot, catalog: Catalog,
                                         app_settings: AppSettings,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    target: Path = autosave.autosave_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    buildfile.save(Build(name="old"), target)
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.No)
    window = MainWindow(catalog, app_settings)
    qtbot.addWidget(window)
    window.offer_recovery()
    assert autosave.pending_autosave() is None
    assert not window.build_page.is_created  # nothing restored, tab not even built
