"""Precision names -> bytes per parameter and the accelerator throughput they run at.

The app speaks of seven precisions (FP32, TF32, BF16, FP16, FP8, INT8, INT4) and of the
common quantised weight formats people actually download (GGUF, GPTQ, AWQ, NF4). Each has
a storage cost in bits per weight (with its per-block scales counted, since they are
real bytes in VRAM) and a *compute* precision: the tensor-core rate the matrix products
run at, looked up through ``core.fields.PRECISION_FIELDS``.

Two rules a user should know:

- **TF32 is a compute mode, not a storage type**: tensors stay FP32 (4 bytes) and the
  tensor cores round to TF32 internally (NVIDIA A100 Tensor Core GPU Architecture
  whitepaper, 2020, "TF32").
- **INT4 compute falls back to the INT8 rate**: few current parts publish an INT4 tensor
  figure (Hopper dropped INT4 tensor cores) and the catalog has no INT4 field, so INT4
  weights are costed at INT8 TOPS, an honest upper bound for W4A8/W4A16 kernels.
- Quantised formats (GGUF, GPTQ, AWQ, NF4) dequantise to 16-bit before the matrix
  product in the common kernels, so they compute at the FP16/BF16 rate.
"""

from __future__ import annotations

from dataclasses import dataclass

from dlhw_desktop.core.fields import PRECISION_FIELDS
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.errors import UnknownPrecisionError

PRECISIONS: tuple[str, ...] = ("FP32", "TF32", "BF16", "FP16", "FP8", "INT8", "INT4")
"""The precision names used across the app, widest first."""

TRAINING_PRECISIONS: tuple[str, ...] = ("FP32", "TF32", "BF16", "FP16", "FP8")
"""Precisions full training can run in (integer formats are inference or QLoRA only)."""


@dataclass(frozen=True, slots=True)
class WeightFormat:
    """How one weight is stored (``bits``) and which rate its matrix products run at."""

    name: str
    bits: float
    compute: str
    source: str
    note: str = ""
    embeddings_16bit: bool = False
    """The token embeddings and the output layer stay in 16-bit (bitsandbytes, GPTQ, AWQ and
    FP8 checkpoints quantise only the linear layers of the blocks); ``bits`` is for the rest.
    GGUF mixes are published as bits per weight over the whole file, so they stay False."""

    @property
    def bytes_per_param(self) -> float:
        return self.bits / 8.0

    @property
    def quantised(self) -> bool:
        return self.name not in PRECISIONS and self.compute != "FP4"


_IEEE = "IEEE 754-2019; bfloat16: Google Cloud TPU docs 'The bfloat16 numerical format'"
_LLAMA_CPP_QUANT = "https://github.com/ggml-org/llama.cpp/blob/master/tools/quantize/README.md"

