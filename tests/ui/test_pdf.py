"""Build sheets as PDF, read back with poppler as a colleague's PDF reader would."""

from __future__ import annotations

import errno
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QThread
from PySide6.QtWidgets import QWidget

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.tiers import tiers_from_rows
from dlhw_desktop.core.checks import check_build
from dlhw_desktop.core.workload.build_workload import BuildWorkload
from dlhw_desktop.reports.build_sheet import sheet_from_catalog
from dlhw_desktop.reports.sheet_model import BuildSheet, CheckRow
from dlhw_desktop.ui.pdf import SheetExportError, SheetFontError, write_build_sheet_pdf
from dlhw_desktop.ui.pdf import export_job as pdf_export
from dlhw_desktop.ui.pdf import render as render_module
from dlhw_desktop.ui.pdf.blocks import Block, Spacer
from dlhw_desktop.ui.pdf.paginate import paginate

pytestmark = [
    pytest.mark.gui,
    pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils"),
]

WORKSTATION = (
    ("cpu/amd-ryzen-threadripper-pro-7975wx", 1),
    ("motherboard/asus-pro-ws-wrx90e-sage-se", 1),
    ("memory/samsung-m321r4ga3pb0-cwm-32gb-ddr5-5600-ecc-rdimm-8-module-set", 1),
    ("accelerator/nvidia-geforce-rtx-4090", 2),
    ("storage/samsung-990-pro-4tb-mz-v9p4t0b-am", 1),
    ("storage/samsung-870-qvo-8tb-mz-77q8t0b-am", 1),
    ("psu/seasonic-prime-tx-1600-atx-3", 1),
    ("cooler/noctua-nh-u14s-tr5-sp6", 1),
    ("case/phanteks-enthoo-pro-2-server-edition", 1),
)
LORA = {"model": "llama-3.1-8b", "mode": "lora", "precision": "BF16", "batch": 1,
        "seq": 2048, "checkpointing": True, "tokens": 2e8}


def make_sheet(catalog: Any, name: str = "2x RTX 4090 workstation",
               workload: dict[str, Any] | None = None) -> BuildSheet:
    build = Build(name, notes="Quote wanted by Friday.", tier="demanding",
                  workload=BuildWorkload.kept_as_is(LORA if workload is None else workload))
    for part_id, quantity in WORKSTATION:
        build.add(catalog.get(part_id), quantity)
    report = check_build(build, None, tiers_from_rows(catalog.tier_rows()))
    return sheet_from_catalog(build, report, catalog, date="2026-01-15")


def poppler(*args: str | Path) -> str:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True,
                          check=True).stdout


def squash(text: str) -> str:
    """Text without whitespace: a message wrapped over lines still matches."""
    return re.sub(r"\s+", "", text)


def page_texts(path: Path, pages: int) -> list[str]:
    return [poppler("pdftotext", "-raw", "-f", str(n), "-l", str(n), path, "-")
            for n in range(1, pages + 1)]


@pytest.fixture(scope="module")
def sheet(qapp: Any, catalog: Any) -> BuildSheet:
    return make_sheet(catalog)


@pytest.fixture(scope="module")
def a4_pdf(sheet: BuildSheet, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pdf") / "sheet.pdf"
    info = write_build_sheet_pdf(sheet, path, "a4")
    assert info.path == path and info.size_bytes == path.stat().st_size
    return path


def test_text_reads_back_parts_checks_and_totals(a4_pdf: Path, sheet: BuildSheet) -> None:
    text = poppler("pdftotext", "-raw", a4_pdf, "-")
    flat = squash(text)
    assert sheet.build_name in text
    for part in sheet.parts:
        assert squash(part.name) in flat, part.name
        assert squash(part.unit_price) in flat
    for check in sheet.checks:
        assert squash(check.message) in flat, check.id
    words = {"pass": "PASS", "warn": "WARN", "fail": "FAIL", "unknown": "UNKNOWN"}
    for status in {c.status for c in sheet.checks}:
        assert re.search(rf"\b{words[status]}\b", text)
    for figure in (*sheet.totals, sheet.price_total):
        assert squash(figure.value) in flat, figure.label
    assert "Page 1 of" in text and sheet.catalog_version in text
    assert "ﬁ" not in text  # no ligatures: "fits" is searchable and copies as typed


def test_check_row_reads_as_status_then_message(a4_pdf: Path, sheet: BuildSheet) -> None:
    flagged = next(c for c in sheet.checks if c.status in ("fail", "warn"))
    text = poppler("pdftotext", "-raw", a4_pdf, "-")
    first_words = " ".join(flagged.message.split()[:3])
    label = flagged.status.upper()
    assert re.search(rf"{label}\s+(\S+ )?{re.escape(first_words)}", text)


def test_a4_page_size_and_a_typical_build_fits_four_pages(a4_pdf: Path) -> None:
    # Parts, checks, the workload fit with its whole-machine cost, charts and sources: the
    # example workstation (15 sources) spills a few lines onto a fourth page.
    info = poppler("pdfinfo", a4_pdf)
    assert re.search(r"Page size:\s+595(\.\d+)? x 842(\.\d+)? pts", info)
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))  # type: ignore[union-attr]
    assert 1 <= pages <= 4
    assert "Title:" in info and "2x RTX 4090 workstation" in info


