"""Models to estimate for: ``ModelSpec`` and presets with their published architecture.

Each preset carries the URL of the model card, ``config.json`` or paper its figures come
from. Parameter counts are the published ones (a model card's "8.03B", a paper's "86M"),
not recomputed from the shapes, so a user can check them against the source.

Mixture-of-experts models carry two counts: ``params`` (every expert, what the memory
holds) and ``active_params`` (what one token passes through, what the compute costs).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from dlhw_desktop.core.workload.errors import InvalidWorkloadError, UnknownModelError

ModelKind = Literal[
    "decoder", "encoder", "encoder-decoder", "vision-transformer", "cnn", "diffusion", "custom"
]

TRANSFORMER_KINDS: frozenset[str] = frozenset(
    {"decoder", "encoder", "encoder-decoder", "vision-transformer", "custom"}
)
"""Kinds whose activations follow Korthikanti et al. (2022) and whose compute is 2N per token."""

AUTOREGRESSIVE_KINDS: frozenset[str] = frozenset({"decoder", "encoder-decoder", "custom"})
"""Kinds that generate token by token and so keep a KV cache at inference."""

DEFAULT_SEQ = 4096
"""Sequence length assumed when neither the user nor the model fixes one (a long chat turn)."""


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """One model: parameter counts, architecture (where known) and where the figures came from.

    ``None`` means unknown or not applicable, never zero. A "params only" custom model has
    just ``params``; the estimators then fall back to documented rules of thumb and say so.
    """

    key: str
    name: str
    kind: ModelKind
    params: float
    source: str
    active_params: float | None = None
    layers: int | None = None
    hidden: int | None = None
    heads: int | None = None
    kv_heads: int | None = None
    head_dim: int | None = None
    intermediate: int | None = None
    vocab: int | None = None
    context: int | None = None
    experts: int | None = None
    experts_per_token: int | None = None
    sliding_window: int | None = None
    sliding_window_layers: int | None = None
    """Layers that attend within ``sliding_window`` (the rest attend globally); ``None``
    with a window means every layer (Mistral 7B). Gemma 2: 21 of 42 (alternating); Gemma 3:
    5 local to 1 global; gpt-oss: alternating."""
    kv_lora_rank: int | None = None
    """Multi-head latent attention (DeepSeek-V2/V3): the compressed KV latent's width."""
    qk_rope_head_dim: int | None = None
    """MLA's decoupled rotary key, cached beside the latent (DeepSeek-V2 section 2.1.3)."""
    tied_embeddings: bool | None = None
    """The output layer shares the token embedding matrix (``tie_word_embeddings``)."""
    shared_experts: int | None = None
    """MoE experts every token passes through besides the routed ones (DeepSeek, Llama 4)."""
    encoder_layers: int | None = None
    encoder_tokens: int | None = None
    tokens_per_sample: int | None = None
    forward_flops_per_sample: float | None = None
    activation_values_per_sample: float | None = None
    inference_activation_values_per_sample: float | None = None
    mlp_matrices: int = 2
    components: tuple[tuple[str, float], ...] = ()
    notes: str = ""

    # --- derived ----------------------------------------------------------------------
    @property
    def compute_params(self) -> float:
        """Parameters one token passes through: the active count for MoE, else all."""
        return self.active_params if self.active_params is not None else self.params

    @property
    def is_moe(self) -> bool:
        return self.active_params is not None and self.active_params < self.params

    @property
    def is_transformer(self) -> bool:
        return self.kind in TRANSFORMER_KINDS

    @property
    def autoregressive(self) -> bool:
        return self.kind in AUTOREGRESSIVE_KINDS

    @property
    def has_architecture(self) -> bool:
        """Layers, hidden size and heads are all known (needed for KV cache and activations)."""
        return bool(self.layers and self.hidden and self.heads)

    @property
    def kv_heads_effective(self) -> int | None:
        """KV heads: as published, else equal to the attention heads (plain multi-head)."""
        return self.kv_heads or self.heads

    @property
    def head_dim_effective(self) -> int | None:
        if self.head_dim:
            return self.head_dim
        if self.hidden and self.heads:
            return self.hidden // self.heads
        return None

    @property
    def is_mla(self) -> bool:
        """Multi-head latent attention: the cache holds a latent, not per-head K and V."""
        return bool(self.kv_lora_rank)

    @property
    def embedding_params(self) -> float | None:
        """Token embeddings plus the output layer: vocab x hidden, twice unless tied.

        ``None`` when the vocabulary or width is unknown. Quantisers that touch only the
        blocks' linear layers (bitsandbytes, GPTQ, AWQ) leave these in 16-bit.
        """
        if not self.vocab or not self.hidden:
            return None
        return float(self.vocab * self.hidden * (1 if self.tied_embeddings else 2))

    @property
    def attention(self) -> str:
        """MHA, GQA, MQA (Ainslie et al. 2023, https://arxiv.org/abs/2305.13245) or MLA."""
        if self.is_mla:
            return "MLA"
        kv, heads = self.kv_heads_effective, self.heads
        if not kv or not heads:
            return "n/a"
        if kv == heads:
            return "MHA"
        return "MQA" if kv == 1 else "GQA"

    @property
    def default_seq(self) -> int:
        """Tokens per sample when the user gives none: fixed input, else the context up to 4096."""
        if self.tokens_per_sample:
            return self.tokens_per_sample
        if self.context:
            return min(self.context, DEFAULT_SEQ)
        return DEFAULT_SEQ

    def to_dict(self) -> dict[str, Any]:
        """Flat JSON-ready form (unknowns as ``None``) plus the derived figures."""
        data: dict[str, Any] = {
            name: getattr(self, name) for name in self.__dataclass_fields__
        }
        data["components"] = [{"name": n, "params": p} for n, p in self.components]
        data["compute_params"] = self.compute_params
        data["attention"] = self.attention
        data["default_seq"] = self.default_seq
        data["embedding_params"] = self.embedding_params
        return data


