"""The safetensors header reader: an 8-byte little-endian header length, then that many
bytes of JSON naming every tensor's dtype, shape and byte range
(https://github.com/huggingface/safetensors, "Format"); only the header is read. Also the
parameter count of stored tensors, unpacking packed quantised layouts (GPTQ/AWQ, MXFP4,
bitsandbytes 4-bit), and the weight format most parameters are stored in.
"""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dlhw_desktop.core.workload.model_file_types import (
    ModelFileError,
    TensorInfo,
    json_int,
    open_model_file,
)

MAX_JSON_HEADER = 100 * 1024 * 1024
"""The safetensors reference implementation refuses headers above 100 MB."""

SAFETENSORS_BYTES: dict[str, float] = {
    "F64": 8, "I64": 8, "U64": 8, "F32": 4, "I32": 4, "U32": 4, "F16": 2, "BF16": 2,
    "I16": 2, "U16": 2, "F8_E4M3": 1, "F8_E5M2": 1, "F8_E8M0": 1, "I8": 1, "U8": 1,
    "BOOL": 1, "F4": 0.5, "F6_E2M3": 0.75, "F6_E3M2": 0.75,
}
"""Bytes per element of each safetensors dtype (the format's dtype list)."""


def read_safetensors_header(path: Path) -> tuple[dict[str, TensorInfo], int]:
    """Every tensor of one safetensors file, and the file size; only the header is read."""
    with open_model_file(path) as f:  # a regular file: never a FIFO or a folder
        size = os.fstat(f.fileno()).st_size
        raw = f.read(8)
        if len(raw) < 8:
            raise ModelFileError(path, f"truncated: {len(raw)} bytes, a safetensors file "
                                       "starts with an 8-byte header length", offset=0)
        (length,) = struct.unpack("<Q", raw)
        if length > MAX_JSON_HEADER or 8 + length > size:
            raise ModelFileError(path, f"header length {length:,} does not fit a "
                                       f"{size:,}-byte file (truncated or not safetensors)",
                                 offset=0)
        text = f.read(length)
    try:
        header = json.loads(text, parse_int=json_int)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        pos = getattr(exc, "pos", 0) or 0
        raise ModelFileError(path, f"header is not JSON ({exc.__class__.__name__})",
                             offset=8 + pos) from None
    except RecursionError:
        raise ModelFileError(path, "header is nested too deep (not safetensors)",
                             offset=8) from None
    if not isinstance(header, dict):
        raise ModelFileError(path, "header is not a JSON object", offset=8)
    data_size = size - 8 - length
    tensors: dict[str, TensorInfo] = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        if not isinstance(entry, dict):
            raise ModelFileError(path, "tensor entry is not an object", field_name=name)
        dtype = entry.get("dtype")
        shape = entry.get("shape")
        offsets = entry.get("data_offsets")
        if dtype not in SAFETENSORS_BYTES:
            raise ModelFileError(path, f"unknown dtype {dtype!r}", field_name=f"{name}.dtype")
        if not isinstance(shape, list) or not all(isinstance(d, int) and d >= 0
                                                   for d in shape):
            raise ModelFileError(path, f"bad shape {shape!r}", field_name=f"{name}.shape")
        if (not isinstance(offsets, list) or len(offsets) != 2
                or not all(isinstance(o, int) for o in offsets) or offsets[0] > offsets[1]):
            raise ModelFileError(path, f"bad data_offsets {offsets!r}",
                                 field_name=f"{name}.data_offsets")
        if offsets[1] > data_size:
            raise ModelFileError(
                path, f"truncated: tensor {name!r} ends at byte {8 + length + offsets[1]:,} "
                      f"of a {size:,}-byte file", offset=size)
        tensors[name] = TensorInfo(name, dtype, tuple(shape), offsets[1] - offsets[0])
    return tensors, size


# Tensors that hold quantisation constants, not parameters (GPTQ/AWQ, bitsandbytes,
# FP8 block scales, MXFP4 scales).
_CONSTANT_SUFFIXES = (
    ".qzeros", ".scales", ".g_idx", "weight_scale_inv", "weight_scale", "input_scale",
    ".absmax", ".quant_map", ".nested_absmax", ".nested_quant_map", "_scales", ".SCB",
    ".weight_format", ".quant_state.bitsandbytes__nf4", ".quant_state.bitsandbytes__fp4",
)


def _params_of(tensor: TensorInfo, quant: Mapping[str, Any] | None) -> int:
    """Parameters a stored tensor holds, unpacking packed quantised layouts."""
    name = tensor.name
    if name.endswith(_CONSTANT_SUFFIXES):
        return 0
    if name.endswith(".qweight"):  # GPTQ / AWQ: int32 words of 32/bits values
        bits = int((quant or {}).get("bits", 4) or 4)
        return tensor.numel * (32 // bits)
    if name.endswith("_blocks") and tensor.dtype == "U8":  # MXFP4: two values a byte
        return tensor.numel * 2
    method = str((quant or {}).get("quant_method", "")).lower()
    if (method == "bitsandbytes" and (quant or {}).get("load_in_4bit")
            and tensor.dtype == "U8"):  # bitsandbytes 4-bit: two values a byte
        return tensor.numel * 2
    return tensor.numel


def summarise_tensors(tensors: Mapping[str, TensorInfo], quant: Mapping[str, Any] | None
               ) -> tuple[int, int, dict[str, int]]:
    params = 0
    nbytes = 0
    dtypes: dict[str, int] = {}
    for t in tensors.values():
        n = _params_of(t, quant)
        params += n
        nbytes += t.nbytes
        if n:
            dtypes[t.dtype] = dtypes.get(t.dtype, 0) + n
    return params, nbytes, dtypes


def format_of_dtypes(dtypes: Mapping[str, int]) -> str | None:
    """The format most parameters are stored in, as a ``WEIGHT_FORMATS`` name."""
    if not dtypes:
        return None
    main = max(dtypes, key=lambda k: dtypes[k])
    return {"BF16": "BF16", "F16": "FP16", "F32": "FP32", "F8_E4M3": "FP8",
            "F8_E5M2": "FP8"}.get(main)
