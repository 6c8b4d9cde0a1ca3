"""Multi-GPU training time that holds: compute plus the communication the layout needs.

One GPU computes C / (peak x MFU). N GPUs split that, but they exchange data every step
over their links, and only part of it hides under the compute:

- data parallel (``ddp``, ZeRO-1/2): every step all-reduces the trainable gradients
  (2 bytes each; for LoRA/QLoRA only the adapters): a ring moves 2 (n-1)/n x those bytes
  per GPU (NCCL's bus-bandwidth model, nccl-tests doc/PERFORMANCE.md). It overlaps the
  backward pass (PyTorch DDP's gradient buckets), except the last buckets:
  ``UNHIDDEN`` of it always shows.
- fully sharded (ZeRO-3 / FSDP): besides the gradients, the weights are all-gathered for
  the forward and again for the backward pass: 2 x (n-1)/n x the stored weight bytes
  per step, and the gradients are reduce-scattered instead of all-reduced: (n-1)/n x
  (gradients + 2 x weights), 1.5x data parallel's volume (Rajbhandari et al. 2020, ZeRO,
  section 7); the
  gathers prefetch under the whole step's compute.
- tensor parallel: each layer all-reduces its activations twice forward and twice
  backward (+ twice more with recompute), b x s x hidden x 2 bytes each (Korthikanti et
  al. 2022, section 4.1), on the critical path: none of it hides.

A training step is the workload's batch (``Workload.batch`` sequences per optimizer
step), split over the data-parallel GPUs: N GPUs speed it up only as far as there are
sequences to split. A batch of one sequence is not split: one GPU computes it and the
others only hold their shards, so 8 GPUs at batch 1 are no faster than one (``working``).

Links: bytes per second one direction, from the catalog's interconnect figure (stated
for both directions, so halved) or its PCIe generation, derated to ``LINK_EFFICIENCY``
of the peak (an assumption: NCCL's bus bandwidth on NVLink and PCIe sits below the
signalling rate). Across nodes the fabric's per-GPU NIC rate is used instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.model_state_memory import lora_adapter_params, weights_bytes
from dlhw_desktop.core.workload.workload import Parallelism, Workload

LINK_EFFICIENCY = 0.75
"""Share of a link's one-way peak a collective reaches (assumption, see the docstring)."""

UNHIDDEN = 0.10
"""Share of the data-parallel exchange that never hides under compute (the buckets left
when the backward pass ends; assumption)."""

PCIE_X16_GB_S = {"3": 16.0, "4": 32.0, "5": 64.0, "6": 128.0}
"""One-way bytes of a x16 slot per PCIe generation (PCI-SIG), GB/s."""


@dataclass(frozen=True, slots=True)
class Link:
    """How fast the GPUs of one model copy talk: bytes/s one way, and what it is."""

    bytes_per_s: float
    name: str


def gpu_link(part: Part) -> Link | None:
    """The link between two of these GPUs in one machine, or ``None`` if unknown."""
    text = part.text("interconnect")
    value = part.number("interconnect_bandwidth_gb_s")
    pcie = re.search(r"PCIe\s*(\d)", text)
    if value and value > 0 and not (pcie and "no nvlink" in text.lower() and value < 100):
        return Link(value / 2 * 1e9 * LINK_EFFICIENCY, text or f"{value:g} GB/s link")
    if pcie and pcie.group(1) in PCIE_X16_GB_S:
        return Link(PCIE_X16_GB_S[pcie.group(1)] * 1e9 * LINK_EFFICIENCY,
                    f"PCIe {pcie.group(1)}.0 x16")
    if value and value > 0:
        return Link(value / 2 * 1e9 * LINK_EFFICIENCY, text or f"{value:g} GB/s link")
    return None


@dataclass(frozen=True, slots=True)
class StepTime:
    """Compute and communication of one optimizer step, per GPU, in seconds."""

    compute_s: float
    exchange_s: float
    exposed_s: float
    steps: float
    note: str

    @property
    def total_s(self) -> float:
        return self.steps * (self.compute_s + self.exposed_s)


def trainable_params(workload: Workload) -> float:
    """Parameters whose gradients are exchanged: the adapters for LoRA/QLoRA."""
    if workload.mode in ("lora", "qlora"):
        return lora_adapter_params(workload.model, workload.lora_rank)
    return workload.model.params


