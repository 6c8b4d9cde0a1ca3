"""Start-up, against a bare PySide6 QMainWindow (the floor).

Fresh processes, offscreen, interleaved, several times; figures are median wall times from
process start to exit:
- first paint: the main window's first frame (menu bar, tabs, status bar) —
  ``dlhw --exit-after-show``; the issue's goal is at most 1.5x the floor;
- catalog ready: the Catalog tab's first rows painted, menus and shortcuts in place —
  ``dlhw --exit-when-ready``; what a user can act on.
The same two again on a LARGE catalog (``*_large``): a synthetic one of
``BENCH_LARGE_PARTS`` parts (default 25,000) grown from the bundled catalog
(``catalog.synthetic``), opened with ``--catalog``; the goals are the same ratios.
All leave with ``os._exit`` right after the frame, so interpreter teardown is not timed.
Settings come from an empty, private folder (a first launch), and the package's bytecode
is compiled first, as an installed package's is.
"""

from __future__ import annotations

import compileall
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit, interleaved_process_ms, summarize

BARE = r"""
import os, sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv)
class W(QMainWindow):
    done = False
    def paintEvent(self, e):
        super().paintEvent(e)
        if not self.done:
            self.done = True
            QTimer.singleShot(0, lambda: os._exit(0))
w = W(); w.resize(1360, 820); w.show()
sys.exit(app.exec())
"""


def run(runs: int = 9) -> dict[str, object]:
    root = Path(__file__).resolve().parent.parent
    compileall.compile_dir(root / "dlhw_desktop", quiet=1)
    private = Path(tempfile.mkdtemp(prefix="dlhw-bench-startup-"))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", DLHW_DATA_DIR=str(private / "data"),
               XDG_CONFIG_HOME=str(private / "config"))
    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.catalog.synthetic import make_synthetic_catalog

    large_parts = int(os.environ.get("BENCH_LARGE_PARTS", "25000"))
    large = make_synthetic_catalog(root / "catalog.db", private / "large.db", large_parts)
    app = [sys.executable, "-m", "dlhw_desktop"]
    commands = {
        "bare_qmainwindow": [sys.executable, "-c", BARE],
        "dlhw_first_paint": [*app, "--exit-after-show"],
        "dlhw_catalog_ready": [*app, "--exit-when-ready"],
        "dlhw_first_paint_large": [*app, "--catalog", str(large), "--exit-after-show"],
        "dlhw_catalog_ready_large": [*app, "--catalog", str(large), "--exit-when-ready"],
    }
    samples = interleaved_process_ms(commands, env, runs)
    result: dict[str, object] = {name: summarize(v) for name, v in samples.items()}
    floor = statistics.median(samples["bare_qmainwindow"])
    for name in ("dlhw_first_paint", "dlhw_catalog_ready", "dlhw_first_paint_large",
                 "dlhw_catalog_ready_large"):
        result[f"{name}_ratio_to_floor"] = round(
            statistics.median(samples[name]) / floor, 2)
    result["large_catalog_parts"] = Catalog.open(large).info().total
    result["large_catalog_mb"] = round(large.stat().st_size / 1e6, 1)
    result["goal_ratio_first_paint"] = 1.5
    result["goal_ratio_catalog_ready"] = 2.2
    return result


if __name__ == "__main__":
    emit("start-up to first paint (offscreen)", run())
