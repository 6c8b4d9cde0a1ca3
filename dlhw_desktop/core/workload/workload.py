"""What the user wants to run (``Workload``) and how it is spread over GPUs (``Parallelism``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Literal

from dlhw_desktop.core.workload.errors import InvalidWorkloadError
from dlhw_desktop.core.workload.models import ModelSpec
from dlhw_desktop.core.workload.precision import (
    BNB_4BIT,
    TRAINING_PRECISIONS,
    canonical,
    weight_format,
)

Mode = Literal["inference", "training", "lora", "qlora"]
MODES: tuple[str, ...] = ("inference", "training", "lora", "qlora")

OPTIMIZERS: tuple[str, ...] = ("adamw", "adamw-8bit", "paged-adamw", "paged-adamw-8bit",
                               "sgd-momentum", "sgd")
"""Optimizers the training estimate knows; see
``model_state_memory.optimizer_bytes_per_param``."""

STRATEGIES: tuple[str, ...] = ("ddp", "zero1", "zero2", "zero3", "fsdp", "tp")
"""How several GPUs share the work: replicated (ddp), sharded (ZeRO / FSDP), tensor parallel."""

DEFAULT_MFU = 0.40
"""Model FLOPs utilisation assumed when the user gives none (see ``timing.PUBLISHED_MFU``)."""

DEFAULT_LORA_RANK = 16

RECIPE_SOURCE = ("QLoRA reference training script (Dettmers et al. 2023), "
                 "https://github.com/artidoro/qlora/blob/main/qlora.py: "
                 "gradient_checkpointing=True (\"You want to use this.\"), "
                 "optim='paged_adamw_32bit'")


@dataclass(frozen=True, slots=True)
class RecipeDefaults:
    """What a job assumes when the user does not say: the settings the published recipe
    of each mode uses. One definition: the form, the advisor, the CLI, build files
    without the key and every estimate read it from ``recipe_defaults``."""

    checkpointing: bool
    optimizer: str
    basis: str

    def describe(self) -> str:
        """The defaults as the user reads them next to an estimate."""
        words = ["activation checkpointing on" if self.checkpointing
                 else "no activation checkpointing", OPTIMIZER_LABELS[self.optimizer]]
        return ", ".join(words)


OPTIMIZER_LABELS: dict[str, str] = {
    "adamw": "AdamW", "adamw-8bit": "AdamW 8-bit", "paged-adamw": "paged AdamW",
    "paged-adamw-8bit": "paged AdamW 8-bit", "sgd-momentum": "SGD with momentum",
    "sgd": "SGD"}

RECIPES: dict[str, RecipeDefaults] = {
    "inference": RecipeDefaults(False, "adamw", "no backward pass"),
    "training": RecipeDefaults(False, "adamw", "mixed-precision AdamW; checkpointing is "
                               "the user's choice (it costs a third more compute)"),
    "lora": RecipeDefaults(True, "adamw", "LoRA recipes train with gradient "
                           "checkpointing on; " + RECIPE_SOURCE),
    "qlora": RecipeDefaults(True, "paged-adamw", RECIPE_SOURCE),
}
"""The recipe of each mode: QLoRA as its reference script runs it (checkpointing on,
paged AdamW), LoRA with checkpointing on as the same script runs 16-bit LoRA."""


def recipe_defaults(mode: str) -> RecipeDefaults:
    """The defaults of ``mode`` (``RECIPES``); full training's for an unknown mode."""
    return RECIPES.get(mode, RECIPES["training"])


MODE_NAMES = {"training": "full training", "lora": "LoRA", "qlora": "QLoRA"}


def recipe_text(checkpointing: bool, optimizer: str, mode: str) -> str:
    """A training job's settings as shown next to its estimates, each against its
    recipe: ``activation checkpointing on, paged AdamW (the QLoRA recipe's defaults)``."""
    recipe = recipe_defaults(mode)
    words = [("activation checkpointing on" if checkpointing
              else "no activation checkpointing")
             + ("" if checkpointing == recipe.checkpointing else
                f" (the recipe: {'on' if recipe.checkpointing else 'off'})"),
             OPTIMIZER_LABELS.get(optimizer, optimizer)
             + ("" if optimizer == recipe.optimizer else
                f" (the recipe: {OPTIMIZER_LABELS[recipe.optimizer]})")]
    same = checkpointing == recipe.checkpointing and optimizer == recipe.optimizer
    tail = f" (the {MODE_NAMES.get(mode, mode)} recipe's defaults)" if same else ""
    return ", ".join(words) + tail

SERVING_STACK_KEYS: tuple[str, ...] = ("llama.cpp", "vllm", "tensorrt-llm")
"""The serving stacks ``inference.SERVING_STACKS`` describes."""


