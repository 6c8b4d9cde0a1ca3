"""The share of the dense peak a training job reaches (MFU on the hardware FLOPs),
fitted on published multi-GPU runs (``training_mfu_coefficients``).

    ln(MFU) = INTERCEPT + PEAK x ln(dense peak at the compute precision / 1 PFLOP/s)
              + SIZE x ln(active parameters / 1e9) + ADAPTER x [LoRA or QLoRA]
              + FP8 x [FP8 matrix products] + UNFUSED x [attention without a fused kernel]

Each factor has a physical reading: a faster chip is harder to keep fed (memory and
launch overheads do not shrink with the peak), larger models run larger matrix products,
adapter training adds small unfused kernels around a frozen base, and FP8 recipes keep
part of the work (attention, norms, casts) in 16 bit, and attention without a fused
(FlashAttention-style) kernel is bound by memory traffic. The utilisation applies to the
hardware FLOPs (6ND, 8ND with recompute; 4ND / 6ND for adapters) of ``timing``; the
exchange between GPUs is added on top (``scaling``). A user's own MFU replaces it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from dlhw_desktop.core.workload import training_mfu_coefficients as fitted
from dlhw_desktop.core.workload.workload import DEFAULT_MFU, Workload

FEATURES: tuple[str, ...] = ("intercept", "peak", "size", "adapter", "fp8", "unfused")
LOW, HIGH = 0.05, 0.75
"""The fitted utilisation is kept in this range (no published run reaches beyond it)."""


def features(peak_flops: float, active_params: float, adapter: bool, fp8: bool,
             unfused: bool = False) -> tuple[float, ...]:
    """The regressors of ``FEATURES`` for one job."""
    return (1.0, math.log(max(peak_flops, 1e9) / 1e15),
            math.log(max(active_params, 1e6) / 1e9), float(adapter), float(fp8),
            float(unfused))


def mfu_from(coefficients: Mapping[str, float], peak_flops: float, active_params: float,
             adapter: bool = False, fp8: bool = False, unfused: bool = False) -> float:
    """The utilisation ``coefficients`` give for one job, within ``LOW``-``HIGH``."""
    x = features(peak_flops, active_params, adapter, fp8, unfused)
    value = math.exp(sum(coefficients[name] * v for name, v in zip(FEATURES, x, strict=True)))
    return min(max(value, LOW), HIGH)


def fitted_mfu(peak_flops: float, active_params: float, adapter: bool = False,
               fp8: bool = False, unfused: bool = False) -> float:
    """The fitted utilisation (``training_mfu_coefficients``) for one job."""
    return mfu_from(fitted.COEFFICIENTS, peak_flops, active_params, adapter, fp8, unfused)


def basis() -> str:
    """How the utilisation was found, as the user reads it."""
    return (f"estimate (fit on {fitted.ROWS} runs from {fitted.SOURCES} sources, "
            f"leave-one-source-out error {fitted.MEDIAN_ERROR * 100:.0f} %, "
            f"{fitted.WITHIN_25 * 100:.0f} % of runs within 25 %)")


ASSUMED = "assumed (within the 30-50 % published runs report; the fit covers transformers)"
YOURS = "yours"


def training_mfu(workload: Workload, peak_flops: float | None) -> tuple[float, str]:
    """The utilisation a training job is timed at and its basis: the user's own MFU
    when they changed it from the default, else the fitted one (transformers), else the
    default."""
    if workload.mfu != DEFAULT_MFU:
        return workload.mfu, YOURS
    if not workload.model.is_transformer or not peak_flops:
        return workload.mfu, ASSUMED
    return fitted_mfu(peak_flops, workload.model.compute_params,
                      workload.mode in ("lora", "qlora"), workload.compute == "FP8",
                      not workload.flash_attention), basis()
