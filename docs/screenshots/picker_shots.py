"""Screenshots of the Build tab's picker narrowing as a build grows (docs/screenshots).

Run from the repository under a real X server, e.g.
``QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python
docs/screenshots/picker_shots.py docs/screenshots``.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication, QWidget

STAGES = [("empty", None, "cpu"), ("cpu", "cpu/amd-ryzen-9-7950x", "motherboard"),
          ("board", "motherboard/asus-tuf-gaming-b650-plus-wifi", "memory"),
          ("case", "case/corsair-4000d-airflow-cc-9011200-ww", "cooler")]


def main(out: Path) -> None:
    os.environ["DLHW_DATA_DIR"] = tempfile.mkdtemp()
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp()
    app = QApplication(sys.argv)
    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.core.fields import Category
    from dlhw_desktop.ui.common.settings import AppSettings
    from dlhw_desktop.ui.common.theme import apply_theme
    from dlhw_desktop.ui.shell.main_window import MainWindow

    def settle(ms: int = 250) -> None:
        done = [False]
        QTimer.singleShot(ms, lambda: done.__setitem__(0, True))
        while not done[0]:
            app.processEvents()

    def save(widget: QWidget, name: str) -> None:
        widget.grab().save(str(out / name), "PNG", 0)

    catalog = Catalog.open("catalog.db")
    for w, h in ((1600, 1000), (1280, 720)):
        for theme in ("light", "dark"):
            apply_theme(app, theme)
            ini = Path(tempfile.mkdtemp()) / "settings.ini"
            win = MainWindow(catalog, AppSettings(QSettings(str(ini),
                                                            QSettings.Format.IniFormat)))
            win.resize(w, h - 30)  # the screen less a title bar
            win.show()
            settle(300)
            win.tabs.setCurrentIndex(2)
            settle(300)
            tab = win.build_tab
            picker = tab.picker
            for name, part, category in STAGES:
                if part:
                    tab.add_parts([part])
                picker.set_category(Category(category))
                settle()
                save(picker, f"picker-{w}x{h}-{theme}-{name}.png")
            if w == 1280:
                picker.show_all.setChecked(True)
                settle()
                save(picker, f"picker-{w}x{h}-{theme}-show-all.png")
                picker.show_all.setChecked(False)
                picker.filter_bar.toggle.setChecked(True)
                picker.set_category(Category.PSU)
                picker.filter_bar.set_value("wattage_w", "1000")
                settle(300)
                save(picker, f"picker-{w}x{h}-{theme}-filters.png")
                if theme == "light":
                    save(win, f"picker-window-{w}x{h}-{theme}.png")
            tab.undo_stack.setClean()
            win.close()
            win.deleteLater()
            settle(100)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
