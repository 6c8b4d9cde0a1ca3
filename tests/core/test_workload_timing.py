"""Time estimates against published training runs, and the inference bounds."""

from __future__ import annotations

import pytest

from dlhw_desktop.core.workload.inference import estimate_inference
from dlhw_desktop.core.workload.model_presets import preset
from dlhw_desktop.core.workload.models import custom_model
from dlhw_desktop.core.workload.timing import (
    MFU_RANGE,
    PUBLISHED_MFU,
    SECONDS_PER_DAY,
    estimate_training_time,
    moe_weight_bytes_read,
    training_flops,
    training_seconds,
)
from dlhw_desktop.core.workload.workload import DEFAULT_MFU, Workload

H100_BF16_DENSE = 989.4e12  # NVIDIA H100 SXM datasheet: 1,979 TFLOPS BF16 with sparsity
A100_BF16_DENSE = 312e12  # NVIDIA A100 datasheet: 312 TFLOPS BF16 dense


def test_gpt3_training_compute() -> None:
    # Brown et al. 2020 (https://arxiv.org/abs/2005.14165) Table D.1: GPT-3 175B,
    # 300B tokens, 3.14e23 FLOPs.
    flops = training_flops(preset("gpt3-175b"), tokens=300e9)
    assert flops == pytest.approx(3.14e23, rel=0.01)


def test_llama_3_405b_compute_and_time() -> None:
    # Grattafiori et al. 2024 (https://arxiv.org/abs/2407.21783): 405B params, 15.6T
    # tokens, 3.8e25 FLOPs, up to 16,384 H100 at 38-43 % BF16 MFU (Table 4).
    # a batch of 16M tokens: 2,048 sequences of 8,192 (Table 4), split over the GPUs
    w = Workload(preset("llama-3.1-405b"), "training", tokens=15.6e12, mfu=0.41,
                 batch=2048, seq=8192)
    flops = training_flops(w.model, w.tokens)
    assert flops == pytest.approx(3.8e25, rel=0.01)
    # Meta split each copy over 128 GPUs (TP 8 x PP 16) and the 2,048 sequences over 128
    # copies: every GPU computes. Pure data parallelism could keep only 2,048 busy.
    from dlhw_desktop.core.workload.workload import Parallelism

    t = estimate_training_time(w, H100_BF16_DENSE, 16384, Parallelism(16384, "tp"))
    assert t is not None
    assert 60 < t.days < 72
    idle = estimate_training_time(w, H100_BF16_DENSE, 16384, Parallelism(16384, "zero3"))
    assert idle is not None and idle.days > 7 * t.days  # a batch cannot feed 16,384 GPUs
    # The model card reports 30.84M H100 GPU-hours for the 405B: more than our ideal
    # estimate (restarts, long-context and annealing stages), but not by much.
    # https://github.com/meta-llama/llama-models/blob/main/models/llama3_1/MODEL_CARD.md
    assert 0.7 < t.gpu_hours / 30.84e6 < 1.0


def test_mpt_7b_reported_time() -> None:
    # https://www.databricks.com/blog/mpt-7b: 6.7B params, 1T tokens, 440 A100-40GB,
    # 9.5 days; the MFU that implies is listed in PUBLISHED_MFU (0.36).
    mpt = custom_model(6.7e9)
    seconds = training_seconds(training_flops(mpt, 1e12) or 0, A100_BF16_DENSE, 440, 0.36)
    assert seconds / SECONDS_PER_DAY == pytest.approx(9.5, rel=0.05)


def test_published_mfu_supports_the_default_and_range() -> None:
    lo, hi = MFU_RANGE
    assert lo <= DEFAULT_MFU <= hi
    for run in PUBLISHED_MFU:
        assert lo <= run.mfu <= hi, run.name
        assert "http" in run.source
    assert any(run.name.startswith("PaLM") and run.mfu == 0.462 for run in PUBLISHED_MFU)


