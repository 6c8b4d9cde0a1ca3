"""``dlhw --self-test``: prove the app works end to end on this machine, offscreen.

Opens the bundled catalog read-only, builds the main window (and the chart tab, which
needs pyqtgraph and Qt's OpenGL module), checks a template build, exports its sheet to a
temporary folder, and exits 0 — or prints what failed and exits 1. The packaged app runs
it in CI, so a missing library or data file shows up there, not on a user's desk.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

TEMPLATE_KEY_PREFERENCE = ("rtx-4090-workstation", "single-rtx-4090")


def run_self_test(catalog_path: Path | None = None) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("DLHW_DATA_DIR", tempfile.mkdtemp(prefix="dlhw-self-test-"))
    steps: list[tuple[str, Callable[[dict], str]]] = [
        ("open the catalog read-only", lambda s: _open_catalog(s, catalog_path)),
        ("build the main window", _main_window),
        ("build the Compare tab (charts)", _compare_tab),
        ("check a template build", _check_template),
        ("export its build sheet (PDF)", _export_sheet),
    ]
    state: dict = {}
    for title, step in steps:
        start = time.perf_counter()
        try:
            detail = step(state)
        except Exception as exc:
            print(f"FAIL  {title}: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 1
        print(f"ok    {title} ({(time.perf_counter() - start) * 1000:.0f} ms){detail}")
    print("self-test passed")
    return 0


def _open_catalog(state: dict, path: Path | None) -> str:
    from dlhw_desktop.catalog.store import Catalog

    catalog = Catalog.open(path)
    info = catalog.info()
    if info.total == 0:
        raise RuntimeError("the catalog holds no parts")
    state["catalog"] = catalog
    return f": {info.total:,} parts, catalog {info.catalog_version}, {catalog.path}"


def _main_window(state: dict) -> str:
    from dlhw_desktop.ui.common.settings import AppSettings
    from dlhw_desktop.ui.shell.app import create_application
    from dlhw_desktop.ui.shell.main_window import MainWindow

    state["app"] = app = create_application()
    from PySide6.QtCore import QSettings

    settings = AppSettings(QSettings(str(Path(os.environ["DLHW_DATA_DIR"]) / "self-test.ini"),
                                     QSettings.Format.IniFormat))
    window = MainWindow(state["catalog"], settings)
    window.show()
    app.processEvents()
    state["window"] = window
    rows = window.catalog_tab.model.rowCount()
    if rows == 0:
        raise RuntimeError("the Catalog tab shows no parts")
    return f": Catalog tab shows {window.catalog_tab.model.total:,} parts"


def _compare_tab(state: dict) -> str:
    window = state["window"]
    tab = window.compare_tab
    state["app"].processEvents()
    return f": {type(tab).__name__}"


def _check_template(state: dict) -> str:
    from dlhw_desktop.catalog.userparts import PartResolver
    from dlhw_desktop.core.build.templates import TEMPLATES, TEMPLATES_BY_KEY
    from dlhw_desktop.core.build.tiers import tiers_from_rows
    from dlhw_desktop.core.checks import check_build

    catalog = state["catalog"]
    chosen = next((TEMPLATES_BY_KEY[k] for k in TEMPLATE_KEY_PREFERENCE
                   if k in TEMPLATES_BY_KEY), TEMPLATES[0])
    build = chosen.build(PartResolver(catalog).get)
    report = check_build(build, tiers=tiers_from_rows(catalog.tier_rows()))
    if report.verdict == "fail":
        failed = [r.message for r in report.results if r.status == "fail"]
        raise RuntimeError(f"template {chosen.key} fails: {failed}")
    state["build"], state["report"] = build, report
    return f": {chosen.name}, {len(report.results)} checks, verdict {report.verdict}"


def _export_sheet(state: dict) -> str:
    from dlhw_desktop.reports.build_sheet import sheet_from_catalog
    from dlhw_desktop.ui.pdf import write_build_sheet_pdf

    folder = Path(tempfile.mkdtemp(prefix="dlhw-self-test-sheet-"))
    target = folder / "sheet.pdf"
    sheet = sheet_from_catalog(state["build"], state["report"], state["catalog"])
    write_build_sheet_pdf(sheet, target)
    data = target.read_bytes()
    if not data.startswith(b"%PDF") or len(data) < 5_000:
        raise RuntimeError(f"the sheet {target} is not a valid PDF ({len(data)} bytes)")
    return f": {target} ({len(data) / 1024:.0f} KiB)"
