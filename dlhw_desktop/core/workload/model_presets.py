"""The model presets: published architectures, each with the URL of the model card,
``config.json`` or paper its figures come from, and ``preset(name)`` / ``presets()`` to look
them up (by key, display name or a common alias). The ``ModelSpec`` they are made of is in
``models``.
"""

from __future__ import annotations

from dlhw_desktop.core.workload.errors import UnknownModelError
from dlhw_desktop.core.workload.models import ModelSpec

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
        "llama-3.2-1b", "Llama 3.2 1B", "decoder", 1.24e9,
        _HF + "meta-llama/Llama-3.2-1B/blob/main/config.json; model card "
        + _HF + "meta-llama/Llama-3.2-1B (1.23B)",
        layers=16, hidden=2048, heads=32, kv_heads=8, head_dim=64, intermediate=8192,
        mlp_matrices=3, vocab=128256, context=131072, tied_embeddings=True,
    ),
    ModelSpec(
        "llama-3.2-3b", "Llama 3.2 3B", "decoder", 3.21e9,
        _HF + "meta-llama/Llama-3.2-3B/blob/main/config.json; model card "
        + _HF + "meta-llama/Llama-3.2-3B (3.21B)",
        layers=28, hidden=3072, heads=24, kv_heads=8, head_dim=128, intermediate=8192,
        mlp_matrices=3, vocab=128256, context=131072, tied_embeddings=True,
    ),
    ModelSpec(
        "qwen3-8b", "Qwen3 8B", "decoder", 8.2e9,
        _HF + "Qwen/Qwen3-8B (model card: 8.2B, 36 layers, 32 Q / 8 KV heads); "
        + _HF + "Qwen/Qwen3-8B/blob/main/config.json",
        layers=36, hidden=4096, heads=32, kv_heads=8, head_dim=128, intermediate=12288,
        mlp_matrices=3, vocab=151936, context=40960, tied_embeddings=False,
        notes="32,768 tokens native, 131,072 with YaRN (model card)",
    ),
    ModelSpec(
        "gemma-2-9b", "Gemma 2 9B", "decoder", 9.24e9,
        _HF + "google/gemma-2-9b/blob/main/config.json; Gemma Team 2024, "
        "https://arxiv.org/abs/2408.00118 Table 2 (917.5M embedding + 8,324M non-embedding)",
        layers=42, hidden=3584, heads=16, kv_heads=8, head_dim=256, intermediate=14336,
        mlp_matrices=3, vocab=256000, context=8192, sliding_window=4096,
        sliding_window_layers=21, tied_embeddings=True,
        notes="local (4096-token window) and global attention alternate layer by layer",
    ),
    ModelSpec(
        "gemma-3-12b", "Gemma 3 12B", "decoder", 12.19e9,
        _HF + "google/gemma-3-12b-pt/blob/main/config.json (text_config); Gemma Team 2025, "
        "https://arxiv.org/abs/2503.19786 Table 1 (417M vision + 1,012M embedding + "
        "10,759M non-embedding)",
        layers=48, hidden=3840, heads=16, kv_heads=8, head_dim=256, intermediate=15360,
        mlp_matrices=3, vocab=262208, context=131072, sliding_window=1024,
        sliding_window_layers=40, tied_embeddings=True,
        components=(("Language model", 11.771e9), ("Vision encoder (SigLIP)", 417e6)),
        notes="5 local layers (1024-token window) to 1 global (sliding_window_pattern 6)",
    ),
    ModelSpec(
        "phi-4", "Phi-4 (14B)", "decoder", 14.7e9,
        _HF + "microsoft/phi-4/blob/main/config.json; Abdin et al. 2024, Phi-4 Technical "
        "Report, https://arxiv.org/abs/2412.08905 (14B)",
        layers=40, hidden=5120, heads=40, kv_heads=10, head_dim=128, intermediate=17920,
        mlp_matrices=3, vocab=100352, context=16384, tied_embeddings=False,
    ),
    ModelSpec(
        "gpt-oss-20b", "gpt-oss-20b", "decoder", 20.91e9,
        _HF + "openai/gpt-oss-20b/blob/main/config.json; OpenAI 2025, gpt-oss-120b & "
        "gpt-oss-20b Model Card, https://arxiv.org/abs/2508.10925 Table 1 (20.91B total, "
        "3.61B active)",
        active_params=3.61e9, layers=24, hidden=2880, heads=64, kv_heads=8, head_dim=64,
        intermediate=2880, mlp_matrices=3, vocab=201088, context=131072, experts=32,
        experts_per_token=4, sliding_window=128, sliding_window_layers=12,
        tied_embeddings=False,
        notes="ships with MoE weights in MXFP4 (choose MXFP4); banded 128-token window "
        "and full attention alternate",
    ),
    ModelSpec(
        "mistral-small-3", "Mistral Small 3 (24B)", "decoder", 23.6e9,
        _HF + "mistralai/Mistral-Small-24B-Base-2501/blob/main/config.json; "
        "https://mistral.ai/news/mistral-small-3",
        layers=40, hidden=5120, heads=32, kv_heads=8, head_dim=128, intermediate=32768,
        mlp_matrices=3, vocab=131072, context=32768, tied_embeddings=False,
    ),
    ModelSpec(
        "gemma-2-27b", "Gemma 2 27B", "decoder", 27.23e9,
        _HF + "google/gemma-2-27b/blob/main/config.json; Gemma Team 2024, "
        "https://arxiv.org/abs/2408.00118 Table 2 (1,179.6M embedding + 26,047M "
        "non-embedding)",
        layers=46, hidden=4608, heads=32, kv_heads=16, head_dim=128, intermediate=36864,
        mlp_matrices=3, vocab=256000, context=8192, sliding_window=4096,
        sliding_window_layers=23, tied_embeddings=True,
        notes="local (4096-token window) and global attention alternate layer by layer",
    ),
    ModelSpec(
        "gemma-3-27b", "Gemma 3 27B", "decoder", 27.43e9,
        _HF + "google/gemma-3-27b-pt/blob/main/config.json (text_config); Gemma Team 2025, "
        "https://arxiv.org/abs/2503.19786 Table 1 (417M vision + 1,416M embedding + "
        "25,600M non-embedding)",
        layers=62, hidden=5376, heads=32, kv_heads=16, head_dim=128, intermediate=21504,
        mlp_matrices=3, vocab=262208, context=131072, sliding_window=1024,
        sliding_window_layers=52, tied_embeddings=True,
        components=(("Language model", 27.016e9), ("Vision encoder (SigLIP)", 417e6)),
        notes="5 local layers (1024-token window) to 1 global (sliding_window_pattern 6)",
    ),
    ModelSpec(
        "qwen3-30b-a3b", "Qwen3 30B-A3B (MoE)", "decoder", 30.5e9,
        _HF + "Qwen/Qwen3-30B-A3B (model card: 30.5B total, 3.3B activated, 128 experts, "
        "8 activated); " + _HF + "Qwen/Qwen3-30B-A3B/blob/main/config.json",
        active_params=3.3e9, layers=48, hidden=2048, heads=32, kv_heads=4, head_dim=128,
        intermediate=768, mlp_matrices=3, vocab=151936, context=40960, experts=128,
        experts_per_token=8, tied_embeddings=False,
        notes="intermediate is the per-expert moe_intermediate_size",
    ),
    ModelSpec(
        "qwen3-32b", "Qwen3 32B", "decoder", 32.8e9,
        _HF + "Qwen/Qwen3-32B (model card: 32.8B, 64 layers, 64 Q / 8 KV heads); "
        + _HF + "Qwen/Qwen3-32B/blob/main/config.json",
        layers=64, hidden=5120, heads=64, kv_heads=8, head_dim=128, intermediate=25600,
        mlp_matrices=3, vocab=151936, context=40960, tied_embeddings=False,
    ),
    ModelSpec(
        "llama-3.3-70b", "Llama 3.3 70B", "decoder", 70.6e9,
        _HF + "meta-llama/Llama-3.3-70B-Instruct/blob/main/config.json; model card "
        "https://github.com/meta-llama/llama-models/blob/main/models/llama3_3/MODEL_CARD.md",
        layers=80, hidden=8192, heads=64, kv_heads=8, head_dim=128, intermediate=28672,
        mlp_matrices=3, vocab=128256, context=131072, tied_embeddings=False,
    ),
    ModelSpec(
        "llama-4-scout", "Llama 4 Scout (17B-16E)", "decoder", 109e9,
        _HF + "meta-llama/Llama-4-Scout-17B-16E/blob/main/config.json (text_config); "
        "https://ai.meta.com/blog/llama-4-multimodal-intelligence/ (17B active, 109B total)",
        active_params=17e9, layers=48, hidden=5120, heads=40, kv_heads=8, head_dim=128,
        intermediate=8192, mlp_matrices=3, vocab=202048, context=10485760, experts=16,
        experts_per_token=1, shared_experts=1, sliding_window=8192,
        sliding_window_layers=36, tied_embeddings=False,
        notes="chunked attention (8192-token chunks) in 3 of every 4 layers, costed as a "
        "window; one shared expert per MoE layer; the vision encoder is in the total",
    ),
    ModelSpec(
        "mixtral-8x22b", "Mixtral 8x22B", "decoder", 141e9,
        "https://mistral.ai/news/mixtral-8x22b (141B total, 39B active); "
        + _HF + "mistralai/Mixtral-8x22B-v0.1/blob/main/config.json",
        active_params=39e9, layers=56, hidden=6144, heads=48, kv_heads=8, head_dim=128,
        intermediate=16384, mlp_matrices=3, vocab=32000, context=65536, experts=8,
        experts_per_token=2, tied_embeddings=False,
    ),
    ModelSpec(
        "gpt-oss-120b", "gpt-oss-120b", "decoder", 116.83e9,
        _HF + "openai/gpt-oss-120b/blob/main/config.json; OpenAI 2025, gpt-oss Model Card, "
        "https://arxiv.org/abs/2508.10925 Table 1 (116.83B total, 5.13B active)",
        active_params=5.13e9, layers=36, hidden=2880, heads=64, kv_heads=8, head_dim=64,
        intermediate=2880, mlp_matrices=3, vocab=201088, context=131072, experts=128,
        experts_per_token=4, sliding_window=128, sliding_window_layers=18,
        tied_embeddings=False,
        notes="ships with MoE weights in MXFP4 (choose MXFP4); banded 128-token window "
        "and full attention alternate",
    ),
    ModelSpec(
        "mistral-large-2", "Mistral Large 2 (123B)", "decoder", 123e9,
        _HF + "mistralai/Mistral-Large-Instruct-2407/blob/main/config.json; "
        "https://mistral.ai/news/mistral-large-2407 (123B)",
        layers=88, hidden=12288, heads=96, kv_heads=8, head_dim=128, intermediate=28672,
        mlp_matrices=3, vocab=32768, context=131072, tied_embeddings=False,
    ),
    ModelSpec(
        "qwen3-235b-a22b", "Qwen3 235B-A22B (MoE)", "decoder", 235e9,
        _HF + "Qwen/Qwen3-235B-A22B (model card: 235B total, 22B activated, 128 experts, "
        "8 activated); " + _HF + "Qwen/Qwen3-235B-A22B/blob/main/config.json",
        active_params=22e9, layers=94, hidden=4096, heads=64, kv_heads=4, head_dim=128,
        intermediate=1536, mlp_matrices=3, vocab=151936, context=40960, experts=128,
        experts_per_token=8, tied_embeddings=False,
        notes="intermediate is the per-expert moe_intermediate_size",
    ),
    ModelSpec(
        "llama-4-maverick", "Llama 4 Maverick (17B-128E)", "decoder", 400e9,
        _HF + "meta-llama/Llama-4-Maverick-17B-128E/blob/main/config.json (text_config); "
        "https://ai.meta.com/blog/llama-4-multimodal-intelligence/ (17B active, 400B total)",
        active_params=17e9, layers=48, hidden=5120, heads=40, kv_heads=8, head_dim=128,
        intermediate=8192, mlp_matrices=3, vocab=202048, context=1048576, experts=128,
        experts_per_token=1, shared_experts=1, sliding_window=8192,
        sliding_window_layers=36, tied_embeddings=False,
        notes="MoE every other layer (interleave_moe_layer_step 2), one shared expert; "
        "chunked attention (8192) in 3 of 4 layers, costed as a window",
    ),
    ModelSpec(
        "deepseek-v3", "DeepSeek-V3 (671B MoE)", "decoder", 671e9,
        _HF + "deepseek-ai/DeepSeek-V3/blob/main/config.json; DeepSeek-AI 2024, DeepSeek-V3 "
        "Technical Report, https://arxiv.org/abs/2412.19437 (671B total, 37B activated; "
        "the 14B multi-token-prediction module of the 685B checkpoint is left out)",
        active_params=37e9, layers=61, hidden=7168, heads=128, kv_heads=128, head_dim=128,
        intermediate=2048, mlp_matrices=3, vocab=129280, context=163840, experts=256,
        experts_per_token=8, shared_experts=1, kv_lora_rank=512, qk_rope_head_dim=64,
        tied_embeddings=False,
        notes="multi-head latent attention: (512 + 64) cached values per token and layer; "
        "first 3 layers dense; weights published in FP8 with 128x128 block scales "
        "(choose FP8-BLOCK)",
    ),
    ModelSpec(
        "deepseek-r1", "DeepSeek-R1 (671B MoE)", "decoder", 671e9,
        _HF + "deepseek-ai/DeepSeek-R1/blob/main/config.json (the DeepSeek-V3 architecture); "
        "DeepSeek-AI 2025, https://arxiv.org/abs/2501.12948",
        active_params=37e9, layers=61, hidden=7168, heads=128, kv_heads=128, head_dim=128,
        intermediate=2048, mlp_matrices=3, vocab=129280, context=163840, experts=256,
        experts_per_token=8, shared_experts=1, kv_lora_rank=512, qk_rope_head_dim=64,
        tied_embeddings=False,
        notes="same architecture as DeepSeek-V3 (multi-head latent attention, FP8 weights)",
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
        "flux.1-dev", "FLUX.1 [dev]", "diffusion", 11.9e9 + 4.76e9 + 123e6 + 83.8e6,
        _HF + "black-forest-labs/FLUX.1-dev (model card: '12 billion parameter rectified "
        "flow transformer'); " + _HF + "black-forest-labs/FLUX.1-dev/blob/main/"
        "transformer/config.json (19 double + 38 single blocks, 24 heads x 128); "
        "text encoders T5-XXL and CLIP ViT-L/14 (model_index.json)",
        components=(("Transformer (MMDiT)", 11.9e9), ("T5-XXL text encoder", 4.76e9),
                    ("CLIP ViT-L/14 text encoder", 123e6), ("VAE", 83.8e6)),
        notes="1024x1024 images. Activations and FLOPs per image are not published in a "
        "citable form: memory totals are lower bounds. Many pipelines offload T5 after "
        "encoding the prompt.",
    ),
    ModelSpec(
        "sd-3.5-large", "Stable Diffusion 3.5 Large", "diffusion",
        8.1e9 + 4.76e9 + 695e6 + 123e6 + 83.7e6,
        _HF + "stabilityai/stable-diffusion-3.5-large (model card: MMDiT, 8.1B); "
        + _HF + "stabilityai/stable-diffusion-3.5-large/blob/main/transformer/config.json "
        "(38 layers); text encoders CLIP-L, OpenCLIP bigG, T5-XXL (model_index.json)",
        components=(("Transformer (MMDiT)", 8.1e9), ("T5-XXL text encoder", 4.76e9),
                    ("OpenCLIP ViT-bigG text encoder", 695e6),
                    ("CLIP ViT-L text encoder", 123e6), ("VAE", 83.7e6)),
        notes="1024x1024 images. Activations are not published in a citable form: "
        "memory totals are lower bounds.",
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
    ModelSpec(
        "whisper-large-v3-turbo", "Whisper large-v3-turbo", "encoder-decoder", 809e6,
        _HF + "openai/whisper-large-v3-turbo (809M); "
        + _HF + "openai/whisper-large-v3-turbo/blob/main/config.json (32 encoder, 4 decoder "
        "layers)",
        layers=4, encoder_layers=32, hidden=1280, heads=20, kv_heads=20, head_dim=64,
        intermediate=5120, vocab=51866, context=448, encoder_tokens=1500,
        notes="large-v3 with the decoder cut from 32 to 4 layers; 30 s of audio -> 1500 "
        "encoder frames",
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
    "whisper-turbo": "whisper-large-v3-turbo", "whisper-large-v3turbo": "whisper-large-v3-turbo",
    "llama3.2-1b": "llama-3.2-1b", "llama3.2-3b": "llama-3.2-3b",
    "llama3.3-70b": "llama-3.3-70b", "llama-3.3": "llama-3.3-70b",
    "llama-4-scout-17b-16e": "llama-4-scout", "llama4-scout": "llama-4-scout",
    "llama-4-maverick-17b-128e": "llama-4-maverick", "llama4-maverick": "llama-4-maverick",
    "deepseek-v3-0324": "deepseek-v3", "deepseekv3": "deepseek-v3", "deepseek": "deepseek-v3",
    "deepseek-r1-0528": "deepseek-r1", "r1": "deepseek-r1",
    "qwen3-30b": "qwen3-30b-a3b", "qwen3-235b": "qwen3-235b-a22b", "qwen3": "qwen3-8b",
    "gemma2-9b": "gemma-2-9b", "gemma2-27b": "gemma-2-27b", "gemma3-12b": "gemma-3-12b",
    "gemma3-27b": "gemma-3-27b", "gptoss-20b": "gpt-oss-20b", "gptoss-120b": "gpt-oss-120b",
    "phi4": "phi-4", "mistral-small": "mistral-small-3", "mistral-small-24b": "mistral-small-3",
    "mistral-small-3.1": "mistral-small-3", "mistral-large": "mistral-large-2",
    "mistral-large-2407": "mistral-large-2", "mixtral-8x22": "mixtral-8x22b",
    "flux": "flux.1-dev", "flux-dev": "flux.1-dev", "flux.1": "flux.1-dev",
    "sd3.5": "sd-3.5-large", "sd-3.5": "sd-3.5-large", "stable-diffusion-3.5-large": "sd-3.5-large",
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
