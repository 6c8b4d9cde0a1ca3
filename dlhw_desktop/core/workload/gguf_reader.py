"""The GGUF header reader: magic ``GGUF``, a version, the tensor and metadata counts, the
metadata key/value pairs and the tensor table (name, dimensions, type, offset), then the
data aligned to ``general.alignment`` (https://github.com/ggml-org/ggml/blob/master/docs/gguf.md).
The header is parsed here, with the type sizes and names of the ``gguf`` package
(``gguf.constants``: ``GGML_QUANT_SIZES``, ``LlamaFileType``), so every error can name its
byte offset; ``load_gguf`` turns the metadata and tensor table into a ``LoadedModel``.
"""

from __future__ import annotations

import math
import os
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from dlhw_desktop.core.workload.model_file_types import (
    LoadedModel,
    ModelFileError,
    TensorInfo,
    model_count,
    open_model_file,
)
from dlhw_desktop.core.workload.models import ModelSpec
from dlhw_desktop.core.workload.precision import WEIGHT_FORMATS

MAX_GGUF_TENSORS = 262_144
"""More tensors than any real model has (DeepSeek V3 in GGUF has about 1,000): a corrupt
count, refused before a loop over it."""

MAX_GGUF_METADATA = 65_536
"""More metadata entries than any real file has (a few dozen): a corrupt count."""

MAX_GGUF_STRING_ITEMS = 1 << 22
"""Items of a string array (a tokenizer's vocabulary or merges: at most a few hundred
thousand); each is walked, so a crafted 2**32 in a sparse file would loop for minutes."""

MIN_METADATA_BYTES = 8 + 4 + 1
"""A metadata entry is at least a key length, a value type and a one-byte value."""

MIN_TENSOR_BYTES = 8 + 4 + 4 + 8
"""A tensor entry is at least a name length, a dimension count, a type and an offset."""

GGUF_READ_VERSIONS = (2, 3)
"""GGUF versions with 64-bit counts (v1 had 32-bit ones and is long gone)."""

class _Reader:
    """Reads little-endian values from a GGUF header and knows its offset and the size."""

    def __init__(self, path: Path, f: IO[bytes], size: int) -> None:
        self.path, self.f, self.size = path, f, size
        self.pos = 0

    def take(self, n: int, what: str) -> bytes:
        if n < 0 or self.pos + n > self.size:
            raise ModelFileError(self.path, f"truncated: {what} needs {n:,} bytes, the file "
                                            f"ends at {self.size:,}", offset=self.pos)
        data = self.f.read(n)
        if len(data) != n:
            raise ModelFileError(self.path, f"truncated while reading {what}",
                                 offset=self.pos)
        self.pos += n
        return data

    def skip(self, n: int, what: str) -> None:
        if n < 0 or self.pos + n > self.size:
            raise ModelFileError(self.path, f"truncated: {what} needs {n:,} bytes, the file "
                                            f"ends at {self.size:,}", offset=self.pos)
        self.f.seek(n, os.SEEK_CUR)
        self.pos += n

    def u32(self, what: str) -> int:
        return int(struct.unpack("<I", self.take(4, what))[0])

    def u64(self, what: str) -> int:
        return int(struct.unpack("<Q", self.take(8, what))[0])

    def string(self, what: str) -> str:
        at = self.pos
        n = self.u64(f"length of {what}")
        if n > 1 << 24:
            raise ModelFileError(self.path, f"{what} claims {n:,} bytes (corrupt length)",
                                 offset=at)
        raw = self.take(n, what)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ModelFileError(self.path, f"{what} is not UTF-8", offset=at + 8) from None


_SCALAR = {0: ("<B", 1), 1: ("<b", 1), 2: ("<H", 2), 3: ("<h", 2), 4: ("<I", 4),
           5: ("<i", 4), 6: ("<f", 4), 7: ("<?", 1), 10: ("<Q", 8), 11: ("<q", 8),
           12: ("<d", 8)}
_STRING, _ARRAY = 8, 9


def _gguf_value(r: _Reader, vtype: int, key: str, depth: int = 0) -> Any:
    """One metadata value; arrays keep only their length and their first values."""
    if vtype in _SCALAR:
        fmt, n = _SCALAR[vtype]
        return struct.unpack(fmt, r.take(n, f"value of {key!r}"))[0]
    if vtype == _STRING:
        return r.string(f"value of {key!r}")
    if vtype == _ARRAY and depth == 0:
        at = r.pos
        item_type = r.u32(f"array type of {key!r}")
        count = r.u64(f"array length of {key!r}")
        if count > 1 << 32:
            raise ModelFileError(r.path, f"array {key!r} claims {count:,} items", offset=at)
        if item_type == _STRING and (count > MAX_GGUF_STRING_ITEMS
                                     or count * 8 > r.size - r.pos):
            raise ModelFileError(r.path, f"array {key!r} claims {count:,} strings, more "
                                         "than the file can hold (corrupt count)", offset=at)
        if item_type in _SCALAR:
            r.skip(_SCALAR[item_type][1] * count, f"array {key!r}")
            return _ArrayInfo(count)
        if item_type == _STRING:
            for i in range(count):
                n = r.u64(f"item {i} of {key!r}")
                r.skip(n, f"item {i} of {key!r}")
            return _ArrayInfo(count)
        raise ModelFileError(r.path, f"array {key!r} has unknown item type {item_type}",
                             offset=at)
    raise ModelFileError(r.path, f"unknown value type {vtype} for {key!r}",
                         offset=r.pos - 4)


