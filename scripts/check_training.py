"""Print the multi-GPU training time against every published training throughput row,
as Markdown.

    .venv/bin/python scripts/check_training.py

Reads resources/benchmarks/training_measurements.csv and the bundled catalog; the method
is ``core.workload.training_check`` (nothing is fitted to these rows). docs/ESTIMATES.md
quotes the summary; tests/core/test_training_check.py checks it.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dlhw_desktop.catalog.store import Catalog  # noqa: E402
from dlhw_desktop.core.workload import training_check as tc  # noqa: E402

CSV = ROOT / "resources" / "benchmarks" / "training_measurements.csv"


def main() -> int:
    with CSV.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    checked, skipped = tc.check(rows, Catalog.open(None).find)
    print("| Line | Run | Measured tokens/s/GPU | Estimate | Error |")
    print("|---:|---|---:|---:|---:|")
    for c in checked:
        print(f"| {c.row + 2} | {c.label} | {c.measured:,.0f} | {c.predicted:,.0f} | "
              f"{c.error:+.0%} |")
    within, total = tc.share_within(checked)
    errors = sorted(abs(c.error) for c in checked)
    median = errors[len(errors) // 2] if errors else float("nan")
    print(f"\n{within} of {total} rows within 25 % ({within / total:.0%}); median absolute "
          f"error {median:.0%}")
    stated, _ = tc.check(rows, Catalog.open(None).find, stated_checkpointing=True)
    ok, n = tc.share_within(stated)
    print(f"with the activation checkpointing the runs' notes state (8ND at the same 40 % "
          f"MFU): {ok} of {n} ({ok / n:.0%})")
    for row, reason in skipped:
        print(f"left out: line {row + 2}: {reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
