"""The multi-GPU training time against published training throughput, row by row.

``resources/benchmarks/training_measurements.csv`` holds published runs (tokens/s per GPU
at a stated tensor / pipeline / data parallel layout, each with its source). ``check``
predicts each row the way the app times a job: the compute of ``timing`` (6ND for
pre-training and full fine-tuning, 4ND for LoRA/QLoRA, + 2ND with the activation
checkpointing the row's note states, else the recipe's; at the MFU ``training_mfu`` fits
on these rows, see scripts/fit_training.py) plus the
exchange of ``scaling.step_time`` (data parallel or sharded over the data-parallel GPUs,
tensor parallel over NVLink, across nodes over a 400 Gb/s NIC per GPU unless the row says
otherwise). Rows with an ``excluded_reason`` (the audit could not trust them) are left
out and listed apart (``excluded``).

Pipeline parallelism's bubble is not modelled (the rows do not state their micro-batch
counts); a row is left out, with the reason, when its GPU is not in the catalog or its
throughput is not stated. What a row's note states about the run is used as the run
was set up: its batch ("local batch 2", "global batch 256") when no token count is given,
else the app's defaults; "unfused attention" marks runs before FlashAttention.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload import training_mfu_coefficients as fitted
from dlhw_desktop.core.workload.model_presets import preset
from dlhw_desktop.core.workload.models import custom_model
from dlhw_desktop.core.workload.precision import peak_flops
from dlhw_desktop.core.workload.scaling import (
    LINK_EFFICIENCY,
    Link,
    data_parallel_exchange,
    gpu_link,
    tensor_parallel_exchange,
)
from dlhw_desktop.core.workload.timing import training_flops
from dlhw_desktop.core.workload.training_mfu import mfu_from
from dlhw_desktop.core.workload.workload import Workload

GPUS: tuple[tuple[str, str], ...] = (
    (r"H100 SXM 96GB", "accelerator/nvidia-h100-sxm5-96-gb"),
    (r"H100 80GB", "accelerator/nvidia-h100-sxm5-80-gb"),
    (r"H200", "accelerator/nvidia-h200-sxm-141-gb"),
    (r"B200", "accelerator/nvidia-b200"),
    (r"A100 40GB", "accelerator/nvidia-a100-sxm4-40-gb"),
    (r"A100", "accelerator/nvidia-a100-sxm4-80-gb"),
    (r"V100 SXM2 16GB", "accelerator/nvidia-v100-sxm2-16-gb"),
    (r"RTX A6000", "accelerator/nvidia-rtx-a6000"),
    (r"RTX 4090", "accelerator/nvidia-geforce-rtx-4090"),
    (r"MI300X", "accelerator/amd-instinct-mi300x"),
)
"""The row's GPU text -> the catalog part (first match; the 80 GB SXM part where a row
names an H100 80GB or an A100 without its form: the platforms these runs used)."""

MODELS: tuple[tuple[str, str], ...] = (
    (r"Llama 3(\.\d)? 8B", "llama-3.1-8b"), (r"Llama 3(\.\d)? 70B", "llama-3.1-70b"),
    (r"Llama 3(\.\d)? 405B", "llama-3.1-405b"), (r"Llama 3\.2 3B", "llama-3.2-3b"),
    (r"Qwen2\.5 7B", "qwen2.5-7b"), (r"Mistral 7B", "mistral-7b"),
)
"""Rows naming a preset's model use its architecture; others are a custom model of the
row's parameter count."""

METHODS = {"pretrain": "training", "full_finetune": "training", "lora": "lora",
           "qlora": "qlora"}
GPUS_PER_NODE = 8
"""A data-parallel group wider than a node talks over the fabric (8-GPU nodes)."""
DEFAULT_NIC_GB_S = 400.0
"""Per-GPU network between nodes when a row does not state it (NDR InfiniBand / 400G)."""


@dataclass(frozen=True, slots=True)
class CheckedRow:
    row: int
    label: str
    measured: float
    predicted: float
    source: str = ""
    """The repository or site the row comes from (rows of one source are correlated)."""

    @property
    def error(self) -> float:
        return self.predicted / self.measured - 1.0


