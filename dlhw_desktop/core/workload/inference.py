"""How fast a model serves: decode speed (one number, from ``decode_model``), prefill.

- Decode: one step reads every weight once and each sequence's KV cache; its time is
  ``decode_model.step_time``: bytes over bandwidth at the share the stack reaches, plus
  the fixed costs per layer and per GPU, calibrated on 172 measured llama.cpp speeds
  (``decode_coefficients``). The estimate is that one figure, labelled with what it was
  fitted on and its leave-one-GPU-out error; the bandwidth ceiling (every byte at full
  speed, nothing else) is shown beside it as what no software can beat.
- Compute caps it at large batches: 2 N FLOPs per token at peak x MFU (the roofline,
  Williams et al. 2009, https://doi.org/10.1145/1498765.1498785).
- Prefill (the prompt) is compute-bound: ``prefill_flops_per_token`` at peak x MFU.
- The KV cache read is the one at the mean context of a request: its prompt plus half its
  output (``request_lengths`` splits a sequence length when the request is not given).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dlhw_desktop.core.formatting import rate
from dlhw_desktop.core.workload.decode_model import (
    STACK_NAMES,
    GpuGroup,
    Layout,
    ceiling_tokens_per_s,
    decode_flops_per_token,
    decode_weight_bytes,
    describe_basis,
    kv_read_bytes,
    step_time,
)
from dlhw_desktop.core.workload.models import ModelSpec
from dlhw_desktop.core.workload.workload import Parallelism, Workload


@dataclass(frozen=True, slots=True)
class ServingStack:
    """A serving engine: how it spreads a model over GPUs and how it holds KV caches.

    ``multi_gpu``: ``"tensor"`` splits every matrix (bandwidths add, all-reduces per
    layer); ``"layer"`` gives each GPU whole layers that run in turn. The KV budget is
    ``memory_fraction`` of the GPU's memory (``fraction_of`` ``"total"``, vLLM's
    gpu_memory_utilization) or of what the weights leave (``"free"``, TensorRT-LLM's
    kv_cache_free_gpu_mem_fraction; llama.cpp allocates its context up front).
    ``reserves``: ``"full"`` keeps room for a request's whole length from its admission
    (TensorRT-LLM's GUARANTEED_NO_EVICT scheduler, llama.cpp's fixed slots); ``"mean"``
    pages the cache as it grows (vLLM's PagedAttention, preempting when full), so on
    average a request holds its prompt plus half its output. ``block_tokens``: the page.
    """

    key: str
    name: str
    multi_gpu: str
    memory_fraction: float
    fraction_of: str
    reserves: str
    block_tokens: int
    max_batch: int | None
    source: str


SERVING_STACKS: dict[str, ServingStack] = {
    s.key: s for s in (
        ServingStack("llama.cpp", "llama.cpp", "layer", 0.95, "free", "full", 1, None,
                     "llama-server allocates its context (n_ctx over the -np slots) when "
                     "it starts; 5 % of the free memory left for compute buffers"),
        ServingStack("vllm", "vLLM", "tensor", 0.90, "total", "mean", 16, 256,
                     "vLLM EngineArgs: gpu_memory_utilization 0.9, block_size 16, "
                     "max_num_seqs 256; Kwon et al. 2023, PagedAttention, "
                     "https://arxiv.org/abs/2309.06180"),
        ServingStack("tensorrt-llm", "TensorRT-LLM", "tensor", 0.90, "free", "full", 32,
                     2048, "TensorRT-LLM KvCacheConfig free_gpu_memory_fraction 0.9, "
                     "tokens_per_block 32, max_batch_size 2048, capacity scheduler "
                     "GUARANTEED_NO_EVICT (its defaults)"),
    )
}
"""How each stack holds its KV caches and spreads a model over GPUs."""

GGUF_FORMATS: frozenset[str] = frozenset(
    {"Q8_0", "Q6_K", "Q5_K_M", "Q5_K_S", "Q4_K_M", "Q4_K_S", "Q4_0", "Q3_K_M", "Q4_1",
     "Q5_0", "Q5_1", "Q3_K_S", "Q2_K"})
"""Formats only llama.cpp (and its front ends) serve; the default stack for them."""

DEFAULT_OUTPUT_TOKENS = 512
"""Output tokens assumed when a request does not say (a long chat answer)."""


def serving_stack(workload: Workload) -> ServingStack:
    """The workload's stack: its own choice, else llama.cpp for GGUF formats, else vLLM."""
    if workload.serving:
        return SERVING_STACKS[workload.serving]
    return SERVING_STACKS["llama.cpp" if workload.base_format in GGUF_FORMATS else "vllm"]


def request_lengths(seq_len: int, input_tokens: int | None = None,
                    output_tokens: int | None = None) -> tuple[int, int]:
    """(input, output) tokens of a request; a sequence length alone is split into
    ``DEFAULT_OUTPUT_TOKENS`` of output (at most half of it) and the rest as prompt."""
    if input_tokens is not None and output_tokens is not None:
        return input_tokens, output_tokens
    if output_tokens is None:
        total = seq_len if input_tokens is None else input_tokens + DEFAULT_OUTPUT_TOKENS
        output_tokens = max(1, min(DEFAULT_OUTPUT_TOKENS, total // 2))
    if input_tokens is None:
        input_tokens = max(1, seq_len - output_tokens)
    return input_tokens, output_tokens


def prefill_flops_per_token(model: ModelSpec, prompt_tokens: int) -> float:
    """Forward FLOPs per prompt token: 2N + 2 x layers x context x attention width.

    Kaplan et al. 2020, https://arxiv.org/abs/2001.08361 Table 1 (C_forward = 2N +
    2 n_layer n_ctx d_attn), with n_ctx the average causal context, prompt / 2.
    """
    return decode_flops_per_token(model, prompt_tokens / 2.0)


def layout_for(stack: ServingStack, parallel: Parallelism | None, gpus: int) -> Layout:
    """One copy of the model on the GPUs: replicas under ``ddp``, else all GPUs in one
    copy, split by layer (llama.cpp) or tensor parallel."""
    if parallel is not None and parallel.strategy == "ddp" and gpus > 1:
        return Layout(replicas=gpus)
    if stack.multi_gpu == "layer":
        return Layout(stages=gpus)
    return Layout(tensor=gpus)


@dataclass(frozen=True, slots=True)
class InferenceThroughput:
    """Serving speed: the estimate, its basis, the bandwidth ceiling and the compute cap.

    ``tokens_per_s`` (the estimate, for all ``batch`` sequences together) follows
    ``decode_model.step_time``; ``basis`` says what it was fitted on and how well it holds.
    ``ceiling_tokens_per_s`` is what the memory bandwidth allows at best with the stack's
    multi-GPU mode; ``memory_bound_tokens_per_s`` the same for ideal tensor parallelism.
    For models that do not generate (encoders, vision) the figure is input tokens per
    second and ``samples_per_s`` is filled. Every figure here is an estimate.
    """

    memory_bound_tokens_per_s: float | None
    compute_bound_tokens_per_s: float | None
    tokens_per_s: float | None
    bound: str
    batch: int
    bytes_per_step: float | None
    samples_per_s: float | None = None
    ceiling_tokens_per_s: float | None = None
    stack: str | None = None
    efficiency: float | None = None
    """The estimate's share of the bandwidth ceiling, all costs told."""
    prefill_tokens_per_s: float | None = None
    prompt_tokens: int | None = None
    notes: tuple[str, ...] = ()
    basis: str = "estimate"

    @property
    def per_sequence_tokens_per_s(self) -> float | None:
        return None if self.tokens_per_s is None else self.tokens_per_s / self.batch

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
        """One line for people: the one number, its basis, the ceiling."""
        if self.tokens_per_s is None:
            return "speed unknown"
        text = f"{rate(self.tokens_per_s)} tokens/s {self.basis}"
        if self.ceiling_tokens_per_s is not None:
            text += (f", {self.bound}-bound; bandwidth ceiling "
                     f"{rate(self.ceiling_tokens_per_s)}")
        return text

    def to_dict(self) -> dict[str, Any]:
        return {"memory_bound_tokens_per_s": self.memory_bound_tokens_per_s,
                "compute_bound_tokens_per_s": self.compute_bound_tokens_per_s,
                "tokens_per_s": self.tokens_per_s, "bound": self.bound, "batch": self.batch,
                "per_sequence_tokens_per_s": self.per_sequence_tokens_per_s,
                "bytes_per_step": self.bytes_per_step, "samples_per_s": self.samples_per_s,
                "ceiling_tokens_per_s": self.ceiling_tokens_per_s,
                "stack": self.stack, "efficiency": self.efficiency,
                "prefill_tokens_per_s": self.prefill_tokens_per_s,
                "time_to_first_token_s": self.time_to_first_token_s,
                "basis": self.basis, "estimate": True, "notes": list(self.notes)}


def estimate_inference(workload: Workload, bandwidth_bytes_per_s: float | None,
                       peak_flops_per_gpu: float | None, gpus: int = 1, *,
                       memory_class: str = "gddr", backend: str = "cuda",
                       link_bandwidth: float | None = None,
                       parallel: Parallelism | None = None) -> InferenceThroughput:
    """Decode and prefill speed of ``workload`` on ``gpus`` identical GPUs.

    The decode estimate is ``decode_model.step_time`` for ``workload.batch`` sequences at
    the mean context of a request (``request_lengths`` of the sequence length), on the
    layout the stack uses (``layout_for``). Prefill is compute-bound
    (``prefill_flops_per_token``). Models that do not generate are bounded by compute
    only: 2 x N FLOPs per input token (transformers) or the published forward FLOPs per
    sample. ``memory_class`` and ``backend`` pick the fitted coefficients
    (``decode_model.memory_class``, ``llama_cpp_backend``).
    """
    model, batch = workload.model, workload.batch
    compute_bound: float | None = None
    samples_per_s: float | None = None
    prefill: float | None = None
    if peak_flops_per_gpu:
        peak = peak_flops_per_gpu * gpus
        if model.is_transformer:
            compute_bound = peak / (2.0 * model.compute_params)
            prefill = peak * workload.mfu / prefill_flops_per_token(model, workload.seq_len)
            if not model.autoregressive:
                samples_per_s = compute_bound * workload.mfu / workload.seq_len
        elif model.forward_flops_per_sample:
            samples_per_s = peak * workload.mfu / model.forward_flops_per_sample
    if not model.autoregressive:
        bound = "compute" if (compute_bound or samples_per_s) else "unknown"
        value = None if compute_bound is None else compute_bound * workload.mfu
        return InferenceThroughput(None, compute_bound, value, bound, batch, None,
                                   samples_per_s)
    stack = serving_stack(workload)
    layout = layout_for(stack, parallel, gpus)
    prompt, output = request_lengths(workload.seq_len)
    context = prompt + output / 2.0
    per_copy = -(-batch // layout.replicas)
    weights = decode_weight_bytes(model, workload.base_format, per_copy)
    kv = kv_read_bytes(model, context, workload.kv_precision)
    per_step = weights + kv * per_copy
    notes: list[str] = []
    basis = describe_basis(stack.key)
    if not bandwidth_bytes_per_s:
        value = None if compute_bound is None else compute_bound * workload.mfu
        return InferenceThroughput(None, compute_bound, value,
                                   "compute" if value else "unknown", batch, per_step,
                                   None, None, stack.name, None, prefill, workload.seq_len,
                                   (), basis)
    group = GpuGroup(layout.gpus_per_copy, bandwidth_bytes_per_s, peak_flops_per_gpu,
                     memory_class, backend, link_bandwidth)
    step = step_time(stack.key, group, layout, weight_bytes=weights, kv_bytes_per_seq=kv,
                     flops_per_token=decode_flops_per_token(model, context),
                     batch=per_copy, layers=model.layers, hidden=model.hidden,
                     mfu=workload.mfu)
    busy = batch / per_copy  # copies at work (fewer than the replicas for a small batch)
    tokens = step.tokens_per_s * busy
    ceiling = ceiling_tokens_per_s(group, layout, weights, kv, per_copy) * busy
    memory_bound = bandwidth_bytes_per_s * gpus * batch / per_step
    if gpus > 1 and layout.stages > 1:
        notes.append(f"{stack.name} splits layers over the {gpus} GPUs: they take turns, "
                     "so one sequence decodes at one GPU's bandwidth")
    elif gpus > 1 and layout.tensor > 1:
        notes.append(f"tensor parallel over {gpus} GPUs: their bandwidths add; every layer "
                     "waits for two all-reduces")
    elif gpus > 1:
        notes.append(f"{gpus} replicas, each serving its share of the {batch} sequences")
    return InferenceThroughput(memory_bound, compute_bound, tokens, step.bound, batch,
                               per_step, None, ceiling, STACK_NAMES[stack.key],
                               tokens / ceiling if ceiling else None, prefill,
                               workload.seq_len, tuple(notes), basis)
