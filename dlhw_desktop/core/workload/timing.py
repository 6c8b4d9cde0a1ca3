"""How long: training time from 6ND, inference throughput bounds, time for a dataset.

- Training compute C = 6 N D FLOPs: 2 N per token forward, 4 N backward (Kaplan et al.
  2020, "Scaling Laws for Neural Language Models", https://arxiv.org/abs/2001.08361
  section 2.1). For MoE, N is the *active* parameter count. LoRA/QLoRA skip the weight
  gradients of the frozen base (2 N of the 4 N backward), so 4 N D.
- Time = C / (GPUs x dense peak at the compute precision x MFU). MFU (model FLOPs
  utilisation, Chowdhery et al. 2022 appendix B) is what real runs reach of the peak;
  see ``PUBLISHED_MFU``.
- Decoding one token reads every weight once (and the KV cache of each sequence), so
  tokens/s <= memory bandwidth / bytes read per step x batch; and it costs 2 N FLOPs, so
  tokens/s <= peak / (2 N). The smaller bound wins (the "roofline", Williams et al. 2009,
  https://doi.org/10.1145/1498765.1498785).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.memory import kv_cache_bytes
from dlhw_desktop.core.workload.models import ModelSpec
from dlhw_desktop.core.workload.precision import bytes_per_param
from dlhw_desktop.core.workload.workload import DEFAULT_MFU, Workload

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


def training_flops(model: ModelSpec, tokens: float | None = None,
                   samples: float | None = None, *, lora: bool = False) -> float | None:
    """Compute to train on ``tokens`` (or ``samples`` for models that count images).

    Transformers: 6 x N x D with N the active parameters (Kaplan et al. 2020), 4 x N x D for
    LoRA/QLoRA (no weight gradients for the frozen base). Others: 3 x forward FLOPs per
    sample x samples (the backward pass costs about twice the forward, the same argument).
    ``None`` when the data size or the per-sample cost is unknown.
    """
    factor = 4.0 if lora else 6.0
    if model.is_transformer:
        if tokens is None and samples is not None and model.tokens_per_sample:
            tokens = samples * model.tokens_per_sample
        return None if tokens is None else factor * model.compute_params * tokens
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
                "peak_flops_per_gpu": self.peak_flops_per_gpu, "mfu": self.mfu}


def estimate_training_time(workload: Workload, peak_flops_per_gpu: float | None,
                           gpus: int) -> TrainingTime | None:
    """6ND (or 4ND for LoRA) over ``gpus`` at the workload's MFU; ``None`` when unknown."""
    flops = training_flops(workload.model, workload.tokens, workload.samples,
                           lora=workload.mode in ("lora", "qlora"))
    if flops is None or peak_flops_per_gpu is None:
        return None
    seconds = training_seconds(flops, peak_flops_per_gpu, gpus, workload.mfu)
    return TrainingTime(flops, seconds, gpus, peak_flops_per_gpu, workload.mfu)


def moe_weight_bytes_read(model: ModelSpec, batch: int, fmt: str) -> float:
    """Weight bytes one decode step reads.

    Dense models read every weight. An MoE layer reads only the experts its tokens are
    routed to: with E experts, k per token and uniform routing, the expected share of
    experts touched by a batch of b tokens is 1 - (1 - k/E)^b. The expert parameters are
    (total - active) x E / (E - k); the rest (attention, embeddings) is always read.
    """
    if not model.is_moe or not model.experts or not model.experts_per_token:
        return model.params * bytes_per_param(fmt)
    e, k = model.experts, model.experts_per_token
    expert_total = (model.params - model.compute_params) * e / (e - k)
    shared = model.params - expert_total
    touched = 1.0 - (1.0 - k / e) ** batch
    return (shared + expert_total * touched) * bytes_per_param(fmt)


@dataclass(frozen=True, slots=True)
class InferenceThroughput:
    """Upper bounds on serving speed and the estimate between them.

    ``tokens_per_s`` is for all sequences together (``batch`` of them); for models that do
    not generate (encoders, vision) the figure is input tokens per second and
    ``samples_per_s`` is filled.
    """

    memory_bound_tokens_per_s: float | None
    compute_bound_tokens_per_s: float | None
    tokens_per_s: float | None
    bound: str
    batch: int
    bytes_per_step: float | None
    samples_per_s: float | None = None

    @property
    def per_sequence_tokens_per_s(self) -> float | None:
        return None if self.tokens_per_s is None else self.tokens_per_s / self.batch

    def seconds_for(self, tokens: float) -> float | None:
        """Time to generate (or read) ``tokens`` at the estimated rate."""
        if self.tokens_per_s is None or self.tokens_per_s <= 0:
            return None
        return tokens / self.tokens_per_s

    def to_dict(self) -> dict[str, Any]:
        return {"memory_bound_tokens_per_s": self.memory_bound_tokens_per_s,
                "compute_bound_tokens_per_s": self.compute_bound_tokens_per_s,
                "tokens_per_s": self.tokens_per_s, "bound": self.bound, "batch": self.batch,
                "per_sequence_tokens_per_s": self.per_sequence_tokens_per_s,
                "bytes_per_step": self.bytes_per_step, "samples_per_s": self.samples_per_s}


def estimate_inference(workload: Workload, bandwidth_bytes_per_s: float | None,
                       peak_flops_per_gpu: float | None, gpus: int = 1) -> InferenceThroughput:
    """Decode throughput of ``workload`` on ``gpus`` identical GPUs working as one.

    Two upper bounds: memory, batch x GPUs x bandwidth / (weights read + KV cache read)
    per step, with the KV cache of the full sequence (the slowest, last step); compute,
    GPUs x peak / (2 x active params) tokens/s. The estimate is the smaller of the memory
    bound and the compute bound x MFU (no kernel reaches the tensor peak). Tensor
    parallelism is taken as ideal (no communication cost), so all three are optimistic.
    Models that do not generate are bounded by compute only: 2 x N FLOPs per input token
    (transformers) or the published forward FLOPs per sample.
    """
    model, batch = workload.model, workload.batch
    compute_bound: float | None = None
    compute_estimate: float | None = None
    samples_per_s: float | None = None
    if peak_flops_per_gpu:
        peak = peak_flops_per_gpu * gpus
        if model.is_transformer:
            compute_bound = peak / (2.0 * model.compute_params)
            compute_estimate = compute_bound * workload.mfu
            if not model.autoregressive:
                samples_per_s = compute_estimate / workload.seq_len
        elif model.forward_flops_per_sample:
            samples_per_s = peak * workload.mfu / model.forward_flops_per_sample
    if not model.autoregressive:
        bound = "compute" if (compute_bound or samples_per_s) else "unknown"
        return InferenceThroughput(None, compute_bound, compute_estimate, bound, batch, None,
                                   samples_per_s)
    weights = moe_weight_bytes_read(model, batch, workload.base_format)
    kv = kv_cache_bytes(model, workload.seq_len, batch, workload.kv_precision)
    per_step = weights + (kv or 0.0)
    memory_bound = (bandwidth_bytes_per_s * gpus * batch / per_step
                    if bandwidth_bytes_per_s else None)
    candidates = [(v, name) for v, name in ((memory_bound, "memory"),
                                            (compute_estimate, "compute")) if v]
    if not candidates:
        return InferenceThroughput(None, None, None, "unknown", batch, per_step)
    value, name = min(candidates)
    return InferenceThroughput(memory_bound, compute_bound, value, name, batch, per_step)
