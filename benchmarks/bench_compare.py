"""Compare tab timings: redraw after a metric or precision change, and scatter panning.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_compare.py``

Each redraw is timed from the change (a combo's new value) to the chart's viewport painted
synchronously (``repaint()``), with 8 accelerators compared: 50 runs, median and p95. The
scatter pans 100 steps over the whole catalog (FP32 against TDP: ~500 points), one forced
repaint per step. Timings on shared machines vary by about ±30 %.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import percentile  # noqa: E402

RUNS = 50
PAN_STEPS = 100
BUDGET_MS = 50.0


def timed(action: Callable[[], None], repaint: Callable[[], None], runs: int) -> list[float]:
    times: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        repaint()
        times.append((time.perf_counter() - start) * 1000)
    return times


RESULTS: dict[str, object] = {}


def report(label: str, times: list[float]) -> None:
    median = statistics.median(times)
    RESULTS[label] = {"median_ms": round(median, 2), "p95_ms": round(percentile(times, 0.95), 2),
                      "runs": len(times)}
    p95 = percentile(times, 0.95)
    flag = "" if median < BUDGET_MS else f"  (over the {BUDGET_MS:.0f} ms budget)"
    print(f"{label:<52} median {median:6.1f} ms   p95 {p95:6.1f} ms{flag}")


def main() -> int:

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([sys.argv[0]])
    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.core.compare.comparison import BASE_METRICS, DERIVED_METRICS, PRECISIONS
    from dlhw_desktop.ui.common.settings import AppSettings

    start = time.perf_counter()
    from dlhw_desktop.ui.compare.charts.base import ChartBase
    from dlhw_desktop.ui.compare.compare_tab import CompareTab

    import_ms = (time.perf_counter() - start) * 1000
    folder = Path(tempfile.mkdtemp(prefix="bench-compare-"))
    settings = AppSettings(QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat))
    catalog = Catalog.open()
    start = time.perf_counter()
    tab = CompareTab(catalog, settings)
    tab.resize(1360, 780)
    tab.show()
    app.processEvents()
    build_ms = (time.perf_counter() - start) * 1000
    ids = tab.load_preset("AMD vs NVIDIA by generation")
    assert len(ids) == 8, ids
    app.processEvents()
    print(f"import compare_tab + pyqtgraph: {import_ms:.0f} ms; tab built and shown: "
          f"{build_ms:.0f} ms; {len(ids)} accelerators compared\n")

    metric_keys = [m.key for m in (*BASE_METRICS, *DERIVED_METRICS)]
    for kind in ("bars", "normalised", "derived", "scatter"):
        tab.set_chart_kind(kind)
        app.processEvents()
        chart = tab.chart(kind)

        def repaint(chart: ChartBase = chart) -> None:
            chart.viewport().repaint()

        if kind == "bars":
            state = {"i": 0}

            def next_metric(state: dict[str, int] = state) -> None:
                state["i"] += 1
                combo = tab.metric_combo
                combo.setCurrentIndex(combo.findData(metric_keys[state["i"] % len(metric_keys)]))

            timed(next_metric, repaint, 5)  # warm up
            report("bars: change metric", timed(next_metric, repaint, RUNS))
        state = {"i": 0}

        def next_precision(state: dict[str, int] = state) -> None:
            state["i"] += 1
            tab.precision_combo.setCurrentIndex(state["i"] % len(PRECISIONS))

        timed(next_precision, repaint, 5)
        report(f"{kind}: change precision (chart + spec table)",
               timed(next_precision, repaint, RUNS))

    # Scatter panning over the whole catalog.
    tab.set_chart_kind("scatter")
    tab.precision_combo.setCurrentIndex(tab.precision_combo.findData("FP32"))
    tab.scatter_x_combo.setCurrentIndex(tab.scatter_x_combo.findData("tdp"))
    app.processEvents()
    chart = tab.chart("scatter")
    points = sum(len(item.points()) for item in chart.vendor_items.values())
    vb = chart.plot.getViewBox()
    (x0, x1), _ = vb.viewRange()
    step = (x1 - x0) / 200
    frames: list[float] = []
    for i in range(PAN_STEPS):
        start = time.perf_counter()
        vb.translateBy(x=step if (i // 25) % 2 == 0 else -step)
        chart.viewport().repaint()
        frames.append((time.perf_counter() - start) * 1000)
    median = statistics.median(frames)
    print(f"{'scatter: pan ' + str(PAN_STEPS) + ' steps, ' + str(points) + ' points':<52} "
          f"median {median:6.1f} ms/frame   p95 {percentile(frames, 0.95):6.1f} ms "
          f"(~{1000 / median:.0f} fps)")
    RESULTS["scatter pan"] = {"points": points, "median_ms_per_frame": round(median, 2),
                              "p95_ms_per_frame": round(percentile(frames, 0.95), 2)}
    RESULTS["goal_ms"] = BUDGET_MS
    tab.close()
    tab.deleteLater()  # destroy the charts while the application still exists
    app.processEvents()
    target = os.environ.get("BENCH_JSON")
    if target:
        import json

        Path(target).write_text(json.dumps({"name": "compare redraw", "result": RESULTS},
                                           indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
