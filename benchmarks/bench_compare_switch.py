"""First switch to the Compare tab: cold (pyqtgraph imported on the switch) against warm
(imported in the background once the catalog is on screen, as the app does).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_compare_switch.py``

Each sample is a fresh interpreter (imports are what is timed): the window is shown, then
the switch is timed from ``setCurrentIndex`` to the tab painted. Medians of 5 runs each,
interleaved; timings on shared machines vary by about ±30 %.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit  # noqa: E402

RUNS = 5
GOAL_MS = 100.0

CHILD = r"""
import json, os, sys, tempfile, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ["DLHW_DATA_DIR"] = tempfile.mkdtemp()
from PySide6.QtCore import QSettings
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.ui.common.settings import AppSettings
from dlhw_desktop.ui.shell.app import create_application
from dlhw_desktop.ui.shell.main_window import COMPARE, MainWindow
app = create_application()
settings = AppSettings(QSettings(os.path.join(os.environ["DLHW_DATA_DIR"], "s.ini"),
                                 QSettings.Format.IniFormat))
window = MainWindow(Catalog.open(), settings)
window.resize(1360, 820)
window.show()
app.processEvents()
if sys.argv[1] == "warm":
    window.warm_up_compare()
    window._warming.join(120)
start = time.perf_counter()
window.tabs.setCurrentIndex(COMPARE)
window.compare_tab.repaint()
print(json.dumps({"ms": (time.perf_counter() - start) * 1000}), flush=True)
os._exit(0)  # what is timed is the switch, not the interpreter's teardown
"""


def sample(mode: str) -> float:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run([sys.executable, "-c", CHILD, mode], capture_output=True, text=True,
                         check=True, cwd=REPO, env=env, timeout=300).stdout
    return float(json.loads(out.strip().splitlines()[-1])["ms"])


def main() -> int:
    cold: list[float] = []
    warm: list[float] = []
    for _ in range(RUNS):
        cold.append(sample("cold"))
        warm.append(sample("warm"))
    result = {"cold_median_ms": round(statistics.median(cold), 1),
              "warm_median_ms": round(statistics.median(warm), 1),
              "warm_to_cold_ratio": round(statistics.median(warm) / statistics.median(cold), 2),
              "goal_warm_ms": GOAL_MS, "runs": RUNS}
    print("First switch to the Compare tab (fresh interpreter each):")
    for key, value in result.items():
        print(f"  {key:<22} {value}")
    emit("compare_first_switch", result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
