"""A workload as a plain mapping: a build file's ``workload`` object and the CLI's flags.

One mapping for every edge: ``dlhw fit`` turns its flags into it, a build file keeps it
(``Build.workload``), the desktop's workload panel edits it. The keys follow the CLI's
flags (``--kv-heads`` -> ``kv_heads``), so a build file reads like the command line::

    {"model": "llama-3.1-8b", "mode": "lora", "precision": "BF16", "batch": 4,
     "seq": 4096, "tokens": 1e8, "checkpointing": true, "strategy": "zero3"}

A custom model has ``"model": "custom"`` (or no ``model``) and ``params``, optionally
with its architecture (``layers``, ``hidden``, ``heads``, ``kv_heads``, ...).
``strategy`` and ``cpu_offload`` say how several GPUs share the work; they are not
part of the ``Workload`` and are read by ``parallelism_from_dict``. Unknown keys are
ignored here and kept by the ``Build`` (a newer file opened by an older app loses nothing).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from dlhw_desktop.core.numbers import MAX_NUMBER_CHARS, NumberError, NumberField, parse_number
from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.model_presets import preset
from dlhw_desktop.core.workload.models import (
    ModelSpec,
    custom_model,
    model_from_saved,
    model_to_saved,
)
from dlhw_desktop.core.workload.serving_request import SERVING_KEYS
from dlhw_desktop.core.workload.workload import (
    STRATEGIES,
    Parallelism,
    Workload,
    default_parallelism,
)

CUSTOM = "custom"
"""The ``model`` value of a user's own model (figures in ``params`` and the arch keys)."""

ARCHITECTURE_KEYS: tuple[str, ...] = (
    "layers", "hidden", "heads", "kv_heads", "head_dim", "vocab", "context",
)
"""Integer figures of a custom model's architecture (all optional)."""

WORKLOAD_KEYS: tuple[str, ...] = (
    "model", "model_name", "params", "active_params", *ARCHITECTURE_KEYS,
    "mode", "precision", "batch", "seq", "tokens", "samples", "optimizer", "fp32_grads",
    "checkpointing", "flash_attention", "lora_rank", "kv_precision", "mfu",
    "strategy", "cpu_offload", "serving", "loss_chunks", "lora_dropout", "checkpoint_every",
    "model_spec", *SERVING_KEYS,
)
"""Every key this module reads or writes (the serving request's through
``serving_request``); anything else in a mapping is someone else's."""


def parse_count(text: str) -> float:
    """``8e9``, ``8B``, ``125m``, ``1.5T`` -> a number (parameter and token counts).

    Raises ``InvalidWorkloadError`` for text that is not a count.
    """
    number = parse_number(text) if len(text) <= MAX_NUMBER_CHARS else None
    if number is None:
        raise InvalidWorkloadError(f"not a number: {text!r}")
    return number


def format_count(value: float) -> str:
    """The short form ``parse_count`` reads back: 8e9 -> ``8B``, 1.25e8 -> ``125M``."""
    for suffix, scale in (("T", 1e12), ("B", 1e9), ("M", 1e6), ("K", 1e3)):
        if abs(value) >= scale:
            return f"{value / scale:.6g}{suffix}"
    return f"{value:.6g}"


def has_workload(data: Mapping[str, Any]) -> bool:
    """True when the mapping names a model (a preset, or a custom one with ``params``)."""
    model = data.get("model")
    return (bool(model) and model != CUSTOM) or data.get("params") is not None


NUMBER_FIELDS: dict[str, NumberField] = {
    "params": NumberField("params", "Parameters", 0.0, 1e15, low_open=True),
    "active_params": NumberField("active_params", "Active parameters", 0.0, 1e15,
                                 low_open=True),
    "tokens": NumberField("tokens", "Training tokens", 0.0, 1e17, low_open=True),
}
"""The ranges of a workload's counts (as a cluster plan holds them): a quadrillion
parameters is past every model, and far from the float overflow 1e308 would reach."""

_ANY_NUMBER = 1e15
"""Any other number of a workload (batch, context, layers, MFU...): its own checks judge
it; this only keeps 1e300 from reaching the arithmetic."""


def _number(data: Mapping[str, Any], key: str) -> float | None:
    value = data.get(key)
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise InvalidWorkloadError(f"{key} must be a number, got {value!r}")
    if isinstance(value, int) and value.bit_length() > 128:
        raise InvalidWorkloadError(f"{key} must be at most {_ANY_NUMBER:g}, got a number of "
                                   "more than 38 digits")
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise InvalidWorkloadError(f"{key} must be a number, got {value!r}") from None
    if not math.isfinite(number):
        raise InvalidWorkloadError(f"{key} must be a finite number, got {value!r}")
    field = NUMBER_FIELDS.get(key)
    if field is not None:
        try:
            field.check(number)
        except NumberError as exc:
            raise InvalidWorkloadError(str(exc)) from None
    elif abs(number) > _ANY_NUMBER:
        raise InvalidWorkloadError(f"{key} must be at most {_ANY_NUMBER:g}, got {value!r}")
    return number


def _integer(data: Mapping[str, Any], key: str) -> int | None:
    number = _number(data, key)
    if number is None:
        return None
    if not number.is_integer():
        raise InvalidWorkloadError(f"{key} must be a whole number, got {data[key]!r}")
    return int(number)


def read_flag(data: Mapping[str, Any], key: str, default: bool) -> bool:
    """A yes/no key as a build file or the CLI gives it (``true``, ``"yes"``, ``1``)."""
    value = data.get(key, default)
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    return bool(value)


