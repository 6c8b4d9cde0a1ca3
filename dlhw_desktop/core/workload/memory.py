"""GPU memory a workload needs: weights, KV cache, activations, training state, overhead.

All figures are bytes **per GPU** for the given ``Parallelism``. Unknown parts (an
architecture the user did not give, activations nobody publishes) are ``None`` and the
total of the known parts is then a lower bound; nothing unknown is counted as zero.

Sources of the formulas, each repeated where it is used:

- KV cache: 2 (K and V) x layers x KV heads x head dim x bytes x tokens x batch; with
  grouped-query attention only the KV heads are cached (Ainslie et al. 2023, GQA,
  https://arxiv.org/abs/2305.13245), which is why Llama 3 8B needs 128 KiB per token in
  BF16 and not the 512 KiB a 32-head multi-head model of its width would.
- Activations: Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
  Transformer Models", https://arxiv.org/abs/2205.05198 (section 4).
- Training state and its sharding: Rajbhandari et al. 2020, "ZeRO: Memory Optimizations
  Toward Training Trillion Parameter Models", https://arxiv.org/abs/1910.02054 (section 3
  and figure 1); CPU offload: Ren et al. 2021, ZeRO-Offload, https://arxiv.org/abs/2101.06840.
- LoRA: Hu et al. 2021, https://arxiv.org/abs/2106.09685; QLoRA: Dettmers et al. 2023,
  https://arxiv.org/abs/2305.14314.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.models import ModelSpec
from dlhw_desktop.core.workload.precision import bytes_per_param, weight_format
from dlhw_desktop.core.workload.workload import Parallelism, Workload, default_parallelism

GiB = float(1 << 30)
GB = 1e9

FRAMEWORK_OVERHEAD_BYTES = 1.0 * GiB
"""Per-GPU memory taken before the model loads: the CUDA context (about 0.3-0.9 GiB with
PyTorch, depending on GPU, driver and CUDA lazy loading; PyTorch docs "CUDA semantics",
"Memory management"), cuBLAS/cuDNN workspaces and caching-allocator fragmentation.
1 GiB is the conservative end: for a buying decision an estimate that errs towards
"needs more" is the safer one."""

LORA_PARAMS_PER_RANK_FRACTION = 1 / 3072
"""Adapter parameters per unit of rank, as a fraction of the base, for models given by
parameter count only. Calibrated on Llama 3.1 8B with adapters on every linear layer
(q, k, v, o, gate, up, down): 41.9M adapter parameters at rank 16 = 0.52 % of 8.03B."""


@dataclass(frozen=True, slots=True)
class MemoryItem:
    """One line of the breakdown: bytes per GPU (``None`` when unknown) and why."""

    key: str
    label: str
    bytes: float | None
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label,
                "bytes": None if self.bytes is None else round(self.bytes),
                "note": self.note}


@dataclass(frozen=True, slots=True)
class MemoryEstimate:
    """The per-GPU breakdown of one workload under one parallel layout."""

    workload: Workload
    parallel: Parallelism
    items: tuple[MemoryItem, ...]
    host_items: tuple[MemoryItem, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def per_gpu_bytes(self) -> float:
        """Sum of the known items (a lower bound when ``complete`` is False)."""
        return sum(i.bytes for i in self.items if i.bytes is not None)

    @property
    def total_bytes(self) -> float:
        """Across all GPUs (the per-GPU figure times the GPU count)."""
        return self.per_gpu_bytes * self.parallel.gpus

    @property
    def host_bytes(self) -> float:
        """CPU memory taken by offloaded state (whole job)."""
        return sum(i.bytes for i in self.host_items if i.bytes is not None)

    @property
    def complete(self) -> bool:
        return all(i.bytes is not None for i in self.items)

    @property
    def unknown(self) -> tuple[str, ...]:
        return tuple(i.label for i in self.items if i.bytes is None)

    def item(self, key: str) -> MemoryItem | None:
        return next((i for i in self.items if i.key == key), None)

    def bytes_of(self, key: str) -> float | None:
        item = self.item(key)
        return None if item is None else item.bytes

    def to_dict(self) -> dict[str, Any]:
        return {
            "gpus": self.parallel.gpus,
            "parallelism": self.parallel.strategy,
            "cpu_offload": self.parallel.cpu_offload,
            "per_gpu_bytes": round(self.per_gpu_bytes),
            "total_bytes": round(self.total_bytes),
            "complete": self.complete,
            "items": [i.to_dict() for i in self.items],
            "host_bytes": round(self.host_bytes),
            "host_items": [i.to_dict() for i in self.host_items],
            "notes": list(self.notes),
        }


# --- building blocks ------------------------------------------------------------------


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


def _window_layers(model: ModelSpec) -> int:
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
    local = _window_layers(model)
    window_tokens = min(seq, model.sliding_window) if model.sliding_window else seq
    layer_tokens = (model.layers - local) * seq + local * window_tokens
    if model.kind == "encoder-decoder" and model.encoder_tokens:
        layer_tokens += model.layers * model.encoder_tokens
    return per_layer * share * layer_tokens * batch


def _activation_bytes_per_value(workload: Workload) -> float:
    """Activations are kept at the compute precision: 4 bytes in FP32/TF32, else 2."""
    return 4.0 if workload.compute in ("FP32", "TF32") else 2.0


def transformer_layer_activation_bytes(
    seq: int,
    batch: int,
    hidden: int,
    heads: int,
    *,
    attention_scores: bool = True,
    tensor_parallel: int = 1,
    experts_per_token: int = 1,
    bytes_per_value: float = 2.0,
    intermediate: int | None = None,
    gated: bool = False,
) -> float:
    """Activations one transformer layer stores for its backward pass.

    Korthikanti et al. 2022, https://arxiv.org/abs/2205.05198 equation (1): with 16-bit
    activations and no recomputation a layer stores s*b*h*(34 + 5*a*s/h) bytes: 11sbh for
    the attention block plus 5as^2b for its softmax scores and dropout mask, 19sbh for the
    MLP, 4sbh for the two layer norms. The MLP's 19sbh is for a 4h GeLU MLP (its input 2sbh,
    the first product and the GeLU output 8sbh each, the dropout mask sbh); with the
    model's own ``intermediate`` width i the same count is (3 + 4i/h)sbh, and a gated MLP
    (SwiGLU: gate, up, their activation and product, each s*b*i) stores (3 + 8i/h)sbh
    (Llama 3 8B: 31sbh, not 19). With tensor and sequence parallelism every term is
    divided by t (their equation 5). ``attention_scores=False`` drops the 5as^2b term, as
    FlashAttention recomputes the scores instead of storing them (Dao et al. 2022,
    https://arxiv.org/abs/2205.14135). For MoE each token passes ``experts_per_token``
    MLPs of the expert width. ``bytes_per_value`` 4 (FP32) doubles everything.
    """
    s, b, h, a = float(seq), float(batch), float(hidden), float(heads)
    if intermediate is None and not gated:
        mlp = 19.0
    else:
        i = float(intermediate or 4 * hidden)
        mlp = 3.0 + (8.0 if gated else 4.0) * i / h
    per_sbh = 15.0 + mlp * experts_per_token
    total = s * b * h * per_sbh
    if attention_scores:
        total += 5.0 * a * s * s * b
    return total / tensor_parallel * (bytes_per_value / 2.0)


def _layer_stack(model: ModelSpec, seq: int) -> list[tuple[int, int]]:
    """(layers, tokens) groups: decoder-only / encoder-only one group, Whisper two."""
    assert model.layers is not None
    groups = [(model.layers, seq)]
    if model.kind == "encoder-decoder" and model.encoder_layers and model.encoder_tokens:
        groups.append((model.encoder_layers, model.encoder_tokens))
    return groups


def checkpointed_layers(workload: Workload, layers: int) -> int:
    """Layers whose activations are recomputed: every ``checkpoint_every``-th one (1 =
    all, as Hugging Face's gradient checkpointing does; torchtitan's and torchtune's
    selective activation checkpointing take an N to checkpoint every N-th layer)."""
    if not workload.checkpointing:
        return 0
    return math.ceil(layers / workload.checkpoint_every)


def checkpointed_share(workload: Workload) -> float:
    """The share of the layers recomputed in the backward pass (1.0 = all)."""
    layers = workload.model.layers
    if not workload.checkpointing:
        return 0.0
    if not layers:
        return 1.0 / workload.checkpoint_every
    return checkpointed_layers(workload, layers) / layers


def training_activation_bytes(workload: Workload, parallel: Parallelism) -> float | None:
    """Activations stored for the backward pass, per GPU, for one micro-batch.

    Transformers: the sum of ``transformer_layer_activation_bytes`` over the layers.
    With activation checkpointing (full recomputation) only each layer's input is kept,
    2sbh bytes per layer (Korthikanti et al. section 4.3, "2sbhL"), plus one layer's full
    activations while it is recomputed; checkpointing every N-th layer
    (``Workload.checkpoint_every``) keeps the others' full activations. Models that are
    not transformers use their documented per-sample value count
    (``ModelSpec.activation_values_per_sample``) x bytes x batch; checkpointing then keeps
    about 1/sqrt(layers) of it (Chen et al. 2016, "Training Deep Nets with Sublinear
    Memory Cost", https://arxiv.org/abs/1604.06174).
    """
    model, batch = workload.model, workload.batch
    per_value = _activation_bytes_per_value(workload)
    if not model.is_transformer:
        if model.activation_values_per_sample is None:
            return None
        total = model.activation_values_per_sample * per_value * batch
        if workload.checkpointing and model.layers:
            total /= math.sqrt(model.layers)
        return total
    if not model.has_architecture:
        return None
    assert model.hidden is not None and model.heads is not None
    tp = parallel.tensor_parallel
    total = 0.0
    biggest_layer = 0.0
    for layers, tokens in _layer_stack(model, workload.seq_len):
        layer = transformer_layer_activation_bytes(
            tokens, batch, model.hidden, model.heads,
            attention_scores=not workload.flash_attention, tensor_parallel=tp,
            experts_per_token=model.experts_per_token or 1, bytes_per_value=per_value,
            intermediate=model.intermediate, gated=model.mlp_matrices == 3,
        )
        if workload.mode in ("lora", "qlora"):
            layer += lora_saved_bytes_per_layer(workload, tokens) / tp
        biggest_layer = max(biggest_layer, layer)
        if workload.checkpointing:
            kept = checkpointed_layers(workload, layers)
            total += kept * 2.0 * tokens * batch * model.hidden / tp * (per_value / 2.0)
            total += (layers - kept) * layer
        else:
            total += layers * layer
    if workload.checkpointing:
        total += biggest_layer
    return total


def _adapted_modules(model: ModelSpec) -> list[tuple[int, int]]:
    """(d_in, d_out) of every linear layer LoRA adapts in one block (q, k, v, o and the
    MLP's matrices; each expert's for MoE), as ``lora_adapter_params`` counts them."""
    assert model.hidden is not None and model.heads is not None
    h = model.hidden
    hd = model.head_dim_effective or h // model.heads
    q = model.heads * hd
    kv = (model.kv_heads_effective or model.heads) * hd
    inter = model.intermediate or 4 * h
    modules = [(h, q), (h, kv), (h, kv), (q, h)]
    up = [(h, inter)] * (model.mlp_matrices - 1) + [(inter, h)]
    modules += up * (model.experts_per_token or 1)
    return modules


def lora_saved_bytes_per_layer(workload: Workload, tokens: int) -> float:
    """What the LoRA branches of one block keep for their backward, beyond the block's own.

    Each adapted linear computes B(A(dropout(x))): A's input is the block's input to
    that linear, already counted in ``transformer_layer_activation_bytes`` (the frozen
    base no longer needs it, LoRA's A does); B keeps A's output, s x b x r values per
    module. With ``lora_dropout`` > 0, PEFT applies a dropout per module, so every module
    keeps its own dropped copy of its input and a one-byte mask (Hu et al. 2021; PEFT
    ``LoraLayer``: ``lora_B(lora_A(dropout(x)))``). The default dropout is 0 (PEFT's and
    torchtune's default), where no copy is made.
    """
    model = workload.model
    per_value = _activation_bytes_per_value(workload)
    rank = workload.lora_rank
    values = 0.0
    for d_in, _ in _adapted_modules(model):
        values += rank * per_value
        if workload.lora_dropout > 0:
            values += d_in * (per_value + 1.0)
    return values * tokens * workload.batch


LOSS_BYTES_PER_LOGIT = 14.0
"""Bytes per logit at the loss's backward when the whole vocabulary is materialised, as
Hugging Face transformers does (``ForCausalLMLoss`` upcasts the logits to fp32 "to avoid
potential precision issues", transformers/loss/loss_utils.py): the bf16 logits the model
returns (2) + the fp32 log-probabilities cross-entropy saves (4) + the fp32 gradient
arriving at log-softmax (4) + the fp32 gradient it returns (4). Chunked losses
(torchtune's ``CEWithChunkedOutputLoss``, 8 chunks; Liger's fused linear cross-entropy,
Hsu et al. 2024, https://arxiv.org/abs/2410.10989; Apple's Cut Cross-Entropy, Wijmans et
al. 2024, https://arxiv.org/abs/2411.09009, used by Unsloth) hold one chunk at a time."""


def logits_bytes(workload: Workload, parallel: Parallelism) -> float:
    """The output layer's logits and the loss over them, per GPU.

    Training: ``LOSS_BYTES_PER_LOGIT`` x s x b x v, divided by ``Workload.loss_chunks``
    (1 = the whole vocabulary at once, as transformers' Trainer does; at 28K tokens and
    Llama 3's 128,256-token vocabulary that is 50 GB, the largest item of a long-context
    QLoRA run). Inference: only the last position's b x v x 4 (servers such as vLLM and
    llama.cpp compute logits for the sampled position only). Vocabulary-parallel under
    tensor parallelism. 0 for models without a vocabulary head.
    """
    model = workload.model
    if not model.vocab or model.kind in ("encoder", "vision-transformer"):
        return 0.0
    if not workload.training:
        return 4.0 * workload.batch * model.vocab / parallel.tensor_parallel
    per_logit = LOSS_BYTES_PER_LOGIT / workload.loss_chunks
    return (per_logit * workload.seq_len * workload.batch * model.vocab
            / parallel.tensor_parallel)


def inference_activation_bytes(workload: Workload, parallel: Parallelism,
                               batch: int | None = None) -> float | None:
    """Working buffers of a forward pass, per GPU.

    At inference a layer's activations are freed as soon as the next layer has used them,
    so the peak is about one layer's worth: we take one layer of Korthikanti et al.'s
    equation (1) for the whole prompt (prefill), an upper bound since no dropout masks are
    kept. Models that are not transformers use
    ``ModelSpec.inference_activation_values_per_sample``.
    """
    model = workload.model
    batch = workload.batch if batch is None else batch
    per_value = _activation_bytes_per_value(workload)
    if not model.is_transformer:
        values = model.inference_activation_values_per_sample
        return None if values is None else values * per_value * batch
    if not model.has_architecture:
        return None
    assert model.hidden is not None and model.heads is not None
    return max(
        transformer_layer_activation_bytes(
            tokens, batch, model.hidden, model.heads,
            attention_scores=not workload.flash_attention,
            tensor_parallel=parallel.tensor_parallel,
            experts_per_token=model.experts_per_token or 1, bytes_per_value=per_value,
            intermediate=model.intermediate, gated=model.mlp_matrices == 3,
        )
        for _, tokens in _layer_stack(model, workload.seq_len)
    )


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


# --- the estimate ---------------------------------------------------------------------


def estimate_memory(workload: Workload, parallel: Parallelism | None = None) -> MemoryEstimate:
    """Per-GPU memory of ``workload`` on ``parallel`` (default: one GPU)."""
    parallel = parallel or default_parallelism(workload.mode, 1)
    if workload.mode == "inference":
        return _inference(workload, parallel)
    return _training(workload, parallel)


def _overhead() -> MemoryItem:
    return MemoryItem("overhead", "Framework overhead", FRAMEWORK_OVERHEAD_BYTES,
                      "CUDA context, library workspaces, allocator fragmentation (~1 GiB)")


def _inference(workload: Workload, parallel: Parallelism) -> MemoryEstimate:
    model = workload.model
    notes: list[str] = []
    if parallel.strategy not in ("tp", "ddp"):
        raise InvalidWorkloadError(
            "inference over several GPUs is costed as tensor parallel ('tp') or as "
            "replicas ('ddp'), not as sharded training"
        )
    tp = parallel.tensor_parallel
    # replicas ('ddp') each serve their share of the concurrent sequences
    batch = math.ceil(workload.batch / parallel.data_parallel)
    fmt = weight_format(workload.base_format)
    weights = weights_bytes(model, fmt.name) / tp
    kv = kv_cache_bytes(model, workload.seq_len, batch, workload.kv_precision, tp)
    acts = inference_activation_bytes(workload, parallel, batch)
    logits = logits_bytes(workload.but(batch=batch), parallel)
    items = [
        MemoryItem("weights", "Weights", weights,
                   _weights_note(model, fmt.name) + (f" / {tp} GPUs" if tp > 1 else "")),
    ]
    if model.autoregressive:
        items.append(MemoryItem(
            "kv_cache", "KV cache", kv,
            _kv_note(model, workload, batch) if kv is not None
            else "needs layers, hidden size and heads"))
    items.append(MemoryItem(
        "activations", "Activations / compute buffers",
        None if acts is None else acts + logits,
        "one layer's working set for the prompt (Korthikanti et al. 2022), plus logits"
        if model.is_transformer else "documented per-sample estimate"
        if acts is not None else "not published for this model"))
    items.append(_overhead())
    if model.is_moe:
        notes.append(f"MoE: all {model.params / 1e9:.1f}B parameters stay in memory; "
                     f"{model.compute_params / 1e9:.1f}B are used per token")
    if fmt.name == "INT4":
        notes.append("INT4 compute is costed at the INT8 rate")
    return MemoryEstimate(workload, parallel, tuple(items), (), tuple(notes))


def _weights_note(model: ModelSpec, fmt: str) -> str:
    wf = weight_format(fmt)
    if model.weight_bytes and model.stored_format == wf.name:
        return (f"{model.params:,.0f} params as stored in the file "
                f"({8 * model.weight_bytes / model.params:.2f} bits/weight, {wf.name})")
    text = f"{model.params:,.0f} params x {wf.bits:g} bits ({wf.name})"
    embed = model.embedding_params if wf.embeddings_16bit else None
    if embed is not None and embed < model.params:
        text += f"; embeddings + output layer ({embed:,.0f}) at 16 bits"
    return text


def _kv_note(model: ModelSpec, workload: Workload, batch: int) -> str:
    tokens = workload.seq_len
    per = bytes_per_param(workload.kv_precision)
    if model.is_mla:
        text = (f"MLA latent ({model.kv_lora_rank} + {model.qk_rope_head_dim or 0} rotary) x "
                f"{model.layers} layers x {per:g} B x {tokens} tokens x {batch}")
    else:
        text = (f"2 x {model.layers} layers x {model.kv_heads_effective} KV heads "
                f"({model.attention}) x {model.head_dim_effective} x "
                f"{per:g} B x {tokens} tokens x {batch}")
    if model.sliding_window and tokens > model.sliding_window:
        local = _window_layers(model)
        which = "all layers" if local == model.layers else f"{local} of {model.layers} layers"
        text += f" (window of {model.sliding_window} tokens in {which})"
    if model.kind == "encoder-decoder" and model.encoder_tokens:
        text += f" + cross-attention over {model.encoder_tokens} encoder frames"
    return text


def _training(workload: Workload, parallel: Parallelism) -> MemoryEstimate:
    model = workload.model
    notes: list[str] = []
    dp, tp, stage = parallel.data_parallel, parallel.tensor_parallel, parallel.zero_stage
    offload = parallel.cpu_offload
    items: list[MemoryItem] = []
    host: list[MemoryItem] = []

    if workload.mode == "training":
        trained = model.params
        per = training_bytes_per_param(workload.precision, workload.optimizer,
                                       workload.fp32_grads)
        weight_item = ("weights", "Weights", per["weights"])
        notes.append(
            f"full training: {sum(per.values()):g} bytes/param before sharding "
            "(Rajbhandari et al. 2020)")
    else:
        fmt = weight_format(workload.base_format)
        base = weights_bytes(model, fmt.name) / tp
        if stage == 3:
            base /= dp
        items.append(MemoryItem("weights", "Frozen base weights", base,
                                _weights_note(model, fmt.name)))
        trained = lora_adapter_params(model, workload.lora_rank)
        per = {"weights": 4.0, "master": 0.0, "gradients": 4.0,
               "optimizer": optimizer_bytes_per_param(workload.optimizer)}
        weight_item = ("adapters", "LoRA adapters", per["weights"])
        notes.append(f"{trained / 1e6:,.1f}M trainable adapter params at rank "
                     f"{workload.lora_rank} (fp32 weights, gradients and optimizer state)")

    trained_per_gpu = trained / tp

    def sharded(value: float, from_stage: int) -> float:
        return value / dp if stage >= from_stage else value

    key, label, wbytes = weight_item
    items.append(MemoryItem(key, label, sharded(trained_per_gpu * wbytes, 3),
                            f"{trained:,.0f} params x {wbytes:g} B"))
    state = [
        ("master", "FP32 master weights", per["master"], 1),
        ("gradients", "Gradients", per["gradients"], 2),
        ("optimizer", f"Optimizer ({workload.optimizer})", per["optimizer"], 1),
    ]
    for skey, slabel, sbytes, from_stage in state:
        if sbytes == 0:
            continue
        value = sharded(trained_per_gpu * sbytes, from_stage)
        note = f"{sbytes:g} B/param" + (f", sharded over {dp} GPUs"
                                         if stage >= from_stage and dp > 1 else "")
        if offload:
            host.append(MemoryItem(skey, slabel, value * parallel.gpus, "offloaded to CPU RAM"))
        else:
            items.append(MemoryItem(skey, slabel, value, note))

    acts = training_activation_bytes(workload, parallel)
    logits = logits_bytes(workload, parallel)
    act_note = (
        "layer inputs only (checkpointing) + one layer recomputed" if workload.checkpointing
        else "Korthikanti et al. 2022, s*b*h*(34 + 5*a*s/h) per layer"
        + (" without the score term (FlashAttention)" if workload.flash_attention else "")
    ) if model.is_transformer else "documented per-sample estimate"
    if acts is None:
        act_note = ("needs layers, hidden size and heads" if model.is_transformer
                    else "not published for this model")
    if logits:
        chunks = (f" in {workload.loss_chunks} chunks" if workload.loss_chunks > 1
                  else ", whole vocabulary in fp32 (transformers)")
        act_note += f"; logits and loss {logits / GiB:,.1f} GiB{chunks}"
    items.append(MemoryItem("activations", "Activations", None if acts is None
                            else acts + logits, act_note + f"; micro-batch {workload.batch}"))
    items.append(_overhead())
    if workload.optimizer.startswith("paged"):
        notes.append("paged optimizer: its state can spill to CPU RAM when the GPU is "
                     "full, so a tight fit still runs, more slowly")
    if stage:
        notes.append(f"ZeRO stage {stage} over {dp} GPUs (Rajbhandari et al. 2020)")
    if tp > 1:
        notes.append(f"tensor parallel over {tp} GPUs with sequence parallelism")
    if model.is_moe:
        notes.append("MoE: memory counts every expert; compute uses the active parameters")
    return MemoryEstimate(workload, parallel, tuple(items), tuple(host), tuple(notes))
