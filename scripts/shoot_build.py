"""Screenshots of the build planner for the docs: a template loaded, then a failing check
selected with its parts highlighted.

Usage: QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/shoot_build.py [OUT_DIR]
Writes OUT_DIR/build.png and OUT_DIR/build-checks.png (default OUT_DIR: docs/).
Settings and user data go to a temporary folder.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs"
    out.mkdir(parents=True, exist_ok=True)
    sandbox = Path(tempfile.mkdtemp())
    os.environ["DLHW_DATA_DIR"] = str(sandbox / "data")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings
    from PySide6.QtTest import QTest

    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.ui.common.settings import AppSettings
    from dlhw_desktop.ui.common.theme import apply_theme
    from dlhw_desktop.ui.shell.app import create_application
    from dlhw_desktop.ui.shell.main_window import BUILD, MainWindow

    app = create_application()
    apply_theme(app, "light")
    settings = AppSettings(QSettings(str(sandbox / "s.ini"), QSettings.Format.IniFormat))
    window = MainWindow(Catalog.open(), settings)
    window.resize(1400, 860)
    window.show()
    window.tabs.setCurrentIndex(BUILD)
    QTest.qWait(200)
    tab = window.build_tab
    tab.apply_template("single-rtx-4090")
    tab.undo_stack.setClean()
    QTest.qWait(200)
    window.grab().save(str(out / "build.png"))

    # Two cards on the template's 1,000 W supply: the power check fails, with its numbers.
    tab.set_quantity("accelerator/nvidia-geforce-rtx-4090", 2)
    tab.set_name("Two RTX 4090s on 1,000 W?")
    tab.checks.select_check("power.psu_load")
    QTest.qWait(200)
    window.grab().save(str(out / "build-checks.png"))
    print(f"wrote {out / 'build.png'} and {out / 'build-checks.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
