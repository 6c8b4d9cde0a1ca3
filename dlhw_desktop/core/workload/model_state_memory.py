"""Memory of what a model holds, in bytes: its weights at a format, the KV cache, and the
training state per trained parameter (fp32 master copy, gradients, optimizer moments,
LoRA adapters). ``memory.estimate_memory`` adds them up per GPU.

- KV cache: 2 (K and V) x layers x KV heads x head dim x bytes x tokens x batch; with
  grouped-query attention only the KV heads are cached (Ainslie et al. 2023, GQA,
  https://arxiv.org/abs/2305.13245), which is why Llama 3 8B needs 128 KiB per token in
  BF16 and not the 512 KiB a 32-head multi-head model of its width would.
- Training state: Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training
  Trillion Parameter Models", https://arxiv.org/abs/1910.02054 (section 3 and figure 1).
- LoRA: Hu et al. 2021, https://arxiv.org/abs/2106.09685; QLoRA: Dettmers et al. 2023,
  https://arxiv.org/abs/2305.14314.
"""

from __future__ import annotations

import math

from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.models import ModelSpec
from dlhw_desktop.core.workload.precision import bytes_per_param, weight_format

LORA_PARAMS_PER_RANK_FRACTION = 1 / 3072
"""Adapter parameters per unit of rank, as a fraction of the base, for models given by
parameter count only. Calibrated on Llama 3.1 8B with adapters on every linear layer
(q, k, v, o, gate, up, down): 41.9M adapter parameters at rank 16 = 0.52 % of 8.03B."""


# --- weights and KV cache ---------------------------------------------------------


def weights_bytes(model: ModelSpec, fmt: str) -> float:
    """Every parameter at ``fmt``: params x bits per weight / 8.

    MoE models hold every expert in memory, so this uses the total count (Mixtral 8x7B:
    46.7B, not the 12.9B a token uses). Quantised formats include their per-block scales
    (see ``precision.WEIGHT_FORMATS``). Formats that quantise only the blocks' linear
    layers (bitsandbytes NF4/INT8, GPTQ, AWQ, FP8 checkpoints, MXFP4) keep the token
    embeddings and the output layer in 16-bit (bitsandbytes replaces ``nn.Linear`` modules
    and skips ``lm_head``; transformers' ``llm_int8_skip_modules`` default), so those
    ``ModelSpec.embedding_params`` are counted at 16 bits when the vocabulary is known.
    A model read from a file in the format it is stored in uses the file's exact bytes
    (``ModelSpec.weight_bytes``: every tensor's own type, as llama.cpp loads it).
    """
    wf = weight_format(fmt)
    if model.weight_bytes and model.stored_format == wf.name:
        return model.weight_bytes
    embed = model.embedding_params if wf.embeddings_16bit else None
    if embed is None or embed >= model.params:
        return model.params * wf.bytes_per_param
    return (model.params - embed) * wf.bytes_per_param + embed * 2.0


def kv_bytes_per_layer_token(model: ModelSpec, kv_precision: str = "BF16") -> float | None:
    """Bytes one token adds to one layer's cache.

    Standard attention: 2 (K and V) x KV heads x head dim x bytes; only the KV heads are
    cached (GQA/MQA, Ainslie et al. 2023). Multi-head latent attention caches one
    compressed latent of ``kv_lora_rank`` plus the decoupled rotary key of
    ``qk_rope_head_dim`` per token and layer, shared by all heads (DeepSeek-AI 2024,
    DeepSeek-V2, https://arxiv.org/abs/2405.04434 section 2.1.3 and Table 1:
    (d_c + d_h^R) x l elements per token; DeepSeek-V3: (512 + 64) x 61 layers).
    """
    per = bytes_per_param(kv_precision)
    if model.is_mla:
        assert model.kv_lora_rank is not None
        return (model.kv_lora_rank + (model.qk_rope_head_dim or 0)) * per
    if not model.has_architecture or model.head_dim_effective is None:
        return None
    assert model.kv_heads_effective is not None
    return 2.0 * model.kv_heads_effective * model.head_dim_effective * per


def kv_cache_bytes_per_token(model: ModelSpec, kv_precision: str = "BF16") -> float | None:
    """Bytes of K and V one token adds to the cache over all layers.

    Llama 3 8B (32 layers, 8 KV heads, head dim 128) needs 2 x 32 x 8 x 128 x 2 = 131,072
    bytes = 128 KiB per token in BF16; DeepSeek-V3 (MLA) (512 + 64) x 61 x 2 = 70,272.
    ``None`` when the architecture is unknown; 0 for models that do not generate.
    """
    if not model.autoregressive:
        return 0.0
    per_layer = kv_bytes_per_layer_token(model, kv_precision)
    if per_layer is None or not model.layers:
        return None
    return per_layer * model.layers


def sliding_window_layer_count(model: ModelSpec) -> int:
    """Layers attending within the sliding window (all of them when not split)."""
    if not model.sliding_window or not model.layers:
        return 0
    if model.sliding_window_layers is None:
        return model.layers
    return min(model.sliding_window_layers, model.layers)


