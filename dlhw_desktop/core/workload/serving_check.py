"""The serving estimate against published serving measurements (issue #30 item 2).

``resources/benchmarks/serving_measurements.csv`` holds TensorRT-LLM's published
maximum-throughput runs (``trtllm-bench``: every request queued at once, the batch as
large as memory allows, up to 8192) and NVIDIA NIM's concurrency sweep of Llama 3.3 70B
on two H100s (output tokens/s, time per output token, time to first token, at 1 to 250
users). Each row is estimated with ``serving`` as a user would ask it: the model preset,
the GPUs' catalog figures (``serving_gpus.csv``, the same numbers as the catalog), the
TP x PP layout the row names, TensorRT-LLM's defaults, the workload's default MFU (40 %)
and FP8 KV caches (NVIDIA's ModelOpt FP8 and FP4 checkpoints quantise the KV cache to
FP8). Nothing here is fitted to these rows.

Rows the app cannot describe (a GPU the catalog lacks: GB200) are left out with the
reason. The aggregate output throughput is in every row; NIM's rows add the speed per
user and the time to first token, each compared on its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.decode_model import Layout
from dlhw_desktop.core.workload.errors import WorkloadError
from dlhw_desktop.core.workload.inference import SERVING_STACKS
from dlhw_desktop.core.workload.model_presets import preset
from dlhw_desktop.core.workload.serving import ServingRequest, estimate_serving
from dlhw_desktop.core.workload.serving_model import copy_for
from dlhw_desktop.core.workload.workload import Workload

MODELS: dict[str, str] = {
    "Llama-3.1-8B-Instruct": "llama-3.1-8b",
    "Llama-3.3-70B-Instruct": "llama-3.3-70b",
    "Llama-3.1-405B-Instruct": "llama-3.1-405b",
    "Qwen3-30B-A3B (MoE, 3B active)": "qwen3-30b-a3b",
}
"""The measured models by the CSV's name -> the app's preset."""

KV_PRECISION = "FP8"
OFFLINE_MAX_BATCH = 8192
"""trtllm-bench's runs allow batches up to 8192 (their CUDA-graph sizes, per the notes)."""

_SPEC_FIELDS = ("memory_gb", "memory_bandwidth_gb_s", "bf16_tensor_tflops",
                "fp8_tensor_tflops", "fp4_tensor_tflops", "interconnect_bandwidth_gb_s")


def gpu_parts(gpu_rows: Iterable[Mapping[str, str]]) -> dict[str, Part]:
    """The measured GPUs as parts with their catalog figures."""
    parts: dict[str, Part] = {}
    for row in gpu_rows:
        specs: dict[str, object] = {k: float(row[k]) for k in _SPEC_FIELDS if row[k]}
        specs["memory_type"] = row["memory_type"]
        parts[row["gpu"]] = Part(row["part_id"], Category.ACCELERATOR, row["vendor"],
                                 row["gpu"], row["source"], "", specs=specs)
    return parts


def _layout(notes: str, gpus: int) -> Layout:
    tp = int(m.group(1)) if (m := re.search(r"\bTP(\d+)", notes)) else gpus
    pp = int(m.group(1)) if (m := re.search(r"\bPP(\d+)", notes)) else 1
    return Layout(tensor=tp, stages=pp, pipelined=pp > 1, replicas=max(1, gpus // (tp * pp)))


@dataclass(frozen=True, slots=True)
class CheckedRow:
    """One measurement and the estimate for it: (measured, estimated) per figure."""

    row: int
    label: str
    aggregate: tuple[float, float]
    per_user: tuple[float, float] | None = None
    ttft_s: tuple[float, float | None] | None = None

    @staticmethod
    def error(pair: tuple[float, float | None] | None) -> float | None:
        if pair is None or pair[1] is None:
            return None
        return pair[1] / pair[0] - 1.0


def check(rows: Iterable[Mapping[str, str]], gpu_rows: Iterable[Mapping[str, str]]
          ) -> tuple[list[CheckedRow], list[tuple[int, str]]]:
    """Every row estimated (or left out with the reason)."""
    parts = gpu_parts(gpu_rows)
    checked: list[CheckedRow] = []
    skipped: list[tuple[int, str]] = []
    for index, row in enumerate(rows):
        part = parts.get(row["gpu"])
        if part is None:
            skipped.append((index, f"{row['gpu']} is not in the catalog"))
            continue
        gpus = int(row["gpu_count"])
        workload = Workload(preset(MODELS[row["model"]]), precision=row["precision"],
                            kv_precision=KV_PRECISION, serving="tensorrt-llm")
        concurrency = int(row["concurrency"]) if row["concurrency"] else None
        stack = SERVING_STACKS["tensorrt-llm"]
        if concurrency is None:
            stack = replace(stack, max_batch=OFFLINE_MAX_BATCH)
        try:
            copy = copy_for(workload, [part], gpus, None, int(row["input_tokens"]),
                            int(row["output_tokens"]), layout=_layout(row["notes"], gpus))
            copy = replace(copy, stack=stack)
            answer = estimate_serving(copy, ServingRequest(users=concurrency),
                                      stack_name=stack.name)
        except WorkloadError as exc:
            skipped.append((index, str(exc)))
            continue
        at = answer.at
        if at is None:
            skipped.append((index, "no request fits"))
            continue
        label = (f"{gpus}x {row['gpu']} {row['model']} {row['precision']} "
                 f"{row['input_tokens']}/{row['output_tokens']}"
                 + (f" at {concurrency}" if concurrency else " (max throughput)"))
        per_user = ((float(row["per_user_tokens_per_s"]), at.per_user_tokens_per_s)
                    if row["per_user_tokens_per_s"] else None)
        ttft = ((float(row["ttft_ms"]) / 1000.0, at.ttft_s) if row["ttft_ms"] else None)
        checked.append(CheckedRow(index, label, (float(row["output_tokens_per_s"]),
                                                 at.aggregate_tokens_per_s), per_user, ttft))
    return checked, skipped


def share_within(checked: Iterable[CheckedRow], tolerance: float,
                 figure: str = "aggregate") -> tuple[int, int]:
    """(rows within ``tolerance``, rows that give ``figure``)."""
    errors = [CheckedRow.error(getattr(c, figure)) for c in checked
              if getattr(c, figure) is not None]
    return sum(1 for e in errors if e is not None and abs(e) <= tolerance), len(errors)
