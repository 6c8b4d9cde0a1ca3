"""Issue #27, numbers and files that hang: one checked number type (finite, in range, named)
for the CLI, the price book, plan files, build workloads and model files; one bounded
reader (regular files only, a size cap) for every file a user names."""

from __future__ import annotations

import json
import math
import os
import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlhw_desktop.cli import main
from dlhw_desktop.core.files.reading import FileReadError, open_regular, read_bounded
from dlhw_desktop.core.numbers import NumberError, NumberField
from dlhw_desktop.core.workload.model_files import ModelFileError, load_model_file

FIELD = NumberField("params", "Parameters", 0.0, 1e15, low_open=True)


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                 st.integers(min_value=-10**60, max_value=10**60),
                 st.text(max_size=50), st.booleans(), st.none()))
def test_property_a_checked_number_is_finite_and_in_range_or_names_its_field(
        value: object) -> None:
    try:
        number = FIELD.check(value)
    except NumberError as exc:
        assert str(exc).startswith("Parameters (params): ")
        return
    assert math.isfinite(number) and 0 < number <= 1e15


def test_five_thousand_digits_are_refused_unread() -> None:
    with pytest.raises(NumberError, match="digit"):
        FIELD.check(10**4000)
    with pytest.raises(NumberError, match="too many characters"):
        FIELD.check("9" * 5000)


@pytest.mark.parametrize(("args", "needle"), [
    (("price", "set", "switch:qm9700", "inf"), "not a price"),
    (("price", "set", "switch:qm9700", "1e20"), "not a price"),
    (("price", "set", "switch:qm9700", "5000000000"), "at most 1,000,000,000"),
    (("price", "set", "switch:qm9700", "-5"), "above zero"),
    (("price", "set", "switch:qm9700", "1.799"), "ambiguous"),
    (("price", "set", "switch:qm9700", "10", "--date", "+2026-0_1-0_5"), "not a date"),
    (("price", "set", "switch:qm9700", "10", "--date", "２０２６-01-05"), "not a date"),
    (("price", "rate", "EUR", "0"), "Rate (usd_per_unit): 0 is too small"),
    (("price", "rate", "EUR", "inf"), "Rate (usd_per_unit)"),
    (("price", "rate", "EUR", "1e20"), "Rate (usd_per_unit)"),
])
def test_the_price_cli_refuses_numbers_no_price_has(
        capsys: pytest.CaptureFixture[str], args: tuple[str, ...], needle: str) -> None:
    from dlhw_desktop.catalog.price_store import PriceBook

    code, _, err = run(capsys, *args)
    assert code == 2 and needle in err and err.count("\n") == 1, err
    assert PriceBook().prices() == [] and PriceBook().rates() == {}


@pytest.fixture
def dgx(tmp_path: Path, catalog_path: Path) -> Path:
    from dlhw_desktop.catalog.store import Catalog
    from dlhw_desktop.core.build import buildfile
    from dlhw_desktop.core.build.templates import template

    return buildfile.save(template("dgx-h100").build(Catalog.open(catalog_path).get),
                          tmp_path / "dgx.dlhw.json")


@pytest.mark.parametrize(("args", "needle"), [
    (["--params", "0"], "Parameters (params): 0 is too small"),
    (["--params", "1e308"], "Parameters (params): 1e+308 is too large"),
    (["--params", "inf"], "Parameters (params): inf is not a finite"),
    (["--params", "nan"], "Parameters (params): nan is not a finite"),
    (["--tokens", "1e300", "--params", "7e10"], "Training tokens (tokens)"),
])
def test_cluster_numbers_are_named(capsys: pytest.CaptureFixture[str], dgx: Path,
                                   args: list[str], needle: str) -> None:
    code, out, err = run(capsys, "cluster", dgx, "--nodes", "4", *args)
    assert code == 2 and needle in err and not out and err.count("\n") == 1, err


def test_cluster_never_prints_inf_or_nan(capsys: pytest.CaptureFixture[str],
                                         dgx: Path) -> None:
    code, out, _ = run(capsys, "cluster", dgx, "--nodes", "2", "--params", "1e15",
                       "--tokens", "1e17", "--mfu", "1e-9")
    assert code == 0 and "inf" not in out and "nan" not in out


