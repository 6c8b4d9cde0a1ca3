"""Activation memory, in bytes: what a transformer layer stores for its backward pass
(Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models",
https://arxiv.org/abs/2205.05198, section 4), with checkpointing and the LoRA branches;
a forward pass's working buffers at inference; the logits and the loss over them.
``memory.estimate_memory`` adds them up per GPU.
"""

from __future__ import annotations

import math

from dlhw_desktop.core.workload.models import ModelSpec
from dlhw_desktop.core.workload.workload import Parallelism, Workload


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
