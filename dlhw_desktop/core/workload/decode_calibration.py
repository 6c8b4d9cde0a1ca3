"""Fitting the llama.cpp decode model to measurements, and checking it GPU by GPU.

``scripts/fit_decode.py`` reads ``resources/benchmarks/decode_measurements.csv`` (one
measured single-stream decode speed per row, with its source) and
``resources/benchmarks/decode_gpus.csv`` (each measured GPU's bandwidth and memory
class: the catalog's figure, or a sourced one for machines the catalog lacks), fits
``decode_model``'s coefficients by least squares on the relative error, and writes them
to ``decode_coefficients``. A test repeats the leave-one-GPU-out check from the CSVs.

Every row is described with the app's own functions (``decode_model.decode_weight_bytes``
and the KV cache at the mean context, prompt + half the generated tokens), so the fit
calibrates exactly what the app computes. Rows the app cannot describe (an architecture
it does not know, a GPU whose bandwidth is unknown) are left out with the reason.

Pure Python: the fit has a handful of unknowns, solved from the normal equations.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from dlhw_desktop.core.workload.decode_model import (
    decode_weight_bytes,
    kv_read_bytes,
)
from dlhw_desktop.core.workload.model_presets import preset
from dlhw_desktop.core.workload.models import ModelSpec

_HF = "https://huggingface.co/"

LLAMA_2_7B = ModelSpec(
    "llama-2-7b", "Llama 2 7B", "decoder", 6.74e9,
    _HF + "meta-llama/Llama-2-7b-hf/blob/main/config.json; Touvron et al. 2023, "
    "https://arxiv.org/abs/2307.09288", layers=32, hidden=4096, heads=32, kv_heads=32,
    head_dim=128, intermediate=11008, mlp_matrices=3, vocab=32000, context=4096)
LLAMA_2_70B = ModelSpec(
    "llama-2-70b", "Llama 2 70B", "decoder", 68.98e9,
    _HF + "meta-llama/Llama-2-70b-hf/blob/main/config.json", layers=80, hidden=8192,
    heads=64, kv_heads=8, head_dim=128, intermediate=28672, mlp_matrices=3, vocab=32000,
    context=4096)
QWEN_2_5_14B = ModelSpec(
    "qwen2.5-14b", "Qwen2.5 14B (DeepSeek-R1-Distill-Qwen-14B)", "decoder", 14.77e9,
    _HF + "deepseek-ai/DeepSeek-R1-Distill-Qwen-14B/blob/main/config.json", layers=48,
    hidden=5120, heads=40, kv_heads=8, head_dim=128, intermediate=13824, mlp_matrices=3,
    vocab=152064, context=131072, tied_embeddings=False)
GEMMA_3_4B = ModelSpec(
    "gemma-3-4b", "Gemma 3 4B (text)", "decoder", 3.88e9,
    _HF + "google/gemma-3-4b-it/blob/main/config.json (text_config); Gemma 3 Technical "
    "Report, https://arxiv.org/abs/2503.19786 Table 1: 675M embedding + 3,209M "
    "non-embedding parameters (the 417M vision encoder is not read to decode text)",
    layers=34, hidden=2560, heads=8, kv_heads=4, head_dim=256, intermediate=10240,
    mlp_matrices=3, vocab=262208, context=131072, sliding_window=1024,
    sliding_window_layers=29, tied_embeddings=True)

MEASURED_MODELS: dict[str, ModelSpec] = {
    "Meta-Llama-3-8B": preset("llama-3.1-8b"),
    "Meta-Llama-3-70B": preset("llama-3.1-70b"),
    "Llama-3.1-70B-Instruct": preset("llama-3.1-70b"),
    "Llama-3.3-70B-Instruct": preset("llama-3.3-70b"),
    "Llama-3.2-3B-Instruct": preset("llama-3.2-3b"),
    "gpt-oss-20b (unsloth GGUF)": preset("gpt-oss-20b"),
    "Llama-2-7B": LLAMA_2_7B, "LLaMA 7B": LLAMA_2_7B, "LLaMA-7B (v1)": LLAMA_2_7B,
    "CodeLlama-7B": LLAMA_2_7B, "Llama-2-70B": LLAMA_2_70B,
    "DeepSeek-R1-Distill-Qwen-14B": QWEN_2_5_14B, "gemma-3-4b-it": GEMMA_3_4B,
}
"""The measured models by the name the CSV gives (Llama 3 and 3.1 share shapes; LLaMA 1,
Llama 2 and CodeLlama 7B too)."""

KV_PRECISION = "FP16"
"""llama.cpp's default KV cache type."""

PROMPT_WHEN_BLANK = 500
"""Two rows leave the prompt blank; their notes say '~500 tokens'."""


def weight_format_of(csv_format: str) -> str:
    """The app's format name for the CSV's: ``F16`` is FP16; unsloth's gpt-oss GGUF keeps
    its experts in MXFP4 whatever the file name says."""
    if "MXFP4" in csv_format:
        return "MXFP4"
    return {"F16": "FP16", "BF16": "BF16", "F32": "FP32"}.get(csv_format, csv_format)