def test_letter_paper(sheet: BuildSheet, tmp_path: Path) -> None:
    path = tmp_path / "letter.pdf"
    info = write_build_sheet_pdf(sheet, path, "letter")
    report = poppler("pdfinfo", path)
    assert re.search(r"Page size:\s+612(\.\d+)? x 792(\.\d+)? pts", report)
    # letter is shorter than A4: the 28 checks, workload and charts take a fourth page
    assert 1 <= info.pages <= 4 and re.search(rf"Pages:\s+{info.pages}\n", report)


def test_every_font_is_embedded_dejavu(a4_pdf: Path) -> None:
    lines = poppler("pdffonts", a4_pdf).splitlines()[2:]
    assert lines
    for line in lines:
        assert "DejaVuSans" in line
        assert re.search(r"\byes\s+(yes|no)\s+yes\b", line), line  # emb, sub, uni


def test_charts_are_vectors_not_pictures(a4_pdf: Path) -> None:
    if shutil.which("pdfimages") is None:
        pytest.skip("needs pdfimages")
    images = poppler("pdfimages", "-list", a4_pdf).splitlines()[2:]
    assert images == []
    text = poppler("pdftotext", "-raw", a4_pdf, "-")
    assert "Sustained power by part group" in text and "(this build)" in text


def test_long_build_never_splits_a_row_and_repeats_headers(sheet: BuildSheet,
                                                           tmp_path: Path) -> None:
    many = tuple(CheckRow(f"extra.{i}", "compatibility", "Compatibility",
                          ("pass", "warn", "fail", "unknown")[i % 4],
                          f"Check number {i} says something long enough to wrap over two "
                          f"lines of the message column so that rows differ in height {i}",
                          "a suggestion" if i % 3 == 0 else "")
                 for i in range(90))
    long_sheet = BuildSheet(**{**{f: getattr(sheet, f) for f in sheet.__dataclass_fields__},
                               "checks": sheet.checks + many,
                               "notes": "A long note. " * 400})
    path = tmp_path / "long.pdf"
    info = write_build_sheet_pdf(long_sheet, path)
    assert info.pages > 3
    texts = page_texts(path, info.pages)
    for check in long_sheet.checks:
        pages_with_it = [n for n, t in enumerate(texts) if squash(check.message) in squash(t)]
        assert len(pages_with_it) == 1, f"{check.id} split or missing"
    starts = [n for n, t in enumerate(texts) if "Status Area Check" in t]
    assert len(starts) >= 2  # the checks table's header on each page it continues on
    assert all(f"Page {n} of {info.pages}" in texts[n - 1] for n in range(1, info.pages + 1))


class _Box(Block):
    def __init__(self, name: str, height: float, keep: bool = False,
                 header: Block | None = None) -> None:
        self.name, self.height, self.keep_with_next, self.header = name, height, keep, header

    def draw(self, painter: Any, x: float, y: float) -> None:
        return None


