"""Print the serving estimate against every published serving measurement, as Markdown.

    .venv/bin/python scripts/check_serving.py

Reads resources/benchmarks/serving_measurements.csv and serving_gpus.csv; the method is
``core.workload.serving_check`` (nothing is fitted to these rows). docs/ESTIMATES.md
quotes the summary; tests/core/test_serving.py checks it.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dlhw_desktop.core.workload import serving_check as sc  # noqa: E402

BENCH = ROOT / "resources" / "benchmarks"


def read(name: str) -> list[dict[str, str]]:
    with (BENCH / name).open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def pct(pair: tuple[float, float | None] | None) -> str:
    error = sc.CheckedRow.error(pair)
    return "" if error is None else f"{error:+.0%}"


def main() -> int:
    checked, skipped = sc.check(read("serving_measurements.csv"), read("serving_gpus.csv"))
    print("| Row | Setup | Measured out tok/s | Estimate | Error | Per user | First token |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for c in checked:
        print(f"| {c.row + 2} | {c.label} | {c.aggregate[0]:,.0f} | {c.aggregate[1]:,.0f} | "
              f"{pct(c.aggregate)} | {pct(c.per_user)} | {pct(c.ttft_s)} |")
    for figure, name in (("aggregate", "output tokens/s"), ("per_user", "tokens/s per user"),
                         ("ttft_s", "time to first token")):
        within, total = sc.share_within(checked, 0.35, figure)
        print(f"\n{name}: {within} of {total} rows within 35 % ({within / total:.0%})")
    for row, reason in skipped:
        print(f"left out: line {row + 2}: {reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
