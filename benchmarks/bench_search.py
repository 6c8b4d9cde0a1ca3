"""Search as you type: keystroke to the Catalog tab's model updated (and the table
repainted), p50 and p95, on the real catalog and on a 100,000-part synthetic one, against
the raw SQLite FTS query for the same text on the same data (the floor).

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


def tab_ms(db: Path, texts: list[str]) -> list[float]:
    from PySide6.QtWidgets import QApplication

    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.ui.catalog_tab import CatalogTab

    app = QApplication.instance() or QApplication([sys.argv[0]])
    tab = CatalogTab(Catalog.open(db))
    tab.set_category(None)
    tab.resize(1300, 800)
    tab.show()
    app.processEvents()
    samples = []
    for text in texts:
        tab.search.blockSignals(True)
        tab.search.setText(text)
        tab.search.blockSignals(False)
        start = time.perf_counter()
        tab.apply_query()  # what the debounce timer runs
        tab.table.viewport().repaint()
        samples.append((time.perf_counter() - start) * 1000)
    tab.close()
    return samples


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
        raw, tab = [], []
        for _ in range(ROUNDS):  # interleaved rounds: machine noise hits both alike
            raw += raw_fts_ms(db, texts)
            tab += tab_ms(db, texts)
        raw_s, tab_s = stats(raw), stats(tab)
        result[label] = {"raw_fts": raw_s, "catalog_tab": tab_s,
                         "ratio_p95": round(tab_s["p95_ms"] / max(raw_s["p95_ms"], 1e-3), 2)}
    result["goals"] = "p95 < 50 ms at 100k parts; <= 2x the raw query"
    return result


if __name__ == "__main__":
    emit("search as you type", run())