def test_paginate_keeps_rows_whole_headings_with_tables_and_repeats_headers() -> None:
    heading = _Box("heading", 10, keep=True)
    header = _Box("header", 5, keep=True)
    rows = [_Box(f"row{i}", 12, header=header) for i in range(12)]
    blocks = [_Box("intro", 70), Spacer(4), heading, header, *rows]
    pages = paginate(blocks, 100)
    for page in pages:
        for placed in page:
            assert placed.y + placed.block.height <= 100
    names = [[getattr(p.block, "name", "space") for p in page] for page in pages]
    assert names[0] == ["intro"]  # heading + header + first row did not fit under it
    assert names[1][:3] == ["heading", "header", "row0"]
    for page in names[2:]:
        assert page[0] == "header"
    placed_rows = [n for page in names for n in page if n.startswith("row")]
    assert placed_rows == [f"row{i}" for i in range(12)]


def test_unusable_font_fails_loudly(sheet: BuildSheet, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render_module, "font_has_glyphs", lambda font, text="A": False)
    target = tmp_path / "boxes.pdf"
    with pytest.raises(SheetFontError, match="boxes"):
        write_build_sheet_pdf(sheet, target)
    assert not target.exists()


def test_characters_the_font_lacks_are_reported(qapp: Any, catalog: Any,
                                                tmp_path: Path) -> None:
    # U+0378 is unassigned: no font has it, even where a CJK fallback font is installed
    # (Qt's metrics count fallbacks, so "训" is drawable on some machines and not others).
    info = write_build_sheet_pdf(make_sheet(catalog, name="Ünïcødé — 2×4090 \u0378"),
                                 tmp_path / "intl.pdf")
    assert "\u0378" in info.missing_glyphs and "Ü" not in info.missing_glyphs
    assert "Ünïcødé — 2×4090" in poppler("pdftotext", "-raw", info.path, "-")


# --- writing: errors and atomicity -----------------------------------------------------


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


