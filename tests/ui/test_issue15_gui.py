"""Issue 15 in the app: bad build files are an error dialog and leave the open build whole,
the planner says a kind's limit instead of exceeding it, an incomplete build says so, a
damaged parts database is said once with a way out, and the build sheet stays bounded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QUndoStack
from pytestqt.qtbot import QtBot
from reliability.test_issue15_bounds import BAD_BUILD_FILES

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.catalog.userparts import UserParts
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.tiers import tiers_from_rows
from dlhw_desktop.core.checks import check_build
from dlhw_desktop.core.fields import ALL_FIELDS
from dlhw_desktop.core.workload.build_workload import BuildWorkload
from dlhw_desktop.reports.build_sheet import sheet_from_catalog
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.pdf import write_build_sheet_pdf
from dlhw_desktop.ui.pdf.sheet_blocks import verdict_word
from dlhw_desktop.ui.planner import build_files as build_files_module
from dlhw_desktop.ui.planner import build_tab as build_tab_module
from dlhw_desktop.ui.planner.build_tab import BuildTab
from dlhw_desktop.ui.planner.checks_panel import verdict_text
from dlhw_desktop.ui.shell.composition import make_build_tab
from dlhw_desktop.ui.shell.main_window import MainWindow

RTX_4090 = "accelerator/nvidia-geforce-rtx-4090"
CPU = "cpu/amd-ryzen-9-7900"  # 88 W PPT: two 4090s stay under a 15 A circuit


@pytest.fixture
def tab(qtbot: QtBot, catalog: Catalog, app_settings: AppSettings) -> BuildTab:
    widget = make_build_tab(catalog, app_settings, QUndoStack())
    qtbot.addWidget(widget)
    return widget


@pytest.fixture
def errors(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    shown: list[tuple[str, str]] = []
    for module in (build_tab_module, build_files_module):  # where the planner's dialogs are
        if hasattr(module, "show_error"):
            monkeypatch.setattr(module, "show_error",
                                lambda _parent, title, message: shown.append((title, message)))
    return shown


@pytest.mark.parametrize(("case", "text", "words"), BAD_BUILD_FILES,
                         ids=[c[0] for c in BAD_BUILD_FILES])
def test_open_of_a_bad_file_is_a_dialog_and_all_or_nothing(
        case: str, text: str, words: str, tab: BuildTab, catalog: Catalog,
        errors: list[tuple[str, str]], tmp_path: Path) -> None:
    tab.add_parts([RTX_4090, CPU])
    tab.undo_stack.setClean()
    before = tab.build.snapshot()
    path = tmp_path / f"{case}.dlhw.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    assert tab.open_build_file(path, ask=False) is False
    assert len(errors) == 1 and words in errors[0][1] and "\n" not in errors[0][1]
    assert tab.build.snapshot() == before and tab.document.path is None


def test_main_window_open_at_start_shows_the_error(qtbot: QtBot, catalog: Catalog,
                                                    app_settings: AppSettings,
                                                    errors: list[tuple[str, str]],
                                                    tmp_path: Path) -> None:
    """``dlhw --open FILE`` goes through ``MainWindow.open_build_file``."""
    window = MainWindow(catalog, app_settings)
    qtbot.addWidget(window)
    path = tmp_path / "nan.dlhw.json"
    path.write_text(dict((c, t) for c, t, _ in BAD_BUILD_FILES)["figure_nan"])
    window.open_build_file(path)
    assert errors and "NaN" in errors[0][1]


def test_quantity_beyond_the_kind_is_said_not_applied(tab: BuildTab, qtbot: QtBot) -> None:
    tab.add_parts([RTX_4090])
    said: list[str] = []
    tab.status_message.connect(lambda text, _ms: said.append(text))
    tab.set_quantity(RTX_4090, 21)
    assert tab.build.find(RTX_4090).quantity == 1
    assert said and "at most 20 PCIe accelerator cards" in said[-1]
    tab.set_quantity(RTX_4090, 20)
    assert tab.build.find(RTX_4090).quantity == 20
    assert tab.add_part_with_quantity(RTX_4090, 1) is False
    assert tab.build.find(RTX_4090).quantity == 20


def test_notes_beyond_the_limit_are_trimmed_with_a_message(tab: BuildTab) -> None:
    said: list[str] = []
    tab.status_message.connect(lambda text, _ms: said.append(text))
    tab.notes_edit.setPlainText("x\n" * 600)
    tab.editors.commit_notes()
    assert tab.build.notes.count("\n") == 499 and "500 lines" in said[-1]


def test_an_incomplete_build_with_warnings_is_not_complete_yet(tab: BuildTab) -> None:
    tab.add_parts([RTX_4090, CPU])
    tab.set_quantity(RTX_4090, 2)  # x8 lanes each: a warning
    report = tab._report
    assert report is not None and report.verdict == "warn"
    headline, detail = verdict_text(report)
    assert headline == "Not complete yet"
    assert "power supply" in detail and "storage" in detail and "CPU cooler" in detail


def test_a_damaged_parts_database_is_said_once_and_moved_aside(
        qtbot: QtBot, catalog: Catalog, app_settings: AppSettings,
        _private_user_data: Path) -> None:
    db = _private_user_data / "user_parts.db"
    db.write_bytes(b"not a database" * 50)
    widget = make_build_tab(catalog, app_settings, QUndoStack(), user_parts=UserParts(db))
    qtbot.addWidget(widget)
    widget.show()
    notice = widget.user_parts_notice
    qtbot.waitUntil(notice.isVisible)
    assert "damaged" in notice.label.text() and db.exists()
    notice.move_button.click()
    assert not notice.isVisible() and not db.exists()
    assert len(list(_private_user_data.glob("user_parts.db.damaged-*"))) == 1


# --- the build sheet ----------------------------------------------------------------------


def _sheet(catalog: Catalog, quantity: int) -> Any:
    build = Build("cards", workload=BuildWorkload.from_mapping(
        {"model": "llama-3.1-8b", "mode": "inference"}))
    build.add(catalog.get(RTX_4090), quantity)
    build.add(catalog.get(CPU))
    report = check_build(build, None, tiers_from_rows(catalog.tier_rows()))
    return sheet_from_catalog(build, report, catalog, date="2026-01-15")


def test_sheet_pages_do_not_grow_with_identical_parts(qapp: Any, catalog: Catalog,
                                                      tmp_path: Path) -> None:
    # 12 and 20: both past the memory chart's 8 bars (it draws one bar "Each ..." above
    # that), so only the identical parts differ; 8 draws eight bars, a taller chart
    pages = [write_build_sheet_pdf(_sheet(catalog, n), tmp_path / f"{n}.pdf").pages
             for n in (12, 20)]
    assert pages[0] == pages[1]


def test_sheet_says_incomplete_and_uses_field_labels(qapp: Any, catalog: Catalog) -> None:
    sheet = _sheet(catalog, 2)
    assert verdict_word(sheet) == "INCOMPLETE" and "power supply" in sheet.incomplete
    internal = {f.name for f in ALL_FIELDS if "_" in f.name}
    for text in sheet.texts():
        words = set(str(text).replace(",", " ").replace(";", " ").split())
        assert not words & internal, text
        assert "(s)" not in str(text), text


def test_check_tooltips_and_messages_use_labels(tab: BuildTab) -> None:
    """The checks panel's rows and tooltips name figures by their labels, never by the
    internal names ("cooling_capacity_w") they used to show."""
    tab.add_parts([RTX_4090, CPU, "cooler/noctua-nh-d15", "psu/seasonic-focus-gx-750-atx-3"])
    internal = {f.name for f in ALL_FIELDS if "_" in f.name} | {
        "wall_w", "circuit_limit_w", "heat_w", "load_pct", "yearly_cost_usd"}
    tree = tab.checks.tree
    texts: list[str] = []
    for i in range(tree.topLevelItemCount()):
        group = tree.topLevelItem(i)
        for j in range(group.childCount()):
            texts += [group.child(j).text(0), group.child(j).toolTip(0)]
    assert texts
    for text in texts:
        words = set(text.replace(":", " ").replace(",", " ").split())
        assert not words & internal, text
        assert "(s)" not in text, text


def test_a_build_the_checks_cannot_take_is_not_half_opened(
        tab: BuildTab, errors: list[tuple[str, str]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever slips past the file's bounds and trips a check is refused before the open
    build changes (it used to replace the build, then fail while redrawing)."""
    from dlhw_desktop.ui.planner import build_document

    tab.add_parts([CPU])
    tab.undo_stack.setClean()
    before = tab.build.snapshot()
    path = tmp_path / "ok.dlhw.json"
    path.write_text('{"format": "dlhw-build", "version": 1, "parts": '
                    f'[{{"id": "{RTX_4090}"}}]}}')

    def broken(_build: Build) -> None:
        raise ValueError("cannot convert float NaN to integer")

    monkeypatch.setattr(build_document, "check_build", broken)
    assert tab.open_build_file(path, ask=False) is False
    assert errors and "cannot be checked" in errors[0][1]
    assert tab.build.snapshot() == before
