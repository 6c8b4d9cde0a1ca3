"""Build-sheet export: median time to assemble and write the PDF, and its size. Goal < 1 s.

The build is the docs example: a 2x RTX 4090 Threadripper PRO workstation from the
bundled catalog with a workload (Llama 3.1 8B, LoRA), so every section of the sheet is
filled: parts, totals, ~30 checks, the workload fit, four charts, the sources.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_pdf.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit, summarize, time_ms

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.catalog.userparts import PartResolver
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.tiers import tiers_from_rows
from dlhw_desktop.core.build.workload_fit import workload_check
from dlhw_desktop.core.checks import check_build
from dlhw_desktop.core.workload.build_workload import BuildWorkload
from dlhw_desktop.reports.build_sheet import BuildSheet, sheet_from_catalog

GOAL_MS = 1000.0
PARTS = (
    ("cpu/amd-ryzen-threadripper-pro-7975wx", 1),
    ("motherboard/asus-pro-ws-wrx90e-sage-se", 1),
    ("memory/samsung-m321r4ga3pb0-cwm-32gb-ddr5-5600-ecc-rdimm-8-module-set", 1),
    ("accelerator/nvidia-geforce-rtx-4090", 2),
    ("storage/samsung-990-pro-4tb-mz-v9p4t0b-am", 1),
    ("storage/samsung-870-qvo-8tb-mz-77q8t0b-am", 1),
    ("psu/seasonic-prime-tx-1600-atx-3", 1),
    ("cooler/noctua-nh-u14s-tr5-sp6", 1),
    ("case/phanteks-enthoo-pro-2-server-edition", 1),
)
WORKLOAD = {"model": "llama-3.1-8b", "mode": "lora", "precision": "BF16", "batch": 1,
            "seq": 2048, "checkpointing": True, "tokens": 2e8}


def make_sheet(catalog: Catalog) -> BuildSheet:
    build = Build("2x RTX 4090 workstation", tier="demanding",
                  workload=BuildWorkload.from_mapping(WORKLOAD))
    for part_id, quantity in PARTS:
        build.add(catalog.get(part_id), quantity)
    find = PartResolver(catalog).find
    report = check_build(build, None, tiers_from_rows(catalog.tier_rows()),
                         extra_checks=[workload_check(find)])
    return sheet_from_catalog(build, report, catalog)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--paper", choices=("a4", "letter"), default="a4")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from dlhw_desktop.ui.pdf import ensure_gui_application, write_build_sheet_pdf

    ensure_gui_application()
    catalog = Catalog.open()
    sheet = make_sheet(catalog)
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "sheet.pdf"
        first = write_build_sheet_pdf(sheet, target, args.paper)  # warm-up: fonts, caches
        sheet_ms = time_ms(lambda: make_sheet(catalog), args.runs)
        export_ms = time_ms(lambda: write_build_sheet_pdf(sheet, target, args.paper),
                            args.runs)
        info = write_build_sheet_pdf(sheet, target, args.paper)
    export = summarize(export_ms)
    emit("build sheet export", {
        "paper": args.paper,
        "pages": info.pages,
        "file size (KB)": round(info.size_bytes / 1024, 1),
        "first export incl. warm-up (ms)": round(first.seconds * 1000, 1),
        "assemble sheet, median (ms)": summarize(sheet_ms)["median_ms"],
        "render + write PDF, median (ms)": export["median_ms"],
        "render + write PDF, p95 (ms)": export["p95_ms"],
        "runs": export["runs"],
        "goal (ms)": GOAL_MS,
    })
    return 0 if export["median_ms"] + summarize(sheet_ms)["median_ms"] < GOAL_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