WEIGHT_FORMATS: dict[str, WeightFormat] = {
    f.name: f
    for f in (
        WeightFormat("FP32", 32, "FP32", _IEEE),
        WeightFormat("TF32", 32, "TF32",
                     "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020)",
                     "stored as FP32; TF32 is the tensor-core compute mode"),
        WeightFormat("BF16", 16, "BF16", _IEEE),
        WeightFormat("FP16", 16, "FP16", _IEEE),
        WeightFormat("FP8", 8, "FP8", "Micikevicius et al. 2022, FP8 Formats for Deep "
                     "Learning, https://arxiv.org/abs/2209.05433; FP8 checkpoints for vLLM "
                     "and TensorRT-LLM (llm-compressor, ModelOpt) quantise the blocks' "
                     "linear layers and keep lm_head and the embeddings in BF16",
                     "embeddings and lm_head stay 16-bit; per-tensor scales negligible",
                     embeddings_16bit=True),
        WeightFormat("INT8", 8, "INT8", "Dettmers et al. 2022, LLM.int8(), "
                     "https://arxiv.org/abs/2208.07339", "per-channel scales not counted"),
        WeightFormat("INT4", 4, "INT8", "plain 4-bit integers, scales not counted",
                     "compute costed at the INT8 rate (no INT4 figure in the catalog)"),
        WeightFormat("FP4", 4.5, "FP4", "NVIDIA Blackwell NVFP4: 4-bit values with one "
                     "FP8 scale per 16-value block (4 + 8/16 bits); ModelOpt NVFP4 "
                     "checkpoints keep lm_head and the embeddings in BF16",
                     "embeddings and lm_head stay 16-bit", embeddings_16bit=True),
        # --- quantised formats people download -------------------------------------
        WeightFormat("Q8_0", 8.5, "FP16", _LLAMA_CPP_QUANT + " (block of 32 int8 + one "
                     "fp16 scale = 34 bytes / 32 weights)"),
        WeightFormat("Q6_K", 6.5625, "FP16", _LLAMA_CPP_QUANT + " (6.56 bpw)"),
        WeightFormat("Q5_K_M", 5.68, "FP16", _LLAMA_CPP_QUANT + " (5.68 bpw, Llama 2 7B)"),
        WeightFormat("Q4_K_M", 4.89, "FP16", _LLAMA_CPP_QUANT + " (4.89 bpw for Llama 3.1 8B "
                     "over the whole file: Q4_K (4.5 bpw) for most tensors, Q6_K (6.56 bpw) "
                     "for half of attn_v and ffn_down and for the output layer; 4.84 for "
                     "Llama 2 7B, whose output layer is a smaller share)"),
        WeightFormat("Q3_K_M", 3.91, "FP16", _LLAMA_CPP_QUANT + " (3.91 bpw)"),
        WeightFormat("Q4_K_S", 4.58, "FP16", _LLAMA_CPP_QUANT + " (4.58 bpw)"),
        WeightFormat("Q5_K_S", 5.54, "FP16", _LLAMA_CPP_QUANT + " (5.54 bpw)"),
        WeightFormat("Q4_0", 4.5, "FP16", _LLAMA_CPP_QUANT + " (block of 32 4-bit + one "
                     "fp16 scale = 18 bytes / 32 weights)"),
        WeightFormat("Q4_1", 5.0, "FP16", "ggml block_q4_1: 32 4-bit values with an fp16 "
                     "scale and an fp16 minimum = 20 bytes / 32 weights"),
        WeightFormat("Q5_0", 5.5, "FP16", "ggml block_q5_0: 32 5-bit values (4 low bits + "
                     "a 32-bit mask of high bits) and an fp16 scale = 22 bytes / 32 weights"),
        WeightFormat("Q5_1", 6.0, "FP16", "ggml block_q5_1: as Q5_0 with an fp16 minimum = "
                     "24 bytes / 32 weights"),
        WeightFormat("Q3_K_S", 3.6429, "FP16", _LLAMA_CPP_QUANT + " (3.64 bpw for Llama 3.1 "
                     "8B over the whole file)"),
        WeightFormat("Q2_K", 3.1593, "FP16", _LLAMA_CPP_QUANT + " (3.16 bpw for Llama 3.1 8B "
                     "over the whole file: Q2_K for most tensors, higher types for some)"),
        WeightFormat("GPTQ-4BIT", 4 + 20 / 128, "FP16",
                     "Frantar et al. 2022, GPTQ, https://arxiv.org/abs/2210.17323; group size "
                     "128 with an fp16 scale and a packed 4-bit zero point per group "
                     "(AutoGPTQ/transformers GPTQConfig: qweight, scales, qzeros per group)",
                     "embeddings and lm_head stay 16-bit", embeddings_16bit=True),
        WeightFormat("GPTQ-4BIT-G32", 4 + 20 / 32, "FP16",
                     "GPTQ with group size 32: an fp16 scale and a 4-bit zero per 32 weights",
                     "embeddings and lm_head stay 16-bit", embeddings_16bit=True),
        WeightFormat("GPTQ-4BIT-G64", 4 + 20 / 64, "FP16",
                     "GPTQ with group size 64: an fp16 scale and a 4-bit zero per 64 weights",
                     "embeddings and lm_head stay 16-bit", embeddings_16bit=True),
        WeightFormat("GPTQ-8BIT", 8 + 24 / 128, "FP16",
                     "GPTQ 8-bit, group size 128: an fp16 scale and an 8-bit zero per group",
                     "embeddings and lm_head stay 16-bit", embeddings_16bit=True),
        WeightFormat("AWQ-4BIT", 4 + 20 / 128, "FP16",
                     "Lin et al. 2023, AWQ, https://arxiv.org/abs/2306.00978; group size 128 "
                     "with an fp16 scale and a 4-bit zero point per group",
                     "embeddings and lm_head stay 16-bit", embeddings_16bit=True),
        WeightFormat("AWQ-4BIT-G64", 4 + 20 / 64, "FP16",
                     "AWQ with group size 64: an fp16 scale and a 4-bit zero per 64 weights",
                     "embeddings and lm_head stay 16-bit", embeddings_16bit=True),
        WeightFormat("NF4", 4 + 32 / 64, "BF16",
                     "bitsandbytes 4-bit as load_in_4bit=True leaves it (transformers "
                     "BitsAndBytesConfig: bnb_4bit_use_double_quant=False): 4-bit values in "
                     "blocks of 64 with one fp32 absmax each, 4 + 32/64 = 4.5 bits (Dettmers "
                     "et al. 2023, QLoRA, https://arxiv.org/abs/2305.14314 section 3: 'a "
                     "memory footprint of 32/64 = 0.5 bits per parameter' for the constants). "
                     "The FP4 quant type (the library's default) stores the same. "
                     "bitsandbytes quantises nn.Linear only: embeddings and lm_head stay 16-bit",
                     "bitsandbytes default, no double quantisation; embeddings and lm_head "
                     "stay 16-bit", embeddings_16bit=True),
        WeightFormat("NF4-DQ", 4 + 8 / 64 + 32 / (64 * 256), "BF16",
                     "bitsandbytes 4-bit with double quantisation (bnb_4bit_use_double_quant="
                     "True, as the QLoRA paper trains): each block's absmax stored as 8 bits "
                     "plus one fp32 constant per 256 blocks, 4 + 8/64 + 32/(64 x 256) = "
                     "4.127 bits (Dettmers et al. 2023, https://arxiv.org/abs/2305.14314 "
                     "section 3). Embeddings and lm_head stay 16-bit",
                     "double quantisation (use_double_quant=True); embeddings and lm_head "
                     "stay 16-bit", embeddings_16bit=True),
        WeightFormat("BNB-INT8", 8 + 32 / 4096, "FP16",
                     "Dettmers et al. 2022, LLM.int8(), https://arxiv.org/abs/2208.07339; "
                     "bitsandbytes Linear8bitLt keeps int8 weights and one fp32 scale per row "
                     "(32/4096 bits per weight at width 4096)",
                     "embeddings and lm_head stay 16-bit; outlier columns run in fp16",
                     embeddings_16bit=True),
        WeightFormat("FP8-BLOCK", 8 + 32 / (128 * 128), "FP8",
                     "DeepSeek-V3 technical report, https://arxiv.org/abs/2412.19437 section "
                     "3.3.2: e4m3 weights with one fp32 scale per 128x128 block",
                     "embeddings and lm_head stay 16-bit", embeddings_16bit=True),
        WeightFormat("MXFP4", 4 + 8 / 32, "FP4",
                     "OCP Microscaling Formats (MX) Specification v1.0 (2023): FP4 (E2M1) "
                     "elements with one 8-bit E8M0 scale per block of 32 = 4.25 bits; gpt-oss "
                     "ships its MoE weights so "
                     "(https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json "
                     "quantization_config)",
                     "embeddings and lm_head stay 16-bit", embeddings_16bit=True),
    )
}