@pytest.mark.parametrize(("cluster", "needle"), [
    ({"nodes": 2, "params": None, "pue": None}, "PUE (pue)"),
    ({"nodes": 2, "precision": "FP1"}, "Precision (precision): unknown 'FP1'"),
    ({"nodes": 2, "params": 0}, "Parameters (params): 0"),
    ({"nodes": 2, "tokens": 1e300}, "Training tokens (tokens)"),
])
def test_plan_files_are_checked_field_by_field(capsys: pytest.CaptureFixture[str],
                                               dgx: Path, tmp_path: Path,
                                               cluster: dict[str, object],
                                               needle: str) -> None:
    plan = tmp_path / "p.dlhwcluster.json"
    plan.write_text(json.dumps({"format": "dlhw-cluster", "version": 1,
                                "build": json.loads(dgx.read_text()), "cluster": cluster}))
    code, _, err = run(capsys, "cluster", plan)
    assert code == 2 and needle in err and "Traceback" not in err, err


def test_a_plan_with_a_5000_digit_number_is_one_line(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    plan = tmp_path / "p.dlhwcluster.json"
    plan.write_text('{"format": "dlhw-cluster", "version": 1, "build": {}, '
                    '"cluster": {"nodes": ' + "9" * 5000 + "}}")
    code, _, err = run(capsys, "cluster", plan)
    assert code == 2 and "5,000 digits" in err and err.count("\n") == 1


def test_a_build_whose_workload_has_1e308_params(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path, catalog_path: Path) -> None:
    build = tmp_path / "b.dlhw.json"
    build.write_text(json.dumps({"format": "dlhw-build", "version": 1, "name": "b",
                                 "parts": [{"id": "accelerator/nvidia-geforce-rtx-4090"}],
                                 "workload": {"model": "custom", "params": 1e308}}))
    code, _, err = run(capsys, "check", build)  # the build loads; its workload is said
    assert code in (0, 1) and "cannot be estimated (Parameters (params): 1e+308 is too " \
        "large" in err and "Traceback" not in err


# --- bounded reads -------------------------------------------------------------------------
def test_fifo_device_folder_and_size_are_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.csv"
    os.mkfifo(fifo)
    big = tmp_path / "big.csv"
    with big.open("wb") as handle:
        handle.truncate(10 * 2**20)
    for path, needle in ((fifo, "pipe"), (Path("/dev/zero"), "device"), (tmp_path, "folder"),
                         (big, "larger than")):
        with pytest.raises(FileReadError, match=needle):
            read_bounded(path, 2**20)
    with pytest.raises(FileReadError, match="pipe"):
        open_regular(fifo)


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300), st.integers(min_value=0, max_value=400))
def test_property_read_bounded_returns_the_file_or_refuses(tmp_path_factory: pytest.TempPathFactory,
                                                           data: bytes, cap: int) -> None:
    path = tmp_path_factory.mktemp("b") / "f"
    path.write_bytes(data)
    try:
        assert read_bounded(path, cap) == data and len(data) <= cap
    except FileReadError:
        assert len(data) > cap


@pytest.mark.parametrize("command", [["price", "import", "{x}"], ["cluster", "{x}"],
                                     ["check", "{x}"], ["fit", "--model", "{x}", "--mode",
                                                        "inference", "--precision", "BF16"]])
def test_every_file_a_command_reads_refuses_a_fifo(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path, command: list[str],
                                                   catalog_path: Path) -> None:
    fifo = tmp_path / "in.dlhw.json"
    os.mkfifo(fifo)
    code, _, err = run(capsys, *[c.replace("{x}", str(fifo)) for c in command])
    assert code == 2 and ("pipe" in err or "not a regular file" in err), err


# --- model files -------------------------------------------------------------------------
def _folder(tmp_path: Path, **config: object) -> Path:
    folder = tmp_path / "m"
    folder.mkdir(exist_ok=True)
    base = {"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64,
            "num_attention_heads": 4, "vocab_size": 100, "intermediate_size": 128}
    (folder / "config.json").write_text(json.dumps({**base, **config}).replace(
        '"__INF__"', "Infinity").replace('"__NAN__"', "NaN"))
    return folder


@pytest.mark.parametrize("value", ["__NAN__", "__INF__", 1e300, "9" * 5000, 0, -3, 2.5, True])
@pytest.mark.parametrize("key", ["num_hidden_layers", "hidden_size", "num_attention_heads",
                                 "vocab_size", "intermediate_size", "max_position_embeddings",
                                 "num_key_value_heads", "head_dim", "num_local_experts",
                                 "kv_lora_rank", "first_k_dense_replace", "sliding_window"])
def test_config_values_no_model_has_are_named(tmp_path: Path, key: str, value: object) -> None:
    if value == "9" * 5000:
        folder = _folder(tmp_path)
        text = (folder / "config.json").read_text()[:-1] + f', "{key}": ' + "9" * 5000 + "}"
        (folder / "config.json").write_text(text)
    else:
        folder = _folder(tmp_path, **{key: value})
    if key == "first_k_dense_replace" and value == 0:
        load_model_file(folder)  # zero dense layers is a real config
        return
    with pytest.raises(ModelFileError) as info:
        load_model_file(folder)
    assert key in str(info.value)