def _positive(name: str, value: float | None) -> None:
    if value is not None and not value > 0:
        raise InvalidWorkloadError(f"{name} must be positive, got {value!r}")


def custom_model(
    params: float,
    *,
    name: str = "Custom model",
    layers: int | None = None,
    hidden: int | None = None,
    heads: int | None = None,
    kv_heads: int | None = None,
    head_dim: int | None = None,
    intermediate: int | None = None,
    vocab: int | None = None,
    context: int | None = None,
    active_params: float | None = None,
    mlp_matrices: int = 3,
) -> ModelSpec:
    """A user's own model: parameters only, or a full transformer architecture.

    Assumed to be a decoder-only transformer with a gated MLP (Llama-style, the common
    case when someone types a parameter count). Raises ``InvalidWorkloadError`` for
    non-positive figures or for KV heads that do not divide the heads.
    """
    for label, value in (("params", params), ("layers", layers), ("hidden", hidden),
                         ("heads", heads), ("kv_heads", kv_heads), ("head_dim", head_dim),
                         ("intermediate", intermediate), ("vocab", vocab),
                         ("context", context), ("active_params", active_params)):
        _positive(label, value)
    if kv_heads and heads and (kv_heads > heads or heads % kv_heads):
        raise InvalidWorkloadError(
            f"kv_heads ({kv_heads}) must divide the attention heads ({heads})"
        )
    if active_params is not None and active_params > params:
        raise InvalidWorkloadError("active_params cannot exceed params")
    if hidden and heads and not head_dim and hidden % heads:
        raise InvalidWorkloadError(f"hidden ({hidden}) is not a multiple of heads ({heads})")
    return ModelSpec(
        key="custom", name=name, kind="custom", params=float(params), source="user input",
        active_params=active_params, layers=layers, hidden=hidden, heads=heads,
        kv_heads=kv_heads, head_dim=head_dim, intermediate=intermediate, vocab=vocab,
        context=context, mlp_matrices=mlp_matrices,
    )


_HF = "https://huggingface.co/"

