"""The shared types of the model-file readers: ``ModelFileError``, ``TensorInfo`` (one
stored tensor) and ``LoadedModel`` (what a file says). ``model_files``, ``gguf_reader``,
``safetensors_reader`` and ``hf_config`` all import them from here, so none of the readers
imports the dispatch in ``model_files``.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from dlhw_desktop.core.files.reading import FileReadError, open_regular, read_bounded
from dlhw_desktop.core.numbers import NumberError, NumberField
from dlhw_desktop.core.workload.errors import WorkloadError
from dlhw_desktop.core.workload.models import ModelSpec


class ModelFileError(WorkloadError, ValueError):
    """A model file or folder that cannot be read: the message names the field or offset."""

    def __init__(self, path: str | os.PathLike[str], message: str, *,
                 field_name: str | None = None, offset: int | None = None) -> None:
        self.path = str(path)
        self.field_name = field_name
        self.offset = offset
        where = ""
        if field_name is not None:
            where = f" (field {field_name!r})"
        if offset is not None:
            where += f" (at byte {offset:,})"
        super().__init__(f"{Path(path).name}: {message}{where}")


@dataclass(frozen=True, slots=True)
class TensorInfo:
    """One tensor as stored: its type (GGUF type name or safetensors dtype), shape, bytes."""

    name: str
    dtype: str
    shape: tuple[int, ...]
    nbytes: int

    @property
    def numel(self) -> int:
        return math.prod(self.shape) if self.shape else 1


@dataclass(frozen=True, slots=True)
class LoadedModel:
    """What a file says: the model, and what was detected on the way."""

    model: ModelSpec
    path: str
    source_kind: str
    """``gguf``, ``hf-folder``, ``hf-config`` or ``safetensors``."""
    params_exact: int | None = None
    """Parameters counted from the tensor table (``None``: estimated or unknown)."""
    weight_bytes: int | None = None
    """Bytes of the tensors as stored (``None`` when no weights were read)."""
    dtypes: Mapping[str, int] = field(default_factory=dict)
    """Stored type -> parameters of that type (GGUF types such as Q4_K, or BF16, F8_E4M3)."""
    quantization: str | None = None
    """What the file says of its quantisation: ``Q4_K_M``, ``NF4``, ``GPTQ-4BIT``, ..."""
    precision: str | None = None
    """The ``precision.WEIGHT_FORMATS`` name to estimate with (the format as stored)."""
    architecture: str | None = None
    """``general.architecture`` (GGUF) or ``model_type`` (config.json)."""
    tensors: tuple[TensorInfo, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def bits_per_weight(self) -> float | None:
        if not self.weight_bytes or not self.params_exact:
            return None
        return 8.0 * self.weight_bytes / self.params_exact

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "source_kind": self.source_kind,
                "architecture": self.architecture, "params_exact": self.params_exact,
                "weight_bytes": self.weight_bytes, "bits_per_weight": self.bits_per_weight,
                "dtypes": dict(self.dtypes), "quantization": self.quantization,
                "precision": self.precision, "tensors": len(self.tensors),
                "warnings": list(self.warnings), "model": self.model.to_dict()}


MODEL_COUNT = NumberField("", "a model's count", 1, 1e9, whole=True)
"""Layers, heads, widths, experts, vocabulary, context: whole, positive and at most a
billion (every real one is far below); NaN, infinity and 1e300 are refused by name."""


def model_count(path: str | os.PathLike[str], name: str, value: object) -> int:
    """``value`` of field ``name`` as a checked count, or ``ModelFileError`` naming it."""
    try:
        return int(MODEL_COUNT.check(value))
    except NumberError as exc:
        reason = str(exc).split(": ", 1)[-1]
        raise ModelFileError(path, reason, field_name=name) from None


def open_model_file(path: str | os.PathLike[str], max_bytes: int | None = None) -> BinaryIO:
    """A model file open for reading its header: a regular file (never a FIFO, a device
    or a folder named like a shard), of at most ``max_bytes`` when given;
    ``ModelFileError`` otherwise."""
    try:
        return open_regular(path, max_bytes)
    except FileReadError as exc:
        raise ModelFileError(path, str(exc).split(": ", 1)[-1]) from None


def json_int(text: str) -> int | float:
    """A JSON integer; one of more than 24 digits becomes a float (infinite past 309
    digits) that the field checks then refuse by name, instead of Python's 4,300-digit
    limit raising while the file is parsed."""
    return int(text) if len(text) <= 25 else float(text)


def read_model_json(path: str | os.PathLike[str], max_bytes: int) -> Any:
    """The JSON of a ``config.json`` or index: a regular file of at most ``max_bytes``;
    nesting too deep, a file that is not UTF-8 or not JSON is a ``ModelFileError``."""
    try:
        text = read_bounded(path, max_bytes).decode("utf-8-sig")
    except FileReadError as exc:
        raise ModelFileError(path, str(exc).split(": ", 1)[-1]) from None
    except UnicodeDecodeError as exc:
        raise ModelFileError(path, "not UTF-8 text", offset=exc.start) from None
    try:
        return json.loads(text, parse_int=json_int)
    except json.JSONDecodeError as exc:
        raise ModelFileError(path, f"not JSON: {exc.msg} (line {exc.lineno}, column "
                                   f"{exc.colno})", offset=exc.pos) from None
    except RecursionError:
        raise ModelFileError(path, "not a model file: its JSON is nested too deep") from None