@dataclass(frozen=True, slots=True)
class Parallelism:
    """How ``gpus`` GPUs share one workload.

    ``strategy``: ``ddp`` replicates everything (data parallel); ``zero1``/``zero2``/``zero3``
    shard optimizer states / + gradients / + weights over the GPUs (Rajbhandari et al. 2020);
    ``fsdp`` is PyTorch FSDP FULL_SHARD, the same memory as ZeRO-3; ``tp`` splits every
    matrix over the GPUs (tensor parallel, Shoeybi et al. 2019), which is also how a model
    too big for one GPU is served. ``cpu_offload`` moves optimizer states, fp32 master
    weights and gradients to host memory (ZeRO-Offload, Ren et al. 2021).
    """

    gpus: int = 1
    strategy: str = "ddp"
    cpu_offload: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.gpus, int) or self.gpus < 1:
            raise InvalidWorkloadError(f"GPU count must be a positive integer, got {self.gpus!r}")
        if self.strategy not in STRATEGIES:
            raise InvalidWorkloadError(
                f"unknown parallel strategy {self.strategy!r} (known: {', '.join(STRATEGIES)})"
            )

    @property
    def tensor_parallel(self) -> int:
        return self.gpus if self.strategy == "tp" else 1

    @property
    def data_parallel(self) -> int:
        return 1 if self.strategy == "tp" else self.gpus

    @property
    def zero_stage(self) -> int:
        """0 (replicated), 1, 2 or 3; FSDP full-shard counts as 3."""
        if self.gpus == 1 or self.strategy in ("ddp", "tp"):
            return 0
        return 3 if self.strategy == "fsdp" else int(self.strategy[-1])

    def describe(self) -> str:
        if self.gpus == 1:
            return "1 GPU" + (", CPU offload" if self.cpu_offload else "")
        names = {"ddp": "data parallel (replicated)", "zero1": "ZeRO-1", "zero2": "ZeRO-2",
                 "zero3": "ZeRO-3", "fsdp": "FSDP full shard", "tp": "tensor parallel"}
        text = f"{self.gpus} GPUs, {names[self.strategy]}"
        return text + (", CPU offload" if self.cpu_offload else "")


def default_parallelism(mode: str, gpus: int) -> Parallelism:
    """The usual way to use ``gpus`` GPUs for ``mode``.

    Inference: tensor parallel (what vLLM and TensorRT-LLM do to serve a model larger than
    one GPU). Training, LoRA and QLoRA: fully sharded (FSDP / ZeRO-3), the default that
    lets a model larger than one GPU train at all (FSDP + QLoRA: Answer.AI, 2024).
    """
    if gpus <= 1:
        return Parallelism(1, "ddp")
    return Parallelism(gpus, "tp" if mode == "inference" else "zero3")


