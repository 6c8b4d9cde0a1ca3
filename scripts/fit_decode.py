"""Refit the llama.cpp decode model on the measurements and write its coefficients.

    .venv/bin/python scripts/fit_decode.py            # fit, print the check, write the table
    .venv/bin/python scripts/fit_decode.py --dry-run  # fit and print only

Reads resources/benchmarks/decode_measurements.csv and decode_gpus.csv, fits
``core.workload.decode_model``'s llama.cpp step (see ``decode_calibration``) on every row
the app can describe, checks it leave-one-GPU-out (each GPU's rows predicted by a fit on
the other GPUs) and writes dlhw_desktop/core/workload/decode_coefficients.py.
"""

from __future__ import annotations

import argparse
import csv
import sys
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dlhw_desktop.core.workload import decode_calibration as cal  # noqa: E402

BENCH = ROOT / "resources" / "benchmarks"
TARGET = ROOT / "dlhw_desktop" / "core" / "workload" / "decode_coefficients.py"


def read(name: str) -> list[dict[str, str]]:
    with (BENCH / name).open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def render(coefficients: dict[str, float], data: list[cal.Measurement],
           holdout: cal.Holdout, skipped: int) -> str:
    ratio = {k[4:]: v for k, v in sorted(coefficients.items()) if k.startswith("mem_")}
    layer = {k[6:]: v for k, v in sorted(coefficients.items()) if k.startswith("layer_")}
    efficiency = ", ".join(f"{k} {1 / v:.0%}" for k, v in ratio.items())
    return f'''"""llama.cpp decode-step coefficients, fitted on measurements: do not edit by hand.

Written by scripts/fit_decode.py on {date.today().isoformat()} from
resources/benchmarks/decode_measurements.csv ({len(data)} rows on {holdout.gpus} GPUs the app
can describe; {skipped} left out, see the script's output) with each GPU's bandwidth from
resources/benchmarks/decode_gpus.csv. The step of one token (``decode_model``):

    seconds = SECONDS_PER_BYTE_RATIO[memory class] x bytes read / bandwidth
              + PER_LAYER_S[backend] x layers + PER_EXTRA_GPU_S x (GPUs - 1)

SECONDS_PER_BYTE_RATIO is 1 / the share of the bandwidth reached ({efficiency}).
Leave-one-GPU-out (each GPU's rows predicted by a fit on the others):
{holdout.share_within(0.25):.1%} of the rows within 25 %, median error {holdout.median_error:.1%}.
"""

from __future__ import annotations

ROWS = {len(data)}
GPUS = {holdout.gpus}
WITHIN_25 = {holdout.share_within(0.25):.4f}
MEDIAN_ERROR = {holdout.median_error:.4f}
SECONDS_PER_BYTE_RATIO: dict[str, float] = {{
{"".join(f'    "{k}": {v:.4f},{chr(10)}' for k, v in ratio.items())}}}
PER_LAYER_S: dict[str, float] = {{
{"".join(f'    "{k}": {v:.4g},{chr(10)}' for k, v in layer.items())}}}
PER_EXTRA_GPU_S = {coefficients["hop"]:.4g}
'''


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="print, do not write")
    args = parser.parse_args(argv)
    data, skipped = cal.measurements(read("decode_measurements.csv"),
                                     read("decode_gpus.csv"))
    for row, reason in skipped:
        print(f"left out: line {row + 2}: {reason}")
    coefficients = cal.fit(data)
    holdout = cal.leave_one_gpu_out(data)
    print(f"{len(data)} rows, {holdout.gpus} GPUs")
    for key, value in sorted(coefficients.items()):
        print(f"  {key:<14} {value:.5g}")
    print(f"leave-one-GPU-out: {holdout.share_within(0.25):.1%} within 25 %, "
          f"median error {holdout.median_error:.1%}")
    for (m, predicted), error in zip(holdout.pairs, holdout.errors, strict=True):
        if error is None or abs(error) > 0.25:
            shown = "n/a" if predicted is None else f"{predicted:.1f}"
            print(f"  outside 25 %: line {m.row + 2} {m.gpu} x{m.gpus} {m.model.name} "
                  f"{m.weight_format} {m.backend}: measured {m.tokens_per_s:g}, "
                  f"predicted {shown}")
    if not args.dry_run:
        TARGET.write_text(render(coefficients, data, holdout, len(skipped)), encoding="utf-8")
        print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
