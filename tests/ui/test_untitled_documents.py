"""Issue 15: a template, a detected machine or a recovered autosave opens as a new, untitled
build; the file that was open is never overwritten by the next Save, and unsaved work is
asked about (Save / Discard / Cancel) before it is replaced."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from PySide6.QtGui import QUndoStack
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog import matching
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.planner.build_tab import BuildTab
from dlhw_desktop.ui.shell.composition import make_build_tab

RTX_4090 = "accelerator/nvidia-geforce-rtx-4090"
PSU_750 = "psu/seasonic-focus-gx-750-atx-3"


@pytest.fixture
def tab(qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> BuildTab:
    widget = make_build_tab(catalog, app_settings, QUndoStack())
    qtbot.addWidget(widget)
    return widget


def answers(tab: BuildTab, *replies: str) -> list[str]:
    """Answer the "save changes?" questions in turn; returns the log of questions."""
    asked: list[str] = []
    queue = list(replies)

    def ask() -> str:
        asked.append("save changes?")
        return queue.pop(0)

    tab.ask_save_changes = ask  # type: ignore[method-assign]
    return asked


@pytest.fixture
def saved_file(tab: BuildTab, tmp_path: Path, catalog: Catalog) -> Path:
    mine = Build(name="My saved build")
    mine.add(catalog.get(RTX_4090), 2)
    path = tmp_path / "mine.dlhw.json"
    buildfile.save(mine, path)
    assert tab.open_build_file(path, ask=False)
    return path


def test_a_template_opens_untitled_and_ctrl_s_never_replaces_the_open_file(
        tab: BuildTab, saved_file: Path, tmp_path: Path) -> None:
    before = saved_file.read_bytes()
    tab.apply_template("single-rtx-4090")
    assert tab.path is None and tab.is_modified()
    save_as: list[bool] = []
    tab.ask_save_path = lambda: (save_as.append(True), None)[1]  # type: ignore[method-assign]
    assert not tab.save_build()  # Ctrl+S asks where (and the user cancels)
    assert save_as == [True]
    assert saved_file.read_bytes() == before
    tab.undo_stack.undo()  # undo brings the former build back, with its file
    assert tab.build.name == "My saved build" and tab.path == saved_file


def test_a_template_over_unsaved_work_asks_and_cancel_keeps_it(tab: BuildTab,
                                                               saved_file: Path) -> None:
    tab.add_parts([PSU_750])
    asked = answers(tab, "cancel")
    assert tab.apply_template("single-rtx-4090") is None
    assert asked == ["save changes?"]
    assert tab.build.name == "My saved build" and tab.path == saved_file
    assert tab.build.find(PSU_750) is not None
    asked = answers(tab, "save")
    assert tab.apply_template("single-rtx-4090") is not None
    assert buildfile.load(saved_file, tab.resolver.find).build.find(PSU_750) is not None
    assert tab.path is None


def test_detect_opens_untitled_and_asks_before_replacing_unsaved_work(
        tab: BuildTab, saved_file: Path, qtbot: QtBot, catalog: Catalog,
        monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_detect(_catalog: Catalog) -> SimpleNamespace:
        build = Build(name="this computer")
        build.add(catalog.get(RTX_4090))
        return SimpleNamespace(build=build)

    monkeypatch.setattr(matching, "detect_build", fake_detect)
    before = saved_file.read_bytes()
    tab.add_parts([PSU_750])
    asked = answers(tab, "cancel")
    tab.detect_computer()
    assert asked == ["save changes?"]
    qtbot.wait(200)
    assert tab.build.name == "My saved build"  # cancelled: nothing detected, nothing lost
    asked = answers(tab, "discard")
    tab.detect_computer()
    qtbot.waitUntil(lambda: tab.build.name == "this computer", timeout=5000)
    assert asked == ["save changes?"] and tab.path is None
    tab.ask_save_path = lambda: None  # type: ignore[method-assign]
    assert not tab.save_build()
    assert saved_file.read_bytes() == before


def test_edits_made_while_detecting_are_asked_about_again(
        tab: BuildTab, qtbot: QtBot, catalog: Catalog) -> None:
    answers(tab)  # a fresh build: no question
    state = (tab.undo_stack.index(), tab.undo_stack.count())
    tab.add_parts([PSU_750])  # edited while detection ran
    asked = answers(tab, "cancel")
    detected = Build(name="this computer")
    tab._detected(SimpleNamespace(build=detected), state)
    assert asked == ["save changes?"] and tab.build.find(PSU_750) is not None


def test_a_restored_autosave_opens_untitled(tab: BuildTab, saved_file: Path,
                                           tmp_path: Path) -> None:
    crashed = tmp_path / "crash.dlhw.json"
    buildfile.save(Build(name="recovered"), crashed)
    assert tab.restore_autosave(crashed)
    assert tab.build.name == "recovered" and tab.path is None and tab.is_modified()


def test_saving_over_a_read_only_file_is_a_dialog_and_keeps_it(
        tab: BuildTab, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dlhw_desktop.ui.planner import build_files as module

    shown: list[str] = []
    monkeypatch.setattr(module, "show_error", lambda _p, _t, text: shown.append(text))
    read_only = tmp_path / "kept.dlhw.json"
    read_only.write_text("keep", encoding="utf-8")
    read_only.chmod(0o444)
    tab.add_parts([RTX_4090])
    tab.ask_save_path = lambda: read_only  # type: ignore[method-assign]
    assert not tab.save_build_as()
    assert len(shown) == 1 and "read-only" in shown[0]
    assert read_only.read_text(encoding="utf-8") == "keep" and tab.is_modified()
    tab.ask_save_changes = lambda: "discard"  # type: ignore[method-assign]


def test_the_pdf_export_never_replaces_the_open_build_file(
        tab: BuildTab, saved_file: Path, qtbot: QtBot,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from dlhw_desktop.ui.pdf import export_job

    shown: list[str] = []
    monkeypatch.setattr(export_job, "show_error", lambda _p, _t, text: shown.append(text))
    monkeypatch.setattr(export_job, "ask_pdf_path", lambda _parent, _suggested: saved_file)
    before = saved_file.read_bytes()
    tab.export_sheet()
    qtbot.waitUntil(lambda: bool(shown), timeout=20_000)
    assert "input file" in shown[0] and saved_file.read_bytes() == before


def test_markup_in_a_build_file_is_shown_as_text(tab: BuildTab, tmp_path: Path) -> None:
    path = tmp_path / "markup.dlhw.json"
    path.write_text('{"format": "dlhw-build", "version": 1, "name": "m", "parts": '
                    '[{"id": "accelerator/<img src=\\"file:///dev/zero\\">", "quantity": 1}]}',
                    encoding="utf-8")
    assert tab.open_build_file(path, ask=False)
    shown = tab.notice.text()
    assert "&lt;img src=" in shown and "<img" not in shown
