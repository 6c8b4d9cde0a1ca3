"""How long: training time from 6ND (8ND with recompute), decode speed ranges, prefill.

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
- Time = C / (GPUs x dense peak at the compute precision x utilisation). The workload's
  ``mfu`` is the share of the peak the kernels reach (see ``PUBLISHED_MFU``); applied to
  the hardware FLOPs above.
- Decode: one token reads every weight once (and the KV cache of each sequence), so
  tokens/s <= memory bandwidth / bytes read per step x batch (the ceiling); what serving
  stacks reach is a measured share of it (``SERVING_STACKS``), the achievable estimate.
  Compute caps it too: 2 N FLOPs per token (the "roofline", Williams et al. 2009,
  https://doi.org/10.1145/1498765.1498785).
- Prefill (the prompt) is compute-bound: 2 N FLOPs per prompt token at peak x MFU.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dlhw_desktop.core.workload.activation_memory import checkpointed_share
from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.model_state_memory import kv_cache_bytes, weights_bytes
from dlhw_desktop.core.workload.models import ModelSpec
from dlhw_desktop.core.workload.precision import bytes_per_param, weight_format
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


def training_flops(model: ModelSpec, tokens: float | None = None,
                   samples: float | None = None, *, lora: bool = False,
                   checkpointing: bool = False, recomputed: float = 1.0) -> float | None:
    """Compute to train on ``tokens`` (or ``samples`` for models that count images).

    Transformers: factor x N x D with N the active parameters and the factor of
    ``training_flop_factor`` (6ND, Kaplan et al. 2020; 8ND with full recomputation;
    4ND / 6ND for LoRA and QLoRA). Others: factor / 2 x forward FLOPs per sample x
    samples (the backward pass costs about twice the forward, the same argument).
    ``None`` when the data size or the per-sample cost is unknown.
    """
    factor = training_flop_factor(lora, checkpointing, recomputed)
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
    rule: str = "6ND"

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
                "rule": self.rule, "estimate": True}


def estimate_training_time(workload: Workload, peak_flops_per_gpu: float | None,
                           gpus: int) -> TrainingTime | None:
    """6ND / 8ND with recompute (4ND / 6ND for LoRA and QLoRA) over ``gpus`` at the
    workload's MFU; ``None`` when unknown."""
    lora = workload.mode in ("lora", "qlora")
    recomputed = checkpointed_share(workload)
    flops = training_flops(workload.model, workload.tokens, workload.samples,
                           lora=lora, checkpointing=workload.checkpointing,
                           recomputed=recomputed)
    if flops is None or peak_flops_per_gpu is None:
        return None
    seconds = training_seconds(flops, peak_flops_per_gpu, gpus, workload.mfu)
    return TrainingTime(flops, seconds, gpus, peak_flops_per_gpu, workload.mfu,
                        training_rule(lora, workload.checkpointing, recomputed))


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


@dataclass(frozen=True, slots=True)
class ServingStack:
    """A serving engine and what it is measured to reach of the bandwidth ceiling.

    One decode step of one sequence takes bytes read / (bandwidth x ``efficiency_*``)
    + layers x ``per_layer_s`` (kernel launches and synchronisation, which weigh on
    small models: ``None`` when the source lumps them into the efficiency).
    ``efficiency_16bit`` / ``efficiency_quantised``: the share of the peak bandwidth the
    weight reads reach, from the measurements in ``source`` (``None``: not measured for
    that kind of weights, the other figure is used and said so). ``multi_gpu``:
    ``"tensor"`` splits every matrix (the GPUs' bandwidths add up); ``"layer"`` gives each
    GPU whole layers, which run in turn, so one sequence decodes at one GPU's bandwidth
    whatever the count.
    """

    key: str
    name: str
    efficiency_16bit: float
    efficiency_quantised: float | None
    multi_gpu: str
    source: str
    per_layer_s: float | None = None

    def efficiency(self, quantised: bool) -> float:
        if quantised and self.efficiency_quantised is not None:
            return self.efficiency_quantised
        return self.efficiency_16bit


