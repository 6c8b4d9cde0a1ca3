"""GPU memory a workload needs: weights, KV cache, activations, training state, overhead.

All figures are bytes **per GPU** for the given ``Parallelism``. Unknown parts (an
architecture the user did not give, activations nobody publishes) are ``None`` and the
total of the known parts is then a lower bound; nothing unknown is counted as zero.

The items are computed in ``model_state_memory`` (weights, KV cache, training state per
parameter) and ``activation_memory`` (activations, logits and loss). Sources of the
formulas, each repeated where it is used:

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

from dlhw_desktop.core.workload.activation_memory import (
    inference_activation_bytes,
    logits_bytes,
    training_activation_bytes,
)
from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.model_state_memory import (
    kv_cache_bytes,
    lora_adapter_params,
    optimizer_bytes_per_param,
    sliding_window_layer_count,
    training_bytes_per_param,
    weights_bytes,
)
from dlhw_desktop.core.workload.models import ModelSpec
from dlhw_desktop.core.workload.precision import FORMAT_HINTS, bytes_per_param, weight_format
from dlhw_desktop.core.workload.workload import Parallelism, Workload, default_parallelism

GiB = float(1 << 30)
GB = 1e9

FRAMEWORK_OVERHEAD_BYTES = 1.0 * GiB
"""Per-GPU memory taken before the model loads: the CUDA context (about 0.3-0.9 GiB with
PyTorch, depending on GPU, driver and CUDA lazy loading; PyTorch docs "CUDA semantics",
"Memory management"), cuBLAS/cuDNN workspaces and caching-allocator fragmentation.
1 GiB is the conservative end: for a buying decision an estimate that errs towards
"needs more" is the safer one."""


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
    text = f"{model.params:,.0f} params x {wf.bits:g} bits ({wf.name}"
    text += f", {FORMAT_HINTS[wf.name]})" if wf.name in FORMAT_HINTS else ")"
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
        local = sliding_window_layer_count(model)
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

    micro = workload.but(batch=-(-workload.batch // dp))  # the batch split over dp GPUs
    acts = training_activation_bytes(micro, parallel)
    logits = logits_bytes(micro, parallel)
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
                            else acts + logits, act_note + f"; micro-batch {micro.batch}"
                            + (f" of the batch of {workload.batch}" if dp > 1 else "")))
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
