"""Training memory against published measurements (issue #19): the fp32 loss over the
vocabulary, 16-bit embeddings under bitsandbytes, checkpointing, paged optimizers."""

from __future__ import annotations

import pytest

from dlhw_desktop.core.workload.activation_memory import (
    LOSS_BYTES_PER_LOGIT,
    logits_bytes,
)
from dlhw_desktop.core.workload.fit import memory_status
from dlhw_desktop.core.workload.memory import GiB, estimate_memory
from dlhw_desktop.core.workload.model_presets import preset
from dlhw_desktop.core.workload.workload import Parallelism, Workload

# https://unsloth.ai/blog/llama3-3: Hugging Face + FlashAttention 2, QLoRA on all linear
# layers (q, k, v, o, gate, up, down), rank 32, batch 1, sequences padded to the length,
# gradient checkpointing; the longest context that fits one 80 GB A100, or OOM.
HF_FA2_MAX_CONTEXT_80GB = {"llama-3.1-8b": 28_000, "llama-3.3-70b": 6_916}


def _qlora(key: str, seq: int, precision: str = "NF4-DQ") -> Workload:
    # the QLoRA recipe (and Unsloth's loader) quantise the base with double quantisation
    return Workload(preset(key), "qlora", precision=precision, batch=1, seq=seq,
                    checkpointing=True, lora_rank=32)


@pytest.mark.parametrize(("key", "seq"), sorted(HF_FA2_MAX_CONTEXT_80GB.items()))
def test_qlora_at_its_published_longest_context_fills_an_80_gb_gpu(key: str,
                                                                  seq: int) -> None:
    needed = estimate_memory(_qlora(key, seq)).per_gpu_bytes
    # at the longest context that fits, the peak is close to the 80 GiB; the estimate
    # is 83 % of it (the allocator's reserve and the recomputed layer's gradients are
    # not counted): within the 10-20 % the issue allows for measured peaks
    assert 0.80 * 80 * GiB <= needed <= 80 * GiB


def test_qlora_70b_does_not_fit_48_gb_with_transformers_and_8b_not_8_gb() -> None:
    # same source: "HF+FA2 ... OOM" for Llama 3.3 70B on 48 GB and Llama 3.1 8B on 8 GB;
    # the estimate never calls them a pass (70B at 1K tokens: 99 % of 48 GiB, "warn")
    big = estimate_memory(_qlora("llama-3.3-70b", 1024))
    assert memory_status(big.per_gpu_bytes, 48 * GiB) in ("warn", "fail")
    assert big.per_gpu_bytes > 0.95 * 48 * GiB
    assert estimate_memory(_qlora("llama-3.1-8b", 256)).per_gpu_bytes > 8 * GiB


def test_the_loss_over_the_vocabulary_dominates_long_context_and_chunking_cuts_it() -> None:
    w = _qlora("llama-3.1-8b", 28_000)
    full = logits_bytes(w, Parallelism())
    assert full == LOSS_BYTES_PER_LOGIT * 28_000 * 128_256  # 50 GB: bf16 + 3 fp32 copies
    assert full > 0.6 * estimate_memory(w).per_gpu_bytes
    chunked = logits_bytes(w.but(loss_chunks=8), Parallelism())
    assert chunked == pytest.approx(full / 8)
    note = estimate_memory(w).item("activations")
    assert note is not None and "fp32" in note.note


