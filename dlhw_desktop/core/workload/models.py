"""Models to estimate for: ``ModelSpec``, ``custom_model`` and a model's saved form.

The presets with their published architecture are in ``model_presets``. Each preset
carries the URL of the model card, ``config.json`` or paper its figures come from.
Parameter counts are the published ones (a model card's "8.03B", a paper's "86M"),
not recomputed from the shapes, so a user can check them against the source.

Mixture-of-experts models carry two counts: ``params`` (every expert, what the memory
holds) and ``active_params`` (what one token passes through, what the compute costs).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from dlhw_desktop.core.workload.errors import InvalidWorkloadError

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
    weight_bytes: float | None = None
    """Bytes of the weights exactly as stored (a GGUF file or safetensors shards), used
    instead of params x bits when the workload runs in ``stored_format``."""
    stored_format: str | None = None
    """The weight format the file holds (``precision.WEIGHT_FORMATS`` name)."""

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


_INT_FIELDS = ("layers", "hidden", "heads", "kv_heads", "head_dim", "intermediate", "vocab",
               "context", "experts", "experts_per_token", "sliding_window",
               "sliding_window_layers", "kv_lora_rank", "qk_rope_head_dim", "shared_experts",
               "encoder_layers", "encoder_tokens", "tokens_per_sample", "mlp_matrices")
_FLOAT_FIELDS = ("params", "active_params", "forward_flops_per_sample",
                 "activation_values_per_sample", "inference_activation_values_per_sample",
                 "weight_bytes")


def model_to_saved(model: ModelSpec) -> dict[str, Any]:
    """Every known figure of ``model`` as a JSON-ready mapping (unknowns left out), so a
    saved build remembers a model read from a file, not just its path."""
    data: dict[str, Any] = {}
    for name in model.__dataclass_fields__:
        value = getattr(model, name)
        if value is None or value == "" or value == ():
            continue
        if name == "components":
            value = [{"name": n, "params": p} for n, p in value]
        data[name] = value
    return data


def model_from_saved(data: Any) -> ModelSpec:
    """The ``ModelSpec`` of ``model_to_saved``; ``InvalidWorkloadError`` names a bad field."""
    if not isinstance(data, dict):
        raise InvalidWorkloadError("model_spec must be an object")
    values: dict[str, Any] = {}
    for name in _INT_FIELDS:
        value = data.get(name)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value) \
                or value <= 0:
            raise InvalidWorkloadError(f"model_spec.{name} must be a positive whole number, "
                                       f"got {value!r}")
        values[name] = int(value)
    for name in _FLOAT_FIELDS:
        value = data.get(name)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
            raise InvalidWorkloadError(f"model_spec.{name} must be a positive number, "
                                       f"got {value!r}")
        values[name] = float(value)
    if "params" not in values:
        raise InvalidWorkloadError("model_spec.params is missing")
    kind = data.get("kind", "custom")
    if kind not in ("decoder", "encoder", "encoder-decoder", "vision-transformer", "cnn",
                    "diffusion", "custom"):
        raise InvalidWorkloadError(f"model_spec.kind {kind!r} is not a model kind")
    for name in ("tied_embeddings",):
        if isinstance(data.get(name), bool):
            values[name] = data[name]
    for name in ("stored_format", "notes"):
        if isinstance(data.get(name), str):
            values[name] = data[name]
    components = data.get("components") or []
    if isinstance(components, list):
        values["components"] = tuple(
            (str(c.get("name")), float(c.get("params"))) for c in components
            if isinstance(c, dict) and isinstance(c.get("params"), int | float))
    return ModelSpec(key=str(data.get("key") or "custom"), name=str(data.get("name") or
                                                                    "Custom model"),
                     kind=kind, source=str(data.get("source") or "saved build"), **values)


def with_overrides(model: ModelSpec, **changes: Any) -> ModelSpec:
    """A copy of ``model`` with some figures changed (e.g. a fine-tune with a longer context)."""
    for label in ("params", "layers", "hidden", "heads", "kv_heads", "head_dim", "context"):
        _positive(label, changes.get(label))
    return replace(model, **changes)