SERVING_STACKS: dict[str, ServingStack] = {
    s.key: s for s in (
        ServingStack(
            "llama.cpp", "llama.cpp", 0.91, 0.91, "layer",
            "https://github.com/XiongjieDai/GPU-Benchmarks-on-LLM-Inference (llama-bench "
            "tg512, May 2024). Fitted on two points: Llama 3 8B Q4_K_M (4.58 GiB) on one "
            "RTX 4090 (1,008 GB/s), 130.58 t/s = 7.66 ms a token, and 70B Q4_K_M "
            "(39.59 GiB, 80 layers) on two, 19.22 t/s = 52.0 ms (default layer split: the "
            "GPUs take turns): bytes / (bandwidth x 0.91) + 72 us per layer. Checked on "
            "seven more from the same table within 9 %: 8B F16 and Q4_K_M on a 3090, 4080 "
            "and 4090, 70B Q4_K_M on 2x3090, 4x and 8x 4090, 70B F16 on 6x3090",
            per_layer_s=72e-6),
        ServingStack(
            "vllm", "vLLM", 0.77, None, "tensor",
            "https://johnmusgrave.com/p/vllm-throughput-latency-sweep-on (vLLM 0.23, "
            "A100 40GB, Llama 3.1 8B BF16, one request: ~75 tok/s, 'roughly 77 % of the "
            "memory-bandwidth ceiling'); quantised kernels not measured there"),
        ServingStack(
            "tensorrt-llm", "TensorRT-LLM", 0.55, None, "tensor",
            "https://docs.nvidia.com/nemo-framework/user-guide/latest/performance/llama.html "
            "(TensorRT-LLM, Llama-2-7B, batch 1, 128 in / 20 out, TP 1): A100 80GB "
            "234.0 ms -> 13.5 GB x 20 / 0.234 s = 1.15 TB/s of 2.04 = 0.57; H100 80GB "
            "153.8 ms -> 1.75 TB/s of 3.35 = 0.52. The latency includes the prompt, so "
            "these are lower bounds; at TP 2 and 4 the same table gives 0.39 and 0.23 "
            "(a 7B model is latency-bound across GPUs)"),
    )
}
"""Where the achievable decode figure comes from, per serving stack."""

GGUF_FORMATS: frozenset[str] = frozenset(
    {"Q8_0", "Q6_K", "Q5_K_M", "Q5_K_S", "Q4_K_M", "Q4_K_S", "Q4_0", "Q3_K_M"})
"""Formats only llama.cpp (and its front ends) serve; the default stack for them."""


def serving_stack(workload: Workload) -> ServingStack:
    """The workload's stack: its own choice, else llama.cpp for GGUF formats, else vLLM."""
    if workload.serving:
        return SERVING_STACKS[workload.serving]
    return SERVING_STACKS["llama.cpp" if workload.base_format in GGUF_FORMATS else "vllm"]


def prefill_flops_per_token(model: ModelSpec, prompt_tokens: int) -> float:
    """Forward FLOPs per prompt token: 2N + 2 x layers x context x attention width.

    Kaplan et al. 2020, https://arxiv.org/abs/2001.08361 Table 1 (C_forward = 2N +
    2 n_layer n_ctx d_attn), with n_ctx the average causal context, prompt / 2.
    """
    flops = 2.0 * model.compute_params
    if model.has_architecture and model.head_dim_effective:
        assert model.layers is not None and model.heads is not None
        width = model.heads * model.head_dim_effective
        flops += 2.0 * model.layers * (prompt_tokens / 2.0) * width
    return flops