def test_moe_compute_uses_active_parameters() -> None:
    mixtral = preset("mixtral-8x7b")
    assert training_flops(mixtral, 1e9) == pytest.approx(6 * 12.9e9 * 1e9)


def test_lora_skips_the_weight_gradients() -> None:
    llama = preset("llama-3.1-8b")
    assert training_flops(llama, 1e9, lora=True) == pytest.approx(4 * 8.03e9 * 1e9)


def test_images_use_forward_flops_per_sample() -> None:
    resnet = preset("resnet-50")
    # 1.28M ImageNet images x 90 epochs, 3 x forward (2 x 4.09 GMACs, torchvision)
    flops = training_flops(resnet, samples=1.28e6 * 90)
    assert flops == pytest.approx(3 * 8.18e9 * 1.28e6 * 90)
    vit = preset("vit-b-16")
    assert training_flops(vit, samples=1000) == pytest.approx(6 * 86e6 * 197 * 1000)


def test_no_data_size_means_no_time() -> None:
    w = Workload(preset("llama-3.1-8b"), "training")
    assert estimate_training_time(w, H100_BF16_DENSE, 1) is None
    assert training_flops(preset("sdxl"), samples=100) is None


def test_decode_is_memory_bound_at_batch_one() -> None:
    # RTX 4090: 1008 GB/s, 165 TFLOPS BF16 (NVIDIA Ada whitepaper). Batch 1: the step reads
    # the weights (not the embedding table, which is only looked up) and the KV cache.
    w = Workload(preset("llama-3.1-8b"), seq=2)
    r = estimate_inference(w, 1008e9, 165.2e12)
    assert r.bound == "memory"
    read = 16.06e9 - 128256 * 4096 * 2
    assert r.ceiling_tokens_per_s == pytest.approx(1008e9 / read, rel=1e-3)
    # the estimate is below the ceiling: the stack reaches a share of the bandwidth and
    # pays fixed costs (issue #19, #30)
    assert r.tokens_per_s is not None and r.tokens_per_s < 0.9 * r.ceiling_tokens_per_s
    assert r.compute_bound_tokens_per_s == pytest.approx(165.2e12 / (2 * 8.03e9))


def test_large_batches_become_compute_bound() -> None:
    w = Workload(preset("llama-3.1-8b"), batch=4096, seq=16)
    r = estimate_inference(w, 3350e9, H100_BF16_DENSE)
    assert r.bound == "compute"
    # 2N FLOPs per token (plus a little attention over 16 tokens) at the MFU
    assert r.tokens_per_s == pytest.approx(H100_BF16_DENSE / (2 * 8.03e9) * DEFAULT_MFU,
                                           rel=0.01)


def test_kv_reads_slow_long_contexts() -> None:
    short = estimate_inference(Workload(preset("llama-3.1-8b"), seq=128), 1008e9, None)
    long = estimate_inference(Workload(preset("llama-3.1-8b"), seq=65536), 1008e9, None)
    assert long.tokens_per_s is not None and short.tokens_per_s is not None
    assert long.tokens_per_s < short.tokens_per_s
    assert long.bound == "memory" and long.compute_bound_tokens_per_s is None


def test_moe_decode_reads_only_routed_experts() -> None:
    mixtral = preset("mixtral-8x7b")
    at_one = moe_weight_bytes_read(mixtral, 1, "BF16")
    assert at_one == pytest.approx(12.9e9 * 2, rel=1e-9)
    assert moe_weight_bytes_read(mixtral, 64, "BF16") == pytest.approx(46.7e9 * 2, rel=1e-3)


def test_encoders_report_samples_per_second() -> None:
    bert = preset("bert-base")
    r = estimate_inference(Workload(bert, seq=128), 1008e9, 165.2e12)
    assert r.samples_per_s == pytest.approx(165.2e12 * DEFAULT_MFU / (2 * 110e6) / 128)
    resnet = estimate_inference(Workload(preset("resnet-50")), None, 165.2e12)
    assert resnet.samples_per_s == pytest.approx(165.2e12 * DEFAULT_MFU / 8.18e9)