def backend_of(stack: str) -> str:
    text = stack.lower()
    if "metal" in text:
        return "metal"
    if "vulkan" in text:
        return "vulkan"
    return "cuda"


@dataclass(frozen=True, slots=True)
class Measurement:
    """One measured decode speed, described as the app describes a workload."""

    row: int
    gpu: str
    gpus: int
    backend: str
    memory_class: str
    bandwidth: float
    model: ModelSpec
    weight_format: str
    context: float
    layers: int
    bytes_per_token: float
    tokens_per_s: float
    source: str

    @property
    def seconds(self) -> float:
        return 1.0 / self.tokens_per_s


def measurements(rows: Iterable[Mapping[str, str]],
                 gpu_rows: Iterable[Mapping[str, str]]
                 ) -> tuple[list[Measurement], list[tuple[int, str]]]:
    """The rows the app can describe, and (row number, reason) for the others."""
    gpus = {g["gpu"]: g for g in gpu_rows}
    kept: list[Measurement] = []
    skipped: list[tuple[int, str]] = []
    for index, row in enumerate(rows):
        model = MEASURED_MODELS.get(row["model"])
        gpu = gpus.get(row["gpu"])
        if model is None:
            skipped.append((index, f"architecture of {row['model']!r} not known to the app"))
            continue
        if gpu is None or not gpu.get("memory_bandwidth_gb_s"):
            skipped.append((index, f"bandwidth of {row['gpu']!r} not known"))
            continue
        fmt = weight_format_of(row["weight_format"])
        prompt = int(row["prompt_tokens"]) if row["prompt_tokens"] else PROMPT_WHEN_BLANK
        context = prompt + int(row["gen_tokens"]) / 2.0
        per_token = decode_weight_bytes(model, fmt) + kv_read_bytes(model, context,
                                                                     KV_PRECISION)
        kept.append(Measurement(
            index, row["gpu"], int(row["gpu_count"]), backend_of(row["stack"]),
            gpu["memory_class"], float(gpu["memory_bandwidth_gb_s"]) * 1e9, model, fmt,
            context, model.layers or 0, per_token, float(row["tokens_per_s"]),
            row["source"]))
    return kept, skipped


def features(m: Measurement) -> dict[str, float]:
    """The terms of ``decode_model``'s llama.cpp step, one unknown each."""
    return {f"mem_{m.memory_class}": m.bytes_per_token / m.bandwidth,
            f"layer_{m.backend}": float(m.layers), "hop": float(m.gpus - 1)}


def fit(data: Sequence[Measurement]) -> dict[str, float]:
    """Least squares on the relative error of the step time (each row divided by its
    measured time), from the normal equations."""
    keys = sorted({k for m in data for k in features(m)})
    n = len(keys)
    ata = [[0.0] * n for _ in range(n)]
    atb = [0.0] * n
    for m in data:
        f = features(m)
        x = [f.get(k, 0.0) / m.seconds for k in keys]
        for i in range(n):
            atb[i] += x[i]
            for j in range(n):
                ata[i][j] += x[i] * x[j]
    return dict(zip(keys, _solve(ata, atb), strict=True))


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a is small and well conditioned)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if m[col][col] == 0:
            raise ValueError("singular fit: a coefficient has no data")
        for r in range(n):
            if r != col:
                factor = m[r][col] / m[col][col]
                for c in range(col, n + 1):
                    m[r][c] -= factor * m[col][c]
    return [m[i][n] / m[i][i] for i in range(n)]


def predict(coefficients: Mapping[str, float], m: Measurement) -> float | None:
    """Tokens per second; ``None`` when a term has no coefficient (no data for it)."""
    seconds = 0.0
    for key, value in features(m).items():
        if key not in coefficients:
            return None
        seconds += coefficients[key] * value
    return 1.0 / seconds if seconds > 0 else None


@dataclass(frozen=True, slots=True)
class Holdout:
    """The leave-one-GPU-out check: each GPU's rows predicted by a fit on the others."""

    pairs: tuple[tuple[Measurement, float | None], ...]

    @property
    def errors(self) -> list[float | None]:
        """Predicted / measured - 1 per row (``None``: not predictable)."""
        return [None if p is None else p / m.tokens_per_s - 1.0 for m, p in self.pairs]

    def share_within(self, tolerance: float) -> float:
        errors = self.errors
        return sum(1 for e in errors if e is not None and abs(e) <= tolerance) / len(errors)

    @property
    def median_error(self) -> float:
        known = [abs(e) for e in self.errors if e is not None]
        return statistics.median(known) if known else math.inf

    @property
    def gpus(self) -> int:
        return len({m.gpu for m, _ in self.pairs})


def leave_one_gpu_out(data: Sequence[Measurement]) -> Holdout:
    pairs: list[tuple[Measurement, float | None]] = []
    for gpu in sorted({m.gpu for m in data}):
        coefficients = fit([m for m in data if m.gpu != gpu])
        pairs.extend((m, predict(coefficients, m)) for m in data if m.gpu == gpu)
    pairs.sort(key=lambda pair: pair[0].row)
    return Holdout(tuple(pairs))
