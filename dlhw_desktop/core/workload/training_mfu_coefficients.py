"""Training utilisation (MFU) coefficients fitted on published runs: do not edit.

Written by scripts/fit_training.py on 2026-11-28 from
resources/benchmarks/training_measurements.csv (73 kept rows from 12 sources;
rows with an excluded_reason are not used). The model is ``training_mfu``:

    ln(MFU) = intercept + peak x ln(dense peak / 1 PFLOP/s) + size x ln(active params / 1e9)
              + adapter x [LoRA/QLoRA] + fp8 x [FP8]

Leave-one-source-out (each source's rows predicted by a fit on the other sources):
75.3% of the rows within 25 %, median error 16.2%.
"""

from __future__ import annotations

ROWS = 73
SOURCES = 12
WITHIN_25 = 0.7534
MEDIAN_ERROR = 0.1624
COEFFICIENTS: dict[str, float] = {
    "intercept": -0.9810,
    "peak": -0.2503,
    "size": 0.0570,
    "adapter": 0.1981,
    "fp8": 0.0154,
    "unfused": -0.8050,
}