@dataclass(frozen=True, slots=True)
class _ArrayInfo:
    count: int


def read_gguf_header(path: Path) -> tuple[int, dict[str, Any], list[TensorInfo], int]:
    """(version, metadata, tensors, data start) of a GGUF file; reads the header only."""
    from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType

    with open_model_file(path) as f:  # a regular file: never a FIFO or a folder
        size = os.fstat(f.fileno()).st_size
        r = _Reader(path, f, size)
        magic = r.take(4, "magic")
        if magic != b"GGUF":
            raise ModelFileError(path, f"not a GGUF file: magic {magic!r}", offset=0)
        version = r.u32("version")
        if version not in GGUF_READ_VERSIONS:
            newer = version > max(GGUF_READ_VERSIONS)
            raise ModelFileError(
                path, f"GGUF version {version} is " + (
                    f"newer than this reader knows ({max(GGUF_READ_VERSIONS)}): update the "
                    "app" if newer else "too old (version 1 used 32-bit counts)"),
                offset=4)
        at = r.pos
        n_tensors = r.u64("tensor count")
        n_kv = r.u64("metadata count")
        left = size - r.pos
        if (n_tensors > MAX_GGUF_TENSORS or n_kv > MAX_GGUF_METADATA
                or n_kv * MIN_METADATA_BYTES + n_tensors * MIN_TENSOR_BYTES > left):
            raise ModelFileError(path, f"{n_tensors:,} tensors and {n_kv:,} metadata "
                                       f"entries do not fit a {size:,}-byte file "
                                       "(truncated, or corrupt counts)", offset=at)
        meta: dict[str, Any] = {}
        for i in range(n_kv):
            key = r.string(f"metadata key {i}")
            vtype = r.u32(f"type of {key!r}")
            meta[key] = _gguf_value(r, vtype, key)
        infos: list[tuple[str, tuple[int, ...], int, int, int]] = []
        for i in range(n_tensors):
            entry_at = r.pos
            name = r.string(f"name of tensor {i}")
            n_dims = r.u32(f"dimension count of {name!r}")
            if n_dims > 8:
                raise ModelFileError(path, f"tensor {name!r} claims {n_dims} dimensions",
                                     offset=entry_at)
            dims = tuple(r.u64(f"dimension of {name!r}") for _ in range(n_dims))
            ttype = r.u32(f"type of {name!r}")
            offset = r.u64(f"offset of {name!r}")
            infos.append((name, dims, ttype, offset, entry_at))
        header_end = r.pos
    alignment = meta.get("general.alignment", 32)
    if not isinstance(alignment, int) or alignment <= 0 or alignment & (alignment - 1):
        raise ModelFileError(path, f"alignment {alignment!r} is not a power of two",
                             field_name="general.alignment")
    data_start = -(-header_end // alignment) * alignment
    tensors: list[TensorInfo] = []
    for name, dims, ttype, offset, entry_at in infos:
        try:
            qtype = GGMLQuantizationType(ttype)
            block, type_size = GGML_QUANT_SIZES[qtype]
        except (ValueError, KeyError):
            raise ModelFileError(path, f"tensor {name!r} has unknown type {ttype} (a newer "
                                       "llama.cpp type?)", offset=entry_at) from None
        numel = math.prod(dims) if dims else 1
        if numel % block:
            raise ModelFileError(path, f"tensor {name!r}: {numel} values is not a multiple "
                                       f"of the {qtype.name} block of {block}",
                                 offset=entry_at)
        nbytes = numel // block * type_size
        end = data_start + offset + nbytes
        if end > size:
            raise ModelFileError(path, f"truncated: tensor {name!r} ends at byte {end:,}, "
                                       f"the file has {size:,}", offset=size)
        tensors.append(TensorInfo(name, qtype.name, dims, nbytes))
    return version, meta, tensors, data_start


_GGUF_KIND = {"whisper": "encoder-decoder", "bert": "encoder", "nomic-bert": "encoder",
              "t5": "encoder-decoder", "t5encoder": "encoder"}


def _gguf_int(path: Path, meta: Mapping[str, Any], key: str) -> int | None:
    value = meta.get(key)
    if value is None:
        return None
    if isinstance(value, _ArrayInfo):  # per-layer values (e.g. head_count_kv): unknown
        return None
    return model_count(path, key, value)  # NaN, inf, 0, 1e300: refused by name


def load_gguf(path: Path) -> LoadedModel:
    from gguf.constants import LlamaFileType

    version, meta, tensors, _ = read_gguf_header(path)
    warnings: list[str] = []
    arch_name = meta.get("general.architecture")
    if not isinstance(arch_name, str) or not arch_name:
        raise ModelFileError(path, "no architecture", field_name="general.architecture")
    a = arch_name

    def get(key: str) -> int | None:
        return _gguf_int(path, meta, f"{a}.{key}")

    layers = get("block_count")
    hidden = get("embedding_length")
    heads = get("attention.head_count")
    kv_heads = get("attention.head_count_kv") or heads
    head_dim = get("attention.key_length")
    experts = get("expert_count")
    per_token = get("expert_used_count")
    shared = get("expert_shared_count")
    window = get("attention.sliding_window")
    kv_lora = get("attention.kv_lora_rank")
    rope = get("rope.dimension_count") if kv_lora else None
    intermediate = get("expert_feed_forward_length") if experts else None
    intermediate = intermediate or get("feed_forward_length")
    context = get("context_length")
    tokens = meta.get("tokenizer.ggml.tokens")
    vocab = get("vocab_size") or (tokens.count if isinstance(tokens, _ArrayInfo) else None)
    if heads and kv_heads and (kv_heads > heads or heads % kv_heads):
        raise ModelFileError(path, f"{kv_heads} KV heads do not divide {heads} heads",
                             field_name=f"{a}.attention.head_count_kv")
    if hidden and heads and not head_dim and hidden % heads == 0:
        head_dim = hidden // heads
    missing = [k for k, v in (("block_count", layers), ("embedding_length", hidden),
                              ("attention.head_count", heads)) if v is None]
    if missing:
        warnings.append(f"architecture {a!r}: missing " + ", ".join(f"{a}.{m}" for m in missing)
                        + " - the KV cache and activations are unknown")
    window_layers = None
    if window and layers:
        if a in ("gemma2", "gpt-oss"):
            window_layers = layers // 2
        elif a == "gemma3":
            window_layers = layers - layers // 6
        elif a in ("llama4",):
            window_layers = layers - layers // 4
    params = sum(t.numel for t in tensors)
    nbytes = sum(t.nbytes for t in tensors)
    if not params:
        raise ModelFileError(path, "no tensors in the tensor table")
    dtypes: dict[str, int] = {}
    for t in tensors:
        dtypes[t.dtype] = dtypes.get(t.dtype, 0) + t.numel
    names = {t.name for t in tensors}
    tied = "output.weight" not in names and "token_embd.weight" in names
    if experts and per_token and per_token > experts:
        raise ModelFileError(path, f"{per_token} experts per token of {experts}",
                             field_name=f"{a}.expert_used_count")
    active: float | None = None
    if experts and per_token:
        expert_params = sum(t.numel for t in tensors if "_exps." in t.name)
        active = params - expert_params + expert_params * per_token / experts
    label = None
    file_type = meta.get("general.file_type")
    if isinstance(file_type, int):
        try:
            label = LlamaFileType(file_type).name.removeprefix("MOSTLY_")
        except ValueError:
            warnings.append(f"general.file_type {file_type} is not a known llama.cpp type")
    if label == "ALL_F32":
        label = "F32"
    precision = {"F16": "FP16", "BF16": "BF16", "F32": "FP32", "MXFP4_MOE": "MXFP4",
                 "NVFP4": "FP4"}.get(label or "", label)
    bits = 8.0 * nbytes / params
    if precision not in WEIGHT_FORMATS:
        nearest = min((n for n in ("Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "Q4_0", "Q3_K_M",
                                   "BF16")),
                      key=lambda n: abs(WEIGHT_FORMATS[n].bits - bits))
        if label:
            warnings.append(f"{label} is not a named format here: weights are costed at the "
                            f"file's exact {bits:.2f} bits per weight, labelled {nearest}")
        precision = nearest
    kind = _GGUF_KIND.get(a, "decoder")
    name = meta.get("general.name") if isinstance(meta.get("general.name"), str) else path.stem
    model = ModelSpec(
        key="custom", name=str(name), kind=kind,  # type: ignore[arg-type]
        params=float(params), source=f"file {path} (GGUF v{version})",
        active_params=active if active is not None and active < params else None,
        layers=layers, hidden=hidden, heads=heads, kv_heads=kv_heads, head_dim=head_dim,
        intermediate=intermediate, vocab=vocab, context=context, experts=experts,
        experts_per_token=per_token, shared_experts=shared, sliding_window=window,
        sliding_window_layers=window_layers, kv_lora_rank=kv_lora, qk_rope_head_dim=rope,
        tied_embeddings=tied, mlp_matrices=3,
        weight_bytes=float(nbytes), stored_format=precision,
        notes=f"GGUF {a}, {label or 'unknown type'}, {bits:.2f} bits per weight over the file",
    )
    return LoadedModel(model, str(path), "gguf", params, nbytes, dtypes, label, precision,
                       a, tuple(tensors), tuple(warnings))
