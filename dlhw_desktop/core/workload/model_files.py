"""Models from files, offline: a Hugging Face folder or its ``config.json``, safetensors
headers, a GGUF file. ``load_model_file(path)`` is the one entry point (the CLI's
``dlhw fit --model PATH`` and the desktop's File > Open model... both call it).

Only headers are read, never tensor data, so a 50 GB file opens as fast as a small one:

- **safetensors**: an 8-byte little-endian header length, then that many bytes of JSON
  naming every tensor's dtype, shape and byte range
  (https://github.com/huggingface/safetensors, "Format"). A sharded folder lists its
  shards in ``model.safetensors.index.json`` (``weight_map``; ``metadata.total_size``).
- **GGUF**: magic ``GGUF``, a version, the tensor and metadata counts, the metadata
  key/value pairs and the tensor table (name, dimensions, type, offset), then the data
  aligned to ``general.alignment`` (https://github.com/ggml-org/ggml/blob/master/docs/gguf.md).
  The header is parsed here, with the type sizes and names of the ``gguf`` package
  (``gguf.constants``: ``GGML_QUANT_SIZES``, ``LlamaFileType``), so every error can
  name its byte offset.

Bad input raises ``ModelFileError`` naming the field or byte offset; what can be
estimated is, the rest stays unknown (``None``) with a warning saying why.
"""

from __future__ import annotations

import json
import math
import os
import struct
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from dlhw_desktop.core.workload.errors import WorkloadError
from dlhw_desktop.core.workload.models import ModelSpec
from dlhw_desktop.core.workload.precision import WEIGHT_FORMATS

MAX_JSON_HEADER = 100 * 1024 * 1024
"""The safetensors reference implementation refuses headers above 100 MB."""

MAX_GGUF_COUNT = 10_000_000
"""More tensors or metadata entries than any real model has: a corrupt count."""

GGUF_READ_VERSIONS = (2, 3)
"""GGUF versions with 64-bit counts (v1 had 32-bit ones and is long gone)."""


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


def looks_like_model_file(text: str) -> bool:
    """True when ``text`` names something on disk rather than a preset: it exists, ends
    like a model file, or is a path that is no preset name (``vit-b/16`` is a preset)."""
    if not text:
        return False
    if Path(text).exists() or text.endswith((".gguf", ".json", ".safetensors")):
        return True
    if "/" in text or os.sep in text:
        from dlhw_desktop.core.workload.errors import UnknownModelError
        from dlhw_desktop.core.workload.models import preset

        try:
            preset(text)
        except UnknownModelError:
            return True
    return False


def load_model_file(path: str | os.PathLike[str]) -> LoadedModel:
    """A model from a GGUF file, a safetensors file, a Hugging Face folder or its
    ``config.json`` (with ``model.safetensors.index.json`` or safetensors shards beside it
    when present). Raises ``ModelFileError`` naming the field or byte offset."""
    p = Path(path)
    if not p.exists():
        raise ModelFileError(p, "no such file or folder")
    if p.is_dir():
        config = p / "config.json"
        if config.is_file():
            return _load_hf(config, folder=True)
        gguf_files = sorted(p.glob("*.gguf"))
        if len(gguf_files) == 1:
            return _load_gguf(gguf_files[0])
        raise ModelFileError(p, "a model folder needs a config.json (or exactly one .gguf "
                                "file)", field_name="config.json")
    if not p.is_file():  # a FIFO or a device would block or never end
        raise ModelFileError(p, "not a regular file")
    with open(p, "rb") as f:
        head = f.read(8)
    if head[:4] == b"GGUF":
        return _load_gguf(p)
    if p.suffix == ".gguf":
        raise ModelFileError(p, f"not a GGUF file: the magic is {head[:4]!r}, not b'GGUF'",
                             offset=0)
    if p.suffix == ".safetensors":
        return _load_safetensors_file(p)
    if p.name.endswith(".json") or head[:1] in (b"{", b" ", b"\n"):
        return _load_hf(p, folder=False)
    raise ModelFileError(p, "not a model file: expected a .gguf file, a .safetensors file, "
                            "a config.json or a Hugging Face model folder", offset=0)