def test_qlora_weights_keep_embeddings_and_lm_head_in_16_bit() -> None:
    # bitsandbytes replaces nn.Linear modules only and skips lm_head: for Llama 3.1 8B the
    # 2 x 128,256 x 4096 = 1.05B embedding and output parameters stay bf16
    w = _qlora("llama-3.1-8b", 2048)
    weights = estimate_memory(w).bytes_of("weights") or 0
    embed = 2 * 128_256 * 4096
    expected = (8.03e9 - embed) * (4 + 8 / 64 + 32 / (64 * 256)) / 8 + embed * 2
    assert weights == pytest.approx(expected)
    assert weights > 1.35 * 8.03e9 * 4.127 / 8  # 38 % above the old all-4-bit figure
    # without double quantisation (bitsandbytes' default, and the default here) 4.5 bits
    default = estimate_memory(_qlora("llama-3.1-8b", 2048, precision="BF16"))
    item = default.item("weights")
    assert item is not None and "no double quantisation" in item.note
    assert item.bytes == pytest.approx((8.03e9 - embed) * 4.5 / 8 + embed * 2)


def test_gated_mlps_store_their_gate_and_up_products() -> None:
    from dlhw_desktop.core.workload.activation_memory import transformer_layer_activation_bytes

    s, b, h, a = 4096, 1, 4096, 32
    # Llama 3 8B SwiGLU, i = 14336: (15 + 3 + 8 x 3.5) sbh = 46 sbh (Korthikanti's 34 with
    # a 4h GeLU MLP)
    got = transformer_layer_activation_bytes(s, b, h, a, attention_scores=False,
                                             intermediate=14336, gated=True)
    assert got == pytest.approx(46 * s * b * h)
    assert transformer_layer_activation_bytes(
        s, b, h, a, attention_scores=False, intermediate=4 * h) == pytest.approx(34 * s * b * h)


def test_paged_optimizers_cost_the_same_state_and_say_it_can_spill() -> None:
    w = _qlora("llama-3.1-8b", 2048)
    plain = estimate_memory(w.but(optimizer="adamw-8bit"))
    paged = estimate_memory(w.but(optimizer="paged-adamw-8bit"))
    assert paged.bytes_of("optimizer") == plain.bytes_of("optimizer")
    assert any("spill to CPU" in n for n in paged.notes)


def test_lora_branches_keep_their_inner_products_and_dropout_copies() -> None:
    from dlhw_desktop.core.workload.activation_memory import lora_saved_bytes_per_layer

    w = Workload(preset("llama-3.1-8b"), "lora", seq=2048, lora_rank=16)
    # 7 adapted modules (q, k, v, o, gate, up, down), each B keeping s x r bf16 values
    assert lora_saved_bytes_per_layer(w, 2048) == 7 * 16 * 2 * 2048
    # with dropout each module keeps its own dropped input (bf16) and mask (1 byte):
    # inputs of widths 4096 (q, k, v, gate, up, o) and 14336 (down)
    dropped = lora_saved_bytes_per_layer(w.but(lora_dropout=0.05), 2048)
    assert dropped - 7 * 16 * 2 * 2048 == (6 * 4096 + 14336) * 3 * 2048
    plain = estimate_memory(w).bytes_of("activations") or 0
    assert (estimate_memory(w.but(lora_dropout=0.1)).bytes_of("activations") or 0) > plain


def test_checkpointing_every_other_layer_trades_memory_for_recompute() -> None:
    from dlhw_desktop.core.workload.timing import estimate_training_time

    w = Workload(preset("llama-3.1-8b"), "training", seq=4096, tokens=1e9,
                 checkpointing=True)
    every = estimate_memory(w).bytes_of("activations") or 0
    half = estimate_memory(w.but(checkpoint_every=2)).bytes_of("activations") or 0
    none = estimate_memory(w.but(checkpointing=False)).bytes_of("activations") or 0
    assert every < half < none
    # 16 of 32 layers recomputed: 6ND + 2ND x 16/32 = 7ND (N with the attention over
    # the 4,096-token sequence, PaLM's 12 L H Q T)
    t = estimate_training_time(w.but(checkpoint_every=2), 989e12, 8)
    attention = 2 * 32 * 32 * 128 * 4096
    assert t is not None and t.flops == pytest.approx(7 * (8.03e9 + attention) * 1e9)
    assert "50% of the layers" in t.rule
