"""How long: training time from 6ND (8ND with recompute); decode and prefill are in
``inference`` (the decode step itself in ``decode_model``).

- Training compute C = 6 N D FLOPs: 2 N per token forward, 4 N backward (Kaplan et al.
  2020, "Scaling Laws for Neural Language Models", https://arxiv.org/abs/2001.08361
  section 2.1). For MoE, N is the *active* parameter count. LoRA/QLoRA skip the weight
  gradients of the frozen base (2 N of the 4 N backward), so 4 N D.
- Activation checkpointing (full recomputation) runs every forward pass twice: + 2 N D,
  so 8 N D for full training and 6 N D for LoRA/QLoRA. This is the compute the hardware
  performs ("hardware FLOPs", Chowdhery et al. 2022, PaLM, https://arxiv.org/abs/2204.02311
  appendix B: 57.8 % HFU against 46.2 % MFU with rematerialisation; Korthikanti et al.
  2022, https://arxiv.org/abs/2205.05198 section 5, "the 33 % overhead of full
  recomputation").
- Time = C / (GPUs x dense peak at the compute precision x utilisation). The utilisation
  is the user's MFU when they set one, else ``training_mfu``'s model fitted on published
  multi-GPU runs (GPU peak, model size, adapters, FP8, fused attention); applied to the
  hardware FLOPs above.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dlhw_desktop.core.workload.activation_memory import checkpointed_share
from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.model_state_memory import weights_bytes
from dlhw_desktop.core.workload.models import ModelSpec
from dlhw_desktop.core.workload.precision import bytes_per_param
from dlhw_desktop.core.workload.scaling import Link, step_time, working
from dlhw_desktop.core.workload.training_mfu import training_mfu
from dlhw_desktop.core.workload.workload import (
    DEFAULT_MFU,
    Parallelism,
    Workload,
    default_parallelism,
)

SECONDS_PER_HOUR = 3600.0
SECONDS_PER_DAY = 86400.0


@dataclass(frozen=True, slots=True)
class PublishedRun:
    """A training run whose MFU was reported (or follows from reported figures)."""

    name: str
    hardware: str
    mfu: float
    source: str


PUBLISHED_MFU: tuple[PublishedRun, ...] = (
    PublishedRun("PaLM 540B", "6,144 TPU v4", 0.462,
                 "Chowdhery et al. 2022, https://arxiv.org/abs/2204.02311 Table 3"),
    PublishedRun("Llama 3 405B, 8K context", "8,192 H100", 0.43,
                 "Grattafiori et al. 2024, https://arxiv.org/abs/2407.21783 Table 4"),
    PublishedRun("Llama 3 405B, 8K context", "16,384 H100", 0.41,
                 "Grattafiori et al. 2024, https://arxiv.org/abs/2407.21783 Table 4"),
    PublishedRun("Llama 3 405B, 128K context", "16,384 H100", 0.38,
                 "Grattafiori et al. 2024, https://arxiv.org/abs/2407.21783 Table 4"),
    PublishedRun("MPT-7B (derived)", "440 A100-40GB", 0.36,
                 "https://www.databricks.com/blog/mpt-7b: 1T tokens in 9.5 days; "
                 "6 x 6.7e9 x 1e12 / (440 x 312e12 x 9.5 days) = 0.36"),
)
"""Where the default MFU and its range come from."""

MFU_RANGE: tuple[float, float] = (0.30, 0.50)
"""What well-tuned large runs reach (table above); small jobs on one GPU often sit lower."""


TRAINING_FLOP_RULES: dict[tuple[str, bool], float] = {
    ("training", False): 6.0, ("training", True): 8.0,
    ("lora", False): 4.0, ("lora", True): 6.0,
}
"""FLOPs per active parameter per token: (full or adapter training, checkpointing) ->
factor. Full: 2 forward + 4 backward (+ 2 forward again with recompute); LoRA/QLoRA:
2 forward + 2 backward for the activation gradients only (+ 2 with recompute)."""


def training_flop_factor(lora: bool = False, checkpointing: bool = False,
                         recomputed: float = 1.0) -> float:
    """6, 8 (full training, with recompute), 4 or 6 (LoRA/QLoRA, with recompute); with
    only a share ``recomputed`` of the layers checkpointed, + 2 x that share."""
    base = TRAINING_FLOP_RULES[("lora" if lora else "training", False)]
    return base + 2.0 * recomputed if checkpointing else base


def training_rule(lora: bool = False, checkpointing: bool = False,
                  recomputed: float = 1.0) -> str:
    """The rule as the user reads it: ``8ND (6ND + forward recompute)``."""
    factor = training_flop_factor(lora, checkpointing, recomputed)
    base = "4ND, frozen base" if lora else "6ND"
    if not checkpointing:
        return f"{factor:g}ND" + (", frozen base" if lora else "")
    share = "" if recomputed >= 1.0 else f" of {recomputed:.0%} of the layers"
    return f"{factor:g}ND ({base} + forward recompute{share})"


def attention_params(model: ModelSpec, seq: int | None) -> float:
    """The attention scores and their weighted sum as parameter-equivalents per token:
    2 x layers x (heads x head dim) x sequence, so that factor x (N + this) gives PaLM's
    6N + 12 L H Q T (Chowdhery et al. 2022, https://arxiv.org/abs/2204.02311 appendix B).
    0 when the architecture or the sequence length is unknown."""
    if not seq or not model.layers or not model.hidden:
        return 0.0
    width = (model.heads or 0) * (model.head_dim_effective or 0) or model.hidden
    return 2.0 * model.layers * width * seq


def training_flops(model: ModelSpec, tokens: float | None = None,
                   samples: float | None = None, *, lora: bool = False,
                   checkpointing: bool = False, recomputed: float = 1.0,
                   seq: int | None = None) -> float | None:
    """Compute to train on ``tokens`` (or ``samples`` for models that count images).

    Transformers: factor x N x D with N the active parameters and the factor of
    ``training_flop_factor`` (6ND, Kaplan et al. 2020; 8ND with full recomputation;
    4ND / 6ND for LoRA and QLoRA), N plus the attention's ``attention_params`` at
    ``seq`` tokens a sequence when given. Others: factor / 2 x forward FLOPs per sample x
    samples (the backward pass costs about twice the forward, the same argument).
    ``None`` when the data size or the per-sample cost is unknown.
    """
    factor = training_flop_factor(lora, checkpointing, recomputed)
    if model.is_transformer:
        if tokens is None and samples is not None and model.tokens_per_sample:
            tokens = samples * model.tokens_per_sample
        per_token = model.compute_params + attention_params(model, seq)
        return None if tokens is None else factor * per_token * tokens
    if samples is None or model.forward_flops_per_sample is None:
        return None
    return factor / 2.0 * model.forward_flops_per_sample * samples


def training_seconds(flops: float, peak_flops_per_gpu: float, gpus: int,
                     mfu: float = DEFAULT_MFU) -> float:
    """Wall time = compute / (GPUs x peak x MFU)."""
    if peak_flops_per_gpu <= 0 or gpus < 1 or not 0 < mfu <= 1:
        raise InvalidWorkloadError("peak, GPU count and MFU must be positive")
    return flops / (gpus * peak_flops_per_gpu * mfu)


@dataclass(frozen=True, slots=True)
class TrainingTime:
    """The time estimate of one training run."""

    flops: float
    seconds: float
    gpus: int
    peak_flops_per_gpu: float
    mfu: float
    rule: str = "6ND"
    compute_seconds: float | None = None
    """The compute alone (``seconds`` adds the exposed exchange between GPUs)."""
    scaling: str = ""
    """How the GPUs share the job and what their exchange adds (``scaling``)."""
    mfu_basis: str = ""
    """Where ``mfu`` comes from (``training_mfu``): the fit and its measured error, or
    the user's own."""

    @property
    def hours(self) -> float:
        return self.seconds / SECONDS_PER_HOUR

    @property
    def days(self) -> float:
        return self.seconds / SECONDS_PER_DAY

    @property
    def gpu_hours(self) -> float:
        return self.hours * self.gpus

    def to_dict(self) -> dict[str, Any]:
        return {"flops": self.flops, "seconds": self.seconds, "hours": self.hours,
                "days": self.days, "gpu_hours": self.gpu_hours, "gpus": self.gpus,
                "peak_flops_per_gpu": self.peak_flops_per_gpu, "mfu": self.mfu,
                "rule": self.rule, "estimate": True,
                "compute_seconds": self.compute_seconds, "scaling": self.scaling,
                "mfu_basis": self.mfu_basis}


def estimate_training_time(workload: Workload, peak_flops_per_gpu: float | None,
                           gpus: int, parallel: Parallelism | None = None,
                           link: Link | None = None) -> TrainingTime | None:
    """6ND / 8ND with recompute (4ND / 6ND for LoRA and QLoRA) over ``gpus`` at the
    workload's MFU, plus the exchange between the GPUs that ``parallel`` needs over
    ``link`` (``scaling.step_time``); ``None`` when unknown."""
    lora = workload.mode in ("lora", "qlora")
    recomputed = checkpointed_share(workload)
    flops = training_flops(workload.model, workload.tokens, workload.samples,
                           lora=lora, checkpointing=workload.checkpointing,
                           recomputed=recomputed,
                           seq=workload.seq_len if workload.model.autoregressive else None)
    if flops is None or peak_flops_per_gpu is None:
        return None
    layout = parallel or default_parallelism(workload.mode, gpus)
    busy = working(workload, layout) if layout.gpus == gpus else gpus
    mfu, basis = training_mfu(workload, peak_flops_per_gpu)
    seconds = training_seconds(flops, peak_flops_per_gpu, busy, mfu)
    tokens = workload.dataset_tokens
    note = ""
    total = seconds
    if gpus > 1 and tokens:
        step = step_time(workload, layout, seconds, tokens, link)
        total, note = step.total_s, step.note
    return TrainingTime(flops, total, gpus, peak_flops_per_gpu, mfu,
                        training_rule(lora, workload.checkpointing, recomputed),
                        seconds, note, basis)


def moe_weight_bytes_read(model: ModelSpec, batch: int, fmt: str) -> float:
    """Weight bytes one decode step reads.

    Dense models read every weight (``model_state_memory.weights_bytes``, with 16-bit
    embeddings where the format keeps them). An MoE layer reads only the experts its
    tokens are routed to: with E experts, k per token and uniform routing, the expected
    share of experts touched by a batch of b tokens is 1 - (1 - k/E)^b. The expert
    parameters are (total - active) x E / (E - k); the rest (attention, shared experts,
    embeddings) is always read.
    """
    total = weights_bytes(model, fmt)
    if not model.is_moe or not model.experts or not model.experts_per_token:
        return total
    e, k = model.experts, model.experts_per_token
    if e <= k:
        return total
    expert_total = (model.params - model.compute_params) * e / (e - k)
    expert_total = min(expert_total, model.params)
    expert_bytes = expert_total * bytes_per_param(fmt)
    touched = 1.0 - (1.0 - k / e) ** batch
    return total - expert_bytes + expert_bytes * touched
