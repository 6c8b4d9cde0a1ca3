"""Search as you type, p50 and p95, on the real catalog and on a 100,000-part synthetic
one, against the raw SQLite FTS query for the same text on the same data (the floor):

- model updated: the Catalog tab's model has counted the matches and holds the first rows
  (what the issue times);
- shown: that, plus the first row selected, its details pane filled and the table
  repainted (what a user waits for).

Typing is replayed one keystroke at a time; each prefix is one sample.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit, percentile

REPO = Path(__file__).resolve().parent.parent
TYPED = ["geforce rtx 4090", "a100 80", "threadripper pro", "ddr5 rdimm", "samsung 990",
         "h100 sxm", "radeon pro"]
ROUNDS = 3


def prefixes() -> list[str]:
    return [text[:i] for text in TYPED for i in range(1, len(text) + 1)]


def raw_fts_ms(db: Path, texts: list[str]) -> list[float]:
    """The floor: FTS MATCH + the first 200 rows' columns, straight from sqlite3."""
    from dlhw_desktop.catalog.search import fts_query

    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
    samples = []
    for text in texts:
        match = fts_query(text)
        start = time.perf_counter()
        if match:
            conn.execute("SELECT count(*) FROM parts_fts WHERE parts_fts MATCH ?",
                         (match,)).fetchone()
            conn.execute("SELECT p.* FROM parts p WHERE p.rowid IN (SELECT rowid FROM "
                         "parts_fts WHERE parts_fts MATCH ?) ORDER BY p.name LIMIT 200",
                         (match,)).fetchall()
        samples.append((time.perf_counter() - start) * 1000)
    conn.close()
    return samples


def tab_ms(db: Path, texts: list[str]) -> tuple[list[float], list[float]]:
    """(model updated, shown) per keystroke, in ms."""
    from PySide6.QtWidgets import QApplication

    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.ui.catalog.catalog_tab import CatalogTab

    app = QApplication.instance() or QApplication([sys.argv[0]])
    tab = CatalogTab(Catalog.open(db))
    tab.set_category(None)
    tab.resize(1300, 800)
    tab.show()
    app.processEvents()
    model_ms: list[float] = []
    set_query = tab.model.set_query

    def timed_set_query(query) -> None:  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        set_query(query)
        model_ms.append((time.perf_counter() - start) * 1000)

    tab.model.set_query = timed_set_query  # type: ignore[method-assign]
    shown = []
    for text in texts:
        tab.search.blockSignals(True)
        tab.search.setText(text)
        tab.search.blockSignals(False)
        start = time.perf_counter()
        tab.apply_query()  # what the debounce timer runs
        tab.table.viewport().repaint()
        shown.append((time.perf_counter() - start) * 1000)
    tab.close()
    return model_ms, shown


def stats(samples: list[float]) -> dict[str, float]:
    return {"p50_ms": round(percentile(samples, 0.5), 2),
            "p95_ms": round(percentile(samples, 0.95), 2), "samples": len(samples)}


def run() -> dict[str, object]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from dlhw_desktop.catalog.synthetic import make_synthetic_catalog

    real = REPO / "catalog.db"
    big = Path(tempfile.mkdtemp(prefix="bench-search-")) / "big.db"
    make_synthetic_catalog(real, big, 100_000)
    texts = prefixes()
    result: dict[str, object] = {"keystrokes_per_round": len(texts), "rounds": ROUNDS}
    for label, db in (("real", real), ("synthetic_100k", big)):
        raw: list[float] = []
        model: list[float] = []
        shown: list[float] = []
        for _ in range(ROUNDS):  # interleaved rounds: machine noise hits both alike
            raw += raw_fts_ms(db, texts)
            m, s = tab_ms(db, texts)
            model += m
            shown += s
        raw_s, model_s, shown_s = stats(raw), stats(model), stats(shown)
        floor = max(raw_s["p95_ms"], 1e-3)
        result[label] = {"raw_fts": raw_s, "model_updated": model_s, "shown": shown_s,
                         "ratio_p95_model": round(model_s["p95_ms"] / floor, 2),
                         "ratio_p95_shown": round(shown_s["p95_ms"] / floor, 2)}
    result["goals"] = ("model updated p95 <= 30 ms on the real catalog and at 100,000 parts "
                       "(issue #16); <= 2x the raw query in the same run")
    return result


if __name__ == "__main__":
    emit("search as you type", run())