def test_weight_map_cannot_leave_the_model_folder(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    secret = tmp_path / "secret.safetensors"
    secret.write_bytes(b"x" * 64)
    for name in ("../../../../etc/passwd", "/etc/passwd", "../secret.safetensors"):
        (folder / "model.safetensors.index.json").write_text(json.dumps(
            {"weight_map": {"a.weight": name}}))
        with pytest.raises(ModelFileError, match="outside the model folder"):
            load_model_file(folder)
    (folder / "link.safetensors").symlink_to(secret)
    (folder / "model.safetensors.index.json").write_text(json.dumps(
        {"weight_map": {"a.weight": "link.safetensors"}}))
    with pytest.raises(ModelFileError, match="outside the model folder"):
        load_model_file(folder)


def test_shards_that_are_not_files_are_refused_cleanly(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    (folder / "model.safetensors").mkdir()
    with pytest.raises(ModelFileError, match="folder"):
        load_model_file(folder)
    (folder / "model.safetensors").rmdir()
    os.mkfifo(folder / "model-00001.safetensors")
    with pytest.raises(ModelFileError, match="pipe"):
        load_model_file(folder)


def test_a_huge_config_is_refused_before_it_is_read(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    with (folder / "config.json").open("r+b") as handle:
        handle.truncate(2**30)  # sparse: 1 GB on paper
    with pytest.raises(ModelFileError, match="larger than"):
        load_model_file(folder)


def test_a_safetensors_header_nested_deep_is_one_error(tmp_path: Path) -> None:
    header = b"[" * 100_000 + b"]" * 100_000
    path = tmp_path / "deep.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header)
    with pytest.raises(ModelFileError, match="nested too deep"):
        load_model_file(path)


def _gguf(path: Path, n_tensors: int, n_kv: int, body: bytes = b"", sparse: int = 0) -> Path:
    with path.open("wb") as handle:
        handle.write(b"GGUF" + struct.pack("<IQQ", 3, n_tensors, n_kv) + body)
        if sparse:
            handle.truncate(sparse)
    return path


def test_crafted_gguf_counts_fail_fast(tmp_path: Path) -> None:
    with pytest.raises(ModelFileError, match="do not fit"):
        load_model_file(_gguf(tmp_path / "a.gguf", 0, 10_000_000, sparse=2**30))
    key = b"tokenizer.ggml.tokens"
    array = struct.pack("<Q", len(key)) + key + struct.pack("<IIQ", 9, 8, 2**32)
    with pytest.raises(ModelFileError, match="corrupt count"):
        load_model_file(_gguf(tmp_path / "b.gguf", 0, 1, array, sparse=2**36))


def _s(text: str) -> bytes:
    return struct.pack("<Q", len(text.encode())) + text.encode()


def _small_gguf(path: Path, meta: dict[str, tuple[str, object]]) -> Path:
    """A GGUF with the given metadata and one F32 tensor of 64 x 100."""
    entries = b""
    for key, (kind, value) in meta.items():
        code, packed = {"str": (8, lambda v: _s(v)), "u32": (4, lambda v: struct.pack("<I", v)),
                        "f32": (6, lambda v: struct.pack("<f", v))}[kind]
        entries += _s(key) + struct.pack("<I", code) + packed(value)
    table = _s("token_embd.weight") + struct.pack("<IQQIQ", 2, 64, 100, 0, 0)
    header = b"GGUF" + struct.pack("<IQQ", 3, 1, len(meta)) + entries + table
    header += b"\0" * ((-len(header)) % 32)
    path.write_bytes(header + b"\0" * (64 * 100 * 4))
    return path


def test_gguf_nan_counts_and_too_many_experts_per_token(tmp_path: Path) -> None:
    base: dict[str, tuple[str, object]] = {
        "general.architecture": ("str", "llama"), "llama.block_count": ("u32", 2),
        "llama.embedding_length": ("u32", 64), "llama.attention.head_count": ("u32", 4)}
    nan = _small_gguf(tmp_path / "nan.gguf", {**base, "llama.context_length": (
        "f32", float("nan"))})
    with pytest.raises(ModelFileError, match="context_length"):
        load_model_file(nan)
    experts = _small_gguf(tmp_path / "experts.gguf", {**base, "llama.expert_count": (
        "u32", 2), "llama.expert_used_count": ("u32", 8)})
    with pytest.raises(ModelFileError, match="expert_used_count"):
        load_model_file(experts)
