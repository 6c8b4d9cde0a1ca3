"""File > Export build sheet: ask where, then write the PDF without freezing the window.

The sheet (``reports.build_sheet``) is assembled on the GUI thread: it is quick, it reads
the catalog (one SQLite connection per thread) and it freezes the build as it is now,
so edits made during the export do not leak into it. Rendering and writing run on the
GUI thread too, on the next turn of the event loop (the caller connects to the job's
signals first): Qt's text layout and font database are shared with the window, and
rendering in a pool thread deadlocked now and then (a worker laying out a QTextDocument
while the window processed events). A sheet renders in about 0.1 s, a 2,048-node cluster
sheet in 0.1-0.3 s. Errors (unwritable
folder, full disk, a file held by another program) end in a dialog with one line to act
on; the file is written atomically, so no half-written PDF is ever left under the name.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from PySide6.QtCore import QLocale, QObject, QRunnable, QStandardPaths, Qt, QTimer, Signal
from PySide6.QtWidgets import QFileDialog, QMainWindow, QProgressDialog, QWidget

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.catalog.userparts import PartResolver
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.tiers import tiers_from_rows
from dlhw_desktop.core.build.workload_fit import workload_check
from dlhw_desktop.core.checks import CheckReport, check_build
from dlhw_desktop.core.errors import CatalogError, DlhwError
from dlhw_desktop.reports.build_sheet import sheet_from_catalog
from dlhw_desktop.reports.sheet_model import BuildSheet
from dlhw_desktop.ui.common.dialogs import show_error
from dlhw_desktop.ui.common.fonts import load_bundled_fonts
from dlhw_desktop.ui.pdf import PdfInfo, write_build_sheet_pdf

log = logging.getLogger(__name__)

PROGRESS_DELAY_MS = 400
ERROR_TITLE = "Cannot export the build sheet"
_FILTER = "PDF documents (*.pdf)"
_RUNNING: set[ExportJob] = set()
"""Jobs in flight. Python owns each job; a finished one is dropped at the next export
(never deleted inside its own slot, which Qt would still be delivering to)."""


def export_build_sheet(parent: QWidget, build: Build, report: CheckReport | None,
                       catalog: Catalog, folder: Path | None = None) -> Path | None:
    """Ask for a file name (starting in ``folder``), then export the build's sheet to it
    in the background; the chosen path, or None when the user cancelled."""
    try:
        sheet = make_sheet(build, report, catalog)
    except DlhwError as exc:
        show_error(parent, ERROR_TITLE, str(exc))
        return None
    path = ask_pdf_path(parent, suggested_path(build.name, folder))
    if path is None:
        return None
    # The build's own file is never the PDF (the Build tab says which file it is).
    own_file = getattr(parent, "path", None)
    start_export(parent, sheet, path, default_paper(),
                 protect=(own_file,) if isinstance(own_file, Path) else ())
    return path


def make_sheet(build: Build, report: CheckReport | None, catalog: Catalog) -> BuildSheet:
    if report is None:
        try:
            tiers = tiers_from_rows(catalog.tier_rows())
        except CatalogError as exc:
            log.warning("workload tiers unavailable: %s", exc)
            tiers = {}
        find = PartResolver(catalog).find
        report = check_build(build, None, tiers, extra_checks=[workload_check(find)])
    return sheet_from_catalog(build, report, catalog)


def file_stem(name: str) -> str:
    """A build name as a file name on every platform: no separators or reserved marks."""
    stem = re.sub(r'[<>:"/\\|?*\x00-\x1f]+', " ", name).strip(" .")
    stem = re.sub(r"\s+", " ", stem)
    return stem[:120] or "build"


def suggested_path(build_name: str, folder: Path | None = None) -> Path:
    """``folder`` (beside the open build, or where the last sheet went), else Documents."""
    if folder is None or not folder.is_dir():
        folder = Path(QStandardPaths.writableLocation(
            QStandardPaths.StandardLocation.DocumentsLocation) or str(Path.home()))
    return folder / f"{file_stem(build_name)}.pdf"


def ask_pdf_path(parent: QWidget | None, suggested: Path) -> Path | None:
    """The save dialog (tests replace this); ``.pdf`` is added when the name lacks it."""
    chosen, _ = QFileDialog.getSaveFileName(parent, "Export build sheet", str(suggested),
                                            _FILTER)
    if not chosen:
        return None
    path = Path(chosen)
    return path if path.suffix.lower() == ".pdf" else path.with_name(path.name + ".pdf")


def default_paper() -> str:
    """Letter where the locale measures in US units, A4 everywhere else."""
    us = QLocale().measurementSystem() == QLocale.MeasurementSystem.ImperialUSSystem
    return "letter" if us else "a4"


def busy() -> bool:
    """True while an export is still being written."""
    return any(not job.done for job in _RUNNING)


def start_export(parent: QWidget | None, sheet: BuildSheet, path: Path,
                 paper: str = "a4", protect: tuple[Path, ...] = ()) -> ExportJob:
    """Render and write on the next turn of the event loop; returns the job (its signals
    say how it ended)."""
    load_bundled_fonts()
    for finished in [j for j in _RUNNING if j.done]:
        _RUNNING.discard(finished)
    job = ExportJob(sheet, path, paper, parent)
    job.protect = protect
    job.start()
    return job


class _Relay(QObject):
    """Carries the worker's result to the job."""

    done = Signal(object)
    error = Signal(str)