def test_full_disk_keeps_the_old_file(sheet: BuildSheet, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "sheet.pdf"
    target.write_bytes(b"%PDF-1.4 the good old sheet")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(SheetExportError, match="disk is full"):
        write_build_sheet_pdf(sheet, target)
    assert target.read_bytes() == b"%PDF-1.4 the good old sheet"
    assert _leftovers(tmp_path) == []


def test_file_held_by_another_program(sheet: BuildSheet, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "sheet.pdf"
    target.write_bytes(b"old")

    def locked(src: str, dst: str) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "replace", locked)
    with pytest.raises(SheetExportError, match="open in another program"):
        write_build_sheet_pdf(sheet, target)
    assert target.read_bytes() == b"old" and _leftovers(tmp_path) == []


@pytest.mark.parametrize("case", ["folder", "parent_is_file", "no_parent"])
def test_unwritable_targets(sheet: BuildSheet, tmp_path: Path, case: str) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("x")
    target = {"folder": tmp_path, "parent_is_file": blocker / "sheet.pdf",
              "no_parent": tmp_path / "missing" / "sheet.pdf"}[case]
    expected = {"folder": "it is a folder", "parent_is_file": "is a file, not a folder",
                "no_parent": "does not exist"}[case]
    with pytest.raises(SheetExportError, match=expected):
        write_build_sheet_pdf(sheet, target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


# --- the GUI path: off the GUI thread, results through queued signals ---------------------


@pytest.fixture
def errors(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(pdf_export, "show_error",
                        lambda parent, title, message: shown.append((title, message)))
    return shown


def test_export_starts_on_the_next_turn_and_reports_back(qtbot: Any, sheet: BuildSheet,
                                                          tmp_path: Path,
                                                          errors: list[Any]) -> None:
    """The export returns at once (the caller connects to the job first) and writes on the
    next turn of the event loop, on the GUI thread: Qt's text layout in a pool thread
    deadlocked now and then while the window processed events."""
    widget = QWidget()
    qtbot.addWidget(widget)
    arrived_on: list[QThread] = []
    target = tmp_path / "gui.pdf"
    job = pdf_export.start_export(widget, sheet, target, "a4")
    job.succeeded.connect(lambda info: arrived_on.append(QThread.currentThread()))
    assert not target.exists()  # start_export returned before the work was done
    with qtbot.waitSignal(job.succeeded, timeout=20000) as blocker:
        pass
    info = blocker.args[0]
    assert info.path == target and target.stat().st_size == info.size_bytes
    assert arrived_on == [widget.thread()]
    assert errors == []


def test_export_error_is_a_dialog_and_no_file(qtbot: Any, sheet: BuildSheet,
                                              tmp_path: Path, errors: list[Any]) -> None:
    widget = QWidget()
    qtbot.addWidget(widget)
    blocker_file = tmp_path / "a-file"
    blocker_file.write_text("x")
    job = pdf_export.start_export(widget, sheet, blocker_file / "sheet.pdf")
    with qtbot.waitSignal(job.failed, timeout=20000):
        pass
    assert len(errors) == 1
    title, message = errors[0]
    assert title == "Cannot export the build sheet" and "not a folder" in message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def test_export_build_sheet_asks_for_a_path_named_after_the_build(
        qtbot: Any, catalog: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        errors: list[Any]) -> None:
    widget = QWidget()
    qtbot.addWidget(widget)
    build = Build("GPU box: v2/final?")
    build.add(catalog.get("accelerator/nvidia-geforce-rtx-4090"))
    asked: list[Path] = []

    def ask(parent: QWidget, suggested: Path) -> Path | None:
        asked.append(suggested)
        return tmp_path / suggested.name if len(asked) == 1 else None

    monkeypatch.setattr(pdf_export, "ask_pdf_path", ask)
    pdf_export.export_build_sheet(widget, build, None, catalog)
    assert asked[0].name == "GPU box v2 final.pdf"
    qtbot.waitUntil(lambda: (tmp_path / "GPU box v2 final.pdf").exists(), timeout=20000)
    qtbot.waitUntil(lambda: not pdf_export.busy(), timeout=20000)
    pdf_export.export_build_sheet(widget, build, None, catalog)  # cancelled: nothing runs
    assert not pdf_export.busy() and errors == []


def test_build_tab_export_writes_the_sheet_and_says_so(
        qtbot: Any, catalog: Any, app_settings: Any, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, errors: list[Any]) -> None:
    from PySide6.QtGui import QUndoStack

    from dlhw_desktop.ui.shell.composition import make_build_tab

    tab = make_build_tab(catalog, app_settings, QUndoStack())
    qtbot.addWidget(tab)
    tab.add_parts([part_id for part_id, _ in WORKSTATION])
    target = tmp_path / "from the tab.pdf"
    monkeypatch.setattr(pdf_export, "ask_pdf_path", lambda parent, suggested: target)
    messages: list[str] = []
    tab.status_message.connect(lambda text, _ms: messages.append(text))
    tab.export_sheet()
    qtbot.waitUntil(lambda: any(m.startswith("Exported") for m in messages)
                    and not pdf_export.busy(), timeout=20000)  # no thread outlives the test
    assert messages[0] == f"Exporting {target.name}…"
    assert target.exists() and errors == []
    text = poppler("pdftotext", "-raw", target, "-")
    assert "NVIDIA GeForce RTX 4090" in text and "Page 1 of" in text


def test_the_export_dialog_starts_beside_the_build_then_where_the_last_sheet_went(
        qtbot: Any, catalog: Any, app_settings: Any, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, errors: list[Any]) -> None:
    from PySide6.QtGui import QUndoStack

    from dlhw_desktop.ui.shell.composition import make_build_tab

    tab = make_build_tab(catalog, app_settings, QUndoStack())
    qtbot.addWidget(tab)
    tab.add_parts([part_id for part_id, _ in WORKSTATION])
    sheets = tmp_path / "sheets"
    sheets.mkdir()
    asked: list[Path] = []

    def ask(_parent: Any, suggested: Path) -> Path | None:
        asked.append(suggested)
        return sheets / suggested.name if len(asked) == 1 else None

    monkeypatch.setattr(pdf_export, "ask_pdf_path", ask)
    written: list[Path] = []  # the folder is what is tested, not the rendering thread
    monkeypatch.setattr(pdf_export, "start_export",
                        lambda _parent, _sheet, path, *_a, **_k: written.append(path))
    tab.export_sheet()  # an unsaved build, no sheet yet: Documents (or home)
    assert written == [sheets / asked[0].name]
    tab.export_sheet()  # still unsaved: where the last sheet went
    assert asked[1].parent == sheets
    project = tmp_path / "project"
    project.mkdir()
    tab.ask_save_path = lambda: project / "box.dlhw.json"  # type: ignore[method-assign]
    assert tab.save_build_as()
    tab.export_sheet()  # a saved build: beside its file
    assert asked[2].parent == project and errors == []
