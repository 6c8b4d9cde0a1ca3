"""Screenshots of issue #31's picker, Catalog tab and Cluster tab, at 1600x1000 and
1280x720, light and dark (docs/screenshots/picker-*.png, catalog-*.png, cluster-*.png).

Usage: QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/shoot_polish.py [OUT_DIR]
(or under Xvfb with QT_QPA_PLATFORM=xcb). Settings and user data go to a temporary folder.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SIZES = ((1600, 1000), (1280, 720))
THEMES = ("light", "dark")


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    sandbox = Path(tempfile.mkdtemp())
    os.environ["DLHW_DATA_DIR"] = str(sandbox / "data")
    os.environ["XDG_CONFIG_HOME"] = str(sandbox / "config")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings
    from PySide6.QtTest import QTest

    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.core.fields import Category
    from dlhw_desktop.ui.common.settings import AppSettings
    from dlhw_desktop.ui.common.theme import apply_theme
    from dlhw_desktop.ui.shell.app import create_application
    from dlhw_desktop.ui.shell.main_window import BUILD, CATALOG, CLUSTER, MainWindow

    app = create_application()
    catalog = Catalog.open(REPO / "catalog.db")
    written: list[str] = []

    def save(widget, name: str) -> None:  # type: ignore[no-untyped-def]
        QTest.qWait(250)
        path = out / name
        widget.grab().save(str(path))
        written.append(path.name)

    for width, height in SIZES:
        for theme in THEMES:
            apply_theme(app, theme)
            ini = sandbox / f"{width}-{theme}.ini"
            window = MainWindow(catalog, AppSettings(QSettings(str(ini),
                                                               QSettings.Format.IniFormat)))
            window.resize(width, height)
            window.show()
            QTest.qWait(300)
            tag = f"{width}x{height}-{theme}"

            # The picker: look-alike cards, then an empty slot's list (power supplies).
            window.tabs.setCurrentIndex(BUILD)
            tab = window.build_tab
            picker = tab.picker
            picker.search.setText("rog strix 4090")
            picker.apply_query()
            save(window, f"picker-{tag}-cards.png")
            picker.search.setText("")
            tab.apply_template("single-rtx-4090")
            tab.undo_stack.setClean()
            tab.remove_parts([i.part_id for i in tab.build.items()
                              if i.part.category is Category.PSU])
            tab.open_slot_picker(Category.PSU)  # a click on "Power supply — empty"
            save(window, f"picker-{tag}-psu.png")
            tab.open_slot_picker(Category.COOLER)
            save(window, f"picker-{tag}-cooler.png")

            # The Catalog tab: motherboards in their default order, then a search that
            # finds nothing here but something elsewhere.
            window.tabs.setCurrentIndex(CATALOG)
            cat = window.catalog_tab
            cat.set_category(Category.MOTHERBOARD)
            save(window, f"catalog-{tag}-boards.png")
            cat.set_category(Category.CPU)
            cat.search.setText("rm1000x")
            cat.apply_query()
            save(window, f"catalog-{tag}-no-match.png")
            cat.search.setText("")

            # The Cluster tab: a catalog platform as the node.
            window.tabs.setCurrentIndex(CLUSTER)
            cluster = window.cluster_tab
            save(window, f"cluster-{tag}-build.png")
            cluster.node_choice.choose_matching("DGX H100 — 8x H100")
            cluster.params.setText("8e9")  # an 8B model on 200B tokens: GPU-hours
            cluster.tokens.setText("2e11")
            cluster.mfu.setText("0.4")
            cluster.refresh()
            save(window, f"cluster-{tag}-platform.png")

            tab.undo_stack.setClean()
            window.close()
            window.deleteLater()
            QTest.qWait(100)
    print(f"wrote {len(written)} screenshots to {out}: {', '.join(written)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
