"""The Build tab as a user drives it: add, change, undo, check, save, open, templates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QComboBox, QSpinBox
from pytestqt.qtbot import QtBot

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.catalog.userparts import UserParts
from dlhw_desktop.core.build.build import Build, Slot
from dlhw_desktop.core.build.templates import TEMPLATES
from dlhw_desktop.core.checks import CheckResult
from dlhw_desktop.core.fields import Category
from dlhw_desktop.ui.common.part_table_model import PART_ROLE
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.planner import build_files as build_files_module
from dlhw_desktop.ui.planner import build_tab as build_tab_module
from dlhw_desktop.ui.planner.build_commands import (
    AddPartCommand,
    RemovePartCommand,
    RenameCommand,
    ReplacePartCommand,
    RestoreCommand,
    SetNotesCommand,
    SetQuantityCommand,
    SetTierCommand,
)
from dlhw_desktop.ui.planner.build_model import NAME, QTY
from dlhw_desktop.ui.planner.build_tab import BuildTab
from dlhw_desktop.ui.shell.composition import make_build_tab

RTX_4090 = "accelerator/nvidia-geforce-rtx-4090"
RTX_5090 = "accelerator/nvidia-geforce-rtx-5090"
PSU_750 = "psu/seasonic-focus-gx-750-atx-3"
PSU_1600 = "psu/seasonic-prime-tx-1600-atx-3"
CPU_7950X = "cpu/amd-ryzen-9-7950x"
CPU_9950X = "cpu/amd-ryzen-9-9950x"
NVME = "storage/samsung-990-pro-2tb-mz-v9p2t0b-am"
BOARD = "motherboard/asus-proart-x870e-creator-wifi"


@pytest.fixture
def stack() -> QUndoStack:
    return QUndoStack()


@pytest.fixture
def tab(qtbot: QtBot, catalog: Catalog, app_settings: AppSettings,
        stack: QUndoStack) -> BuildTab:
    widget = make_build_tab(catalog, app_settings, stack)
    # Modal questions would block an offscreen test: answer "yes, replace" unless a test
    # says otherwise, and fail loudly on an unexpected "save changes?".
    widget.ask_save_changes = _unexpected  # type: ignore[method-assign]
    qtbot.addWidget(widget)
    widget.resize(1400, 860)
    widget.show()
    return widget


def _unexpected() -> str:
    raise AssertionError("unexpected 'save changes?' question")


@pytest.fixture
def errors(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    shown: list[tuple[str, str]] = []
    for module in (build_tab_module, build_files_module):
        if hasattr(module, "show_error"):
            monkeypatch.setattr(module, "show_error",
                                lambda _parent, title, message: shown.append((title, message)))
    return shown


def shown_part_names(tab: BuildTab, slot: Slot) -> list[str]:
    model = tab.model
    parent = model.slot_index(slot)
    return [model.index(r, NAME, parent).data() for r in range(model.rowCount(parent))]


def ids(build: Build) -> list[str]:
    return [i.part_id for i in build.items()]


# --- undo commands with a bare stack: push, assert, undo, assert, redo, assert ----------------


def test_every_command_undoes_and_redoes(catalog: Catalog, stack: QUndoStack) -> None:
    build = Build()
    gpu, psu, big_psu = catalog.get(RTX_4090), catalog.get(PSU_750), catalog.get(PSU_1600)

    stack.push(AddPartCommand(build, gpu))
    assert ids(build) == [RTX_4090]
    stack.undo()
    assert ids(build) == []
    stack.redo()
    assert ids(build) == [RTX_4090]

    stack.push(AddPartCommand(build, gpu))  # the same part again: one more of it
    assert build.find(RTX_4090).quantity == 2
    stack.undo()
    assert build.find(RTX_4090).quantity == 1
    stack.redo()

    stack.push(AddPartCommand(build, psu))
    stack.push(AddPartCommand(build, big_psu))  # a single slot: replaces
    assert build.psu.id == PSU_1600
    stack.undo()
    assert build.psu.id == PSU_750
    stack.redo()
    assert build.psu.id == PSU_1600

    stack.push(SetQuantityCommand(build, RTX_4090, 4))
    assert build.find(RTX_4090).quantity == 4
    stack.undo()
    assert build.find(RTX_4090).quantity == 2
    stack.redo()

    stack.push(ReplacePartCommand(build, RTX_4090, catalog.get(RTX_5090)))
    assert build.find(RTX_5090).quantity == 4 and RTX_4090 not in build
    stack.undo()
    assert build.find(RTX_4090).quantity == 4 and RTX_5090 not in build
    stack.redo()

    build.add(catalog.get(NVME))
    stack.push(RemovePartCommand(build, RTX_5090))
    assert RTX_5090 not in build
    stack.undo()
    assert build.find(RTX_5090).quantity == 4 and build.index_of(RTX_5090) == 0
    stack.redo()

    stack.push(RenameCommand(build, build.name, "Lab box"))
    assert build.name == "Lab box"
    stack.undo()
    assert build.name == "Untitled build"
    stack.redo()

    stack.push(SetNotesCommand(build, "", "for LLM fine-tuning"))
    assert build.notes == "for LLM fine-tuning"
    stack.undo()
    assert build.notes == ""
    stack.redo()

    stack.push(SetTierCommand(build, "demanding"))
    assert build.tier == "demanding"
    stack.undo()
    assert build.tier is None
    stack.redo()

    before = build.snapshot()
    stack.push(RestoreCommand(build, Build(name="Empty").snapshot(), "Template"))
    assert len(build) == 0 and build.name == "Empty"
    stack.undo()
    assert build.snapshot() == before
    stack.redo()
    assert len(build) == 0


def test_typing_merges_into_one_undo_step(stack: QUndoStack) -> None:
    build = Build()
    for text in ("L", "La", "Lab"):
        stack.push(SetNotesCommand(build, build.notes, text))
    assert stack.count() == 1 and build.notes == "Lab"
    stack.undo()
    assert build.notes == ""
    stack.push(RenameCommand(build, build.name, "A"))
    stack.push(RenameCommand(build, build.name, "AB"))
    # the undone notes step is dropped from the stack; the two renames merge into one
    assert stack.count() == 1 and build.name == "AB"
    stack.undo()
    assert build.name == "Untitled build"


def test_quantity_steps_on_one_part_merge(catalog: Catalog, stack: QUndoStack) -> None:
    build = Build()
    build.add(catalog.get(RTX_4090))
    for quantity in (2, 3, 4):
        stack.push(SetQuantityCommand(build, RTX_4090, quantity))
    assert stack.count() == 1
    stack.undo()
    assert build.find(RTX_4090).quantity == 1


# --- the tab as a user drives it -----------------------------------------------------------


def test_enter_in_the_part_list_adds_to_its_slot(qtbot: QtBot, tab: BuildTab) -> None:
    picker = tab.picker
    picker.search.setText("rtx 4090")
    picker.apply_query()
    row = next(r for r in range(picker.catalog_model.rowCount())
               if picker.catalog_model.index(r, 0).data(PART_ROLE).id == RTX_4090)
    picker.table.selectRow(row)
    picker.table.setFocus()
    qtbot.keyClick(picker.table, Qt.Key.Key_Return)
    assert shown_part_names(tab, Slot.ACCELERATOR) == ["NVIDIA GeForce RTX 4090"]
    assert tab.totals.value("vram") == "24 GB"
    assert tab.totals.value("price") == "$1,599"
    qtbot.mouseClick(picker.add_button, Qt.MouseButton.LeftButton)  # the button twin
    assert tab.model.index(0, QTY, tab.model.slot_index(Slot.ACCELERATOR)).data() == "2"
    assert tab.totals.value("vram") == "48 GB"


def test_adding_to_a_taken_single_slot_replaces_it_undoably_without_a_question(
        tab: BuildTab) -> None:
    """Undo exists, so an undoable action does not ask (issue 20): it says what it did."""
    said: list[str] = []
    tab.status_message.connect(lambda text, _ms: said.append(text))
    tab.add_parts([CPU_7950X])
    tab.add_parts([CPU_9950X])
    assert tab.build.cpu.id == CPU_9950X
    assert shown_part_names(tab, Slot.CPU) == ["AMD Ryzen 9 9950X"]
    assert "in place of AMD Ryzen 9 7950X" in said[-1] and "brings it back" in said[-1]
    tab.undo_stack.undo()
    assert tab.build.cpu.id == CPU_7950X


def test_delete_key_and_context_action_remove(qtbot: QtBot, tab: BuildTab) -> None:
    tab.add_parts([RTX_4090, NVME])
    view = tab.view
    view.setFocus()
    view.setCurrentIndex(tab.model.part_index(RTX_4090))
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert RTX_4090 not in tab.build
    assert shown_part_names(tab, Slot.ACCELERATOR) == []
    view.setCurrentIndex(tab.model.part_index(NVME))
    view.action_remove.trigger()
    assert len(tab.build) == 0
    tab.undo_stack.undo()
    tab.undo_stack.undo()
    assert set(ids(tab.build)) == {RTX_4090, NVME}


def test_quantity_editor_changes_the_count(qtbot: QtBot, tab: BuildTab) -> None:
    tab.add_parts([RTX_4090])
    tab.activateWindow()
    qtbot.waitUntil(tab.isActiveWindow)
    index = tab.model.part_index(RTX_4090, QTY)
    tab.view.setFocus()
    tab.view.setCurrentIndex(index)
    qtbot.keyClick(tab.view, Qt.Key.Key_F2)  # the edit key opens the spin box
    editor = tab.view.findChild(QSpinBox, "quantity_editor")
    assert editor is not None and editor.value() == 1
    qtbot.waitUntil(lambda: editor.lineEdit().hasFocus())
    editor.lineEdit().selectAll()
    qtbot.keyClicks(editor.lineEdit(), "3")
    qtbot.keyClick(editor.lineEdit(), Qt.Key.Key_Return)  # Qt commits on the next loop turn
    qtbot.waitUntil(lambda: tab.build.find(RTX_4090).quantity == 3)
    assert tab.totals.value("vram") == "72 GB"
    tab.undo_stack.undo()
    assert tab.build.find(RTX_4090).quantity == 1
    # a board's quantity is not editable; a power supply's is (load-sharing or redundant
    # units), and a CPU's up to 2 (a dual-socket board)
    tab.add_parts([PSU_750, CPU_7950X, BOARD])
    editable = Qt.ItemFlag.ItemIsEditable
    assert not tab.model.flags(tab.model.part_index(BOARD, QTY)) & editable
    assert tab.model.flags(tab.model.part_index(PSU_750, QTY)) & editable
    assert tab.model.flags(tab.model.part_index(CPU_7950X, QTY)) & editable
    tab.view.setCurrentIndex(tab.model.part_index(CPU_7950X, QTY))
    tab.view.edit(tab.model.part_index(CPU_7950X, QTY))

    def open_editor_maximum() -> int | None:  # the RTX row's editor may still be closing
        shown = [e for e in tab.view.findChildren(QSpinBox, "quantity_editor")
                 if e.isVisible() and e.value() == 1 and e.maximum() != 64]
        return shown[0].maximum() if shown else None

    qtbot.waitUntil(lambda: open_editor_maximum() is not None)
    assert open_editor_maximum() == 2
    tab.set_quantity(CPU_7950X, 3)  # beyond the slot's limit: refused, nothing changes
    assert tab.build.find(CPU_7950X).quantity == 1


def test_checks_fail_two_4090s_on_750w_and_highlight_them(tab: BuildTab) -> None:
    tab.add_parts([RTX_4090, RTX_4090, PSU_750])
    tab.set_quantity(RTX_4090, 2)
    report = tab.report
    assert report.get("power.psu_load").status == "fail"
    assert tab.checks.verdict_label.property("status") == "fail"
    assert "Will not work" in tab.checks.verdict_label.text()
    assert tab.checks.select_check("power.psu_load")
    assert set(tab.model.highlighted_ids()) >= {RTX_4090, PSU_750}
    gpu_row = tab.model.part_index(RTX_4090)
    assert gpu_row.data(Qt.ItemDataRole.BackgroundRole) is not None
    shown = [r for r in tab.checks.visible_results() if r.id == "power.psu_load"]
    assert "120 % of the 750 W" in shown[0].message
    # fix it: a bigger PSU; the check reruns and the verdict moves on
    tab.add_parts([PSU_1600])
    assert tab.report.get("power.psu_load").status == "pass"


def test_a_highlight_follows_its_check_when_the_check_turns_to_pass(tab: BuildTab) -> None:
    tab.add_parts([RTX_4090, RTX_4090, PSU_750])
    tab.set_quantity(RTX_4090, 2)
    assert tab.checks.select_check("power.psu_load")
    gpu_row = tab.model.part_index(RTX_4090)
    fail = gpu_row.data(Qt.ItemDataRole.BackgroundRole)
    assert fail is not None and fail.red() > fail.green()  # tinted as failing
    tab.set_quantity(RTX_4090, 1)  # the same check on the same parts now passes
    assert tab.report.get("power.psu_load").status == "pass"
    assert tab.checks.selected_result().status == "pass"  # still selected
    tint = tab.model.part_index(RTX_4090).data(Qt.ItemDataRole.BackgroundRole)
    assert tint is not None and tint.green() > tint.red()  # no pink left behind


def test_tier_name_and_notes_are_undoable(qtbot: QtBot, tab: BuildTab) -> None:
    tab.tier_combo.setCurrentIndex(tab.tier_combo.findData("demanding"))
    assert tab.build.tier == "demanding"
    tab.name_edit.setFocus()
    tab.name_edit.selectAll()
    qtbot.keyClicks(tab.name_edit, "Lab box")
    qtbot.keyClick(tab.name_edit, Qt.Key.Key_Return)
    assert tab.build.name == "Lab box"
    assert "Lab box" in tab.window().windowTitle() and tab.window().isWindowModified()
    tab.notes_edit.setPlainText("quote from vendor X")
    qtbot.waitUntil(lambda: tab.build.notes == "quote from vendor X", timeout=3000)
    tab.undo_stack.undo()
    assert tab.build.notes == "" and tab.notes_edit.toPlainText() == ""
    tab.undo_stack.undo()
    assert tab.build.name == "Untitled build" and tab.name_edit.text() == "Untitled build"
    tab.undo_stack.undo()
    assert tab.build.tier is None and tab.tier_combo.currentData() is None
    assert not tab.window().isWindowModified()


def test_templates_load_as_one_undoable_step(tab: BuildTab) -> None:
    names = [a.objectName() for a in tab.menu_actions()]
    assert names == ["action_templates", "action_new_custom_part", "action_check_settings",
                     "action_currency"]
    assert len(tab.action_templates.menu().actions()) == len(TEMPLATES)
    tab.templates_menu.findChild(object, "template_four-gpu-workstation").trigger()
    assert tab.build.name == "4-GPU workstation"
    assert tab.build.find("accelerator/nvidia-rtx-6000-ada-generation").quantity == 4
    assert tab.tier_combo.currentData() == "demanding"
    assert tab.totals.value("vram") == "192 GB"
    assert tab.report.get("power.psu_load").status == "pass"
    tab.undo_stack.undo()
    assert len(tab.build) == 0 and tab.build.name == "Untitled build"


def test_save_and_open_round_trip(tab: BuildTab, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    tab.apply_template("single-rtx-4090")
    tab.set_notes("desk under the window")
    target = tmp_path / "mine"
    monkeypatch.setattr(tab, "ask_save_path", lambda: target)
    assert tab.save_build()
    saved = tmp_path / "mine.dlhw.json"
    assert saved.exists() and tab.path == saved
    assert not tab.is_modified() and not tab.window().isWindowModified()
    assert "mine.dlhw.json" in tab.window().windowTitle()
    assert tab.recent_files()[0] == str(saved.resolve())
    before = [(i.part_id, i.quantity) for i in tab.build.items()]

    assert tab.new_build()
    assert len(tab.build) == 0 and tab.path is None
    assert tab.open_build_file(saved)
    assert [(i.part_id, i.quantity) for i in tab.build.items()] == before
    assert tab.build.notes == "desk under the window"
    assert tab.notes_edit.toPlainText() == "desk under the window"
    assert tab.undo_stack.count() == 0 and not tab.is_modified()


def test_bad_files_show_an_error_and_keep_the_build(tab: BuildTab, tmp_path: Path,
                                                   errors: list[tuple[str, str]]) -> None:
    tab.add_parts([RTX_4090])
    cases = {
        "broken.dlhw.json": "{\"format\": ",
        "newer.dlhw.json": json.dumps({"format": "dlhw-build", "version": 7, "parts": []}),
        "list.dlhw.json": "[1, 2]",
        "other.json": json.dumps({"format": "something", "version": 1}),
    }
    for name, content in cases.items():
        path = tmp_path / name
        path.write_text(content)
        assert not tab.open_build_file(path, ask=False)
        assert path.read_text() == content  # nothing overwritten
    assert [title for title, _ in errors] == ["Cannot open the build"] * 4
    messages = " | ".join(m for _, m in errors)
    assert "invalid JSON" in messages and "newer version" in messages
    assert "not a build file" in messages and "not a DL Hardware build file" in messages
    assert ids(tab.build) == [RTX_4090] and tab.path is None


def test_a_part_the_catalog_lost_shows_as_unknown(tab: BuildTab, tmp_path: Path) -> None:
    path = tmp_path / "old.dlhw.json"
    path.write_text(json.dumps({"format": "dlhw-build", "version": 1, "name": "Old",
                                "parts": [{"id": "accelerator/acme-x1", "quantity": 2,
                                           "category": "accelerator", "name": "Acme X1"},
                                          {"id": PSU_750}]}))
    assert tab.open_build_file(path, ask=False)
    assert shown_part_names(tab, Slot.ACCELERATOR) == ["Acme X1  (not in the catalog)"]
    assert tab.notice.isVisible() and "not in the catalog" in tab.notice.text()
    assert tab.report.get("power.psu_load").status == "unknown"


def test_unsaved_changes_prompt(tab: BuildTab, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    assert tab.maybe_save()  # nothing changed: no question
    tab.add_parts([RTX_4090])
    answers = iter(["cancel", "discard"])
    monkeypatch.setattr(tab, "ask_save_changes", lambda: next(answers))
    assert not tab.new_build()
    assert RTX_4090 in tab.build
    assert tab.new_build()
    assert len(tab.build) == 0
    tab.add_parts([RTX_4090])
    monkeypatch.setattr(tab, "ask_save_changes", lambda: "save")
    monkeypatch.setattr(tab, "ask_save_path", lambda: tmp_path / "kept.dlhw.json")
    assert tab.maybe_save()
    assert (tmp_path / "kept.dlhw.json").exists() and not tab.is_modified()


def test_recent_files_keep_the_last_ten(tab: BuildTab, tmp_path: Path) -> None:
    for n in range(12):
        tab.document.save(tmp_path / f"b{n}.dlhw.json")
    recent = tab.recent_files()
    assert len(recent) == 10 and recent[0].endswith("b11.dlhw.json")


def test_check_settings_persist_and_rerun(tab: BuildTab, app_settings: AppSettings,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    tab.apply_template("four-gpu-workstation")
    assert tab.report.get("power.circuit").status == "fail"  # default 120 V / 15 A: over its limit
    cost = tab.totals.value("energy")
    from dlhw_desktop.core.checks import CheckSettings
    from dlhw_desktop.ui.planner import check_settings_dialog as dialog_module

    class Accepting(dialog_module.CheckSettingsDialog):
        def exec(self) -> int:
            self.mains.setCurrentIndex(self.mains.findData("230V-16A"))
            self.price.setValue(0.40)
            return 1

    monkeypatch.setattr(build_tab_module, "CheckSettingsDialog", Accepting)
    tab.action_check_settings.trigger()
    assert app_settings.get("build/mains") == "230V-16A"
    assert tab.check_settings() == CheckSettings(0.40, 0.5, "230V-16A")
    assert tab.report.get("power.circuit").status == "pass"
    assert tab.totals.value("energy") != cost


def test_extra_check_providers_join_the_checks(tab: BuildTab) -> None:
    def fits(ctx) -> CheckResult:
        return CheckResult("workload.fit", "workload", "warn", "Llama 3 70B needs 140 GB",
                           part_ids=tuple(i.part.id for i in ctx.accelerators))

    def broken(ctx) -> None:
        raise RuntimeError("boom")

    tab.add_parts([RTX_4090])
    tab.add_extra_check_provider(fits)
    tab.add_extra_check_provider(broken)
    assert tab.report.get("workload.fit").status == "warn"
    assert tab.report.get("extra.broken").status == "unknown"
    assert any(r.id == "workload.fit" for r in tab.checks.visible_results())
    assert tab.extras.tabText(0) == "Workload fit"
    tab.remove_extra_check_provider(broken)
    assert tab.report.get("extra.broken") is None


def test_export_hands_the_build_and_its_report_to_the_pdf_module(
        tab: BuildTab, monkeypatch: pytest.MonkeyPatch) -> None:
    from dlhw_desktop.ui.pdf import export_job as pdf_export

    calls: list[tuple] = []
    monkeypatch.setattr(pdf_export, "export_build_sheet", lambda *args: calls.append(args))
    tab.add_parts([RTX_4090])
    tab.export_sheet()
    # and the folder to start in: none yet for an unsaved build with no sheet exported
    assert calls == [(tab, tab.build, tab.report, tab.catalog, None)]


def test_detect_computer_runs_in_the_background_and_is_undoable(
        tab: BuildTab, qtbot: QtBot, catalog: Catalog,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import threading
    from types import SimpleNamespace

    from dlhw_desktop.catalog import matching

    threads: list[str] = []

    def fake_detect(_catalog: Catalog) -> SimpleNamespace:
        threads.append(threading.current_thread().name)
        build = Build(name="workstation (AMD Ryzen 9 7950X)")
        build.add(catalog.get(CPU_7950X))
        build.add(catalog.get(RTX_4090))
        return SimpleNamespace(build=build)

    monkeypatch.setattr(matching, "detect_build", fake_detect)
    tab.add_parts([PSU_750])
    tab.ask_save_changes = lambda: "discard"  # type: ignore[method-assign]  # issue 15
    tab.detect_computer()
    qtbot.waitUntil(lambda: tab.build.name == "workstation (AMD Ryzen 9 7950X)", timeout=5000)
    assert threads and threads[0] != threading.main_thread().name
    assert set(ids(tab.build)) == {CPU_7950X, RTX_4090}
    tab.undo_stack.undo()
    assert ids(tab.build) == [PSU_750]


def test_custom_parts_are_stored_and_usable(qtbot: QtBot, tab: BuildTab,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from dlhw_desktop.ui.planner.custom_part_dialog import CustomPartDialog

    dialog = CustomPartDialog(UserParts(), Category.ACCELERATOR)
    qtbot.addWidget(dialog)
    dialog.vendor.setText("Acme")
    dialog.name.setText("Tensor Brick 9")
    dialog.price.setText("2500")
    dialog.fields["memory_gb"].setText("64")
    dialog.fields["tdp_w"].setText("350")
    cooling = dialog.fields["cooling"]
    assert isinstance(cooling, QComboBox)  # a choice, never free text (issue 20)
    cooling.setCurrentIndex(cooling.findData("blower"))
    dialog.fields["ecc"].setCurrentIndex(dialog.fields["ecc"].findData(True))
    dialog.accept()
    part = dialog.part
    assert part is not None and part.custom and part.id.startswith("custom/accelerator/")
    assert part.number("memory_gb") == 64 and part.number("fp32_tflops") is None

    assert tab.resolver.find(part.id) == part  # usable everywhere a part id resolves
    tab.picker.set_category("custom")
    assert tab.picker.table.model().rowCount() == 1
    tab.add_parts([part.id])
    assert shown_part_names(tab, Slot.ACCELERATOR) == ["Acme Tensor Brick 9  (custom)"]
    assert tab.totals.value("vram") == "64 GB"

    bad = CustomPartDialog(UserParts(), Category.CPU)
    qtbot.addWidget(bad)
    bad.accept()  # no vendor or name: says so, stays open
    assert bad.part is None and "vendor and a name" in bad.error.text()

    monkeypatch.setattr(CustomPartDialog, "exec", lambda self: 0)
    assert tab.new_custom_part() is None  # cancelled: nothing added


def test_main_window_hosts_the_planner(qtbot: QtBot, catalog: Catalog,
                                      app_settings: AppSettings, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from dlhw_desktop.ui.shell.main_window import BUILD, MainWindow

    window = MainWindow(catalog, app_settings)
    qtbot.addWidget(window)
    window.show()
    window.catalog_tab.add_to_build_requested.emit([RTX_4090])
    tab = window.build_tab
    assert isinstance(tab, BuildTab)
    assert RTX_4090 in tab.build
    assert window.tabs.currentIndex() != BUILD  # adding from the catalog keeps you there
    assert window.findChild(object, "action_undo").isEnabled()
    window.findChild(object, "action_undo").trigger()
    assert RTX_4090 not in tab.build
    window.findChild(object, "action_redo").trigger()
    monkeypatch.setattr(tab, "ask_save_path", lambda: tmp_path / "w.dlhw.json")
    window.findChild(object, "action_save_build").trigger()
    assert (tmp_path / "w.dlhw.json").exists()
    assert window.isWindowModified() is False and "Untitled build" in window.windowTitle()


def test_an_advisor_proposal_applies_as_one_undo_step(tab: BuildTab) -> None:
    """Issue #28: the GPUs replace the build's and the workload is taken, one step."""
    from dlhw_desktop.core.workload.build_workload import BuildWorkload

    tab.add_part_with_quantity("accelerator/nvidia-geforce-rtx-4090", 2)
    tab.add_part_with_quantity(CPU_9950X, 1)
    before = tab.undo_stack.count()
    planned = BuildWorkload.from_mapping({"model": "llama-3.1-70b", "mode": "qlora",
                                          "tokens": 1e8})
    tab.apply_proposal([("accelerator/nvidia-rtx-6000-ada-generation", 2)], planned)
    assert tab.undo_stack.count() == before + 1
    gpus = [(i.part.id, i.quantity) for i in tab.build.accelerators]
    assert gpus == [("accelerator/nvidia-rtx-6000-ada-generation", 2)]
    assert tab.build.workload.workload is not None
    assert tab.build.workload.workload.model.key == "llama-3.1-70b"
    assert tab.build.cpu is not None  # the rest of the build stays
    tab.undo_stack.undo()
    assert [(i.part.id, i.quantity) for i in tab.build.accelerators] == [
        ("accelerator/nvidia-geforce-rtx-4090", 2)]
    assert tab.build.workload.workload is None
