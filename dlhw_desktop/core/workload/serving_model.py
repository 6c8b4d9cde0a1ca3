"""The arithmetic of ``serving``: one copy of a model on its GPUs, and one load point.

``copy_for`` works out once what does not depend on the number of users (the KV budget,
what one request holds and reads, one prompt's compute); ``point`` is then a handful of
operations for any concurrency, so a chart or a bisection costs microseconds per point.
See ``serving`` for the model and its sources.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.activation_memory import inference_activation_bytes
from dlhw_desktop.core.workload.decode_model import (
    GpuGroup,
    Layout,
    decode_flops_per_token,
    decode_weight_bytes,
    describe_basis,
    kv_read_bytes,
    link_bandwidth,
    llama_cpp_backend,
    memory_class,
    step_time,
)
from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.inference import (
    ServingStack,
    layout_for,
    prefill_flops_per_token,
    request_lengths,
    serving_stack,
)
from dlhw_desktop.core.workload.memory import FRAMEWORK_OVERHEAD_BYTES, GiB
from dlhw_desktop.core.workload.model_state_memory import kv_cache_bytes, weights_bytes
from dlhw_desktop.core.workload.precision import peak_flops
from dlhw_desktop.core.workload.workload import Parallelism, Workload

PREFILL_CHUNK_TOKENS = 8192
"""Prompt tokens computed in one step at most (TensorRT-LLM's max_num_tokens, vLLM's
max_num_batched_tokens for offline runs): the activations reserved for a prefill."""


@dataclass(frozen=True, slots=True)
class Copy:
    """One copy of the model on its GPUs (``layout.replicas`` of them serve together)."""

    stack: ServingStack
    workload: Workload
    group: GpuGroup
    layout: Layout
    input_tokens: int
    output_tokens: int
    vram_per_gpu: float
    kv_budget_per_gpu: float
    kv_bytes_per_seq_held: float
    """What one request holds of the KV budget, per GPU."""
    kv_read_per_seq: float
    """What one request's decode step reads of its KV cache (whole model, mean context)."""
    flops_per_token: float
    prefill_s: float | None
    """One prompt through the copy at peak x MFU (``None``: the tensor rate is unknown)."""
    basis: str


@dataclass(frozen=True, slots=True)
class ServingPoint:
    """The copies' answer at ``concurrency`` users (``running`` of them in the batch)."""

    concurrency: float
    running: float
    aggregate_tokens_per_s: float
    per_user_tokens_per_s: float
    ttft_s: float | None
    bound: str
    queued: bool

    def to_dict(self) -> dict[str, Any]:
        return {"concurrency": self.concurrency, "running": self.running,
                "aggregate_output_tokens_per_s": self.aggregate_tokens_per_s,
                "per_user_tokens_per_s": self.per_user_tokens_per_s,
                "time_to_first_token_s": self.ttft_s, "bound": self.bound,
                "queued": self.queued}


def copy_for(workload: Workload, kinds: Sequence[Part], gpus: int,
             parallel: Parallelism | None, input_tokens: int | None = None,
             output_tokens: int | None = None, *, layout: Layout | None = None) -> Copy:
    """The copy of ``workload`` on ``gpus`` GPUs of ``kinds`` (the slowest and smallest
    figure of mixed GPUs counts). Raises ``InvalidWorkloadError`` when the model, the
    GPUs or the request cannot be estimated."""
    model = workload.model
    if not model.autoregressive:
        raise InvalidWorkloadError(f"{model.name} does not generate tokens: no serving "
                                   "capacity to estimate")
    stack = serving_stack(workload)
    layout = layout or layout_for(stack, parallel, gpus)
    prompt, output = request_lengths(workload.seq_len, input_tokens, output_tokens)
    if model.context and prompt + output > model.context:
        raise InvalidWorkloadError(
            f"{prompt:,} input + {output:,} output tokens exceed {model.name}'s context "
            f"of {model.context:,} tokens")
    bandwidth = _least(kinds, lambda p: p.number("memory_bandwidth_gb_s"), 1e9)
    vram = _least(kinds, lambda p: p.number("memory_gb"), GiB)
    if bandwidth is None or vram is None:
        raise InvalidWorkloadError("the GPUs' memory size or bandwidth is not in the "
                                   "catalog: no serving estimate")
    peak = _least(kinds, lambda p: peak_flops(p, workload.compute), 1.0)
    group = GpuGroup(layout.gpus_per_copy, bandwidth, peak,
                     memory_class(kinds[0].text("memory_type")),
                     llama_cpp_backend(kinds[0].vendor), _least(kinds, link_bandwidth, 1.0))
    held_tokens = prompt + output if stack.reserves == "full" else prompt + output / 2.0
    held_tokens = math.ceil(held_tokens / stack.block_tokens) * stack.block_tokens
    kv_held = kv_cache_bytes(model, held_tokens, 1, workload.kv_precision, layout.tensor)
    if kv_held is None:
        raise InvalidWorkloadError("the KV cache of this model is unknown (give its layers, "
                                   "hidden size and heads): no serving estimate")
    kv_held /= layout.stages
    context = prompt + output / 2.0
    prefill: float | None = None
    if peak:
        prefill = (prompt * prefill_flops_per_token(model, prompt)
                   / (layout.gpus_per_copy * peak * workload.mfu))
    return Copy(stack, workload, group, layout, prompt, output, vram,
                _kv_budget(stack, workload, layout, vram, prompt), kv_held,
                kv_read_bytes(model, context, workload.kv_precision),
                decode_flops_per_token(model, context), prefill, describe_basis(stack.key))