_ALIASES: dict[str, str] = {
    "FLOAT32": "FP32", "F32": "FP32", "FLOAT": "FP32",
    "BFLOAT16": "BF16", "FLOAT16": "FP16", "F16": "FP16", "HALF": "FP16",
    "E4M3": "FP8", "FP8-E4M3": "FP8",
    "GPTQ": "GPTQ-4BIT", "GPTQ4": "GPTQ-4BIT", "GPTQ-INT4": "GPTQ-4BIT",
    "AWQ": "AWQ-4BIT", "AWQ4": "AWQ-4BIT", "AWQ-INT4": "AWQ-4BIT",
    "NVFP4": "FP4", "MX-FP4": "MXFP4",
    "BNB-NF4": "NF4", "4BIT-NF4": "NF4", "BNB-4BIT": "NF4", "BNB-FP4": "NF4",
    "NF4-DOUBLE-QUANT": "NF4-DQ", "NF4DQ": "NF4-DQ", "NF4_DQ": "NF4-DQ",
    "BNB-4BIT-DQ": "NF4-DQ", "BNB-NF4-DQ": "NF4-DQ", "QLORA-NF4": "NF4-DQ",
    "LLM.INT8": "BNB-INT8", "BNB-8BIT": "BNB-INT8", "INT8-BNB": "BNB-INT8",
    "GPTQ-INT8": "GPTQ-8BIT", "GPTQ8": "GPTQ-8BIT",
    "FP8-E4M3-BLOCK": "FP8-BLOCK", "FP8_BLOCK": "FP8-BLOCK",
}


