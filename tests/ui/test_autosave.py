"""Autosave of the unsaved build, and its recovery after a session that did not end well."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QLockFile
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.planner import autosave
from dlhw_desktop.ui.planner.build_commands import AddPartCommand
from dlhw_desktop.ui.shell.main_window import MainWindow

RTX_4090 = "accelerator/nvidia-geforce-rtx-4090"


def crashed_session(build: Build, name: str = "4242-0badcafe") -> Path:
    """The recovery file of an instance that crashed: its lock names a process that is gone
    (a real one, which took the lock and died without releasing it)."""
    folder = autosave.autosave_dir()
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{name}.dlhw.json"
    buildfile.save(build, target)
    code = ("import os, sys\nfrom PySide6.QtCore import QLockFile\n"
            "lock = QLockFile(sys.argv[1])\nassert lock.tryLock(0)\nos._exit(0)\n")
    subprocess.run([sys.executable, "-c", code, str(folder / f"{name}.lock")], check=True,
                   timeout=60)
    assert (folder / f"{name}.lock").exists()
    return target


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
    crashed_session(crashed)
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
    target = crashed_session(Build(name="old"))
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.No)
    window = MainWindow(catalog, app_settings)
    qtbot.addWidget(window)
    window.offer_recovery()
    assert autosave.pending_autosave() is None
    assert not window.build_page.is_created  # nothing restored, tab not even built
    assert not target.exists() and list(target.parent.iterdir()) == []  # file and lock gone


def test_each_instance_has_its_own_recovery_file_and_a_running_ones_is_left_alone(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15: a second instance that declines (or quits) must not delete the first
    one's recovery file."""
    folder = autosave.autosave_dir()
    folder.mkdir(parents=True, exist_ok=True)
    other = folder / "777-feedf00d.dlhw.json"  # a running instance: it holds its lock
    other_lock = QLockFile(str(folder / "777-feedf00d.lock"))
    assert other_lock.tryLock(0)
    buildfile.save(Build(name="First window's work"), other)
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: (
        asked.append(a[2]), QMessageBox.StandardButton.No)[1])
    window = MainWindow(catalog, app_settings)
    qtbot.addWidget(window)
    window.offer_recovery()
    assert asked == []  # its owner runs: not offered
    tab = window.build_tab
    tab.add_parts([RTX_4090])
    tab.autosaver.save_now()
    mine = autosave.pending_autosave()
    assert mine is not None and mine != other and mine.parent == folder
    assert mine.name.startswith(f"{__import__('os').getpid()}-")
    tab.shutdown()  # a normal quit removes its own file and lock only
    assert not mine.exists() and not mine.with_name(
        mine.name.replace(".dlhw.json", ".lock")).exists()
    assert other.exists() and buildfile.load(other, catalog.find).build.name == \
        "First window's work"
    other_lock.unlock()
    tab.ask_save_changes = lambda: "discard"  # type: ignore[method-assign]


def test_a_stale_recovery_is_offered_once_by_name_and_deleted_by_its_new_owner(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings,
        monkeypatch: pytest.MonkeyPatch) -> None:
    crashed = Build(name="Lab server, draft 3")
    crashed.add(catalog.get(RTX_4090), 2)
    target = crashed_session(crashed)
    taken = autosave.take_stale_recoveries()  # this instance now owns it...
    assert [r.name for r in taken] == ["Lab server, draft 3"]
    assert autosave.take_stale_recoveries() == []  # ...so no one else is offered it
    for recovery in taken:
        recovery.release()
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: (
        asked.append(a[2]), QMessageBox.StandardButton.Yes)[1])
    window = MainWindow(catalog, app_settings)
    qtbot.addWidget(window)
    window.offer_recovery()
    assert len(asked) == 1 and "“Lab server, draft 3”" in asked[0] and "autosaved" in asked[0]
    tab = window.build_tab
    assert tab.build.name == "Lab server, draft 3" and tab.path is None
    assert not target.exists()  # restored: its new owner deleted it...
    assert autosave.pending_autosave() is not None  # ...after writing its own
    window.offer_recovery()
    assert len(asked) == 1  # offered once
    tab.ask_save_changes = lambda: "discard"  # type: ignore[method-assign]


def test_an_autosave_that_fails_to_restore_is_kept_and_its_place_named(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from dlhw_desktop.ui.common import dialogs

    target = crashed_session(Build(name="damaged"))
    target.write_text('{"format": "dlhw-build", "version": 99, "parts": []}',
                      encoding="utf-8")
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Yes)
    errors: list[str] = []
    monkeypatch.setattr(dialogs, "show_error", lambda _p, _t, text: errors.append(text))
    window = MainWindow(catalog, app_settings)
    qtbot.addWidget(window)
    window.offer_recovery()
    kept = target.parent / autosave.NOT_RESTORED / target.name
    assert kept.exists() and not target.exists()
    assert len(errors) == 1 and str(kept) in errors[0]
    window.build_tab.shutdown()  # the next quit does not delete it
    assert kept.read_text(encoding="utf-8").startswith('{"format": "dlhw-build"')
    window.offer_recovery()
    assert len(errors) == 1  # not offered again


def test_the_lock_of_a_crashed_instance_with_nothing_to_recover_is_cleaned_up() -> None:
    target = crashed_session(Build(name="saved before the crash"))
    target.unlink()  # its build was saved: only the lock was left behind
    lock = target.with_name("4242-0badcafe.lock")
    assert lock.exists()
    assert autosave.take_stale_recoveries() == []
    assert not lock.exists()