@dataclass(frozen=True, slots=True)
class Workload:
    """One job: a model, what to do with it, at which precision and size.

    ``precision`` is the weight format for inference (BF16, INT8, Q4_K_M, ...) and the
    compute precision for training (BF16 means mixed precision with fp32 master weights).
    For LoRA the frozen base is stored at ``precision`` (16-bit by default); QLoRA stores it
    in bitsandbytes 4-bit (``NF4``, the library default of 4.5 bits, unless ``precision`` is
    ``NF4-DQ``, double quantisation, 4.127 bits) and computes at BF16.

    ``batch`` is what decides memory: the concurrent sequences being served (inference,
    split over replicas under ``ddp``) or the sequences trained per step (training),
    split over the data-parallel GPUs: each holds ceil(batch / GPUs) of them, and GPUs
    beyond the batch add no speed (``scaling.working``). Gradient accumulation on top
    does not change memory or the time. ``tokens`` is the dataset size D in tokens (training) or
    the tokens to generate (inference); ``samples`` is the same for models that count
    images, not tokens.
    """

    model: ModelSpec
    mode: str = "inference"
    precision: str = "BF16"
    batch: int = 1
    seq: int | None = None
    tokens: float | None = None
    samples: float | None = None
    optimizer: str = None  # type: ignore[assignment]  # None: the mode's recipe
    fp32_grads: bool = False
    checkpointing: bool = None  # type: ignore[assignment]  # None: the mode's recipe
    flash_attention: bool = True
    lora_rank: int = DEFAULT_LORA_RANK
    kv_precision: str = "BF16"
    mfu: float = DEFAULT_MFU
    serving: str | None = None
    """Serving stack for inference speed (``inference.SERVING_STACKS``: llama.cpp, vllm,
    tensorrt-llm); ``None`` = llama.cpp for GGUF formats, else vLLM."""
    loss_chunks: int = 1
    """Chunks the training loss is computed in (``activation_memory.LOSS_BYTES_PER_LOGIT``):
    1 as transformers' Trainer does, 8 as torchtune's chunked cross-entropy."""
    checkpoint_every: int = 1
    """With ``checkpointing``: recompute every N-th layer (1 = every layer)."""
    lora_dropout: float = 0.0
    """LoRA dropout (PEFT's ``lora_dropout``; the QLoRA paper used 0.05-0.1): above 0
    every adapted module keeps a dropped copy of its input (``memory``)."""

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise InvalidWorkloadError(
                f"unknown mode {self.mode!r} (known: {', '.join(MODES)})"
            )
        recipe = recipe_defaults(self.mode)
        if self.checkpointing is None:
            object.__setattr__(self, "checkpointing", recipe.checkpointing)
        if self.optimizer is None:
            object.__setattr__(self, "optimizer", recipe.optimizer)
        object.__setattr__(self, "precision", canonical(self.precision))
        object.__setattr__(self, "kv_precision", canonical(self.kv_precision))
        if self.mode == "training" and self.precision not in TRAINING_PRECISIONS:
            raise InvalidWorkloadError(
                f"full training runs in {', '.join(TRAINING_PRECISIONS)}, not "
                f"{self.precision}; for 4-bit weights use --mode qlora"
            )
        if self.mode == "lora" and weight_format(self.precision).bits < 8:
            raise InvalidWorkloadError(
                "LoRA on a 4-bit base is QLoRA: use mode 'qlora'"
            )
        if self.optimizer not in OPTIMIZERS:
            raise InvalidWorkloadError(
                f"unknown optimizer {self.optimizer!r} (known: {', '.join(OPTIMIZERS)})"
            )
        for name in ("batch", "lora_rank", "loss_chunks", "checkpoint_every"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise InvalidWorkloadError(f"{name} must be a positive integer, got {value!r}")
        if self.seq is not None and (not isinstance(self.seq, int) or self.seq < 1):
            raise InvalidWorkloadError(f"seq must be a positive integer, got {self.seq!r}")
        for name in ("tokens", "samples"):
            value = getattr(self, name)
            if value is not None and (not math.isfinite(value) or value <= 0):
                raise InvalidWorkloadError(f"{name} must be positive, got {value!r}")
        if self.serving is not None:
            key = self.serving.strip().lower().replace("_", "-").replace(" ", "-")
            key = {"llamacpp": "llama.cpp", "llama-cpp": "llama.cpp", "trt-llm": "tensorrt-llm",
                   "tensorrtllm": "tensorrt-llm", "trtllm": "tensorrt-llm"}.get(key, key)
            if key not in SERVING_STACK_KEYS:
                raise InvalidWorkloadError(
                    f"unknown serving stack {self.serving!r} (known: "
                    f"{', '.join(SERVING_STACK_KEYS)})")
            object.__setattr__(self, "serving", key)
        if not (0 <= self.lora_dropout < 1):
            raise InvalidWorkloadError(
                f"lora_dropout must be in [0, 1), got {self.lora_dropout!r}")
        if not (0 < self.mfu <= 1):
            raise InvalidWorkloadError(f"MFU must be in (0, 1], got {self.mfu!r}")

    @property
    def seq_len(self) -> int:
        """Tokens per sample: the user's, else the model's fixed input or default."""
        if self.model.tokens_per_sample and not self.model.autoregressive:
            return self.model.tokens_per_sample
        return self.seq or self.model.default_seq

    @property
    def training(self) -> bool:
        """True for every mode that runs a backward pass."""
        return self.mode != "inference"

    @property
    def base_format(self) -> str:
        """The format the (frozen or trained) weights are stored in."""
        if self.mode == "qlora":
            return self.precision if self.precision in BNB_4BIT else BNB_4BIT[0]
        return self.precision

    @property
    def compute(self) -> str:
        """The precision whose tensor rate the matrix products run at."""
        if self.mode == "qlora":
            return "BF16"
        return weight_format(self.precision).compute

    @property
    def dataset_tokens(self) -> float | None:
        """D for 6ND: ``tokens``, or ``samples`` x tokens per sample for token models."""
        if self.tokens is not None:
            return self.tokens
        if self.samples is not None and self.model.is_transformer:
            return self.samples * self.seq_len
        return None

    @property
    def dataset_samples(self) -> float | None:
        if self.samples is not None:
            return self.samples
        if self.tokens is not None:
            return self.tokens / self.seq_len
        return None

    def but(self, **changes: Any) -> Workload:
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)
