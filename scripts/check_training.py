"""Print the multi-GPU training time against every published training throughput row,
as Markdown.

    .venv/bin/python scripts/check_training.py

Reads resources/benchmarks/training_measurements.csv and the bundled catalog; the method
is ``core.workload.training_check`` at the utilisation ``core.workload.training_mfu`` fits
on these rows (scripts/fit_training.py), so the in-sample figure flatters: the
leave-one-source-out figure (each source predicted by a fit on the others) is the honest
one. Rows the audit could not trust (``excluded_reason``) are listed apart.
docs/ESTIMATES.md quotes the summary; tests/core/test_training_check.py checks it.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dlhw_desktop.catalog.store import Catalog  # noqa: E402
from dlhw_desktop.core.workload import training_calibration as cal  # noqa: E402
from dlhw_desktop.core.workload import training_check as tc  # noqa: E402

CSV = ROOT / "resources" / "benchmarks" / "training_measurements.csv"


def main() -> int:
    with CSV.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    find = Catalog.open(None).find
    checked, skipped = tc.check(rows, find)
    print("| Line | Run | Measured tokens/s/GPU | Estimate | Error |")
    print("|---:|---|---:|---:|---:|")
    for c in checked:
        print(f"| {c.row + 2} | {c.label} | {c.measured:,.0f} | {c.predicted:,.0f} | "
              f"{c.error:+.0%} |")
    within, total = tc.share_within(checked)
    errors = sorted(abs(c.error) for c in checked)
    median = errors[len(errors) // 2] if errors else float("nan")
    print(f"\nin-sample: {within} of {total} rows within 25 % ({within / total:.0%}); median "
          f"absolute error {median:.0%}")
    held = cal.holdout(rows, find, cal.samples(rows, find))
    print(f"leave-one-source-out ({held.sources} sources): {held.share_within(0.25):.0%} of "
          f"{len(held.errors)} rows within 25 %; median absolute error "
          f"{held.median_error:.0%}")
    for row, reason in tc.excluded(rows):
        print(f"excluded: line {row + 2}: {reason}")
    for row, reason in skipped:
        print(f"left out: line {row + 2}: {reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