@dataclass(frozen=True, slots=True)
class InferenceThroughput:
    """Serving speed: the bandwidth ceiling, the achievable estimate, the compute cap.

    ``tokens_per_s`` (the estimate, for all ``batch`` sequences together) is the smaller
    of the achievable decode figure (ceiling x the stack's measured efficiency) and the
    compute bound x MFU. ``ceiling_tokens_per_s`` is what the memory bandwidth allows at
    best with the stack's multi-GPU mode; ``memory_bound_tokens_per_s`` the same for ideal
    tensor parallelism (every GPU's bandwidth at once). For models that do not generate
    (encoders, vision) the figure is input tokens per second and ``samples_per_s`` is
    filled. Every figure here is an estimate.
    """

    memory_bound_tokens_per_s: float | None
    compute_bound_tokens_per_s: float | None
    tokens_per_s: float | None
    bound: str
    batch: int
    bytes_per_step: float | None
    samples_per_s: float | None = None
    ceiling_tokens_per_s: float | None = None
    achievable_tokens_per_s: float | None = None
    stack: str | None = None
    efficiency: float | None = None
    prefill_tokens_per_s: float | None = None
    prompt_tokens: int | None = None
    notes: tuple[str, ...] = ()

    @property
    def per_sequence_tokens_per_s(self) -> float | None:
        return None if self.tokens_per_s is None else self.tokens_per_s / self.batch

    @property
    def range_tokens_per_s(self) -> tuple[float, float] | None:
        """(achievable, ceiling): what to expect, and what no software can beat."""
        if self.tokens_per_s is None or self.ceiling_tokens_per_s is None:
            return None
        return self.tokens_per_s, max(self.tokens_per_s, self.ceiling_tokens_per_s)

    @property
    def time_to_first_token_s(self) -> float | None:
        """The prompt of every sequence through the model at the prefill rate."""
        if not self.prefill_tokens_per_s or not self.prompt_tokens:
            return None
        return self.prompt_tokens * self.batch / self.prefill_tokens_per_s

    def seconds_for(self, tokens: float) -> float | None:
        """Time to generate (or read) ``tokens`` at the estimated rate."""
        if self.tokens_per_s is None or self.tokens_per_s <= 0:
            return None
        return tokens / self.tokens_per_s

    def describe(self) -> str:
        """One line for people: the range, its stack and that it is an estimate."""
        if self.tokens_per_s is None:
            return "speed unknown"
        if self.range_tokens_per_s is None or self.stack is None:
            return f"~{self.tokens_per_s:,.0f} tokens/s ({self.bound}-bound, estimate)"
        low, high = self.range_tokens_per_s
        return (f"{low:,.1f}-{high:,.1f} tokens/s (estimate: {self.stack} at "
                f"{self.efficiency:.0%} of the bandwidth ceiling {high:,.1f})"
                if self.bound == "memory" else
                f"~{low:,.1f} tokens/s ({self.bound}-bound estimate; bandwidth ceiling "
                f"{high:,.1f})")

    def to_dict(self) -> dict[str, Any]:
        return {"memory_bound_tokens_per_s": self.memory_bound_tokens_per_s,
                "compute_bound_tokens_per_s": self.compute_bound_tokens_per_s,
                "tokens_per_s": self.tokens_per_s, "bound": self.bound, "batch": self.batch,
                "per_sequence_tokens_per_s": self.per_sequence_tokens_per_s,
                "bytes_per_step": self.bytes_per_step, "samples_per_s": self.samples_per_s,
                "ceiling_tokens_per_s": self.ceiling_tokens_per_s,
                "achievable_tokens_per_s": self.achievable_tokens_per_s,
                "stack": self.stack, "efficiency": self.efficiency,
                "prefill_tokens_per_s": self.prefill_tokens_per_s,
                "time_to_first_token_s": self.time_to_first_token_s,
                "estimate": True, "notes": list(self.notes)}


