"""Precision names -> bytes per parameter and the throughput field they run at."""

from __future__ import annotations

import pytest

from dlhw_desktop.core.errors import DlhwError
from dlhw_desktop.core.fields import PRECISION_FIELDS, Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.errors import UnknownPrecisionError
from dlhw_desktop.core.workload.precision import (
    PRECISIONS,
    bytes_per_param,
    canonical,
    peak_flops,
    throughput_field,
    weight_format,
)


@pytest.mark.parametrize(("name", "expected"), [
    ("FP32", 4.0), ("TF32", 4.0), ("BF16", 2.0), ("FP16", 2.0), ("FP8", 1.0),
    ("INT8", 1.0), ("INT4", 0.5),
])
def test_app_precisions_bytes(name: str, expected: float) -> None:
    assert bytes_per_param(name) == expected


def test_every_app_precision_maps_to_a_catalog_field() -> None:
    for name in PRECISIONS:
        assert throughput_field(name) in PRECISION_FIELDS.values()


def test_int4_compute_falls_back_to_int8() -> None:
    assert throughput_field("INT4") == "int8_tops"
    assert "INT8" in weight_format("INT4").note


def test_tf32_is_stored_as_fp32_but_computes_at_tf32() -> None:
    assert bytes_per_param("TF32") == 4.0
    assert throughput_field("TF32") == "tf32_tensor_tflops"


@pytest.mark.parametrize(("name", "bits"), [
    # https://github.com/ggml-org/llama.cpp/blob/master/tools/quantize/README.md
    # Q4_K_M: 4.89 bpw over the whole file for Llama 3.1 8B (was 4.85, a mean of 7B/8B)
    ("Q4_K_M", 4.89), ("gguf-q4_k_m", 4.89), ("Q8_0", 8.5), ("q4_0", 4.5),
    # bitsandbytes 4-bit as load_in_4bit leaves it: one fp32 absmax per 64 weights, 4.5 bits;
    # with double quantisation (Dettmers et al. 2023, QLoRA, section 3) 4.127 bits
    ("NF4", 4.5), ("bnb-4bit", 4.5), ("NF4-DQ", 4.127), ("nf4-double-quant", 4.127),
    # GPTQ / AWQ, group size 128: fp16 scale + 4-bit zero per group -> 4 + 20/128
    ("GPTQ", 4.15625), ("awq", 4.15625),
])
def test_quantised_formats_count_their_scales(name: str, bits: float) -> None:
    # NF4-DQ is exact, 4 + 8/64 + 32/(64 x 256) = 4.12695; the paper rounds to 4.127
    assert weight_format(name).bits == pytest.approx(bits, abs=1e-3)
    bnb = weight_format(name).name.startswith("NF4")
    assert throughput_field(name) == ("bf16_tensor_tflops" if bnb else "fp16_tensor_tflops")


def test_bitsandbytes_4bit_defaults_to_the_library_default_and_says_which() -> None:
    from dlhw_desktop.core.workload.precision import format_label, precisions_for_mode
    from dlhw_desktop.core.workload.workload import Workload

    assert precisions_for_mode("qlora") == ["NF4", "NF4-DQ"]
    assert "no double quantisation" in format_label("NF4") and "4.5 bits" in format_label("NF4")
    assert "with double quantisation" in format_label("NF4-DQ")
    from dlhw_desktop.core.workload.model_presets import preset

    model = preset("llama-3.1-8b")
    default = Workload(model, "qlora")
    assert default.base_format == "NF4"
    assert Workload(model, "qlora", precision="nf4-dq").base_format == "NF4-DQ"


def test_aliases_and_case() -> None:
    assert canonical("bfloat16") == "BF16"
    assert canonical(" fp16 ") == "FP16"
    assert canonical("q4-k-m") == "Q4_K_M"


def test_unknown_precision_is_a_user_error() -> None:
    with pytest.raises(UnknownPrecisionError) as info:
        bytes_per_param("FP12")
    assert isinstance(info.value, DlhwError)
    assert "FP12" in str(info.value)


def test_peak_flops_reads_the_dense_figure_and_keeps_unknown_unknown() -> None:
    part = Part("accelerator/x", Category.ACCELERATOR, "V", "X", "test", "2025-01-01",
                specs={"bf16_tensor_tflops": 989.4, "int8_tops": 1979.0})
    assert peak_flops(part, "BF16") == pytest.approx(989.4e12)
    assert peak_flops(part, "INT4") == pytest.approx(1979e12)
    assert peak_flops(part, "FP8") is None