PRESETS: tuple[ModelSpec, ...] = (
    ModelSpec(
        "bert-base", "BERT base", "encoder", 110e6,
        "Devlin et al. 2018, https://arxiv.org/abs/1810.04805 (110M); "
        + _HF + "google-bert/bert-base-uncased/blob/main/config.json",
        layers=12, hidden=768, heads=12, kv_heads=12, head_dim=64, intermediate=3072,
        vocab=30522, context=512,
    ),
    ModelSpec(
        "bert-large", "BERT large", "encoder", 340e6,
        "Devlin et al. 2018, https://arxiv.org/abs/1810.04805 (340M); "
        + _HF + "google-bert/bert-large-uncased/blob/main/config.json",
        layers=24, hidden=1024, heads=16, kv_heads=16, head_dim=64, intermediate=4096,
        vocab=30522, context=512,
    ),
    ModelSpec(
        "gpt2", "GPT-2 (124M)", "decoder", 124e6,
        _HF + "openai-community/gpt2/blob/main/config.json; Radford et al. 2019, "
        "Language Models are Unsupervised Multitask Learners",
        layers=12, hidden=768, heads=12, kv_heads=12, head_dim=64, intermediate=3072,
        vocab=50257, context=1024,
    ),
    ModelSpec(
        "gpt2-xl", "GPT-2 XL (1.5B)", "decoder", 1.558e9,
        _HF + "openai-community/gpt2-xl/blob/main/config.json; Radford et al. 2019 "
        "(1542M in the paper's table, 1558M as released)",
        layers=48, hidden=1600, heads=25, kv_heads=25, head_dim=64, intermediate=6400,
        vocab=50257, context=1024,
    ),
    ModelSpec(
        "gpt3-175b", "GPT-3 175B", "decoder", 175e9,
        "Brown et al. 2020, Language Models are Few-Shot Learners, "
        "https://arxiv.org/abs/2005.14165 Table 2.1",
        layers=96, hidden=12288, heads=96, kv_heads=96, head_dim=128, intermediate=49152,
        vocab=50257, context=2048, notes="weights never released; for sizing only",
    ),
    ModelSpec(
        "llama-3.1-8b", "Llama 3.1 8B", "decoder", 8.03e9,
        _HF + "meta-llama/Llama-3.1-8B/blob/main/config.json; "
        "https://github.com/meta-llama/llama-models/blob/main/models/llama3_1/MODEL_CARD.md",
        layers=32, hidden=4096, heads=32, kv_heads=8, head_dim=128, intermediate=14336,
        mlp_matrices=3, vocab=128256, context=131072,
    ),
    ModelSpec(
        "llama-3.1-70b", "Llama 3.1 70B", "decoder", 70.6e9,
        _HF + "meta-llama/Llama-3.1-70B/blob/main/config.json; Grattafiori et al. 2024, "
        "The Llama 3 Herd of Models, https://arxiv.org/abs/2407.21783 Table 3",
        layers=80, hidden=8192, heads=64, kv_heads=8, head_dim=128, intermediate=28672,
        mlp_matrices=3, vocab=128256, context=131072,
    ),
    ModelSpec(
        "llama-3.1-405b", "Llama 3.1 405B", "decoder", 405e9,
        _HF + "meta-llama/Llama-3.1-405B/blob/main/config.json; Grattafiori et al. 2024, "
        "https://arxiv.org/abs/2407.21783 Table 3",
        layers=126, hidden=16384, heads=128, kv_heads=8, head_dim=128, intermediate=53248,
        mlp_matrices=3, vocab=128256, context=131072,
    ),
    ModelSpec(
        "mistral-7b", "Mistral 7B (v0.1)", "decoder", 7.24e9,
        _HF + "mistralai/Mistral-7B-v0.1/blob/main/config.json; Jiang et al. 2023, "
        "https://arxiv.org/abs/2310.06825 Table 1",
        layers=32, hidden=4096, heads=32, kv_heads=8, head_dim=128, intermediate=14336,
        mlp_matrices=3, vocab=32000, context=32768, sliding_window=4096,
        notes="sliding-window attention: the rolling KV cache holds at most 4096 tokens",
    ),
    ModelSpec(
        "mixtral-8x7b", "Mixtral 8x7B", "decoder", 46.7e9,
        "https://mistral.ai/news/mixtral-of-experts (46.7B total, 12.9B per token); "
        "Jiang et al. 2024, https://arxiv.org/abs/2401.04088; "
        + _HF + "mistralai/Mixtral-8x7B-v0.1/blob/main/config.json",
        active_params=12.9e9, layers=32, hidden=4096, heads=32, kv_heads=8, head_dim=128,
        intermediate=14336, mlp_matrices=3, vocab=32000, context=32768, experts=8,
        experts_per_token=2,
    ),
    ModelSpec(
        "qwen2.5-7b", "Qwen2.5 7B", "decoder", 7.61e9,
        _HF + "Qwen/Qwen2.5-7B (model card: 7.61B, 28 layers, 28 Q / 4 KV heads); "
        + _HF + "Qwen/Qwen2.5-7B/blob/main/config.json",
        layers=28, hidden=3584, heads=28, kv_heads=4, head_dim=128, intermediate=18944,
        mlp_matrices=3, vocab=152064, context=131072,
    ),
    ModelSpec(
        "qwen2.5-72b", "Qwen2.5 72B", "decoder", 72.7e9,
        _HF + "Qwen/Qwen2.5-72B (model card: 72.7B, 80 layers, 64 Q / 8 KV heads); "
        + _HF + "Qwen/Qwen2.5-72B/blob/main/config.json",
        layers=80, hidden=8192, heads=64, kv_heads=8, head_dim=128, intermediate=29568,
        mlp_matrices=3, vocab=152064, context=131072,
    ),
    ModelSpec(
        "resnet-50", "ResNet-50", "cnn", 25.6e6,
        "He et al. 2015, https://arxiv.org/abs/1512.03385 Table 1; "
        "https://pytorch.org/vision/stable/models/generated/torchvision.models.resnet50.html "
        "(25,557,032 params, 4.09 GFLOPS counted as multiply-adds)",
        layers=50, tokens_per_sample=1, forward_flops_per_sample=2 * 4.09e9,
        activation_values_per_sample=21.5e6,
        inference_activation_values_per_sample=2.5e6,
        notes="224x224 input. Activations: 21.5M values per image counted from Table 1 "
        "as torchvision builds it (each conv keeps its output and its batch-norm output; "
        "ReLUs work in place); inference keeps only the largest live feature maps "
        "(~2.5M values, stage 1 in and out).",
    ),
    ModelSpec(
        "vit-b-16", "ViT-B/16", "vision-transformer", 86e6,
        "Dosovitskiy et al. 2020, https://arxiv.org/abs/2010.11929 Table 1 (86M); "
        "https://pytorch.org/vision/stable/models/generated/torchvision.models.vit_b_16.html",
        layers=12, hidden=768, heads=12, kv_heads=12, head_dim=64, intermediate=3072,
        tokens_per_sample=197, context=197,
        notes="224x224 input: 14x14 patches + class token = 197 tokens per image",
    ),
    ModelSpec(
        "sdxl", "Stable Diffusion XL 1.0 (base)", "diffusion", 2.6e9 + 817e6 + 83.7e6,
        "Podell et al. 2023, https://arxiv.org/abs/2307.01952 Table 1 (UNet 2.6B, text "
        "encoders 817M); " + _HF + "stabilityai/stable-diffusion-xl-base-1.0",
        components=(("UNet", 2.6e9), ("Text encoders (CLIP ViT-L + OpenCLIP ViT-bigG)", 817e6),
                    ("VAE", 83.7e6)),
        notes="1024x1024 images. Activations and FLOPs per image are not published in a "
        "form we can cite: they stay unknown, so memory totals are lower bounds.",
    ),
    ModelSpec(
        "whisper-large-v3", "Whisper large-v3", "encoder-decoder", 1.55e9,
        _HF + "openai/whisper-large-v3 (1550M); "
        + _HF + "openai/whisper-large-v3/blob/main/config.json; Radford et al. 2022, "
        "https://arxiv.org/abs/2212.04356 Table 1",
        layers=32, encoder_layers=32, hidden=1280, heads=20, kv_heads=20, head_dim=64,
        intermediate=5120, vocab=51866, context=448, encoder_tokens=1500,
        notes="30 s of audio -> 1500 encoder frames; the decoder emits up to 448 tokens",
    ),
)