BNB_4BIT: tuple[str, ...] = ("NF4", "NF4-DQ")
"""bitsandbytes 4-bit storage: the library's default (no double quantisation, 4.5 bits) and
with double quantisation (4.127 bits). QLoRA's base is one of them; the default first."""


FORMAT_HINTS: dict[str, str] = {
    "NF4": "bitsandbytes default, no double quantisation",
    "NF4-DQ": "bitsandbytes with double quantisation",
}
"""A few words that tell two formats of one library apart where the name alone does not."""


def format_label(name: str) -> str:
    """``NF4 (4.5 bits, bitsandbytes default, no double quantisation)``, ``BF16 (16 bits)``."""
    fmt = weight_format(name)
    hint = FORMAT_HINTS.get(fmt.name)
    return f"{fmt.name} ({fmt.bits:.3g} bits" + (f", {hint})" if hint else ")")


def canonical(name: str) -> str:
    """The canonical name of a precision or format (case-insensitive, common aliases).

    ``gguf-q4_k_m``, ``Q4_K_M`` and ``q4-k-m`` all give ``Q4_K_M``.
    """
    key = name.strip().upper().replace(" ", "")
    if key.startswith("GGUF-") or key.startswith("GGUF_"):
        key = key[5:]
    if key in WEIGHT_FORMATS:
        return key
    if key in _ALIASES:
        return _ALIASES[key]
    underscored = key.replace("-", "_")
    if underscored in WEIGHT_FORMATS:
        return underscored
    raise UnknownPrecisionError(name, tuple(WEIGHT_FORMATS))


def weight_format(name: str) -> WeightFormat:
    """The storage and compute facts of a precision or quantised format."""
    return WEIGHT_FORMATS[canonical(name)]


def bytes_per_param(name: str) -> float:
    """Bytes one weight takes in memory (per-block scales included)."""
    return weight_format(name).bytes_per_param


def compute_precision(name: str) -> str:
    """The precision whose throughput the matrix products of ``name`` run at."""
    return weight_format(name).compute


def throughput_field(name: str) -> str:
    """The catalog field (``core.fields.PRECISION_FIELDS``) giving the dense peak rate."""
    return PRECISION_FIELDS[compute_precision(name)]


def peak_flops(part: Part, name: str) -> float | None:
    """Dense peak FLOP/s (OP/s for integers) of ``part`` at ``name``; ``None`` when unknown.

    Catalog figures are in TFLOPS/TOPS and dense (DESIGN.md "Data honesty"), so this is
    the vendor's dense peak times 1e12. No fallback to another precision is invented
    except the documented INT4 -> INT8 one.
    """
    value = part.number(throughput_field(name))
    return None if value is None or value <= 0 else value * 1e12


def precisions_for_mode(mode: str) -> list[str]:
    """The weight formats a job can use: training keeps trainable precisions; LoRA freezes a
    base of 8 bits or more; QLoRA's base is bitsandbytes 4-bit, with or without double
    quantisation (``BNB_4BIT``); inference takes any format."""
    if mode == "training":
        return list(TRAINING_PRECISIONS)
    if mode == "lora":
        return [name for name, fmt in WEIGHT_FORMATS.items() if fmt.bits >= 8]
    if mode == "qlora":
        return list(BNB_4BIT)
    return list(WEIGHT_FORMATS)
