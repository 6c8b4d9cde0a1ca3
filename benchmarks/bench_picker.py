"""Compatible-parts filtering in the Build tab's picker, per change of the build, p50 and
p95, on the real catalog and on a 100,000-part synthetic one.

A build grows one part at a time (empty, CPU, board, memory, cooler, case, card, PSU);
after each change the picker re-runs its query for each category a user might look at
next. Timed, each in the same run and interleaved so machine noise hits both alike:

- compatible: what the picker does on a change (the rules for the build, the SQL with
  the compatibility WHERE clause: count, first page, and the count line's "n hidden");
- baseline: the same picker showing all parts (the unfiltered query, no rules).

The first query of a category also reads the distinct values its rules judge (once per
catalog: the file is immutable); that cost is reported on its own ("first use").

Issue #31 added two-line names that keep what differs (``picker_names``): "painted" times
a change as the user sees it (the query, the column fit and a synchronous repaint of the
list at 400x560) with those names, against the same with Qt's one-line names
(``one_line_baseline``), interleaved in the same run; the goal is p95 <= 50 ms.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit, percentile

REPO = Path(__file__).resolve().parent.parent
ROUNDS = 3
GROWTH = [("cpu", "Ryzen 9 7950X"), ("motherboard", "TUF GAMING B650"),
          ("memory", "VENGEANCE 64GB"), ("cooler", "NH-D15 G2"), ("case", "4000D"),
          ("accelerator", "GeForce RTX 4090"), ("psu", "RM1000x")]
CATEGORIES = ("accelerator", "cpu", "memory", "cooler", "motherboard", "case", "psu")


def stats(samples: list[float]) -> dict[str, float]:
    return {"p50_ms": round(percentile(samples, 0.5), 2),
            "p95_ms": round(percentile(samples, 0.95), 2), "samples": len(samples)}


def builds(catalog):  # type: ignore[no-untyped-def]
    """The build after each change (a fresh Build each, as the picker sees it)."""
    from dlhw_desktop.catalog.part_query import PartQuery
    from dlhw_desktop.core.build.build import Build
    from dlhw_desktop.core.fields import Category

    parts = []
    for category, text in GROWTH:
        found = catalog.search(PartQuery(category=Category(category), text=text), 0, 1)
        if not found:
            raise SystemExit(f"bench_picker: no {category} matching {text!r} in the catalog")
        parts.append(found[0])
    states = []
    for n in range(len(parts) + 1):
        build = Build()
        for part in parts[:n]:
            build.add(part)
        states.append(build)
    return states


def measure(db: Path) -> dict[str, object]:
    from PySide6.QtWidgets import QApplication

    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.catalog.userparts import UserParts
    from dlhw_desktop.core.fields import Category
    from dlhw_desktop.ui.planner.part_picker import PartPicker

    app = QApplication.instance() or QApplication([sys.argv[0]])
    catalog = Catalog.open(db)
    picker = PartPicker(catalog, UserParts())
    picker.resize(320, 700)
    picker.show()
    app.processEvents()
    states = builds(catalog)
    first_use: list[float] = []
    for category in CATEGORIES:  # warm: read each category's distinct values once
        picker.set_category(Category(category))
        picker.set_build(states[-1])
        start = time.perf_counter()
        picker.apply_query()
        first_use.append((time.perf_counter() - start) * 1000)
    compatible: list[float] = []
    baseline: list[float] = []
    hidden = 0
    for _ in range(ROUNDS):
        for build in states:
            for category in CATEGORIES:
                picker.set_category(Category(category))
                for show_all, samples in ((False, compatible), (True, baseline)):
                    picker.show_all.blockSignals(True)
                    picker.show_all.setChecked(show_all)
                    picker.show_all.blockSignals(False)
                    picker.set_build(build)
                    start = time.perf_counter()
                    picker.apply_query()  # what the build-change timer runs
                    samples.append((time.perf_counter() - start) * 1000)
                    if not show_all:
                        hidden += catalog.count(picker.current_query(
                            Category(category), compat=False)) - picker.catalog_model.total
    painted, one_line = paint_rounds(picker, states)
    picker.close()
    comp, base = stats(compatible), stats(baseline)
    two, one = stats(painted), stats(one_line)
    return {"parts": catalog.info().total, "compatible": comp, "baseline_show_all": base,
            "ratio_p95": round(comp["p95_ms"] / max(base["p95_ms"], 1e-3), 2),
            "painted_two_line_names": two, "one_line_baseline": one,
            "painted_ratio_p95": round(two["p95_ms"] / max(one["p95_ms"], 1e-3), 2),
            "first_use_per_category_ms": round(max(first_use), 1),
            "parts_hidden_per_round": hidden // ROUNDS}


def paint_rounds(picker, states) -> tuple[list[float], list[float]]:  # type: ignore[no-untyped-def]
    """A change of the build as the user sees it: query, fit, repaint; with the picker's
    two-line names and with Qt's plain delegate, interleaved."""
    from PySide6.QtWidgets import QApplication, QStyledItemDelegate

    from dlhw_desktop.core.fields import Category

    plain = QStyledItemDelegate(picker)
    views = (picker.table, picker.table.frozen)
    picker.resize(400, 560)
    QApplication.processEvents()
    painted: list[float] = []
    one_line: list[float] = []
    for _ in range(ROUNDS):
        for build in states:
            for category in CATEGORIES:
                picker.set_category(Category(category))
                for delegate, samples in ((picker.names, painted), (plain, one_line)):
                    for view in views:
                        view.setItemDelegateForColumn(0, delegate)
                    picker.set_build(build)
                    start = time.perf_counter()
                    picker.apply_query()
                    for view in views:
                        view.viewport().repaint()
                    samples.append((time.perf_counter() - start) * 1000)
    for view in views:
        view.setItemDelegateForColumn(0, picker.names)
    return painted, one_line


def run() -> dict[str, object]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from dlhw_desktop.catalog.synthetic import make_synthetic_catalog

    real = REPO / "catalog.db"
    if "--catalog" in sys.argv:  # e.g. a catalog rebuilt with a new index
        real = Path(sys.argv[sys.argv.index("--catalog") + 1])
    catalogs = [("real", real)]
    if "--real-only" not in sys.argv:
        big = Path(tempfile.mkdtemp(prefix="bench-picker-")) / "big.db"
        make_synthetic_catalog(real, big, 100_000)
        catalogs.append(("synthetic_100k", big))
    result: dict[str, object] = {"build_states": len(GROWTH) + 1,
                                 "categories": len(CATEGORIES), "rounds": ROUNDS}
    for label, db in catalogs:
        result[label] = measure(db)
    result["goal"] = "p95 <= 50 ms per change of the build"
    return result


if __name__ == "__main__":
    emit("picker compatible-parts filtering", run())