class _Worker(QRunnable):
    def __init__(self, sheet: BuildSheet, path: Path, paper: str, relay: _Relay,
                 protect: tuple[Path, ...] = ()) -> None:
        super().__init__()
        self.sheet, self.path, self.paper, self.relay = sheet, path, paper, relay
        self.protect = protect

    def run(self) -> None:
        try:
            info = write_build_sheet_pdf(self.sheet, self.path, self.paper, self.protect)
        except DlhwError as exc:
            self.relay.error.emit(str(exc))
        except Exception as exc:  # a bug must reach the user, not end silently in the pool
            log.exception("exporting %s failed", self.path)
            self.relay.error.emit(f"cannot write {self.path.name}: unexpected error ({exc})")
        else:
            self.relay.done.emit(info)


class ExportJob(QObject):
    """One export: a status message, a busy dialog if slow, a dialog on failure."""

    succeeded = Signal(object)  # PdfInfo
    failed = Signal(str)

    def __init__(self, sheet: BuildSheet, path: Path, paper: str,
                 parent: QWidget | None = None) -> None:
        super().__init__()  # owned by Python (kept in _RUNNING), not by the widget
        self.setObjectName("pdf_export_job")
        self.sheet, self.path, self.paper = sheet, path, paper
        self.widget = parent
        self.relay = _Relay(self)
        self.relay.done.connect(self._finished)
        self.relay.error.connect(self._failed)
        self.progress: QProgressDialog | None = None
        self.info: PdfInfo | None = None
        self.error = ""
        self.done = False
        self.protect: tuple[Path, ...] = ()  # files the PDF must not replace
        self._worker: _Worker | None = None

    def start(self) -> None:
        _RUNNING.add(self)
        _status(self.widget, f"Exporting {self.path.name}…", 0)
        if self.widget is not None:
            self.progress = QProgressDialog(f"Writing {self.path.name}…", "", 0, 0,
                                            self.widget)
            self.progress.setObjectName("pdf_export_progress")
            self.progress.setWindowTitle("Export build sheet")
            self.progress.setCancelButton(None)
            self.progress.setWindowModality(Qt.WindowModality.NonModal)
            self.progress.setMinimumDuration(PROGRESS_DELAY_MS)
            self.progress.setAutoClose(False)
        self._worker = _Worker(self.sheet, self.path, self.paper, self.relay, self.protect)
        QTimer.singleShot(0, self._worker.run)

    def _close_progress(self) -> None:
        if self.progress is not None:
            self.progress.reset()
            self.progress.hide()
            self.progress.deleteLater()
            self.progress = None

    def _finished(self, info: PdfInfo) -> None:
        self._close_progress()
        self.info = info
        pages = f"{info.pages} page{'s' if info.pages != 1 else ''}"
        _status(self.widget, f"Exported {info.path.name} ({pages}, "
                f"{info.size_bytes / 1024:,.0f} KB)", 6000)
        self.done = True
        self.succeeded.emit(info)

    def _failed(self, message: str) -> None:
        self._close_progress()
        self.error = message
        _status(self.widget, "Export failed", 6000)
        self.done = True
        self.failed.emit(message)
        show_error(self.widget, ERROR_TITLE, message[:1].upper() + message[1:])


def _status(widget: QWidget | None, text: str, timeout_ms: int) -> None:
    """The Build tab's ``status_message`` signal, else the window's status bar."""
    if widget is None:
        return
    signal = getattr(widget, "status_message", None)
    if signal is not None and hasattr(signal, "emit"):
        signal.emit(text, timeout_ms)
        return
    window = widget.window()
    if isinstance(window, QMainWindow):
        window.statusBar().showMessage(text, timeout_ms)
