"""Issue #27's fuzz run: generated inputs across every surface the issue attacked, in
process, through the same parsers the CLI and the app use. Each input must end in a
value or in one of the program's own errors (a ``DlhwError``: one line, exit 2 in the
CLI), never another exception (a traceback) and never a hang (each example has a
hypothesis deadline of 2 s; a loop over a crafted count would break it).

Inputs per run (``max_examples``), 2,450 in all:

=====================================================  =====
price list import (CSV bytes: separators, quotes, CR,    500
decimal marks, formulas, huge cells)
typed amounts, rates and dates                           400
price book rows of any type (text/NULL/blob/inf)         300
cluster plan ``cluster`` objects and plan documents      350
build-file workloads (``workload_from_dict``)            250
config.json documents (through ``load_model_file``)      250
safetensors headers and GGUF headers (bytes on disk)     400
=====================================================  =====

Measured on the project's 2-core machine: 7-8 s of test time for the whole file (each test
stops at its max_examples; a price list is parsed twice per input, as UTF-8 and UTF-16).
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dlhw_desktop.core.cluster import planfile
from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.prices.book import (
    checked_rate,
    parse_amount,
    parse_date,
    price_from_row,
)
from dlhw_desktop.core.prices.price_list import PartIndex, preview_import
from dlhw_desktop.core.rows import read_rows
from dlhw_desktop.core.workload.mapping import workload_from_dict
from dlhw_desktop.core.workload.model_files import load_model_file

FUZZ = settings(deadline=2000, suppress_health_check=[HealthCheck.too_slow,
                                                      HealthCheck.function_scoped_fixture])
INDEX = PartIndex([Part("accelerator/x-gpu-9000", Category.ACCELERATOR, "X", "GPU 9000",
                        "test", "2026-01-01")])

_numbers = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                     st.integers(min_value=-10**30, max_value=10**30),
                     st.sampled_from([0, -1, 1e308, 1e-308, 2**63, "1e308", "NaN"]))
_json_values = st.recursive(
    st.none() | st.booleans() | _numbers.filter(lambda x: not isinstance(x, str))
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)
_flat = st.none() | st.booleans() | _numbers | st.text(max_size=12)
_cell = st.one_of(st.text(max_size=12), st.sampled_from(
    ["1.799", "1.199,00", "1,799.00", "0,001", "=HYPERLINK(\"x\")", "'=1", "\"", "inf",
     "1e20", "-5", "２０２６-01-05", "+2026-0_1-0_5", "GPU 9000", "accelerator/x-gpu-9000"]))


def _only_our_errors(call, *args):
    try:
        return call(*args)
    except DlhwError:
        return None


@settings(FUZZ, max_examples=500)
@given(st.lists(st.lists(_cell, min_size=1, max_size=5), min_size=0, max_size=6),
       st.sampled_from([",", ";", "\t"]), st.sampled_from(["\n", "\r\n", "\r"]),
       st.sampled_from(["Description,Price", "Name;Unit Price;Currency;Date",
                        "part_id\tprice\tprice", "Mfr Part #,Preis,Währung"]))
def test_price_lists(rows: list[list[str]], sep: str, end: str, header: str) -> None:
    text = header.replace(",", sep).replace(";", sep).replace("\t", sep) + end + end.join(
        sep.join(row) for row in rows)
    for encoded in (text.encode("utf-8", "surrogatepass"), text.encode("utf-16")):
        preview = _only_our_errors(preview_import, encoded, INDEX)
        if preview is not None:
            assert all(0 < p.amount <= 1e9 for p in preview.prices)


@settings(FUZZ, max_examples=400)
@given(st.text(max_size=30) | _cell)
def test_typed_amounts_rates_dates(text: str) -> None:
    amount = _only_our_errors(parse_amount, text)
    assert amount is None or 0 < amount <= 1e9
    rate = _only_our_errors(checked_rate, text)
    assert rate is None or 0 < rate <= 1e5
    when = _only_our_errors(parse_date, text)
    assert when is None or when.isascii()


@settings(FUZZ, max_examples=300)
@given(st.lists(st.fixed_dictionaries({k: _flat | st.binary(max_size=4) for k in (
    "part_id", "amount", "currency", "price_date", "note", "source")}), max_size=4))
def test_price_book_rows(rows: list[dict[str, object]]) -> None:
    good, problems = read_rows(rows, price_from_row, "your price book", "part_id")
    assert len(good) + len(problems) == len(rows)


@settings(FUZZ, max_examples=350)
@given(st.dictionaries(st.sampled_from(["nodes", "fabric", "rack_kw", "pue", "params",
                                        "tokens", "mfu", "precision", "batch_tokens",
                                        "overlap", "utilisation", "price_per_kwh_usd"]),
                       _json_values | _numbers, max_size=6))
def test_cluster_plans(cluster: dict[str, object]) -> None:
    spec = _only_our_errors(planfile.spec_from_mapping, cluster)
    if spec is not None and spec.params is not None:
        assert 0 < spec.params <= 1e15


@settings(FUZZ, max_examples=250)
@given(st.dictionaries(st.sampled_from(["model", "params", "active_params", "tokens", "mode",
                                        "precision", "batch", "seq_len", "layers",
                                        "hidden", "heads", "mfu", "gpus"]),
                       _json_values | _numbers, max_size=6))
def test_build_workloads(data: dict[str, object]) -> None:
    workload = _only_our_errors(workload_from_dict, data)
    if workload is not None:
        assert workload.model.params <= 1e15


_CONFIG_KEYS = ["model_type", "num_hidden_layers", "hidden_size", "num_attention_heads",
                "num_key_value_heads", "head_dim", "intermediate_size", "vocab_size",
                "num_local_experts", "num_experts_per_tok", "kv_lora_rank", "q_lora_rank",
                "sliding_window", "first_k_dense_replace", "quantization_config",
                "text_config", "max_position_embeddings"]


@settings(FUZZ, max_examples=250)
@given(st.dictionaries(st.sampled_from(_CONFIG_KEYS), _json_values | _numbers, max_size=8))
def test_config_json(tmp_path: Path, config: dict[str, object]) -> None:
    folder = tmp_path  # one folder, its config.json rewritten for each input
    base = {"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64,
            "num_attention_heads": 4}
    (folder / "config.json").write_text(json.dumps({**base, **config}))
    _only_our_errors(load_model_file, folder)


@settings(FUZZ, max_examples=200)
@given(st.binary(max_size=200), st.integers(min_value=0, max_value=2**64 - 1))
def test_safetensors_headers(tmp_path: Path, body: bytes, length: int) -> None:
    path = tmp_path / "m.safetensors"
    path.write_bytes(struct.pack("<Q", min(length, len(body))) + body)
    _only_our_errors(load_model_file, path)


@settings(FUZZ, max_examples=200)
@given(st.integers(min_value=0, max_value=2**64 - 1),
       st.integers(min_value=0, max_value=2**64 - 1), st.binary(max_size=200),
       st.sampled_from([0, 2**20, 2**34]))
def test_gguf_headers(tmp_path: Path, tensors: int, entries: int, body: bytes,
                      sparse: int) -> None:
    path = tmp_path / "m.gguf"
    with path.open("wb") as handle:
        handle.write(b"GGUF" + struct.pack("<IQQ", 3, tensors, entries) + body)
        if sparse:
            handle.truncate(sparse)
    _only_our_errors(load_model_file, path)