_BY_KEY: dict[str, ModelSpec] = {m.key: m for m in PRESETS}

_ALIASES: dict[str, str] = {
    "bert": "bert-base", "bert-base-uncased": "bert-base", "bert-large-uncased": "bert-large",
    "gpt-2": "gpt2", "gpt2-124m": "gpt2", "gpt-2-xl": "gpt2-xl", "gpt2-1.5b": "gpt2-xl",
    "gpt-3": "gpt3-175b", "gpt3": "gpt3-175b",
    "llama-3-8b": "llama-3.1-8b", "llama3-8b": "llama-3.1-8b", "llama3.1-8b": "llama-3.1-8b",
    "meta-llama-3.1-8b": "llama-3.1-8b",
    "llama-3-70b": "llama-3.1-70b", "llama3-70b": "llama-3.1-70b",
    "llama3.1-70b": "llama-3.1-70b",
    "llama-3-405b": "llama-3.1-405b", "llama3-405b": "llama-3.1-405b",
    "llama3.1-405b": "llama-3.1-405b",
    "mistral": "mistral-7b", "mistral-7b-v0.1": "mistral-7b",
    "mixtral": "mixtral-8x7b", "qwen2.5": "qwen2.5-7b", "qwen-2.5-7b": "qwen2.5-7b",
    "qwen-2.5-72b": "qwen2.5-72b", "resnet50": "resnet-50", "vit-b/16": "vit-b-16",
    "vit-base": "vit-b-16", "stable-diffusion-xl": "sdxl", "sd-xl": "sdxl",
    "whisper": "whisper-large-v3", "whisper-large": "whisper-large-v3",
}


def presets() -> tuple[ModelSpec, ...]:
    """Every preset, in display order (language models small to large, then vision, audio)."""
    return PRESETS


def preset(name: str) -> ModelSpec:
    """A preset by key, display name or a common alias (case-insensitive)."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    if key in _BY_KEY:
        return _BY_KEY[key]
    if key in _ALIASES:
        return _BY_KEY[_ALIASES[key]]
    for model in PRESETS:
        if model.name.lower().replace(" ", "-") == key:
            return model
    raise UnknownModelError(name, tuple(_BY_KEY))


def with_overrides(model: ModelSpec, **changes: Any) -> ModelSpec:
    """A copy of ``model`` with some figures changed (e.g. a fine-tune with a longer context)."""
    for label in ("params", "layers", "hidden", "heads", "kv_heads", "head_dim", "context"):
        _positive(label, changes.get(label))
    return replace(model, **changes)
