"""Models from files (issue #19): GGUF headers, safetensors headers, config.json; every
file is made here, in tmp_path. Bad input names its field or byte offset."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest

from dlhw_desktop.core.workload.memory import estimate_memory
from dlhw_desktop.core.workload.model_files import (
    ModelFileError,
    load_model_file,
)
from dlhw_desktop.core.workload.model_state_memory import (
    kv_cache_bytes_per_token,
    weights_bytes,
)
from dlhw_desktop.core.workload.workload import Workload

# --- a minimal GGUF writer (the format: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md)

U32, I32, F32, STRING, ARRAY, U64 = 4, 5, 6, 8, 9, 10
GGML_F32, GGML_F16, GGML_Q4_K, GGML_Q6_K = 0, 1, 12, 14
BLOCK = {GGML_F32: (1, 4), GGML_F16: (1, 2), GGML_Q4_K: (256, 144), GGML_Q6_K: (256, 210)}


def _s(text: str) -> bytes:
    raw = text.encode()
    return struct.pack("<Q", len(raw)) + raw


def _kv(key: str, vtype: int, value: Any) -> bytes:
    out = _s(key) + struct.pack("<I", vtype)
    if vtype == U32:
        return out + struct.pack("<I", value)
    if vtype == STRING:
        return out + _s(value)
    if vtype == ARRAY:  # an array of strings
        return out + struct.pack("<IQ", STRING, len(value)) + b"".join(_s(v) for v in value)
    raise AssertionError(vtype)


def write_gguf(path: Path, meta: list[bytes], tensors: list[tuple[str, tuple[int, ...], int]],
               *, version: int = 3, data: bool = True, sparse_size: int | None = None) -> Path:
    head = b"GGUF" + struct.pack("<IQQ", version, len(tensors), len(meta)) + b"".join(meta)
    offset = 0
    table = b""
    sizes = []
    for name, dims, ttype in tensors:
        block, size = BLOCK[ttype]
        numel = 1
        for d in dims:
            numel *= d
        nbytes = numel // block * size
        table += _s(name) + struct.pack("<I", len(dims)) + b"".join(
            struct.pack("<Q", d) for d in dims) + struct.pack("<IQ", ttype, offset)
        sizes.append(nbytes)
        offset += -(-nbytes // 32) * 32
    header = head + table
    pad = (-len(header)) % 32
    with open(path, "wb") as f:
        f.write(header + b"\0" * pad)
        if sparse_size is not None:
            f.truncate(sparse_size)
        elif data:
            f.truncate(len(header) + pad + offset)
    return path


def llama_gguf(path: Path, **kw: Any) -> Path:
    """A tiny Llama-shaped GGUF: 2 layers, width 256, 4 heads / 2 KV heads, Q4_K_M."""
    meta = [
        _kv("general.architecture", STRING, "llama"),
        _kv("general.name", STRING, "Tiny Llama"),
        _kv("general.file_type", U32, 15),  # MOSTLY_Q4_K_M
        _kv("llama.block_count", U32, 2),
        _kv("llama.embedding_length", U32, 256),
        _kv("llama.feed_forward_length", U32, 512),
        _kv("llama.attention.head_count", U32, 4),
        _kv("llama.attention.head_count_kv", U32, 2),
        _kv("llama.context_length", U32, 2048),
        _kv("tokenizer.ggml.tokens", ARRAY, [f"t{i}" for i in range(1024)]),
    ]
    tensors: list[tuple[str, tuple[int, ...], int]] = [
        ("token_embd.weight", (256, 1024), GGML_Q4_K),
        ("output.weight", (256, 1024), GGML_Q6_K),
        ("output_norm.weight", (256,), GGML_F32),
    ]
    for i in range(2):
        tensors += [(f"blk.{i}.attn_q.weight", (256, 256), GGML_Q4_K),
                    (f"blk.{i}.attn_k.weight", (256, 128), GGML_Q4_K),
                    (f"blk.{i}.attn_v.weight", (256, 128), GGML_Q6_K),
                    (f"blk.{i}.attn_output.weight", (256, 256), GGML_Q4_K),
                    (f"blk.{i}.ffn_gate.weight", (256, 512), GGML_Q4_K),
                    (f"blk.{i}.ffn_up.weight", (256, 512), GGML_Q4_K),
                    (f"blk.{i}.ffn_down.weight", (512, 256), GGML_Q6_K),
                    (f"blk.{i}.attn_norm.weight", (256,), GGML_F32),
                    (f"blk.{i}.ffn_norm.weight", (256,), GGML_F32)]
    return write_gguf(path, meta, tensors, **kw)


def test_gguf_header_gives_architecture_and_exact_sizes(tmp_path: Path) -> None:
    loaded = load_model_file(llama_gguf(tmp_path / "tiny.gguf"))
    m = loaded.model
    assert loaded.source_kind == "gguf" and loaded.architecture == "llama"
    assert (m.layers, m.hidden, m.heads, m.kv_heads, m.head_dim) == (2, 256, 4, 2, 64)
    assert m.vocab == 1024 and m.context == 2048 and m.tied_embeddings is False
    q4k = 2 * (256 * 256 * 2 + 256 * 128 + 256 * 512 * 2) + 256 * 1024
    q6k = 2 * (256 * 128 + 512 * 256) + 256 * 1024
    f32 = 256 * 5
    assert loaded.params_exact == q4k + q6k + f32
    assert loaded.dtypes == {"Q4_K": q4k, "Q6_K": q6k, "F32": f32}
    exact = q4k // 256 * 144 + q6k // 256 * 210 + f32 * 4
    assert loaded.weight_bytes == exact
    assert loaded.quantization == "Q4_K_M" and loaded.precision == "Q4_K_M"
    # the estimate uses the file's bytes, not params x 4.89 bits
    w = Workload(m, precision="Q4_K_M", seq=1024)
    assert weights_bytes(m, "Q4_K_M") == exact
    assert estimate_memory(w).bytes_of("weights") == exact
    assert kv_cache_bytes_per_token(m) == 2 * 2 * 2 * 64 * 2


def test_gguf_reader_agrees_with_the_gguf_package_writer(tmp_path: Path) -> None:
    gguf = pytest.importorskip("gguf")
    np = pytest.importorskip("numpy")
    path = tmp_path / "ref.gguf"
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_block_count(1)
    writer.add_embedding_length(64)
    writer.add_head_count(4)
    writer.add_head_count_kv(4)
    writer.add_feed_forward_length(128)
    writer.add_context_length(512)
    writer.add_tensor("token_embd.weight", np.zeros((100, 64), dtype=np.float16))
    writer.add_tensor("blk.0.attn_q.weight", np.zeros((64, 64), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    loaded = load_model_file(path)
    assert loaded.params_exact == 100 * 64 + 64 * 64
    assert loaded.weight_bytes == 100 * 64 * 2 + 64 * 64 * 4
    assert loaded.model.tied_embeddings is True  # no output.weight
    assert loaded.dtypes == {"F16": 6400, "F32": 4096}


def test_a_50_gb_sparse_gguf_opens_from_its_header(tmp_path: Path) -> None:
    """Reading its 50 GB would take minutes; the header and tensor table take milliseconds
    (benchmarks/bench_fit.py times it; no timed assertion here)."""
    path = tmp_path / "big.gguf"
    meta = [_kv("general.architecture", STRING, "llama"),
            _kv("general.file_type", U32, 15),
            _kv("llama.block_count", U32, 80), _kv("llama.embedding_length", U32, 8192),
            _kv("llama.attention.head_count", U32, 64),
            _kv("llama.attention.head_count_kv", U32, 8)]
    tensors = [(f"blk.{i}.ffn_up.weight", (8192, 28672), GGML_Q4_K) for i in range(80)]
    write_gguf(path, meta, tensors, sparse_size=50 * 10**9)
    loaded = load_model_file(path)
    assert loaded.params_exact == 80 * 8192 * 28672
    assert loaded.model.layers == 80


@pytest.mark.parametrize(("mutate", "needle"), [
    (lambda b: b"GGUX" + b[4:], "magic"),
    (lambda b: b[:4] + struct.pack("<I", 4) + b[8:], "newer"),
    (lambda b: b[:30], "truncated"),
    (lambda b: b[:8] + struct.pack("<Q", 10**12) + b[16:], "corrupt counts"),
])
def test_bad_gguf_names_the_offset(tmp_path: Path, mutate: Any, needle: str) -> None:
    good = llama_gguf(tmp_path / "good.gguf").read_bytes()
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(mutate(good))
    with pytest.raises(ModelFileError, match=needle) as info:
        load_model_file(bad)
    assert info.value.offset is not None
    assert "at byte" in str(info.value)


def test_gguf_whose_data_is_cut_off_is_truncated(tmp_path: Path) -> None:
    path = llama_gguf(tmp_path / "cut.gguf")
    with open(path, "r+b") as f:
        f.truncate(path.stat().st_size - 100)
    with pytest.raises(ModelFileError, match="truncated: tensor"):
        load_model_file(path)


def test_gguf_with_an_unknown_tensor_type(tmp_path: Path) -> None:
    path = tmp_path / "odd.gguf"
    meta = [_kv("general.architecture", STRING, "llama")]
    write_gguf(path, meta, [("a", (32,), GGML_F32)])
    raw = bytearray(path.read_bytes())
    # the tensor's type field follows its name, n_dims and its one dimension
    entry = _s("a") + struct.pack("<IQ", 1, 32)
    idx = raw.index(entry) + len(entry)
    raw[idx:idx + 4] = struct.pack("<I", 9999)
    path.write_bytes(bytes(raw))
    with pytest.raises(ModelFileError, match="unknown type 9999"):
        load_model_file(path)


def test_gguf_without_architecture(tmp_path: Path) -> None:
    path = write_gguf(tmp_path / "noarch.gguf", [_kv("general.name", STRING, "x")],
                      [("a", (32,), GGML_F32)])
    with pytest.raises(ModelFileError, match=r"general\.architecture"):
        load_model_file(path)


# --- safetensors and config.json -----------------------------------------------------------


def write_safetensors(path: Path, tensors: dict[str, tuple[str, list[int]]],
                      *, data: bool = True) -> Path:
    size = {"BF16": 2, "F16": 2, "F32": 4, "I32": 4, "U8": 1, "F8_E4M3": 1}
    header: dict[str, Any] = {"__metadata__": {"format": "pt"}}
    offset = 0
    for name, (dtype, shape) in tensors.items():
        n = size[dtype]
        for d in shape:
            n *= d
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + n]}
        offset += n
    raw = json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(raw)) + raw)
        if data:
            f.truncate(8 + len(raw) + offset)
    return path


TINY_CONFIG = {
    "model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 64,
    "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
    "intermediate_size": 128, "vocab_size": 100, "max_position_embeddings": 512,
    "torch_dtype": "bfloat16", "tie_word_embeddings": False,
}


def tiny_tensors() -> dict[str, tuple[str, list[int]]]:
    t: dict[str, tuple[str, list[int]]] = {
        "model.embed_tokens.weight": ("BF16", [100, 64]),
        "lm_head.weight": ("BF16", [100, 64]), "model.norm.weight": ("BF16", [64])}
    for i in range(2):
        p = f"model.layers.{i}."
        t |= {p + "self_attn.q_proj.weight": ("BF16", [64, 64]),
              p + "self_attn.k_proj.weight": ("BF16", [32, 64]),
              p + "self_attn.v_proj.weight": ("BF16", [32, 64]),
              p + "self_attn.o_proj.weight": ("BF16", [64, 64]),
              p + "mlp.gate_proj.weight": ("BF16", [128, 64]),
              p + "mlp.up_proj.weight": ("BF16", [128, 64]),
              p + "mlp.down_proj.weight": ("BF16", [64, 128]),
              p + "input_layernorm.weight": ("BF16", [64]),
              p + "post_attention_layernorm.weight": ("BF16", [64])}
    return t


def _exact(tensors: dict[str, tuple[str, list[int]]]) -> int:
    total = 0
    for _, shape in tensors.values():
        n = 1
        for d in shape:
            n *= d
        total += n
    return total


def test_hf_folder_with_shards_and_index_counts_exactly(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(json.dumps(TINY_CONFIG))
    tensors = tiny_tensors()
    names = sorted(tensors)
    half = {n: tensors[n] for n in names[: len(names) // 2]}
    rest = {n: tensors[n] for n in names[len(names) // 2:]}
    write_safetensors(tmp_path / "model-00001-of-00002.safetensors", half)
    write_safetensors(tmp_path / "model-00002-of-00002.safetensors", rest)
    (tmp_path / "model.safetensors.index.json").write_text(json.dumps({
        "metadata": {"total_size": 2 * _exact(tensors)},
        "weight_map": {n: ("model-00001-of-00002.safetensors" if n in half
                           else "model-00002-of-00002.safetensors") for n in names}}))
    loaded = load_model_file(tmp_path)
    assert loaded.source_kind == "hf-folder"
    assert loaded.params_exact == _exact(tensors)
    assert loaded.model.params == _exact(tensors)
    assert loaded.dtypes == {"BF16": _exact(tensors)}
    assert loaded.precision == "BF16" and loaded.weight_bytes == 2 * _exact(tensors)
    m = loaded.model
    assert (m.layers, m.hidden, m.heads, m.kv_heads, m.head_dim, m.vocab) == (
        2, 64, 4, 2, 16, 100)
    # the architecture estimate agrees with the exact count (norms included)
    assert not any("estimated" in w for w in loaded.warnings)


def test_config_alone_estimates_params_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(TINY_CONFIG))
    loaded = load_model_file(path)
    assert loaded.params_exact is None
    assert loaded.model.params == pytest.approx(_exact(tiny_tensors()), rel=0.01)
    assert any("estimated from the architecture" in w for w in loaded.warnings)


def test_index_without_shards_uses_the_total_size(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(json.dumps(TINY_CONFIG))
    (tmp_path / "model.safetensors.index.json").write_text(json.dumps({
        "metadata": {"total_size": 16_060_522_496},
        "weight_map": {"a": "model-00001-of-00004.safetensors"}}))
    loaded = load_model_file(tmp_path)
    assert loaded.model.params == pytest.approx(16_060_522_496 / 2)
    assert any("total size" in w for w in loaded.warnings)


@pytest.mark.parametrize(("change", "field_name"), [
    ({"num_key_value_heads": 3}, "num_key_value_heads"),
    ({"hidden_size": 66, "num_attention_heads": 4}, "head_dim"),
    ({"num_hidden_layers": -2}, "num_hidden_layers"),
    ({"num_hidden_layers": "two"}, "num_hidden_layers"),
])
def test_contradictory_config_names_the_field(tmp_path: Path, change: dict[str, Any],
                                              field_name: str) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(TINY_CONFIG | change))
    with pytest.raises(ModelFileError) as info:
        load_model_file(path)
    assert info.value.field_name == field_name
    assert field_name in str(info.value)


def test_missing_fields_leave_the_rest_unknown(tmp_path: Path) -> None:
    cfg = {k: v for k, v in TINY_CONFIG.items() if k != "num_attention_heads"}
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    write_safetensors(tmp_path / "model.safetensors", tiny_tensors())
    loaded = load_model_file(tmp_path)
    assert loaded.params_exact == _exact(tiny_tensors())
    assert loaded.model.heads is None
    assert any("num_attention_heads" in w for w in loaded.warnings)
    estimate = estimate_memory(Workload(loaded.model))
    assert estimate.bytes_of("kv_cache") is None and not estimate.complete


def test_unknown_architecture_is_read_with_the_common_fields(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(TINY_CONFIG | {"model_type": "brand_new_arch"}))
    loaded = load_model_file(path)
    assert loaded.model.layers == 2
    assert any("unknown architecture 'brand_new_arch'" in w for w in loaded.warnings)


def test_not_json_names_the_offset(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "llama", "hidden_size": 64,,}')
    with pytest.raises(ModelFileError, match="not JSON") as info:
        load_model_file(path)
    assert info.value.offset == 42


def test_truncated_safetensors(tmp_path: Path) -> None:
    path = write_safetensors(tmp_path / "model.safetensors", tiny_tensors(), data=False)
    with pytest.raises(ModelFileError, match="truncated"):
        load_model_file(path)
    short = tmp_path / "short.safetensors"
    short.write_bytes(b"\x10\x00")
    with pytest.raises(ModelFileError, match="truncated") as info:
        load_model_file(short)
    assert info.value.offset == 0


def test_deepseek_config_reads_mla_and_experts(tmp_path: Path) -> None:
    # field names and values of https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json
    cfg = {"model_type": "deepseek_v3", "hidden_size": 7168, "num_hidden_layers": 61,
           "num_attention_heads": 128, "num_key_value_heads": 128, "intermediate_size": 18432,
           "moe_intermediate_size": 2048, "n_routed_experts": 256, "n_shared_experts": 1,
           "num_experts_per_tok": 8, "first_k_dense_replace": 3, "kv_lora_rank": 512,
           "q_lora_rank": 1536, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
           "v_head_dim": 128, "vocab_size": 129280, "max_position_embeddings": 163840,
           "tie_word_embeddings": False, "torch_dtype": "bfloat16",
           "quantization_config": {"quant_method": "fp8", "fmt": "e4m3",
                                   "weight_block_size": [128, 128]}}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(cfg))
    loaded = load_model_file(path)
    m = loaded.model
    assert m.attention == "MLA" and loaded.precision == "FP8-BLOCK"
    # 671B total, 37B active (DeepSeek-V3 technical report): the shapes give both within 1 %
    assert m.params == pytest.approx(671e9, rel=0.01)
    assert m.active_params == pytest.approx(37e9, rel=0.03)
    assert kv_cache_bytes_per_token(m) == (512 + 64) * 61 * 2


def test_gemma3_config_reads_local_and_global_layers(tmp_path: Path) -> None:
    # https://huggingface.co/google/gemma-3-27b-pt/blob/main/config.json (text_config)
    cfg = {"model_type": "gemma3", "architectures": ["Gemma3ForConditionalGeneration"],
           "text_config": {"model_type": "gemma3_text", "hidden_size": 5376,
                           "num_hidden_layers": 62, "num_attention_heads": 32,
                           "num_key_value_heads": 16, "head_dim": 128,
                           "intermediate_size": 21504, "sliding_window": 1024,
                           "sliding_window_pattern": 6, "vocab_size": 262208,
                           "max_position_embeddings": 131072},
           "vision_config": {"model_type": "siglip_vision_model", "hidden_size": 1152,
                             "num_hidden_layers": 27, "intermediate_size": 4304,
                             "patch_size": 14},
           "tie_word_embeddings": True}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(cfg))
    loaded = load_model_file(path)
    m = loaded.model
    assert m.sliding_window == 1024 and m.sliding_window_layers == 52
    # 27.0B language model (Gemma 3 report Table 1: 1,416M embedding + 25,600M) plus
    # the SigLIP tower (417M in the same table), estimated from vision_config
    assert m.params == pytest.approx(27.016e9 + 417e6, rel=0.01)
    assert any("Vision tower" in w for w in loaded.warnings)
    assert dict(m.components)["Vision tower"] == pytest.approx(417e6, rel=0.03)


def test_gptq_checkpoint_unpacks_its_parameters(tmp_path: Path) -> None:
    cfg = TINY_CONFIG | {"quantization_config": {"quant_method": "gptq", "bits": 4,
                                                 "group_size": 32}}
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    tensors: dict[str, tuple[str, list[int]]] = {
        "model.embed_tokens.weight": ("F16", [100, 64]),
        "lm_head.weight": ("F16", [100, 64]),
        "model.layers.0.mlp.up_proj.qweight": ("I32", [64 // 8, 128]),
        "model.layers.0.mlp.up_proj.scales": ("F16", [64 // 32, 128]),
        "model.layers.0.mlp.up_proj.qzeros": ("I32", [64 // 32, 128 // 8]),
        "model.layers.0.mlp.up_proj.g_idx": ("I32", [64]),
    }
    write_safetensors(tmp_path / "model.safetensors", tensors)
    loaded = load_model_file(tmp_path)
    assert loaded.params_exact == 2 * 100 * 64 + 64 * 128
    assert loaded.precision == "GPTQ-4BIT-G32" and loaded.quantization == "GPTQ-4BIT-G32"


@pytest.mark.parametrize(("double", "expected"), [(False, "NF4"), (True, "NF4-DQ")])
def test_bitsandbytes_config_says_whether_it_double_quantises(tmp_path: Path, double: bool,
                                                              expected: str) -> None:
    quant = {"quant_method": "bitsandbytes", "load_in_4bit": True,
             "bnb_4bit_quant_type": "nf4", "bnb_4bit_use_double_quant": double}
    (tmp_path / "config.json").write_text(json.dumps(TINY_CONFIG | {"quantization_config":
                                                                     quant}))
    assert load_model_file(tmp_path / "config.json").precision == expected


# --- dlhw fit --model PATH -------------------------------------------------------------------


def test_cli_fit_reads_a_gguf_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from dlhw_desktop import cli

    path = llama_gguf(tmp_path / "tiny.gguf")
    assert cli.main(["fit", "--model", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["workload"]["precision"] == "Q4_K_M"
    assert data["model_file"]["source_kind"] == "gguf"
    assert data["model_file"]["params_exact"] == data["model"]["params"]
    weights = next(i for i in data["memory"]["items"] if i["key"] == "weights")
    assert weights["bytes"] == data["model_file"]["weight_bytes"]
    assert "as stored in the file" in weights["note"]


def test_cli_fit_bad_model_file_is_one_clear_line(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from dlhw_desktop import cli

    bad = tmp_path / "model.gguf"
    bad.write_bytes(b"GGUF" + struct.pack("<I", 7) + b"\0" * 16)
    assert cli.main(["fit", "--model", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dlhw: error: model.gguf: GGUF version 7 is newer")
    assert "at byte 4" in err and "Traceback" not in err


def test_a_saved_build_remembers_the_model_read_from_a_file(tmp_path: Path) -> None:
    from dlhw_desktop.core.workload.mapping import workload_from_dict, workload_to_dict

    loaded = load_model_file(llama_gguf(tmp_path / "tiny.gguf"))
    w = Workload(loaded.model, precision=loaded.precision or "Q4_K_M", seq=512)
    saved = json.loads(json.dumps(workload_to_dict(w)))  # as a build file holds it
    assert saved["model"] == "custom" and saved["model_spec"]["weight_bytes"]
    assert workload_from_dict(saved) == w
    # an edited parameter count wins over the file's, and its exact bytes no longer apply
    edited = workload_from_dict({**saved, "params": 2e6})
    assert edited.model.params == 2e6 and edited.model.weight_bytes is None
    assert edited.model.layers == 2  # the rest of the file's figures stay
    with pytest.raises(ValueError, match=r"model_spec\.layers"):
        workload_from_dict({**saved, "model_spec": {**saved["model_spec"], "layers": -1}})


def test_gpt_oss_config_gives_the_published_total_and_active(tmp_path: Path) -> None:
    # https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json; the model card
    # (https://arxiv.org/abs/2508.10925) Table 1: 116.83B total, 5.13B active
    cfg = {"model_type": "gpt_oss", "hidden_size": 2880, "num_hidden_layers": 36,
           "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 64,
           "intermediate_size": 2880, "num_local_experts": 128, "num_experts_per_tok": 4,
           "experts_per_token": 4, "vocab_size": 201088, "sliding_window": 128,
           "layer_types": ["sliding_attention", "full_attention"] * 18,
           "max_position_embeddings": 131072, "tie_word_embeddings": False,
           "quantization_config": {"quant_method": "mxfp4",
                                   "modules_to_not_convert": ["model.layers.*.self_attn",
                                                              "lm_head"]}}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(cfg))
    loaded = load_model_file(path)
    m = loaded.model
    assert m.params == pytest.approx(116.83e9, rel=0.01)
    assert m.active_params == pytest.approx(5.13e9, rel=0.03)
    assert m.sliding_window == 128 and m.sliding_window_layers == 18
    assert loaded.precision == "MXFP4"


def test_preset_names_with_a_slash_are_not_paths(tmp_path: Path) -> None:
    from dlhw_desktop.core.workload.model_files import looks_like_model_file

    assert not looks_like_model_file("vit-b/16") and not looks_like_model_file("gpt2")
    assert looks_like_model_file(str(tmp_path)) and looks_like_model_file("x/missing-model")
    assert looks_like_model_file("model.gguf")
