"""llama.cpp decode-step coefficients, fitted on measurements: do not edit by hand.

Written by scripts/fit_decode.py on 2026-11-26 from
resources/benchmarks/decode_measurements.csv (172 rows on 32 GPUs the app
can describe; 3 left out, see the script's output) with each GPU's bandwidth from
resources/benchmarks/decode_gpus.csv. The step of one token (``decode_model``):

    seconds = SECONDS_PER_BYTE_RATIO[memory class] x bytes read / bandwidth
              + PER_LAYER_S[backend] x layers + PER_EXTRA_GPU_S x (GPUs - 1)

SECONDS_PER_BYTE_RATIO is 1 / the share of the bandwidth reached (gddr 91%, hbm 60%, unified 82%).
Leave-one-GPU-out (each GPU's rows predicted by a fit on the others):
93.6% of the rows within 25 %, median error 7.0%.
"""

from __future__ import annotations

ROWS = 172
GPUS = 32
WITHIN_25 = 0.9360
MEDIAN_ERROR = 0.0702
SECONDS_PER_BYTE_RATIO: dict[str, float] = {
    "gddr": 1.0989,
    "hbm": 1.6723,
    "unified": 1.2188,
}
PER_LAYER_S: dict[str, float] = {
    "cuda": 9.774e-05,
    "metal": 0.0001534,
    "vulkan": 5.174e-05,
}
PER_EXTRA_GPU_S = 0.0002395
