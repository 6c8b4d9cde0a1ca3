"""Start-up, against a bare PySide6 QMainWindow (the floor).

Fresh processes, offscreen, interleaved, several times; figures are median wall times from
process start to exit:
- first paint: the main window's first frame (menu bar, tabs, status bar) —
  ``dlhw --exit-after-show``; the issue's goal is at most 1.5x the floor;
- catalog ready: the Catalog tab's first rows painted, menus and shortcuts in place —
  ``dlhw --exit-when-ready``; what a user can act on.
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
    commands = {
        "bare_qmainwindow": [sys.executable, "-c", BARE],
        "dlhw_first_paint": [sys.executable, "-m", "dlhw_desktop", "--exit-after-show"],
        "dlhw_catalog_ready": [sys.executable, "-m", "dlhw_desktop", "--exit-when-ready"],
    }
    samples = interleaved_process_ms(commands, env, runs)
    result: dict[str, object] = {name: summarize(v) for name, v in samples.items()}
    floor = statistics.median(samples["bare_qmainwindow"])
    for name in ("dlhw_first_paint", "dlhw_catalog_ready"):
        result[f"{name}_ratio_to_floor"] = round(
            statistics.median(samples[name]) / floor, 2)
    result["goal_ratio_first_paint"] = 1.5
    return result


if __name__ == "__main__":
    emit("start-up to first paint (offscreen)", run())