def model_from_dict(data: Mapping[str, Any]) -> ModelSpec:
    """The preset named by ``model``, or a custom model from ``params`` and its architecture.

    Raises ``UnknownModelError`` for a name that is no preset and ``InvalidWorkloadError``
    when there is no model, or when both a preset and ``params`` are given.
    """
    name = data.get("model")
    params = _number(data, "params")
    if name and name != CUSTOM:
        if params is not None:
            raise InvalidWorkloadError("give a preset model or a parameter count, not both")
        return preset(str(name))
    if params is None:
        raise InvalidWorkloadError("no model: give a preset name or a parameter count")
    arch = {key: _integer(data, key) for key in ARCHITECTURE_KEYS}
    label = str(data.get("model_name") or "Custom model")
    if data.get("model_spec") is not None:
        # a model read from a file: every figure it had, the edited ones on top
        saved = model_from_saved(data["model_spec"])
        changes = {k: v for k, v in arch.items() if v is not None}
        if params != saved.params:
            changes["params"] = params
            changes["weight_bytes"] = None  # the file's bytes no longer apply
        active = _number(data, "active_params")
        if active is not None:
            changes["active_params"] = active
        return replace(saved, name=label if data.get("model_name") else saved.name,
                       **changes)
    return custom_model(params, name=label, active_params=_number(data, "active_params"),
                        **arch)


def workload_from_dict(data: Mapping[str, Any]) -> Workload:
    """A ``Workload`` from its mapping; missing keys take the ``Workload`` defaults.

    Raises ``WorkloadError`` subclasses (a message a user can act on) for bad values.
    """
    fields: dict[str, Any] = {}
    for key in ("mode", "precision", "optimizer", "kv_precision", "serving"):
        if data.get(key):
            fields[key] = str(data[key])
    for key in ("batch", "seq", "lora_rank", "loss_chunks", "checkpoint_every"):
        value = _integer(data, key)
        if value is not None:
            fields[key] = value
    for key in ("tokens", "samples", "mfu", "lora_dropout"):
        value = _number(data, key)
        if value is not None:
            fields[key] = value
    for key, default in (("fp32_grads", False), ("checkpointing", False),
                         ("flash_attention", True)):
        if key in data:
            fields[key] = read_flag(data, key, default)
    return Workload(model_from_dict(data), **fields)


def workload_to_dict(workload: Workload,
                     parallel: Parallelism | None = None) -> dict[str, Any]:
    """The mapping ``workload_from_dict`` reads back to an equal ``Workload``.

    ``seq`` is the user's (``None``: the model's default); unknowns are left out rather
    than written as zeros. With ``parallel`` over several GPUs its strategy is kept too.
    """
    model = workload.model
    data: dict[str, Any] = {}
    if model.key == CUSTOM:
        data["model"] = CUSTOM
        if model.name != "Custom model":
            data["model_name"] = model.name
        data["params"] = model.params
        if model.active_params is not None:
            data["active_params"] = model.active_params
        for key in ARCHITECTURE_KEYS:
            value = getattr(model, key)
            if value is not None:
                data[key] = value
        if model.source != "user input":  # read from a file: keep every figure
            data["model_spec"] = model_to_saved(model)
    else:
        data["model"] = model.key
    data.update({
        "mode": workload.mode, "precision": workload.precision, "batch": workload.batch,
        "seq": workload.seq, "tokens": workload.tokens, "samples": workload.samples,
        "optimizer": workload.optimizer, "fp32_grads": workload.fp32_grads,
        "checkpointing": workload.checkpointing,
        "flash_attention": workload.flash_attention, "lora_rank": workload.lora_rank,
        "kv_precision": workload.kv_precision, "mfu": workload.mfu,
    })
    if workload.serving is not None:
        data["serving"] = workload.serving
    if workload.loss_chunks != 1:
        data["loss_chunks"] = workload.loss_chunks
    if workload.lora_dropout:
        data["lora_dropout"] = workload.lora_dropout
    if workload.checkpoint_every != 1:
        data["checkpoint_every"] = workload.checkpoint_every
    for key in ("seq", "tokens", "samples"):
        if data[key] is None:
            del data[key]
    if parallel is not None and parallel.gpus > 1:
        data["strategy"] = parallel.strategy
    if parallel is not None and parallel.cpu_offload:
        data["cpu_offload"] = True
    return data


def strategies_for(mode: str) -> tuple[str, ...]:
    """The strategies ``estimate_memory`` costs for ``mode`` (inference: tp or replicas)."""
    return ("tp", "ddp") if mode == "inference" else STRATEGIES


def parallelism_from_dict(data: Mapping[str, Any], mode: str, gpus: int) -> Parallelism:
    """The layout for ``gpus`` GPUs: the mapping's ``strategy`` when it suits ``mode``,
    else ``default_parallelism``; ``cpu_offload`` either way.

    A strategy that does not apply (sharded training strategies for inference) falls back
    to the default instead of failing: the strategy was chosen for another mode.
    """
    strategy = data.get("strategy")
    offload = read_flag(data, "cpu_offload", False)
    if strategy and gpus > 1:
        if strategy not in STRATEGIES:
            raise InvalidWorkloadError(
                f"unknown parallel strategy {strategy!r} (known: {', '.join(STRATEGIES)})")
        if strategy in strategies_for(mode):
            return Parallelism(gpus, str(strategy), offload)
    base = default_parallelism(mode, gpus)
    return Parallelism(base.gpus, base.strategy, offload)

