"""Refit the training utilisation (MFU) model on the published runs and write its
coefficients.

    .venv/bin/python scripts/fit_training.py            # fit, print the check, write the table
    .venv/bin/python scripts/fit_training.py --dry-run  # fit and print only

Reads resources/benchmarks/training_measurements.csv and the bundled catalog, finds the
utilisation each kept row implies (``core.workload.training_calibration``), fits
``core.workload.training_mfu``'s few factors, checks them leave-one-source-out and writes
dlhw_desktop/core/workload/training_mfu_coefficients.py.
"""

from __future__ import annotations

import argparse
import csv
import sys
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dlhw_desktop.catalog.store import Catalog  # noqa: E402
from dlhw_desktop.core.workload import training_calibration as cal  # noqa: E402

CSV = ROOT / "resources" / "benchmarks" / "training_measurements.csv"
TARGET = ROOT / "dlhw_desktop" / "core" / "workload" / "training_mfu_coefficients.py"


def render(coefficients: dict[str, float], rows: int, holdout: cal.Holdout) -> str:
    body = "\n".join(f'    "{k}": {v:.4f},' for k, v in coefficients.items())
    return f'''"""Training utilisation (MFU) coefficients fitted on published runs: do not edit.

Written by scripts/fit_training.py on {date.today().isoformat()} from
resources/benchmarks/training_measurements.csv ({rows} kept rows from {holdout.sources} sources;
rows with an excluded_reason are not used). The model is ``training_mfu``:

    ln(MFU) = intercept + peak x ln(dense peak / 1 PFLOP/s) + size x ln(active params / 1e9)
              + adapter x [LoRA/QLoRA] + fp8 x [FP8]

Leave-one-source-out (each source's rows predicted by a fit on the other sources):
{holdout.share_within(0.25):.1%} of the rows within 25 %, median error {holdout.median_error:.1%}.
"""

from __future__ import annotations

ROWS = {rows}
SOURCES = {holdout.sources}
WITHIN_25 = {holdout.share_within(0.25):.4f}
MEDIAN_ERROR = {holdout.median_error:.4f}
COEFFICIENTS: dict[str, float] = {{
{body}
}}
'''


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    with CSV.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    find = Catalog.open(None).find
    data = cal.samples(rows, find)
    coefficients = cal.least_squares(data)
    held = cal.holdout(rows, find, data)
    print("| Line | Source | Implied MFU | Left-out error |")
    print("|---:|---|---:|---:|")
    for s in data:
        print(f"| {s.row + 2} | {s.source} | {s.implied:.0%} | {held.errors[s.row]:+.0%} |")
    print("\ncoefficients: " + ", ".join(f"{k} {v:+.3f}" for k, v in coefficients.items()))
    print(f"leave-one-source-out over {held.sources} sources: "
          f"{held.share_within(0.25):.0%} of {len(held.errors)} rows within 25 %, "
          f"median error {held.median_error:.0%}")
    if not args.dry_run:
        TARGET.write_text(render(coefficients, len(data), held), encoding="utf-8")
        print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