def _least(kinds: Sequence[Part], figure: Any, scale: float) -> float | None:
    values = [figure(k) for k in kinds]
    if any(v is None or v <= 0 for v in values):
        return None
    return min(values) * scale


def _kv_budget(stack: ServingStack, workload: Workload, layout: Layout, vram: float,
               prompt: int) -> float:
    """Bytes per GPU the stack gives the KV cache (see ``inference.ServingStack``)."""
    weights = weights_bytes(workload.model, workload.base_format) / layout.gpus_per_copy
    tp = layout.tensor
    parallel = Parallelism(tp, "tp") if tp > 1 else Parallelism()
    chunk = workload.but(batch=1, seq=max(1, min(prompt, PREFILL_CHUNK_TOKENS)))
    activations = inference_activation_bytes(chunk, parallel) or 0.0
    reserved = FRAMEWORK_OVERHEAD_BYTES + activations
    if stack.fraction_of == "total":
        return vram * stack.memory_fraction - weights - reserved
    return (vram - weights - reserved) * stack.memory_fraction


def max_concurrency(copy: Copy) -> tuple[int, str]:
    """Requests the copies hold at once, and what limits it (``"memory"``, ``"batch"``,
    or ``"weights"`` when nothing is left for a KV cache)."""
    if copy.kv_budget_per_gpu <= 0:
        return 0, "weights"
    per_copy = int(copy.kv_budget_per_gpu // copy.kv_bytes_per_seq_held)
    limit = "memory"
    if copy.stack.max_batch is not None and per_copy > copy.stack.max_batch:
        per_copy, limit = copy.stack.max_batch, "batch"
    return per_copy * copy.layout.replicas, limit


def point(copy: Copy, users: float, most: int) -> ServingPoint:
    """The load point at ``users`` concurrent users, ``most`` of whom fit at once."""
    replicas = copy.layout.replicas
    wanted = max(float(users), 1.0) / replicas
    per_copy_most = max(most / replicas, 1.0)
    running = min(wanted, per_copy_most)
    model = copy.workload.model
    step = step_time(copy.stack.key, copy.group, copy.layout,
                     weight_bytes=decode_weight_bytes(model, copy.workload.base_format,
                                                      running),
                     kv_bytes_per_seq=copy.kv_read_per_seq,
                     flops_per_token=copy.flops_per_token, batch=running,
                     layers=model.layers, hidden=model.hidden, mfu=copy.workload.mfu)
    prefill = copy.prefill_s or 0.0
    output = copy.output_tokens
    # other users' prompts, computed in chunks between and inside the decode steps: a
    # step that carries a chunk is compute-bound by it, so their time adds up
    prompts = running * prefill / output
    per_token = max(step.memory_s, step.compute_s) + prompts + step.overhead_s
    decode = output * per_token
    # own prompt, plus the wait for the (running - 1) other prompts in flight:
    # x = t + (b - 1) t^2 / (2 (x + D)), solved for x
    b_term = max(running - 1.0, 0.0) * prefill * prefill / 2.0
    gap = decode - prefill
    first = (-gap + math.sqrt(gap * gap + 4.0 * (prefill * decode + b_term))) / 2.0
    request = first + decode
    queued = wanted > per_copy_most
    if queued:
        first += (wanted - per_copy_most) / per_copy_most * request
    aggregate = running * output / request * replicas
    bound = "compute" if step.compute_s + prompts > step.memory_s else "memory"
    return ServingPoint(float(users), running * replicas, aggregate, 1.0 / per_token,
                        first if copy.prefill_s is not None else None, bound, queued)