def kv_cache_bytes(
    model: ModelSpec,
    seq: int,
    batch: int,
    kv_precision: str = "BF16",
    tensor_parallel: int = 1,
) -> float | None:
    """The KV cache of ``batch`` sequences of ``seq`` tokens, per GPU.

    Per layer and token as ``kv_bytes_per_layer_token``, times tokens and batch.
    Sliding-window layers keep only the last ``sliding_window`` tokens (Mistral 7B's
    rolling buffer, Jiang et al. 2023 section 2); models that alternate local and global
    layers (Gemma 2: 1 local to 1 global, window 4096, https://arxiv.org/abs/2408.00118
    section 2; Gemma 3: 5 local to 1 global, window 1024, https://arxiv.org/abs/2503.19786
    section 2.1; gpt-oss: alternating, window 128) keep the full sequence in the global
    layers only. Encoder-decoder models (Whisper) also cache the cross-attention K and V
    of the encoder output. Under tensor parallelism each GPU holds ceil(KV heads / GPUs)
    heads (replicated once there are more GPUs than heads); an MLA latent is shared by all
    heads and so is held whole on every GPU (as vLLM does).
    """
    per_token = kv_cache_bytes_per_token(model, kv_precision)
    if per_token is None or per_token == 0:
        return per_token
    assert model.layers is not None
    per_layer = per_token / model.layers
    if model.is_mla:
        share = 1.0
    else:
        kv = model.kv_heads_effective or 1
        share = math.ceil(kv / tensor_parallel) / kv
    local = sliding_window_layer_count(model)
    window_tokens = min(seq, model.sliding_window) if model.sliding_window else seq
    layer_tokens = (model.layers - local) * seq + local * window_tokens
    if model.kind == "encoder-decoder" and model.encoder_tokens:
        layer_tokens += model.layers * model.encoder_tokens
    return per_layer * share * layer_tokens * batch


# --- training state -------------------------------------------------------------


def optimizer_bytes_per_param(optimizer: str) -> float:
    """Optimizer state per trained parameter, kept in fp32 unless the optimizer says otherwise.

    AdamW: two moments, 4 + 4 = 8 bytes (Loshchilov & Hutter 2019); 8-bit AdamW: two
    1-byte block-quantised moments = 2 bytes (Dettmers et al. 2022, "8-bit Optimizers via
    Block-wise Quantization", https://arxiv.org/abs/2110.02861); SGD with momentum: one
    fp32 buffer = 4; plain SGD: none. Paged AdamW (bitsandbytes ``PagedAdamW`` /
    ``PagedAdamW8bit``, QLoRA section 3 "Paged Optimizers") keeps the same state in CUDA
    unified memory, which the driver pages to CPU RAM when the GPU runs short: counted on
    the GPU here, with a note that a tight fit still runs (slower).
    """
    return {"adamw": 8.0, "adamw-8bit": 2.0, "paged-adamw": 8.0, "paged-adamw-8bit": 2.0,
            "sgd-momentum": 4.0, "sgd": 0.0}[optimizer]


def training_bytes_per_param(
    precision: str, optimizer: str = "adamw", fp32_grads: bool = False
) -> dict[str, float]:
    """Bytes per trained parameter: weights, fp32 master copy, gradients, optimizer.

    Mixed precision (BF16/FP16/FP8) with AdamW: 2 (16-bit weights) + 4 (fp32 master) +
    2 (16-bit gradients) + 8 (two fp32 moments) = 16 bytes, Rajbhandari et al. 2020 section
    3.1 ("2 + 2 + 12"); 18 when gradients are kept in fp32. FP32/TF32 training: 4 + 4 + 8 =
    16 with no master copy. FP8 training (Transformer Engine) keeps BF16 weights and an
    fp32 master and casts to FP8 per step, so it is costed like BF16.
    """
    fmt = weight_format(precision)
    grads_fp32 = 4.0 if fp32_grads else 2.0
    if fmt.name in ("FP32", "TF32"):
        weights, master, grads = 4.0, 0.0, 4.0
    elif fmt.name in ("BF16", "FP16", "FP8"):
        weights, master, grads = 2.0, 4.0, grads_fp32
    else:
        raise InvalidWorkloadError(f"full training is not costed for {fmt.name} weights")
    return {"weights": weights, "master": master, "gradients": grads,
            "optimizer": optimizer_bytes_per_param(optimizer)}


def lora_adapter_params(model: ModelSpec, rank: int) -> float:
    """Trainable LoRA parameters: rank x (d_in + d_out) for every adapted matrix.

    Hu et al. 2021 (https://arxiv.org/abs/2106.09685): W + BA with B (d_out x r) and
    A (r x d_in). Adapters on every linear layer of every block (q, k, v, o, and the MLP
    projections), as QLoRA found necessary to match full fine-tuning (Dettmers et al. 2023
    section 4); each MoE expert gets its own. A model known only by its parameter count
    uses ``LORA_PARAMS_PER_RANK_FRACTION``.
    """
    if not model.has_architecture:
        return model.params * rank * LORA_PARAMS_PER_RANK_FRACTION
    assert model.layers is not None and model.hidden is not None and model.heads is not None
    h = model.hidden
    hd = model.head_dim_effective or h // model.heads
    q = model.heads * hd
    kv = (model.kv_heads_effective or model.heads) * hd
    inter = model.intermediate or 4 * h
    attention = (h + q) + 2 * (h + kv) + (q + h)
    # gated MLPs (Llama, Mistral, Qwen: gate, up, down) have three matrices, GELU ones two
    mlp = model.mlp_matrices * (h + inter)
    mlp *= model.experts or 1
    layers = model.layers + (model.encoder_layers or 0)
    return float(rank * layers * (attention + mlp))
