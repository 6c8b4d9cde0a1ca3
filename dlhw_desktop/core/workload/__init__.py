"""Workload estimators: will a model fit, how long will it take, what will it cost.

Pure Python (no Qt, no SQL). Every formula says where it comes from in its docstring.
Modules, from the bottom up:

- ``precision``: precision and weight-format names -> bytes per parameter and the
  accelerator throughput field (via ``core.fields.PRECISION_FIELDS``).
- ``models``: ``ModelSpec``, ``custom_model`` and a model's saved form.
- ``model_presets``: the presets with their published architecture; ``preset(name)``.
- ``workload``: ``Workload`` (what the user wants to run) and ``Parallelism``.
- ``model_state_memory``: bytes of the weights, the KV cache and the training state per
  parameter (master copy, gradients, optimizer, LoRA adapters).
- ``activation_memory``: activations (Korthikanti et al.), checkpointing, logits and loss.
- ``memory``: bytes per GPU for inference, full training, LoRA and QLoRA.
- ``timing``: 6ND training time, decode tokens/s bounds, dataset time.
- ``scaling``: what several GPUs exchange each training step over their links.
- ``cost``: own hardware (the whole machine, ``Machine``) against cloud, break-even, cost
  per run and per token.
- ``fit``: memory + time + cost for a set of accelerators; the per-GPU verdict.
- ``fit_ranking``: ranking of what fits (own hardware and cloud, cheapest first); the
  cloud offer to compare a build with.
- ``comparison`` and ``cost_text``: own against the like-for-like rental, and its words,
  for every surface (the build's side is ``core.checks.own_cost``).
- ``training_check``: the training time against published multi-GPU runs.
- ``advisor``: the second seed article's questions -> three proposals with reasons.
- ``mapping``: a workload as a plain mapping (build files, CLI flags, the desktop panel).
- ``model_file_types``: ``ModelFileError``, ``TensorInfo`` and ``LoadedModel``, shared by
  the model-file readers.
- ``safetensors_reader``: safetensors headers -> tensors, parameters, stored format.
- ``gguf_reader``: the GGUF header and tensor table -> a ``LoadedModel``.
- ``hf_config``: a Hugging Face config.json (and the weights beside it) -> a
  ``LoadedModel``; parameters estimated from the shapes.
- ``model_files``: ``load_model_file(path)``: a GGUF file, safetensors headers or a
  Hugging Face folder / config.json -> a ``ModelSpec`` and what was detected; bad input
  raises ``ModelFileError`` naming the field or byte offset.

A build's workload on the build's own GPUs, as planner checks, is ``core.build_fit``
(it needs ``core.build``, which needs this package for the typed workload).
"""

from __future__ import annotations

from dlhw_desktop.core.workload.advisor import QUESTIONS, Advice, Answers, Proposal, advise
from dlhw_desktop.core.workload.cost import (
    OwnHardware,
    break_even,
    run_cost,
    usd_per_million_tokens,
)
from dlhw_desktop.core.workload.errors import (
    InvalidWorkloadError,
    UnknownModelError,
    UnknownPrecisionError,
    WorkloadError,
)
from dlhw_desktop.core.workload.fit import (
    CostAssumptions,
    FitResult,
    fit,
    memory_check,
)
from dlhw_desktop.core.workload.fit_ranking import FitOption, rank_fits
from dlhw_desktop.core.workload.inference import estimate_inference
from dlhw_desktop.core.workload.mapping import (
    has_workload,
    parallelism_from_dict,
    workload_from_dict,
    workload_to_dict,
)
from dlhw_desktop.core.workload.memory import MemoryEstimate, MemoryItem, estimate_memory
from dlhw_desktop.core.workload.model_files import (
    LoadedModel,
    ModelFileError,
    load_model_file,
)
from dlhw_desktop.core.workload.model_presets import preset, presets
from dlhw_desktop.core.workload.models import ModelSpec, custom_model
from dlhw_desktop.core.workload.precision import PRECISIONS, WEIGHT_FORMATS
from dlhw_desktop.core.workload.timing import PUBLISHED_MFU, estimate_training_time
from dlhw_desktop.core.workload.workload import (
    MODES,
    Parallelism,
    Workload,
    default_parallelism,
)

__all__ = [
    "MODES",
    "PRECISIONS",
    "PUBLISHED_MFU",
    "QUESTIONS",
    "WEIGHT_FORMATS",
    "Advice",
    "Answers",
    "CostAssumptions",
    "FitOption",
    "FitResult",
    "InvalidWorkloadError",
    "LoadedModel",
    "MemoryEstimate",
    "MemoryItem",
    "ModelFileError",
    "ModelSpec",
    "OwnHardware",
    "Parallelism",
    "Proposal",
    "UnknownModelError",
    "UnknownPrecisionError",
    "Workload",
    "WorkloadError",
    "advise",
    "break_even",
    "custom_model",
    "default_parallelism",
    "estimate_inference",
    "estimate_memory",
    "estimate_training_time",
    "fit",
    "has_workload",
    "load_model_file",
    "memory_check",
    "parallelism_from_dict",
    "preset",
    "presets",
    "rank_fits",
    "run_cost",
    "usd_per_million_tokens",
    "workload_from_dict",
    "workload_to_dict",
]
