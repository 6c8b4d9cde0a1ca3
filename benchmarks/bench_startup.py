"""Start-up to the first painted main window, against a bare PySide6 QMainWindow (the floor).

Both run as fresh processes offscreen, several times; the figure is the median wall time
from process start to exit right after the first paint (`dlhw --exit-after-show`). Both
leave with ``os._exit`` as soon as the first frame is painted, so the interpreter's
teardown (not start-up) is not timed for either.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit, summarize

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


def _run(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    # No timeout: with one, Popen.wait polls in steps of up to 50 ms and quantises timing.
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000


def run(runs: int = 7) -> dict[str, object]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env.setdefault("DLHW_DATA_DIR", "/tmp/dlhw-bench-data")
    dlhw = [sys.executable, "-m", "dlhw_desktop", "--exit-after-show"]
    bare = [sys.executable, "-c", BARE]
    _run(bare, env), _run(dlhw, env)  # warm the file cache
    bare_ms, app_ms = [], []
    for _ in range(runs):  # interleaved, so machine noise hits both alike
        bare_ms.append(_run(bare, env))
        app_ms.append(_run(dlhw, env))
    floor, app = summarize(bare_ms), summarize(app_ms)
    return {"bare_qmainwindow": floor, "dlhw_exit_after_show": app,
            "ratio_to_floor": round(app["median_ms"] / floor["median_ms"], 2),
            "goal_ratio": 1.5}


if __name__ == "__main__":
    emit("start-up to first paint (offscreen)", run())