def data_parallel_exchange(workload: Workload, dp: int, sharded: bool, compute_s: float,
                           link: Link, shards: int = 1) -> tuple[float, float, str]:
    """(seconds, exposed seconds, what) of one step's data-parallel exchange per GPU:
    the trainable gradients all-reduced over ``dp`` GPUs, plus, ``sharded``, the weights
    all-gathered for the forward and the backward pass; each GPU holds 1/``shards`` of
    the model (tensor x pipeline parallel)."""
    if dp <= 1:
        return 0.0, 0.0, ""
    grad_bytes = trainable_params(workload) * (4.0 if workload.fp32_grads else 2.0)
    ring = 2.0 * (dp - 1) / dp
    total = ring * grad_bytes / shards
    hide = compute_s * 2.0 / 3.0  # the backward pass
    what = f"{dp} data-parallel GPUs exchange gradients"
    if sharded:  # reduce-scatter the gradients (half a ring), all-gather the weights twice
        weights = weights_bytes(workload.model, workload.base_format) / shards
        total = (dp - 1) / dp * (grad_bytes / shards + 2.0 * weights)
        hide = compute_s
        what = f"{dp} GPUs, sharded, exchange gradients and weights"
    seconds = total / link.bytes_per_s
    return seconds, max(seconds - hide, UNHIDDEN * seconds), what


def tensor_parallel_exchange(workload: Workload, tp: int, tokens: float, link: Link,
                             layers: float | None = None) -> float:
    """Seconds of a step's tensor-parallel all-reduces of ``tokens`` tokens' activations
    over ``layers`` layers (all of the model's by default); none of it hides."""
    if tp <= 1:
        return 0.0
    model = workload.model
    hidden = model.hidden or (model.params / (12 * (model.layers or 32))) ** 0.5
    count = (4 + (2 if workload.checkpointing else 0)) * (layers or model.layers or 32)
    return count * 2.0 * (tp - 1) / tp * tokens * hidden * 2.0 / link.bytes_per_s


def working(workload: Workload, parallel: Parallelism) -> int:
    """GPUs that compute at once: tensor-parallel groups x the data-parallel GPUs that
    have a sequence of the batch to train (at most the batch)."""
    return parallel.tensor_parallel * min(parallel.data_parallel, workload.batch)


def step_time(workload: Workload, parallel: Parallelism, compute_total_s: float,
              tokens: float, link: Link | None, *, nodes: int = 1,
              fabric: Link | None = None) -> StepTime:
    """The communication of ``parallel`` over ``link`` (and ``fabric`` between ``nodes``)
    added to ``compute_total_s`` (the whole job's compute on the GPUs that work,
    ``working``, i.e. already divided by their count)."""
    dp, tp = parallel.data_parallel, parallel.tensor_parallel
    tokens_per_step = workload.batch * workload.seq_len
    steps = max(tokens / tokens_per_step, 1.0)
    compute = compute_total_s / steps
    if parallel.gpus <= 1 and nodes <= 1:
        return StepTime(compute, 0.0, 0.0, steps, "one GPU: no exchange")
    slow = fabric if nodes > 1 and fabric is not None else link
    if slow is None:
        return StepTime(compute, 0.0, 0.0, steps,
                        "link speed unknown: the exchange between GPUs is not counted")
    dp_s, exposed, what = data_parallel_exchange(workload, dp, parallel.zero_stage == 3,
                                                 compute, slow, tp)
    whats = [what] if what else []
    per_gpu = -(-workload.batch // dp)  # the micro-batch each data-parallel GPU trains
    tp_s = tensor_parallel_exchange(workload, tp, per_gpu * workload.seq_len, slow)
    if tp > 1:
        whats.append(f"{tp} tensor-parallel GPUs exchange activations in every layer")
    if dp > workload.batch:
        whats.insert(0, f"a batch of {workload.batch} keeps {workload.batch} of {dp} "
                        "data-parallel GPUs computing")
    exposed += tp_s
    note = (f"{'; '.join(whats)} each step over {slow.name}: +{exposed / compute:.0%} on "
            "the compute" if whats else "")
    return StepTime(compute, dp_s + tp_s, exposed, steps, note)
