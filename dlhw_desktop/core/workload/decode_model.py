"""The time of one decode step, calibrated on measurements (issue #30).

One step of decoding reads every weight once (and each sequence's KV cache), so its time
is the bytes moved over the memory bandwidth, at the share of it the kernels reach, plus
a fixed cost per step that small models feel most (kernel launches, synchronisation):

    step = bytes / (bandwidth x efficiency) + overhead

**llama.cpp** (``decode_coefficients``, refitted by ``scripts/fit_decode.py`` on
``resources/benchmarks/decode_measurements.csv``)::

    step = a[memory class] x bytes / bandwidth + b[backend] x layers + c x (GPUs - 1)

``a`` is 1 / efficiency by memory class (GDDR boards, HBM datacenter parts and unified
memory differ: llama.cpp reaches ~90 % of a GDDR6X 4090's bandwidth and ~60 % of an
A100's HBM), ``b`` a cost per layer by backend (CUDA, Vulkan, Metal) and ``c`` the hop to
each further GPU of a layer split. A layer split gives each GPU whole layers that run in
turn, so per-GPU times add up: bandwidths do not.

**Tensor-parallel stacks** (vLLM, TensorRT-LLM) split every matrix: the GPUs' bandwidths
add, and every layer pays two all-reduces (after attention and after the MLP, Shoeybi et
al. 2019, Megatron-LM, https://arxiv.org/abs/1909.08053 section 3). Their efficiency is
one published measurement each (``TENSOR_STACKS``), not fitted on the set above, which
holds llama.cpp only; the labels say so. Pipeline parallelism (``Layout.pipelined``)
keeps a micro-batch on every stage at once.

At batch B the step also computes 2 x active params x B FLOPs (plus attention over the
context); the step takes the longer of memory and compute time (the roofline, Williams
et al. 2009, https://doi.org/10.1145/1498765.1498785), then the overhead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload import decode_coefficients as fitted
from dlhw_desktop.core.workload.model_state_memory import kv_cache_bytes, weights_bytes
from dlhw_desktop.core.workload.models import ModelSpec
from dlhw_desktop.core.workload.precision import bytes_per_param, weight_format

MEMORY_CLASSES: tuple[str, ...] = ("gddr", "hbm", "unified")
BACKENDS: tuple[str, ...] = ("cuda", "vulkan", "metal")

ALLREDUCE_STEP_S = 2e-6
"""Latency of one step of a ring all-reduce between GPUs (synchronisation and a small
message over NVLink or PCIe). A ring takes 2(N - 1) steps (NVIDIA, "3x Faster AllReduce
with NVSwitch and TensorRT-LLM MultiShot", 2024). An assumption of this app, checked
against NVIDIA NIM's Llama 3.3 70B on 2 H100 at one user (``serving_check``)."""

PCIE_LINK_BYTES_S = 32e9
"""GPU-to-GPU bandwidth when the catalog gives none: PCIe 4.0 x16, one direction."""


def memory_class(memory_type: str | None) -> str:
    """``hbm`` for HBM parts, ``unified`` for LPDDR / unified memory, else ``gddr``."""
    text = (memory_type or "").upper()
    if "HBM" in text:
        return "hbm"
    if "LPDDR" in text or "UNIFIED" in text:
        return "unified"
    return "gddr"


def llama_cpp_backend(vendor: str) -> str:
    """The backend llama.cpp uses on a vendor's GPU: CUDA on NVIDIA, Metal on Apple,
    Vulkan elsewhere (the measured AMD figures are Vulkan; ROCm is not measured)."""
    name = vendor.strip().lower()
    if name == "nvidia":
        return "cuda"
    if name == "apple":
        return "metal"
    return "vulkan"


def link_bandwidth(part: Part) -> float | None:
    """Bytes/s between two of these GPUs: the catalog's interconnect figure, if any."""
    value = part.number("interconnect_bandwidth_gb_s")
    return None if value is None or value <= 0 else value * 1e9


def decode_weight_bytes(model: ModelSpec, fmt: str, batch: float = 1.0) -> float:
    """Weight bytes one decode step reads.

    Every weight as stored (``model_state_memory.weights_bytes``), except that the token
    embedding table is only looked up (one row per token), unless it is tied to the
    output layer, which reads it whole. A mixture of experts reads the experts its tokens
    are routed to: with E experts and k per token, a batch of b tokens touches a share
    1 - (1 - k/E)^b of them (uniform routing); the expert parameters are
    (total - active) x E / (E - k).
    """
    total = weights_bytes(model, fmt)
    wf = weight_format(fmt)
    if model.vocab and model.hidden and not model.tied_embeddings:
        whole_file = model.weight_bytes and model.stored_format == wf.name
        per_weight = (total / model.params if whole_file
                      else 2.0 if wf.embeddings_16bit else wf.bytes_per_param)
        total -= model.vocab * model.hidden * per_weight
    if not model.is_moe or not model.experts or not model.experts_per_token:
        return total
    e, k = model.experts, model.experts_per_token
    if e <= k:
        return total
    expert_params = min((model.params - model.compute_params) * e / (e - k), model.params)
    expert_bytes = expert_params * bytes_per_param(fmt)
    touched = 1.0 - (1.0 - k / e) ** max(batch, 1.0)
    return total - expert_bytes + expert_bytes * touched


def decode_flops_per_token(model: ModelSpec, context: float) -> float:
    """2 x active params + attention over ``context`` tokens: 2 x layers x context x
    attention width (Kaplan et al. 2020, https://arxiv.org/abs/2001.08361 Table 1)."""
    flops = 2.0 * model.compute_params
    if model.has_architecture and model.head_dim_effective:
        assert model.layers is not None and model.heads is not None
        flops += 2.0 * model.layers * context * model.heads * model.head_dim_effective
    return flops


def kv_read_bytes(model: ModelSpec, context: float, kv_precision: str) -> float:
    """KV cache bytes one sequence reads per step at ``context`` tokens (all layers)."""
    kv = kv_cache_bytes(model, max(1, round(context)), 1, kv_precision)
    return kv or 0.0


@dataclass(frozen=True, slots=True)
class GpuGroup:
    """The GPUs a model runs on, as far as the step time cares (per GPU figures)."""

    count: int
    bandwidth: float
    """Bytes/s of one GPU's memory."""
    peak_flops: float | None = None
    """Dense FLOP/s of one GPU at the compute precision; ``None`` when unknown."""
    memory_class: str = "gddr"
    backend: str = "cuda"
    link_bandwidth: float | None = None
    """Bytes/s between two GPUs (NVLink, or PCIe when ``None``)."""


@dataclass(frozen=True, slots=True)
class Layout:
    """How one copy of the model spans GPUs: ``tensor`` GPUs split every matrix,
    ``stages`` run whole layers in turn (``pipelined``: each busy with its own
    micro-batch), and ``replicas`` copies serve in parallel."""

    tensor: int = 1
    stages: int = 1
    pipelined: bool = False
    replicas: int = 1

    @property
    def gpus_per_copy(self) -> int:
        return self.tensor * self.stages


@dataclass(frozen=True, slots=True)
class StepTime:
    """One decode step of ``batch`` sequences on one copy of the model.

    ``per_token_s`` is the time between two tokens of one sequence; ``tokens_per_s``
    the copy's output tokens per second over all its sequences.
    """

    batch: float
    memory_s: float
    compute_s: float
    overhead_s: float
    per_token_s: float
    tokens_per_s: float

    @property
    def bound(self) -> str:
        return "compute" if self.compute_s > self.memory_s else "memory"

    def to_dict(self) -> dict[str, Any]:
        return {"batch": self.batch, "memory_s": self.memory_s, "compute_s": self.compute_s,
                "overhead_s": self.overhead_s, "per_token_s": self.per_token_s,
                "tokens_per_s": self.tokens_per_s, "bound": self.bound}


@dataclass(frozen=True, slots=True)
class TensorStack:
    """A tensor-parallel serving stack: one published share of the bandwidth, lumped
    with its fixed costs, measured on one GPU at batch 1."""

    efficiency: float
    source: str


TENSOR_STACKS: dict[str, TensorStack] = {
    "vllm": TensorStack(
        0.73, "https://johnmusgrave.com/p/vllm-throughput-latency-sweep-on (vLLM 0.23, "
        "A100 40GB, 1,555 GB/s, Llama 3.1 8B BF16, 1024 in / 128 out, one request: "
        "~75 tokens/s): 15.2 GB read per token (weights less the embedding table, "
        "plus the KV cache) x 75 / 1,555 GB/s = 0.73"),
    "tensorrt-llm": TensorStack(
        0.56, "https://docs.nvidia.com/nemo-framework/user-guide/latest/performance/"
        "llama.html (TensorRT-LLM, Llama-2-7B, batch 1, 128 in / 20 out, TP 1): A100 "
        "80GB 234.0 ms, H100 80GB 153.8 ms; less the prompt (128 x 2N at 40 % MFU), "
        "13.3 GB per token at 1.21 of 2.04 TB/s (0.59) and 1.78 of 3.35 TB/s (0.53)"),
}
"""Where the tensor-parallel stacks' efficiency comes from."""


def efficiency(stack: str, memory_class_: str) -> float:
    """The share of the bandwidth a stack's weight reads reach."""
    if stack in TENSOR_STACKS:
        return TENSOR_STACKS[stack].efficiency
    return 1.0 / fitted.SECONDS_PER_BYTE_RATIO[memory_class_]


def allreduce_s(gpus: int, message_bytes: float, link_bandwidth: float | None) -> float:
    """One ring all-reduce over ``gpus`` GPUs: 2(N - 1) steps of ``ALLREDUCE_STEP_S`` plus
    2(N - 1)/N of the message over the link."""
    if gpus <= 1:
        return 0.0
    link = link_bandwidth or PCIE_LINK_BYTES_S
    steps = 2.0 * (gpus - 1)
    return steps * ALLREDUCE_STEP_S + steps / gpus * message_bytes / link


def overhead_s(stack: str, gpus: GpuGroup, layout: Layout, layers: int | None,
               hidden: int | None, batch: float) -> float:
    """The fixed cost of one step of one sequence's token through the whole model."""
    if stack not in TENSOR_STACKS:  # llama.cpp: per layer and per further GPU
        per_layer = fitted.PER_LAYER_S.get(gpus.backend, fitted.PER_LAYER_S["cuda"])
        return per_layer * (layers or 0) + fitted.PER_EXTRA_GPU_S * (layout.stages - 1)
    if layout.tensor <= 1 or not layers:
        return 0.0
    message = batch / max(layout.stages, 1) * (hidden or 0) * 2.0  # 16-bit activations
    return 2.0 * layers * allreduce_s(layout.tensor, message, gpus.link_bandwidth)


def step_time(stack: str, gpus: GpuGroup, layout: Layout, *, weight_bytes: float,
              kv_bytes_per_seq: float, flops_per_token: float, batch: float,
              layers: int | None, hidden: int | None, mfu: float) -> StepTime:
    """One step of ``batch`` sequences on one copy of the model (see the module doc).

    ``weight_bytes`` is what the step reads of the weights (``decode_weight_bytes`` at
    this batch), ``kv_bytes_per_seq`` one sequence's KV read, ``flops_per_token`` the
    compute of one token. A pipelined layout splits the batch into one micro-batch per
    stage; a plain layer split runs the whole batch through the stages in turn.
    """
    eff = efficiency(stack, gpus.memory_class)
    stages, tp = max(layout.stages, 1), max(layout.tensor, 1)
    micro = batch / stages if layout.pipelined else batch
    # one stage's share of the work for one micro-batch, on one of its tensor-parallel GPUs
    stage_bytes = (weight_bytes + micro * kv_bytes_per_seq) / stages / tp
    memory = stage_bytes / (gpus.bandwidth * eff)
    compute = 0.0
    if gpus.peak_flops:
        compute = micro * flops_per_token / stages / tp / (gpus.peak_flops * mfu)
    fixed = overhead_s(stack, gpus, layout, layers, hidden, batch)
    tick = max(memory, compute) + fixed / stages
    per_token = stages * tick
    tokens = micro / tick if layout.pipelined else batch / per_token
    return StepTime(batch, memory * stages, compute * stages, fixed, per_token, tokens)


def ceiling_tokens_per_s(gpus: GpuGroup, layout: Layout, weight_bytes: float,
                         kv_bytes_per_seq: float, batch: float) -> float:
    """What the bandwidth allows at best: no fixed cost, every byte at full speed; the
    GPUs' bandwidths add only under tensor parallelism."""
    step = (weight_bytes + batch * kv_bytes_per_seq) / (gpus.bandwidth * layout.tensor)
    return batch / step if step > 0 else float("inf")


def describe_basis(stack: str) -> str:
    """The label the estimate carries: what it was fitted on and how well it holds."""
    if stack in TENSOR_STACKS:
        return (f"estimate ({STACK_NAMES[stack]}: efficiency from one published "
                f"measurement; the {fitted.ROWS}-measurement fit is llama.cpp's)")
    return (f"estimate (fit on {fitted.ROWS} measurements, leave-one-GPU-out error "
            f"{fitted.MEDIAN_ERROR * 100:.0f} %)")


STACK_NAMES: dict[str, str] = {"llama.cpp": "llama.cpp", "vllm": "vLLM",
                               "tensorrt-llm": "TensorRT-LLM"}
