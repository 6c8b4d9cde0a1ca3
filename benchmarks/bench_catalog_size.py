"""catalog.db size as the catalog grows: the bundled catalog, then synthetic catalogs of
10,000, 25,000 and 50,000 parts grown from it (``catalog.synthetic``: variants of real rows,
so their text and figures are as long as the real ones), each VACUUMed as a build leaves it.
Reports MB per 10,000 parts (the slope between the synthetic sizes) and what 25,000 parts
take; the issue's budget is catalog.db <= 60 MB and the packaged app <= 200 MB."""

from __future__ import annotations

import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit

REPO = Path(__file__).resolve().parent.parent
SIZES = (10_000, 25_000, 50_000)


def run() -> dict[str, object]:
    from dlhw_desktop.catalog.synthetic import make_synthetic_catalog

    real = REPO / "catalog.db"
    folder = Path(tempfile.mkdtemp(prefix="bench-size-"))
    result: dict[str, object] = {"bundled_parts": _parts(real),
                                 "bundled_mb": round(real.stat().st_size / 1e6, 2)}
    sizes: dict[int, float] = {}
    for n in SIZES:
        path = folder / f"c{n}.db"
        start = time.perf_counter()
        make_synthetic_catalog(real, path, n)
        with sqlite3.connect(path) as conn:
            conn.execute("VACUUM")
        sizes[n] = path.stat().st_size / 1e6
        result[f"parts_{n}"] = {"mb": round(sizes[n], 1),
                                "kb_per_part": round(sizes[n] * 1000 / n, 2),
                                "grown_in_s": round(time.perf_counter() - start, 1)}
        path.unlink()
    slope = (sizes[SIZES[-1]] - sizes[SIZES[0]]) / (SIZES[-1] - SIZES[0]) * 10_000
    result["mb_per_10k_parts"] = round(slope, 2)
    result["goal"] = "catalog.db <= 60 MB at >= 20,000 parts"
    return result


def _parts(path: Path) -> int:
    with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True) as conn:
        return int(conn.execute("SELECT count(*) FROM parts").fetchone()[0])


if __name__ == "__main__":
    emit("catalog size per 10,000 parts", run())