# --- safetensors -------------------------------------------------------------------------

SAFETENSORS_BYTES: dict[str, float] = {
    "F64": 8, "I64": 8, "U64": 8, "F32": 4, "I32": 4, "U32": 4, "F16": 2, "BF16": 2,
    "I16": 2, "U16": 2, "F8_E4M3": 1, "F8_E5M2": 1, "F8_E8M0": 1, "I8": 1, "U8": 1,
    "BOOL": 1, "F4": 0.5, "F6_E2M3": 0.75, "F6_E3M2": 0.75,
}
"""Bytes per element of each safetensors dtype (the format's dtype list)."""


def read_safetensors_header(path: Path) -> tuple[dict[str, TensorInfo], int]:
    """Every tensor of one safetensors file, and the file size; only the header is read."""
    size = path.stat().st_size
    with open(path, "rb") as f:
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
        header = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        pos = getattr(exc, "pos", 0) or 0
        raise ModelFileError(path, f"header is not JSON ({exc.__class__.__name__})",
                             offset=8 + pos) from None
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


def _summarise(tensors: Mapping[str, TensorInfo], quant: Mapping[str, Any] | None
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


def _load_safetensors_file(path: Path) -> LoadedModel:
    tensors, _ = read_safetensors_header(path)
    config = path.parent / "config.json"
    if config.is_file():
        loaded = _load_hf(config, folder=True, shards=[path])
        return replace(loaded, source_kind="safetensors")
    params, nbytes, dtypes = _summarise(tensors, None)
    if not params:
        raise ModelFileError(path, "no tensors in the header")
    fmt = _format_of_dtypes(dtypes)
    model = ModelSpec("custom", path.stem, "custom", float(params), f"file {path}",
                      weight_bytes=float(nbytes), stored_format=fmt)
    return LoadedModel(model, str(path), "safetensors", params, nbytes, dtypes, None, fmt,
                       None, tuple(tensors.values()),
                       ("no config.json beside the file: architecture unknown, so the "
                        "KV cache and activations cannot be estimated",))


def _format_of_dtypes(dtypes: Mapping[str, int]) -> str | None:
    """The format most parameters are stored in, as a ``WEIGHT_FORMATS`` name."""
    if not dtypes:
        return None
    main = max(dtypes, key=lambda k: dtypes[k])
    return {"BF16": "BF16", "F16": "FP16", "F32": "FP32", "F8_E4M3": "FP8",
            "F8_E5M2": "FP8"}.get(main)


# --- Hugging Face config.json ------------------------------------------------------------

_KNOWN_MODEL_TYPES = frozenset({
    "llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "gemma",
    "gemma2", "gemma3", "gemma3_text", "phi3", "phi", "gpt2", "gpt_neox", "falcon",
    "deepseek_v2", "deepseek_v3", "gpt_oss", "llama4", "llama4_text", "whisper", "bert",
    "roberta", "t5", "olmo", "olmo2", "starcoder2", "cohere", "granite", "mistral3",
})


def _first(cfg: Mapping[str, Any], *names: str) -> tuple[str | None, Any]:
    for name in names:
        if name in cfg and cfg[name] is not None:
            return name, cfg[name]
    return None, None


def _int_field(path: Path, cfg: Mapping[str, Any], *names: str) -> int | None:
    name, value = _first(cfg, *names)
    if name is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise ModelFileError(path, f"must be a whole number, got {value!r}", field_name=name)
    if value <= 0:
        raise ModelFileError(path, f"must be positive, got {value!r}", field_name=name)
    return int(value)


def _read_json(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ModelFileError(path, "not UTF-8 text", offset=exc.start) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ModelFileError(path, f"not JSON: {exc.msg} (line {exc.lineno}, column "
                                   f"{exc.colno})", offset=exc.pos) from None


def _quantisation(path: Path, quant: Mapping[str, Any] | None
                  ) -> tuple[str | None, list[str]]:
    """The ``WEIGHT_FORMATS`` name for a ``quantization_config``."""
    if not quant:
        return None, []
    if not isinstance(quant, Mapping):
        raise ModelFileError(path, "must be an object", field_name="quantization_config")
    method = str(quant.get("quant_method", "")).lower()
    warnings: list[str] = []
    if method == "bitsandbytes":
        if quant.get("load_in_4bit"):
            kind = str(quant.get("bnb_4bit_quant_type", "fp4")).lower()
            if kind != "nf4":
                warnings.append("bitsandbytes FP4 costed like NF4 (same block layout)")
            return "NF4", warnings
        return "BNB-INT8", warnings
    if method in ("gptq", "awq"):
        bits = quant.get("bits", quant.get("w_bit", 4))
        group = quant.get("group_size", quant.get("q_group_size", 128))
        name = f"{method.upper()}-{bits}BIT" + ("" if group in (128, None) else f"-G{group}")
        if name in WEIGHT_FORMATS:
            return name, warnings
        warnings.append(f"{method} with {bits} bits, group {group}: costed as the nearest "
                        "known layout")
        return ("GPTQ-8BIT" if bits == 8 else f"{method.upper()}-4BIT"), warnings
    if method == "fp8":
        return ("FP8-BLOCK" if quant.get("weight_block_size") else "FP8"), warnings
    if method == "mxfp4":
        return "MXFP4", warnings
    warnings.append(f"quantization method {method!r} is not modelled: weights are costed "
                    "from the stored tensors where they were read")
    return None, warnings


def _arch_config(cfg: Mapping[str, Any]) -> Mapping[str, Any]:
    """The language model's part of a multimodal config (Gemma 3, Llama 4, Mistral 3)."""
    text = cfg.get("text_config")
    if isinstance(text, Mapping):
        merged = dict(text)
        for key in ("tie_word_embeddings", "quantization_config", "torch_dtype"):
            if key in cfg and key not in merged:
                merged[key] = cfg[key]
        return merged
    return cfg


def _window_layers(path: Path, arch: Mapping[str, Any], layers: int | None,
                   window: int | None) -> int | None:
    if not window or not layers:
        return None
    types = arch.get("layer_types")
    if isinstance(types, list) and types:
        return sum(1 for t in types if "sliding" in str(t) or "chunked" in str(t))
    pattern = arch.get("sliding_window_pattern")
    if isinstance(pattern, int) and pattern > 0:
        return layers - layers // pattern
    model_type = str(arch.get("model_type", ""))
    if model_type in ("gemma2", "gpt_oss"):
        return layers // 2
    if model_type in ("qwen2", "qwen3", "qwen2_moe", "qwen3_moe") and not arch.get(
            "use_sliding_window", False):
        return 0
    return None


def estimate_params(arch: Mapping[str, Any], *, layers: int, hidden: int, heads: int,
                    kv_heads: int, head_dim: int, intermediate: int | None, vocab: int | None,
                    experts: int | None, shared: int | None, tied: bool,
                    mlp_matrices: int) -> tuple[float, float | None]:
    """Parameters from the shapes (total, active), for a config without weights.

    Per layer: attention q, k, v, o (or MLA's low-rank projections) + MLP
    (``mlp_matrices`` x hidden x intermediate, per expert for MoE) + norms; plus the
    embeddings (twice unless tied). Biases are left out (a fraction of a percent). The
    active count has the routed experts a token uses, the shared ones and the output
    layer, not the input embedding lookup.
    """
    if arch.get("kv_lora_rank"):
        q_rank = arch.get("q_lora_rank") or 0
        nope = arch.get("qk_nope_head_dim") or head_dim
        rope = arch.get("qk_rope_head_dim") or 0
        v_dim = arch.get("v_head_dim") or head_dim
        kv_rank = arch["kv_lora_rank"]
        q = (hidden * q_rank + q_rank * heads * (nope + rope)) if q_rank else (
            hidden * heads * (nope + rope))
        attention = (q + hidden * (kv_rank + rope) + kv_rank * heads * (nope + v_dim)
                     + heads * v_dim * hidden)
    else:
        attention = hidden * heads * head_dim * 2 + hidden * kv_heads * head_dim * 2
    inter = intermediate or 4 * hidden
    dense_inter = (arch.get("intermediate_size_mlp") or arch.get("intermediate_size")
                   or inter)
    expert_mlp = mlp_matrices * hidden * inter
    dense_layers = int(arch.get("first_k_dense_replace") or 0) if experts else layers
    step = int(arch.get("interleave_moe_layer_step") or 1) if experts else 1
    moe_layers = (layers - dense_layers) // max(step, 1) if experts else 0
    dense_layers = layers - moe_layers
    shared_mlp = (shared or 0) * expert_mlp
    router = hidden * (experts or 0)
    dense_mlp = mlp_matrices * hidden * dense_inter
    total = layers * (attention + 2 * hidden) + dense_layers * dense_mlp
    active = total
    if experts:
        total += moe_layers * (experts * expert_mlp + shared_mlp + router)
        k = int(arch.get("num_experts_per_tok") or arch.get("experts_per_token") or 1)
        active += moe_layers * (k * expert_mlp + shared_mlp + router)
    embed = (vocab or 0) * hidden * (1 if tied else 2)
    # active: what a token computes with, so the output layer but not the input lookup
    # (gpt-oss model card Table 1: 5.13B active of 116.83B for the 120b)
    head = (vocab or 0) * hidden
    return float(total + embed), (float(active + head) if experts else None)


def tower_params(tower: Mapping[str, Any]) -> float | None:
    """A ViT-style vision or audio encoder from its config: layers x (4h^2 + 2hi) for the
    attention and MLP matrices, plus the patch embedding (SigLIP So400m in Gemma 3: 27
    layers, h 1152, i 4304 -> 411M; the Gemma 3 report gives 417M)."""
    layers = tower.get("num_hidden_layers") or tower.get("depth") or tower.get("num_layers")
    hidden = tower.get("hidden_size") or tower.get("d_model") or tower.get("width")
    inter = tower.get("intermediate_size") or tower.get("encoder_ffn_dim")
    if not all(isinstance(v, int) and v > 0 for v in (layers, hidden)):
        return None
    assert isinstance(layers, int) and isinstance(hidden, int)
    inter = inter if isinstance(inter, int) and inter > 0 else 4 * hidden
    patch = tower.get("patch_size")
    channels = tower.get("num_channels", 3)
    embed = (patch * patch * channels * hidden if isinstance(patch, int)
             and isinstance(channels, int) else 0)
    return float(layers * (4 * hidden * hidden + 2 * hidden * inter) + embed)


def _model_from_config(path: Path, cfg: Mapping[str, Any], name: str
                       ) -> tuple[dict[str, Any], list[str]]:
    """ModelSpec keyword figures from a config.json; missing ones stay ``None``."""
    warnings: list[str] = []
    arch = _arch_config(cfg)
    model_type = str(arch.get("model_type") or cfg.get("model_type") or "")
    if model_type and model_type not in _KNOWN_MODEL_TYPES:
        warnings.append(f"unknown architecture {model_type!r}: read with the common "
                        "config.json fields")
    if model_type == "whisper" or cfg.get("is_encoder_decoder"):
        layers = _int_field(path, arch, "decoder_layers", "num_decoder_layers",
                            "num_hidden_layers")
        enc_layers = _int_field(path, arch, "encoder_layers", "num_layers")
        hidden = _int_field(path, arch, "d_model", "hidden_size")
        heads = _int_field(path, arch, "decoder_attention_heads", "num_heads",
                           "num_attention_heads")
        kind = "encoder-decoder"
    else:
        layers = _int_field(path, arch, "num_hidden_layers", "n_layer", "n_layers",
                            "num_layers")
        enc_layers = None
        hidden = _int_field(path, arch, "hidden_size", "n_embd", "d_model", "dim")
        heads = _int_field(path, arch, "num_attention_heads", "n_head", "n_heads")
        kind = "encoder" if model_type in ("bert", "roberta") else "decoder"
    kv_heads = _int_field(path, arch, "num_key_value_heads", "num_kv_heads",
                          "n_kv_heads") or heads
    head_dim = _int_field(path, arch, "head_dim")
    if heads and kv_heads and (kv_heads > heads or heads % kv_heads):
        raise ModelFileError(path, f"{kv_heads} key/value heads do not divide "
                                   f"{heads} attention heads",
                             field_name="num_key_value_heads")
    if hidden and heads and not head_dim:
        if hidden % heads:
            raise ModelFileError(path, f"hidden size {hidden} is not a multiple of {heads} "
                                       "heads and no head_dim is given",
                                 field_name="head_dim")
        head_dim = hidden // heads
    experts = _int_field(path, arch, "num_local_experts", "n_routed_experts", "num_experts")
    per_token = _int_field(path, arch, "num_experts_per_tok", "experts_per_token",
                           "moe_topk")
    if experts and per_token and per_token > experts:
        raise ModelFileError(path, f"{per_token} experts per token of {experts}",
                             field_name="num_experts_per_tok")
    shared = _int_field(path, arch, "n_shared_experts", "num_shared_experts")
    if not shared and model_type.startswith("llama4") and experts:
        shared = 1
    intermediate = _int_field(path, arch, "moe_intermediate_size") if experts else None
    intermediate = intermediate or _int_field(path, arch, "intermediate_size", "ffn_dim",
                                              "n_inner", "encoder_ffn_dim",
                                              "decoder_ffn_dim")
    vocab = _int_field(path, arch, "vocab_size", "n_vocab")
    context = _int_field(path, arch, "max_position_embeddings", "n_positions",
                         "max_target_positions", "max_sequence_length", "seq_length")
    window = _int_field(path, arch, "sliding_window", "attention_chunk_size")
    if model_type.startswith("llama4") and window is None:
        window = _int_field(path, arch, "attention_chunk_size")
    window_layers = _window_layers(path, arch, layers, window)
    if model_type.startswith("llama4") and window and layers:
        interval = int(arch.get("no_rope_layer_interval") or 4)
        window_layers = layers - layers // interval
    if window_layers == 0:
        window = None
        window_layers = None
    kv_lora = _int_field(path, arch, "kv_lora_rank")
    rope = _int_field(path, arch, "qk_rope_head_dim")
    tied = bool(arch.get("tie_word_embeddings", cfg.get("tie_word_embeddings", False)))
    act = str(arch.get("hidden_act", arch.get("hidden_activation", "silu")) or "silu")
    gated = model_type not in ("gpt2", "bert", "roberta", "whisper", "gpt_neox", "phi",
                               "falcon", "starcoder2") and "gelu_new" not in act
    encoder_tokens = _int_field(path, arch, "max_source_positions") if (
        kind == "encoder-decoder") else None
    figures: dict[str, Any] = dict(
        layers=layers, hidden=hidden, heads=heads, kv_heads=kv_heads, head_dim=head_dim,
        intermediate=intermediate, vocab=vocab, context=context, experts=experts,
        experts_per_token=per_token, shared_experts=shared, sliding_window=window,
        sliding_window_layers=window_layers, kv_lora_rank=kv_lora, qk_rope_head_dim=rope,
        tied_embeddings=tied, encoder_layers=enc_layers, encoder_tokens=encoder_tokens,
        mlp_matrices=3 if gated else 2,
    )
    missing = [label for label, value in (("num_hidden_layers", layers),
                                          ("hidden_size", hidden),
                                          ("num_attention_heads", heads)) if value is None]
    if missing:
        warnings.append("missing " + ", ".join(missing) + ": the KV cache and activations "
                        "are unknown")
    figures["_kind"] = kind
    figures["_model_type"] = model_type
    figures["_arch"] = arch
    return figures, warnings


def _load_hf(config_path: Path, *, folder: bool,
             shards: list[Path] | None = None) -> LoadedModel:
    cfg = _read_json(config_path)
    if not isinstance(cfg, Mapping):
        raise ModelFileError(config_path, "config.json is not a JSON object", offset=0)
    if "model_type" not in cfg and "architectures" not in cfg and "text_config" not in cfg:
        raise ModelFileError(config_path, "not a Hugging Face model config: no model_type "
                                          "or architectures", field_name="model_type")
    folder_path = config_path.parent
    name = str(cfg.get("_name_or_path") or (folder_path.name if folder else "")
               or config_path.stem)
    figures, warnings = _model_from_config(config_path, cfg, name)
    arch = figures.pop("_arch")
    kind = figures.pop("_kind")
    model_type = figures.pop("_model_type")
    quant_cfg = arch.get("quantization_config")
    fmt, quant_warnings = _quantisation(config_path, quant_cfg)
    warnings.extend(quant_warnings)

    # weights: the safetensors headers beside the config, else the index's total size
    tensors: dict[str, TensorInfo] = {}
    shard_paths = shards
    index_path = folder_path / "model.safetensors.index.json"
    index_total: float | None = None
    if shard_paths is None:
        shard_paths = []
        if index_path.is_file():
            index = _read_json(index_path)
            weight_map = index.get("weight_map") if isinstance(index, Mapping) else None
            if not isinstance(weight_map, Mapping):
                raise ModelFileError(index_path, "no weight_map", field_name="weight_map")
            meta = index.get("metadata") or {}
            total = meta.get("total_size") if isinstance(meta, Mapping) else None
            if total is not None:
                if not isinstance(total, int | float) or total <= 0:
                    raise ModelFileError(index_path, f"must be a positive number, got "
                                                     f"{total!r}",
                                         field_name="metadata.total_size")
                index_total = float(total)
            names = sorted({str(v) for v in weight_map.values()})
            present = [folder_path / n for n in names if (folder_path / n).is_file()]
            if present and len(present) < len(names):
                warnings.append(f"{len(names) - len(present)} of {len(names)} shards named "
                                "in model.safetensors.index.json are missing: weights "
                                "from the index's total size")
                present = []
            shard_paths = present
        else:
            shard_paths = sorted(folder_path.glob("*.safetensors")) if folder else []
    for shard in shard_paths:
        found, _ = read_safetensors_header(shard)
        tensors.update(found)

    params_exact: int | None = None
    weight_bytes: int | None = None
    dtypes: dict[str, int] = {}
    if tensors:
        counted, weight_bytes, dtypes = _summarise(tensors, quant_cfg if isinstance(
            quant_cfg, Mapping) else None)
        params_exact = counted or None
        fmt = fmt or _format_of_dtypes(dtypes)
    dtype_name = str(arch.get("torch_dtype") or cfg.get("torch_dtype") or "")
    if fmt is None:
        fmt = {"bfloat16": "BF16", "float16": "FP16", "float32": "FP32"}.get(dtype_name)

    active: float | None = None
    params: float | None = float(params_exact) if params_exact else None
    arch_ok = all(figures.get(k) for k in ("layers", "hidden", "heads"))
    if arch_ok:
        estimated, active = estimate_params(
            arch, layers=figures["layers"] + (figures.get("encoder_layers") or 0),
            hidden=figures["hidden"], heads=figures["heads"],
            kv_heads=figures["kv_heads"] or figures["heads"],
            head_dim=figures["head_dim"] or figures["hidden"] // figures["heads"],
            intermediate=figures["intermediate"], vocab=figures["vocab"],
            experts=figures["experts"], shared=figures["shared_experts"],
            tied=bool(figures["tied_embeddings"]), mlp_matrices=figures["mlp_matrices"])
        if params is None:
            if index_total and fmt in WEIGHT_FORMATS and not WEIGHT_FORMATS[fmt].quantised:
                params = index_total / WEIGHT_FORMATS[fmt].bytes_per_param
                warnings.append("parameters from model.safetensors.index.json's total size "
                                f"at {WEIGHT_FORMATS[fmt].bits:g} bits (shards not present)")
            else:
                params = estimated
                warnings.append("parameters estimated from the architecture (no weights "
                                "read); biases are not counted")
        elif active is not None and estimated:
            active = active * params / estimated  # scale to the exact total
    elif params is None and index_total and fmt in WEIGHT_FORMATS:
        params = index_total / WEIGHT_FORMATS[fmt].bytes_per_param
        warnings.append("parameters from model.safetensors.index.json's total size")
    if params is None:
        raise ModelFileError(config_path, "cannot tell the parameter count: no weights and "
                                          "no num_hidden_layers/hidden_size/"
                                          "num_attention_heads",
                             field_name="num_hidden_layers")
    if index_total and weight_bytes is None and fmt is not None:
        weight_bytes = int(index_total)
    if figures["experts"] and active is None:
        warnings.append("mixture of experts: active parameters unknown")
    components: tuple[tuple[str, float], ...] = ()
    towers: list[tuple[str, float]] = []
    for label, key in (("Vision tower", "vision_config"), ("Audio tower", "audio_config")):
        tower = cfg.get(key)
        if isinstance(tower, Mapping):
            size = tower_params(tower)
            if size is None:
                warnings.append(f"{label} in the config ({key}) without its sizes: not "
                                "counted")
            else:
                towers.append((label, size))
    if towers:
        components = (("Language model", float(params)), *towers)
        if params_exact is None:
            params += sum(size for _, size in towers)
            warnings.append(", ".join(f"{label} ~{size / 1e6:,.0f}M" for label, size in towers)
                            + " estimated from its config and added to the parameters")
    source = f"file {config_path}"
    model = ModelSpec(
        key="custom", name=name, kind=kind,  # type: ignore[arg-type]
        params=float(params), source=source,
        active_params=(float(active) if active is not None and active < params else None),
        components=components,
        weight_bytes=float(weight_bytes) if weight_bytes else None,
        stored_format=fmt if weight_bytes else None,
        notes=f"read from {config_path.name}" + (f" ({model_type})" if model_type else ""),
        **figures,
    )
    return LoadedModel(model, str(config_path if not folder else folder_path),
                       "hf-folder" if folder else "hf-config", params_exact, weight_bytes,
                       dtypes, fmt if quant_cfg else None, fmt, model_type or None,
                       tuple(tensors.values()), tuple(warnings))


# --- GGUF --------------------------------------------------------------------------------


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

    size = path.stat().st_size
    with open(path, "rb", buffering=1 << 16) as f:
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
        if n_tensors > MAX_GGUF_COUNT or n_kv > MAX_GGUF_COUNT:
            raise ModelFileError(path, f"corrupt counts ({n_tensors:,} tensors, {n_kv:,} "
                                       "metadata entries)", offset=at)
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
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ModelFileError(path, f"must be a positive number, got {value!r}",
                             field_name=key)
    return int(value)


def _load_gguf(path: Path) -> LoadedModel:
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
