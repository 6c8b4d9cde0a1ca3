"""Screenshots for the docs: every tab at 1600x1000 (light) and 1280x720 (dark).

Usage: QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/shoot_docs.py [OUT_DIR]
Settings and user data go to a temporary folder. Writes OUT_DIR/<tab>-<size>-<theme>.png.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHOTS = ((1600, 1000, "light"), (1280, 720, "dark"))


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs"
    out.mkdir(parents=True, exist_ok=True)
    sandbox = Path(tempfile.mkdtemp())
    os.environ["DLHW_DATA_DIR"] = str(sandbox / "data")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings
    from PySide6.QtTest import QTest

    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.core.workload.build_workload import BuildWorkload
    from dlhw_desktop.ui.common.settings import AppSettings
    from dlhw_desktop.ui.common.theme import apply_theme
    from dlhw_desktop.ui.shell.app import create_application
    from dlhw_desktop.ui.shell.main_window import BUILD, CATALOG, COMPARE, MainWindow

    app = create_application()
    for width, height, theme in SHOTS:
        apply_theme(app, theme)
        settings = AppSettings(QSettings(str(sandbox / f"{theme}.ini"),
                                         QSettings.Format.IniFormat))
        window = MainWindow(Catalog.open(), settings)
        window.resize(width, height)
        window.show()
        QTest.qWait(300)
        tag = f"{width}-{theme}"
        window.tabs.setCurrentIndex(CATALOG)
        QTest.qWait(200)
        window.grab().save(str(out / f"catalog-{tag}.png"))
        window.tabs.setCurrentIndex(BUILD)
        QTest.qWait(200)
        window.grab().save(str(out / f"build-empty-{tag}.png"))
        tab = window.build_tab
        tab.apply_template("four-gpu-workstation")
        tab.build.set_workload(BuildWorkload.from_mapping(
            {"model": "llama-3.1-70b", "mode": "qlora", "batch": 1, "seq": 4096,
             "checkpointing": True, "tokens": 2e8}))
        QTest.qWait(300)
        window.grab().save(str(out / f"build-{tag}.png"))
        window.tabs.setCurrentIndex(COMPARE)
        QTest.qWait(300)
        compare = window.compare_tab
        compare.load_preset("Current flagships")
        for kind in ("bars", "scatter"):
            compare.set_chart_kind(kind)
            QTest.qWait(250)
            window.grab().save(str(out / f"compare-{kind}-{tag}.png"))
        if window.tabs.count() > 3:
            tab.ask_save_changes = lambda: "discard"  # no question box in a script
            tab.apply_template("dgx-h100")  # what a cluster is planned from
            QTest.qWait(300)
            window.tabs.setCurrentIndex(3)
            QTest.qWait(300)
            window.grab().save(str(out / f"cluster-{tag}.png"))
        tab.undo_stack.setClean()
        window.close()
    print(f"wrote screenshots to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
