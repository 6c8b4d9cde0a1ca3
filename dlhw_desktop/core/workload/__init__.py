"""Workload estimators: will a model fit, how long will it take, what will it cost.

Pure Python (no Qt, no SQL). Every formula says where it comes from in its docstring.
Modules, from the bottom up:

- ``precision``: precision and weight-format names -> bytes per parameter and the
  accelerator throughput field (via ``core.fields.PRECISION_FIELDS``).
- ``models``: ``ModelSpec`` and the presets with their published architecture.
- ``workload``: ``Workload`` (what the user wants to run) and ``Parallelism``.
- ``memory``: bytes per GPU for inference, full training, LoRA and QLoRA.
- ``timing``: 6ND training time, decode tokens/s bounds, dataset time.
- ``cost``: own hardware against cloud, break-even, cost per run and per token.
- ``fit``: memory + time + cost for a set of accelerators; the per-GPU verdict;
  ranking of what fits.
- ``advisor``: the second seed article's questions -> three proposals with reasons.
"""

from __future__ import annotations

from dlhw_desktop.core.workload.errors import (
    InvalidWorkloadError,
    UnknownModelError,
    UnknownPrecisionError,
    WorkloadError,
)

__all__ = [
    "InvalidWorkloadError",
    "UnknownModelError",
    "UnknownPrecisionError",
    "WorkloadError",
]
