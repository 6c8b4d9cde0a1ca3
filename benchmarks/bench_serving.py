"""A serving estimate on 16,384 GPUs (issue #30): goal <= 50 ms, for every generating
preset, as replicas (16,384 copies) and as one tensor-parallel group, with a speed and a
first-token target (two bisections), a billion users, and the chart's 48 points.

Baseline in the same run: the fit alone (memory, verdicts, decode speed, cost) of the same
workload on the same GPUs, which the serving estimate starts from. The GPU is built from
core types (an H100 SXM's published figures), so the figure does not depend on the catalog.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit, summarize, time_ms

from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.fit import fit
from dlhw_desktop.core.workload.model_presets import presets
from dlhw_desktop.core.workload.serving import ServingRequest, serving_for_fit
from dlhw_desktop.core.workload.workload import Parallelism, Workload

GOAL_MS = 50.0
GPUS = 16_384
RUNS = 7

H100 = Part("accelerator/nvidia-h100-sxm", Category.ACCELERATOR, "NVIDIA", "H100 SXM",
            "bench", "", price_usd=30000,
            specs={"memory_gb": 80, "memory_bandwidth_gb_s": 3350, "tdp_w": 700,
                   "memory_type": "HBM3", "interconnect_bandwidth_gb_s": 900,
                   "bf16_tensor_tflops": 989.4, "fp16_tensor_tflops": 989.4,
                   "fp8_tensor_tflops": 1978.9})
OFFER = Part("cloud/bench-8x-h100", Category.CLOUD, "Bench", "8x H100", "bench", "",
             specs={"accelerator_id": H100.id, "price_per_accelerator_hour_usd": 3.99})


def requests(context: int | None) -> tuple[ServingRequest, ServingRequest]:
    """2,000 prompt + 500 answer tokens (less for models with a short context): with both
    targets, and with a billion users."""
    total = min(2500, context or 2500)
    lengths = {"input_tokens": total - total // 5, "output_tokens": total // 5}
    return (ServingRequest(**lengths, target_tps=20, target_ttft_s=2.0),
            ServingRequest(**lengths, users=10**9))


def main() -> None:
    serving_ms: dict[str, float] = {}
    fit_ms: dict[str, float] = {}
    for model in presets():
        if not model.autoregressive:
            continue
        workload = Workload(model, precision="FP8", serving="vllm")
        asked, billion = requests(model.context)
        for strategy in ("ddp", "tp"):
            layout = Parallelism(GPUS, strategy)
            key = f"{model.key} {strategy}"
            result = fit(workload, [(H100, GPUS)], layout)
            fit_ms[key] = summarize(time_ms(
                lambda w=workload, p=layout: fit(w, [(H100, GPUS)], p), RUNS))["median_ms"]

            def serve(r=result, asked=asked, billion=billion) -> None:  # type: ignore[no-untyped-def]
                estimate = serving_for_fit(r, asked, [OFFER])
                if estimate is not None and estimate.max_concurrency:
                    estimate.curve()
                serving_for_fit(r, billion, [OFFER])

            serving_ms[key] = summarize(time_ms(serve, RUNS))["median_ms"]
    slowest = max(serving_ms, key=lambda k: serving_ms[k])
    ratios = sorted(serving_ms[k] / fit_ms[k] for k in serving_ms)
    emit("serving estimate on 16,384 GPUs", {
        "workloads": len(serving_ms),
        "slowest": slowest,
        "slowest_median_ms": serving_ms[slowest],
        "median_of_medians_ms": sorted(serving_ms.values())[len(serving_ms) // 2],
        "fit_alone_median_of_medians_ms": sorted(fit_ms.values())[len(fit_ms) // 2],
        "ratio_to_fit_median": round(ratios[len(ratios) // 2], 2),
        "goal_ms": GOAL_MS,
        "meets_goal": serving_ms[slowest] <= GOAL_MS,
    })


if __name__ == "__main__":
    main()