def source_of(row: Mapping[str, str]) -> str:
    """The row's source as one group: ``github.com/owner/name``, else the site."""
    match = re.match(r"https?://(github\.com/[^/]+/[^/]+)", row["source"])
    if match:
        return match.group(1).lower()
    return re.sub(r"^https?://(www\.)?", "", row["source"]).split("/")[0]


def _int(text: str, default: int = 1) -> int:
    try:
        return max(int(float(text)), 1)
    except (TypeError, ValueError):
        return default


def _precision(text: str, mode: str) -> str:
    t = text.lower()
    if mode == "qlora":
        return "NF4"
    if t.startswith("fp8"):
        return "FP8"
    return "FP16" if t.startswith("fp16") else "BF16"


def _nic(text: str) -> float:
    """Gb/s between nodes as the row states it. A figure "per node" is used as it is: a
    ring all-reduce crosses each node's link once, so one link per node carries what one
    GPU sends in the ring (NCCL's bus bandwidth), not an eighth of it."""
    match = re.search(r"(\d{3,4})\s*G(?:bps|b/s)", text or "")
    return float(match.group(1)) if match else DEFAULT_NIC_GB_S


def _stated_checkpointing(note: str) -> bool | None:
    """The run's activation checkpointing where its note states it: full AC recomputes
    every layer; selective AC (a few operators) is counted as none; else the recipe's."""
    text = note.lower()
    if ("full ac" in text or "activation checkpointing true" in text
            or "checkpoint-activations" in text or "full activation checkpointing" in text):
        return True
    if "selective ac" in text or "activation checkpointing false" in text:
        return False
    return None


def _stated_sequences(note: str, dp: int) -> int:
    """Sequences per step where the note states them ("global batch 256", "local batch
    2" per data-parallel GPU, "batch 4 x grad_accum 4" per data-parallel GPU); one per
    data-parallel GPU otherwise."""
    match = re.search(r"global batch (\d+)", note)
    if match:
        return int(match.group(1))
    match = re.search(r"batch (\d+) x grad_accum (\d+)", note)
    if match:  # per GPU, accumulated into one optimizer step
        return dp * int(match.group(1)) * int(match.group(2))
    match = re.search(r"local batch (\d+)", note)
    return dp * int(match.group(1)) if match else dp


def _gpus_per_node(text: str) -> int:
    """GPUs per node where the interconnect says so ("4x H200 per node", "8-GPU node"),
    else 8."""
    match = (re.search(r"(\d+)x [^,()+]*per node", text or "")
             or re.search(r"(\d+)-GPU node", text or ""))
    return int(match.group(1)) if match else GPUS_PER_NODE