def estimate_inference(workload: Workload, bandwidth_bytes_per_s: float | None,
                       peak_flops_per_gpu: float | None, gpus: int = 1) -> InferenceThroughput:
    """Decode and prefill speed of ``workload`` on ``gpus`` identical GPUs working as one.

    Bandwidth ceiling: batch x bandwidth / (weights read + KV cache read) per step, with
    the KV cache of the full sequence (the slowest, last step); the bandwidth is the sum
    over the GPUs for tensor-parallel stacks (vLLM, TensorRT-LLM) and one GPU's for
    llama.cpp's layer split. Achievable: the ceiling x the stack's measured efficiency
    (``SERVING_STACKS``). Compute: GPUs x peak / (2 x active params) tokens/s, x MFU.
    The estimate is the smaller of achievable and compute x MFU. Prefill is compute-bound
    (``prefill_flops_per_token``). Models that do not generate are bounded by compute
    only: 2 x N FLOPs per input token (transformers) or the published forward FLOPs per
    sample.
    """
    model, batch = workload.model, workload.batch
    compute_bound: float | None = None
    compute_estimate: float | None = None
    samples_per_s: float | None = None
    prefill: float | None = None
    if peak_flops_per_gpu:
        peak = peak_flops_per_gpu * gpus
        if model.is_transformer:
            compute_bound = peak / (2.0 * model.compute_params)
            compute_estimate = compute_bound * workload.mfu
            prefill = peak * workload.mfu / prefill_flops_per_token(model, workload.seq_len)
            if not model.autoregressive:
                samples_per_s = compute_estimate / workload.seq_len
        elif model.forward_flops_per_sample:
            samples_per_s = peak * workload.mfu / model.forward_flops_per_sample
    if not model.autoregressive:
        bound = "compute" if (compute_bound or samples_per_s) else "unknown"
        return InferenceThroughput(None, compute_bound, compute_estimate, bound, batch, None,
                                   samples_per_s)
    stack = serving_stack(workload)
    quantised = weight_format(workload.base_format).bits < 16
    efficiency: float | None = stack.efficiency(quantised)
    weights = moe_weight_bytes_read(model, batch, workload.base_format)
    kv = kv_cache_bytes(model, workload.seq_len, batch, workload.kv_precision)
    per_step = weights + (kv or 0.0)
    notes: list[str] = []
    memory_bound = ceiling = achievable = None
    if bandwidth_bytes_per_s:
        memory_bound = bandwidth_bytes_per_s * gpus * batch / per_step
        lanes = gpus if stack.multi_gpu == "tensor" else 1
        ceiling = bandwidth_bytes_per_s * lanes * batch / per_step
        assert efficiency is not None
        step_s = per_step / (bandwidth_bytes_per_s * lanes * efficiency)
        if stack.per_layer_s and model.layers:
            step_s += stack.per_layer_s * model.layers
        achievable = batch / step_s
        efficiency = achievable / ceiling  # what is reached of the ceiling, all told
        if gpus > 1 and stack.multi_gpu == "layer":
            notes.append(f"{stack.name} splits layers over the {gpus} GPUs: they take "
                         "turns, so one sequence decodes at one GPU's bandwidth")
        elif gpus > 1:
            notes.append(f"tensor parallel over {gpus} GPUs: communication lowers the "
                         "efficiency further, the more so for small models")
    if quantised and stack.efficiency_quantised is None:
        notes.append(f"{stack.name}'s efficiency was measured on 16-bit weights")
    candidates = [(v, name) for v, name in ((achievable, "memory"),
                                            (compute_estimate, "compute")) if v]
    if not candidates:
        return InferenceThroughput(memory_bound, compute_bound, None, "unknown", batch,
                                   per_step, None, ceiling, achievable, stack.name,
                                   efficiency, prefill, workload.seq_len, tuple(notes))
    value, name = min(candidates)
    return InferenceThroughput(memory_bound, compute_bound, value, name, batch, per_step,
                               None, ceiling, achievable, stack.name, efficiency, prefill,
                               workload.seq_len, tuple(notes))
