"""Today's architectures (issue #19): multi-head latent attention, local/global layers,
MoE with shared experts, tied embeddings, KV cache formats, weights of quantised files."""

from __future__ import annotations

import pytest

from dlhw_desktop.core.workload.memory import GiB
from dlhw_desktop.core.workload.model_presets import preset, presets
from dlhw_desktop.core.workload.model_state_memory import (
    kv_cache_bytes,
    kv_cache_bytes_per_token,
    weights_bytes,
)


def test_at_least_30_presets_each_with_a_config_address() -> None:
    models = presets()
    assert len(models) >= 30
    for key in ("deepseek-v3", "deepseek-r1", "qwen3-8b", "qwen3-30b-a3b", "qwen3-235b-a22b",
                "llama-3.3-70b", "llama-4-scout", "llama-4-maverick", "gemma-2-9b",
                "gemma-3-27b", "gpt-oss-20b", "gpt-oss-120b", "phi-4", "mistral-small-3",
                "mistral-large-2", "mixtral-8x7b", "flux.1-dev", "sd-3.5-large",
                "whisper-large-v3"):
        model = preset(key)
        assert "https://" in model.source, key
    llms = [m for m in models if m.kind == "decoder" and m.key.startswith(("qwen3", "gemma",
                                                                          "llama-4", "gpt-oss",
                                                                          "deepseek"))]
    assert all("config.json" in m.source for m in llms)


def test_deepseek_v3_caches_the_mla_latent_not_per_head_k_and_v() -> None:
    # DeepSeek-V2 (https://arxiv.org/abs/2405.04434) Table 1: MLA caches (d_c + d_h^R) x l
    # elements per token; DeepSeek-V3 config.json: kv_lora_rank 512, qk_rope_head_dim 64,
    # 61 layers -> 35,136 values, 70,272 bytes in BF16 - against 128 heads x (128 + 128)
    # x 61 x 2 = 4 MB had it cached per-head K and V (57x more)
    v3 = preset("deepseek-v3")
    assert v3.attention == "MLA"
    assert kv_cache_bytes_per_token(v3) == 576 * 61 * 2
    # an MLA latent is shared by all heads: tensor parallelism does not split it
    assert kv_cache_bytes(v3, 4096, 1, tensor_parallel=8) == kv_cache_bytes(v3, 4096, 1)
    assert v3.compute_params == 37e9 and v3.shared_experts == 1


def test_gemma_local_layers_cap_their_cache_at_the_window() -> None:
    g2 = preset("gemma-2-9b")  # 42 layers alternating, window 4096, 8 KV heads x 256
    per_layer_token = 2 * 8 * 256 * 2
    assert kv_cache_bytes(g2, 8192, 1) == per_layer_token * (21 * 8192 + 21 * 4096)
    g3 = preset("gemma-3-27b")  # 62 layers, 5 local : 1 global, window 1024
    per_layer_token = 2 * 16 * 128 * 2
    assert kv_cache_bytes(g3, 131072, 1) == per_layer_token * (10 * 131072 + 52 * 1024)
    # 128K tokens: 11.2 GB, against 66.6 GB had every layer been global
    assert kv_cache_bytes(g3, 131072, 1) < 0.2 * per_layer_token * 62 * 131072


def test_gpt_oss_alternates_a_128_token_band_with_full_attention() -> None:
    m = preset("gpt-oss-120b")
    per_layer_token = 2 * 8 * 64 * 2
    assert kv_cache_bytes(m, 100_000, 1) == per_layer_token * (18 * 100_000 + 18 * 128)


@pytest.mark.parametrize(("fmt", "bytes_per_value"), [
    ("BF16", 2.0), ("FP8", 1.0), ("Q8_0", 34 / 32), ("Q4_0", 18 / 32)])
def test_kv_cache_formats(fmt: str, bytes_per_value: float) -> None:
    # llama.cpp --cache-type-k/v q8_0 and q4_0 (blocks of 32 with an fp16 scale), vLLM's
    # kv_cache_dtype fp8
    llama = preset("llama-3.1-8b")
    assert kv_cache_bytes_per_token(llama, fmt) == pytest.approx(2 * 32 * 8 * 128
                                                                  * bytes_per_value)


def test_tied_embeddings_count_once() -> None:
    small = preset("llama-3.2-1b")
    assert small.tied_embeddings and small.embedding_params == 128256 * 2048
    assert preset("llama-3.1-8b").embedding_params == 2 * 128256 * 4096


# GGUF file sizes as llama.cpp reports them: https://github.com/XiongjieDai/
# GPU-Benchmarks-on-LLM-Inference README ("LLaMA 3": 8B Q4_K_M 4.58, F16 14.96; 70B Q4_K_M
# 39.59 GiB)
@pytest.mark.parametrize(("key", "fmt", "gib"), [
    ("llama-3.1-8b", "Q4_K_M", 4.58), ("llama-3.1-8b", "FP16", 14.96),
    ("llama-3.1-70b", "Q4_K_M", 39.59)])
def test_gguf_weights_match_published_file_sizes(key: str, fmt: str, gib: float) -> None:
    assert weights_bytes(preset(key), fmt) / GiB == pytest.approx(gib, rel=0.03)


def test_moe_presets_read_only_routed_experts_at_batch_one() -> None:
    from dlhw_desktop.core.workload.timing import moe_weight_bytes_read

    maverick = preset("llama-4-maverick")
    one = moe_weight_bytes_read(maverick, 1, "BF16")
    assert one < 0.1 * weights_bytes(maverick, "BF16")
    assert moe_weight_bytes_read(maverick, 4096, "BF16") == pytest.approx(
        weights_bytes(maverick, "BF16"), rel=0.01)


@pytest.mark.parametrize(("key", "fmt", "gpus", "vram_gib"), [
    # https://openai.com/index/introducing-gpt-oss/: gpt-oss-120b "runs efficiently on a
    # single 80 GB GPU"; gpt-oss-20b "can run on edge devices with just 16 GB of memory"
    ("gpt-oss-120b", "MXFP4", 1, 80), ("gpt-oss-20b", "MXFP4", 1, 16),
    # Grattafiori et al. 2024 (https://arxiv.org/abs/2407.21783) section 6.2: FP8 lets
    # Llama 3 405B run on a single node of 8 H100s
    ("llama-3.1-405b", "FP8", 8, 80),
])
def test_published_deployments_fit(key: str, fmt: str, gpus: int, vram_gib: int) -> None:
    from dlhw_desktop.core.workload.fit import memory_status
    from dlhw_desktop.core.workload.memory import estimate_memory
    from dlhw_desktop.core.workload.workload import Parallelism, Workload

    layout = Parallelism(gpus, "tp") if gpus > 1 else Parallelism()
    estimate = estimate_memory(Workload(preset(key), precision=fmt), layout)
    assert memory_status(estimate.per_gpu_bytes, vram_gib * GiB) == "pass"
    # ... and the same models in BF16 would not
    bf16 = estimate_memory(Workload(preset(key), precision="BF16"), layout)
    assert memory_status(bf16.per_gpu_bytes, vram_gib * GiB) == "fail"