def predict(row: Mapping[str, str], part: Part, stated_checkpointing: bool = True,
            mfu: float | None = None,
            coefficients: Mapping[str, float] | None = None) -> float | None:
    """Tokens/s per GPU the app's model gives for ``row`` on ``part``: the run's own
    activation checkpointing where its note says (``stated_checkpointing``), else the
    recipe's; at ``mfu`` when given, else the utilisation ``coefficients`` (the fitted
    ones by default) give for the row's GPU, precision, model and method."""
    mode = METHODS.get(row["method"].strip())
    if mode is None:
        return None
    name = row["model"]
    key = next((k for pattern, k in MODELS if re.search(pattern, name)), None)
    model = preset(key) if key else custom_model(float(row["params_b"]) * 1e9, name=name)
    seq = _int(row["sequence_length"]) if row.get("sequence_length") else None
    gpus = _int(row["gpu_count"])
    tp, pp = _int(row.get("tensor_parallel", "")), _int(row.get("pipeline_parallel", ""))
    dp = max(gpus // (tp * pp), 1)
    note = row.get("note", "")
    checkpointing = _stated_checkpointing(note) if stated_checkpointing else None
    probe = Workload(model, mode, _precision(row.get("precision", ""), mode), seq=seq,
                     flash_attention="unfused attention" not in note,
                     **({} if checkpointing is None else {"checkpointing": checkpointing}))
    try:
        step_tokens = float(row["global_batch_tokens"])
    except (KeyError, TypeError, ValueError):
        step_tokens = float(probe.seq_len * _stated_sequences(note, dp))
    batch = max(round(step_tokens / probe.seq_len), 1)  # sequences per step, all GPUs
    workload = probe.but(batch=batch, tokens=step_tokens)
    peak = peak_flops(part, workload.compute)
    flops = training_flops(model, step_tokens, lora=mode in ("lora", "qlora"),
                           checkpointing=workload.checkpointing,
                           seq=workload.seq_len)
    if peak is None or flops is None:
        return None
    if mfu is None:
        mfu = mfu_from(coefficients or fitted.COEFFICIENTS, peak, model.compute_params,
                       mode in ("lora", "qlora"), workload.compute == "FP8",
                       not workload.flash_attention)
    busy = tp * pp * min(dp, batch)
    compute = flops / (busy * peak * mfu)  # one step, per GPU
    link = gpu_link(part) or Link(450e9 * LINK_EFFICIENCY, "NVLink (assumed)")
    per_node = _gpus_per_node(row.get("interconnect", ""))
    fabric = Link(_nic(row.get("interconnect", "")) / 8 * 1e9 * LINK_EFFICIENCY, "NIC")
    sharded = "fsdp" in row.get("framework", "").lower() or mode != "training"
    across = gpus > per_node and dp * tp * pp > per_node and dp > 1
    _, exposed, _ = data_parallel_exchange(workload, dp, sharded, compute,
                                           fabric if across else link, tp * pp)
    exposed += tensor_parallel_exchange(workload, tp, step_tokens / dp,
                                        fabric if tp > per_node else link,
                                        (model.layers or 32) / pp)
    return step_tokens / (compute + exposed) / gpus


def excluded(rows: Iterable[Mapping[str, str]]) -> list[tuple[int, str]]:
    """Rows the audit could not trust, with the reason in their ``excluded_reason``."""
    return [(i, r["excluded_reason"].strip()) for i, r in enumerate(rows)
            if (r.get("excluded_reason") or "").strip()]


def check(rows: Iterable[Mapping[str, str]], find: Callable[[str], Part | None],
          stated_checkpointing: bool = True,
          coefficients: Mapping[str, float] | None = None,
          ) -> tuple[list[CheckedRow], list[tuple[int, str]]]:
    """Every kept row predicted, or left out with the reason (rows with an
    ``excluded_reason`` are neither: see ``excluded``)."""
    checked: list[CheckedRow] = []
    skipped: list[tuple[int, str]] = []
    for index, row in enumerate(rows):
        if (row.get("excluded_reason") or "").strip():
            continue
        part_id = next((pid for pattern, pid in GPUS if re.search(pattern, row["gpu"])), None)
        part = find(part_id) if part_id else None
        if part is None:
            skipped.append((index, f"{row['gpu']} is not in the catalog"))
            continue
        try:
            measured = float(row["tokens_per_s_per_gpu"])
        except (TypeError, ValueError):
            skipped.append((index, "no tokens/s per GPU stated"))
            continue
        predicted = predict(row, part, stated_checkpointing, coefficients=coefficients)
        if predicted is None:
            skipped.append((index, f"no {row.get('precision')} peak or method "
                                   f"{row['method']!r} for {part.display_name}"))
            continue
        label = (f"{row['model']}, {row['method']}, {row['gpu_count']}x {row['gpu']}"
                 f" ({row['framework']})")
        checked.append(CheckedRow(index, label, measured, predicted, source_of(row)))
    return checked, skipped


def share_within(checked: list[CheckedRow], tolerance: float = 0.25) -> tuple[int, int]:
    """How many rows the prediction meets within ``tolerance`` (of the measured), of all."""
    return sum(abs(c.error) <= tolerance for c in checked), len(checked)
