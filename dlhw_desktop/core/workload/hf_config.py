"""Hugging Face ``config.json`` reading: the architecture figures of a ``ModelSpec`` from a
config (multimodal ones through their ``text_config``), the quantisation it declares, the
parameters estimated from the shapes when no weights are present (``estimate_params``,
``tower_params`` for vision and audio encoders), and the weights counted from the
safetensors headers or ``model.safetensors.index.json`` beside it (``load_hf_config``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dlhw_desktop.core.limits import MAX_MODEL_CONFIG_BYTES, MAX_MODEL_INDEX_BYTES
from dlhw_desktop.core.numbers import NumberError, NumberField
from dlhw_desktop.core.workload.model_file_types import (
    LoadedModel,
    ModelFileError,
    TensorInfo,
    model_count,
    read_model_json,
)
from dlhw_desktop.core.workload.models import ModelSpec
from dlhw_desktop.core.workload.precision import WEIGHT_FORMATS
from dlhw_desktop.core.workload.safetensors_reader import (
    format_of_dtypes,
    read_safetensors_header,
    summarise_tensors,
)

INDEX_BYTES = NumberField("metadata.total_size", "Weights' size", 0, 1e15, low_open=True,
                          unit="bytes")
"""An index's total size of the weights: above zero, at most a petabyte."""

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
    """A count of the config (``num_hidden_layers``...): whole, positive, finite and at
    most a billion (``model_count``), or ``ModelFileError`` naming the field."""
    name, value = _first(cfg, *names)
    if name is None:
        return None
    return model_count(path, name, value)


def _read_json(path: Path, max_bytes: int = MAX_MODEL_CONFIG_BYTES) -> Any:
    """A config or index: bounded, regular files only (``read_model_json``)."""
    return read_model_json(path, max_bytes)


def _shard_paths(index_path: Path, folder: Path, weight_map: Mapping[Any, Any]
                 ) -> tuple[list[Path], int]:
    """The shards ``weight_map`` names that are present, and how many it names. A name
    must be a plain file name inside the model folder: an absolute path, a ``..`` or a
    link that leads outside (``../../../../etc/passwd``) is refused, never read."""
    if not all(isinstance(v, str) for v in weight_map.values()):
        raise ModelFileError(index_path, "a shard name is not text", field_name="weight_map")
    names = sorted(set(weight_map.values()))
    root = os.path.realpath(folder)
    present = []
    for name in names:
        candidate = folder / name
        real = os.path.realpath(candidate)
        if (not name or os.path.isabs(name) or ".." in Path(name).parts or "\\" in name
                or "\0" in name or os.path.commonpath([root, real]) != root):
            shown = name if len(name) <= 60 else name[:57] + "..."
            raise ModelFileError(index_path, f"shard {shown!r} is outside the model folder",
                                 field_name="weight_map")
        if os.path.lexists(candidate):
            present.append(candidate)
    return present, len(names)


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
            double = bool(quant.get("bnb_4bit_use_double_quant", False))
            return ("NF4-DQ" if double else "NF4"), warnings
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


_OTHER_COUNTS = ("q_lora_rank", "qk_nope_head_dim", "v_head_dim", "kv_lora_rank",
                 "qk_rope_head_dim", "first_k_dense_replace", "interleave_moe_layer_step",
                 "intermediate_size_mlp", "no_rope_layer_interval", "sliding_window_pattern",
                 "num_experts_per_tok", "experts_per_token", "moe_intermediate_size")
"""Counts ``estimate_params`` and the window layers read straight from the config: each
checked (zero allowed: ``first_k_dense_replace: 0``) before any arithmetic uses it."""

_COUNT_OR_ZERO = NumberField("", "a count", 0, 1e9, whole=True)


def _check_other_counts(path: Path, arch: Mapping[str, Any]) -> None:
    for key in _OTHER_COUNTS:
        value = arch.get(key)
        if value is not None:
            try:
                _COUNT_OR_ZERO.check(value)
            except NumberError as exc:
                raise ModelFileError(path, str(exc).split(": ", 1)[-1],
                                     field_name=key) from None


def _model_from_config(path: Path, cfg: Mapping[str, Any], name: str
                       ) -> tuple[dict[str, Any], list[str]]:
    """ModelSpec keyword figures from a config.json; missing ones stay ``None``."""
    warnings: list[str] = []
    arch = _arch_config(cfg)
    _check_other_counts(path, arch)
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


def load_hf_config(config_path: Path, *, folder: bool,
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
            index = _read_json(index_path, MAX_MODEL_INDEX_BYTES)
            weight_map = index.get("weight_map") if isinstance(index, Mapping) else None
            if not isinstance(weight_map, Mapping):
                raise ModelFileError(index_path, "no weight_map", field_name="weight_map")
            meta = index.get("metadata") or {}
            total = meta.get("total_size") if isinstance(meta, Mapping) else None
            if total is not None:
                try:
                    index_total = float(INDEX_BYTES.check(total))
                except NumberError as exc:
                    raise ModelFileError(index_path, str(exc).split(": ", 1)[-1],
                                         field_name="metadata.total_size") from None
            present, named = _shard_paths(index_path, folder_path, weight_map)
            if present and len(present) < named:
                warnings.append(f"{named - len(present)} of {named} shards named "
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
        counted, weight_bytes, dtypes = summarise_tensors(tensors, quant_cfg if isinstance(
            quant_cfg, Mapping) else None)
        params_exact = counted or None
        fmt = fmt or format_of_dtypes(dtypes)
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
