"""The comparison model: metrics, unknowns, normalisation, best, presets, table export."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import pytest

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.compare.comparison import (
    M_BANDWIDTH_PER_W,
    M_MEMORY_PER_KUSD,
    M_PRICE,
    M_TDP,
    M_THROUGHPUT,
    M_THROUGHPUT_PER_KUSD,
    M_THROUGHPUT_PER_W,
    MAX_PARTS,
    METRICS,
    CompareExportError,
    Comparison,
    absent_notes,
    best_indices,
    format_metric,
    metric_values,
    normalise,
    normalised_groups,
    write_atomic,
)
from dlhw_desktop.core.compare.presets import PRESETS, PRESETS_BY_NAME, Preset, resolve_preset
from dlhw_desktop.core.compare.scatter import scatter_points, short_name
from dlhw_desktop.core.compare.table import spec_table, table_csv, table_markdown
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import FigureSource, Part

SOURCE = "vendor datasheet (test)"


def accel(name: str, vendor: str = "NVIDIA", price: float | None = None,
          **specs: float | str | None) -> Part:
    return Part(id=f"accelerator/{name.lower().replace(' ', '-')}",
                category=Category.ACCELERATOR, vendor=vendor, name=f"{vendor} {name}",
                source=SOURCE, source_date="2025-01-01", price_usd=price,
                specs={k: v for k, v in specs.items() if v is not None})


@pytest.fixture
def a100() -> Part:
    return Part(id="accelerator/a100", category=Category.ACCELERATOR, vendor="NVIDIA",
                name="NVIDIA A100", source=SOURCE, source_date="2025-01-01",
                price_usd=11000.0,
                specs={"bf16_tensor_tflops": 312.0, "fp32_tflops": 19.5, "memory_gb": 40.0,
                       "memory_bandwidth_gb_s": 1555.0, "tdp_w": 250},
                figure_sources={"tdp_w": FigureSource("https://example.com/a100.pdf",
                                                      "2024-05-01", "board power")})


@pytest.fixture
def rtx() -> Part:
    return accel("RTX 4090", price=1599.0, bf16_tensor_tflops=165.2, fp8_tensor_tflops=660.6,
                 memory_gb=24.0, memory_bandwidth_gb_s=1008.0, tdp_w=450)


@pytest.fixture
def tpu() -> Part:
    return accel("TPU v4", vendor="Google", bf16_tensor_tflops=275.0, memory_gb=32.0,
                 memory_bandwidth_gb_s=1200.0)


# --- metrics ---------------------------------------------------------------------------
def test_throughput_is_the_precision_figure_and_unknown_is_none(a100: Part, rtx: Part) -> None:
    bf16 = metric_values([a100, rtx], M_THROUGHPUT, "BF16")
    assert [v.value for v in bf16] == [312.0, 165.2]
    fp8 = metric_values([a100, rtx], M_THROUGHPUT, "FP8")
    assert fp8[0].value is None and fp8[0].reason == "no FP8 figure"
    assert fp8[1].value == 660.6
    assert M_THROUGHPUT.axis_label("BF16") == "BF16 tensor throughput (TFLOPS)"
    assert M_THROUGHPUT.unit_for("INT8") == "TOPS"


def test_a_zero_figure_counts_as_unknown_never_as_zero() -> None:
    part = accel("Odd", price=0.0, bf16_tensor_tflops=0.0, tdp_w=300)
    assert M_THROUGHPUT.value(part, "BF16").value is None
    assert M_PRICE.value(part, "BF16").reason == "price unknown"
    assert M_THROUGHPUT_PER_KUSD.value(part, "BF16").value is None


def test_derived_metrics_are_ratios_of_catalog_figures(a100: Part, rtx: Part) -> None:
    assert M_THROUGHPUT_PER_KUSD.value(a100, "BF16").value == pytest.approx(312 / 11000 * 1000)
    assert M_THROUGHPUT_PER_W.value(rtx, "BF16").value == pytest.approx(165.2 / 450)
    assert M_MEMORY_PER_KUSD.value(rtx, "BF16").value == pytest.approx(24 / 1599 * 1000)
    assert M_BANDWIDTH_PER_W.value(a100, "FP8").value == pytest.approx(1555 / 250)
    missing = M_THROUGHPUT_PER_KUSD.value(a100, "FP8")
    assert missing.value is None and missing.reason == "no FP8 figure"


def test_derived_reason_names_every_missing_figure(tpu: Part) -> None:
    value = M_THROUGHPUT_PER_KUSD.value(tpu, "FP8")
    assert value.value is None
    assert value.reason == "no FP8 figure, price unknown"
    assert M_THROUGHPUT_PER_W.value(tpu, "BF16").reason == "TDP unknown"


def test_normalise_to_baseline(a100: Part, rtx: Part, tpu: Part) -> None:
    values = [v.value for v in metric_values([a100, rtx, tpu], M_THROUGHPUT, "BF16")]
    ratios = normalise(values, 0)
    assert ratios[0] == 1.0
    assert ratios[1] == pytest.approx(165.2 / 312)
    assert ratios[2] == pytest.approx(275 / 312)
    # The baseline lacks the figure: nothing can be normalised.
    fp8 = [v.value for v in metric_values([a100, rtx], M_THROUGHPUT, "FP8")]
    assert normalise(fp8, 0) == [None, None]
    # Another part lacks it: only that one is None.
    assert normalise(fp8, 1) == [None, 1.0]
    assert normalise([1.0, 2.0], None) == [None, None]


def test_normalised_groups_cover_every_metric(a100: Part, rtx: Part, tpu: Part) -> None:
    groups = {g.metric.key: g for g in normalised_groups([a100, rtx, tpu], "BF16", 1)}
    assert groups["memory"].ratios == pytest.approx((40 / 24, 1.0, 32 / 24))
    assert groups["price"].ratios[2] is None and groups["price"].baseline_known
    tpu_base = {g.metric.key: g for g in normalised_groups([a100, rtx, tpu], "BF16", 2)}
    assert not tpu_base["price"].baseline_known
    assert tpu_base["price"].ratios == (None, None, None)


def test_best_is_highest_or_lowest_and_ignores_unknowns() -> None:
    assert best_indices([1.0, None, 3.0, 3.0], True) == {2, 3}
    assert best_indices([250.0, None, 450.0], False) == {0}
    assert best_indices([None, 5.0], True) == frozenset()  # nothing to beat
    assert M_TDP.higher_is_better is False and M_PRICE.higher_is_better is False
    assert all(METRICS[k].higher_is_better for k in ("throughput", "memory", "bandwidth",
                                                     "throughput_per_kusd"))


def test_absent_notes_group_parts_by_reason(a100: Part, rtx: Part, tpu: Part) -> None:
    parts = [a100, rtx, tpu]
    values = metric_values(parts, M_THROUGHPUT, "FP8")
    assert absent_notes([short_name(p) for p in parts], values) == ["No FP8 figure: A100, TPU v4"]


def test_format_metric() -> None:
    assert format_metric(None, M_THROUGHPUT) == "n/a"
    assert format_metric(11000.0, M_PRICE) == "$11,000"
    assert format_metric(1555.0, METRICS["bandwidth"]) == "1,555"
    assert format_metric(28.3636, M_THROUGHPUT_PER_KUSD) == "28.4"
    assert format_metric(0.36711, M_THROUGHPUT_PER_W) == "0.367"


# --- the selection ----------------------------------------------------------------------
def test_comparison_holds_at_most_eight_in_order() -> None:
    comparison = Comparison()
    events: list[str] = []
    comparison.subscribe(events.append)
    ids = [f"accelerator/p{i}" for i in range(10)]
    result = comparison.add(ids)
    assert len(comparison) == MAX_PARTS == 8
    assert result.added == tuple(ids[:8]) and result.rejected == tuple(ids[8:])
    assert comparison.full and events == ["parts"]
    again = comparison.add(ids[:1])
    assert again.duplicates == (ids[0],) and events == ["parts"]  # no change, no event


def test_move_remove_and_baseline_fallback() -> None:
    comparison = Comparison(["a", "b", "c"])
    events: list[str] = []
    comparison.subscribe(events.append)
    assert comparison.baseline == "a"  # first part until one is chosen
    comparison.set_baseline("c")
    assert comparison.baseline == "c" and comparison.baseline_index == 2
    assert comparison.move("c", -1) and comparison.ids == ("a", "c", "b")
    assert not comparison.move("a", -1)  # already first
    assert comparison.move("a", 5) and comparison.ids == ("c", "b", "a")
    assert comparison.remove("c") and comparison.baseline == "b"
    assert not comparison.remove("zzz")
    comparison.clear()
    assert comparison.baseline is None and comparison.ids == ()
    assert events == ["baseline", "parts", "parts", "parts", "parts"]


def test_precision_is_checked() -> None:
    comparison = Comparison(precision="nonsense")
    assert comparison.precision == "BF16"
    comparison.set_precision("FP8")
    assert comparison.precision == "FP8"
    with pytest.raises(ValueError, match="unknown precision"):
        comparison.set_precision("FP64")


# --- presets against the real catalog -------------------------------------------------------
def test_every_preset_resolves_to_catalog_accelerators(catalog: Catalog) -> None:
    def exists(part_id: str) -> bool:
        return catalog.find(part_id) is not None

    for preset in PRESETS:
        ids = resolve_preset(preset, exists)
        assert len(ids) == len(preset.slots), preset.name
        assert len(ids) <= MAX_PARTS
        parts = catalog.get_many(ids)
        assert [p.id for p in parts] == ids
        assert all(p.category == Category.ACCELERATOR for p in parts)


def test_seed_preset_matches_the_seed_article(catalog: Catalog) -> None:
    ids = resolve_preset(PRESETS_BY_NAME["Seed comparison"],
                         lambda i: catalog.find(i) is not None)
    parts = catalog.get_many(ids)
    names = [p.display_name for p in parts]
    assert names[0].startswith("NVIDIA A100")
    assert "Google TPU v4" in names
    assert any("MI250X" in n for n in names)
    assert parts[-1].get("accelerator_type") == "fpga"


def test_preset_falls_back_to_the_next_candidate() -> None:
    preset = Preset("x", "", (("accelerator/gone", "accelerator/here"), ("accelerator/gone",)))
    assert resolve_preset(preset, lambda i: i == "accelerator/here") == ["accelerator/here"]


# --- table export -------------------------------------------------------------------------
def test_csv_reads_back_with_names_and_na(a100: Part, tpu: Part) -> None:
    table = spec_table([a100, tpu], "BF16")
    rows = list(csv.DictReader(io.StringIO(table_csv(table))))
    # one row per part, one column per figure with its unit; empty (not "n/a") for unknown
    assert [r["Part id"] for r in rows] == [a100.id, tpu.id]
    assert [r["Name"] for r in rows] == ["NVIDIA A100", "Google TPU v4"]
    assert [r["BF16 tensor (TFLOPS)"] for r in rows] == ["312", "275"]
    assert [r["TDP (W)"] for r in rows] == ["250", ""]
    assert [r["Price (USD)"] for r in rows] == ["11000", ""]
    per_kusd = [r["BF16 TFLOPS per $1,000"] for r in rows]
    assert math.isclose(float(per_kusd[0]), 312 / 11, rel_tol=1e-5) and per_kusd[1] == ""
    assert rows[0]["Source"].startswith(SOURCE) and "2025-01-01" in rows[0]["Source"]


def test_table_marks_best_and_keeps_sources(a100: Part, rtx: Part) -> None:
    table = spec_table([a100, rtx], "BF16")
    assert table.row("bf16_tensor_tflops").best == {0}
    assert table.row("tdp_w").best == {0}  # lower board power wins
    assert table.row("price_usd").best == {1}
    assert table.row("bf16_tensor_tflops").emphasised
    assert table.row("fp8_tensor_tflops").texts == ("n/a", "660.6")
    assert "https://example.com/a100.pdf" in table.row("tdp_w").sources[0]
    assert SOURCE in table.row("memory_gb").sources[1]


def test_markdown_table(a100: Part, rtx: Part) -> None:
    text = table_markdown(spec_table([a100, rtx], "BF16"), "BF16")
    lines = text.splitlines()
    assert lines[0] == "| Figure | NVIDIA A100 | NVIDIA RTX 4090 |"
    assert lines[1] == "|---|---:|---:|"
    assert "| **BF16 tensor (TFLOPS)** | **312** | 165.2 |" in lines
    assert "| FP8 tensor (TFLOPS) | n/a | 660.6 |" in lines  # one figure: no "best"


def test_scatter_points_need_both_figures(a100: Part, rtx: Part, tpu: Part) -> None:
    data = scatter_points([a100, rtx, tpu], "BF16", "price")
    assert [p.part_id for p in data.points] == [a100.id, rtx.id]
    assert data.omitted == 1
    assert (data.points[0].x, data.points[0].y) == (11000.0, 312.0)
    assert "NVIDIA A100" in data.points[0].tooltip and "312 TFLOPS" in data.points[0].tooltip
    by_tdp = scatter_points([a100, rtx, tpu], "FP8", "tdp")
    assert [(p.x, p.y) for p in by_tdp.points] == [(450.0, 660.6)]


def test_write_atomic(tmp_path: Path) -> None:
    target = write_atomic(tmp_path / "t.csv", "a,b\n")
    assert target.read_text() == "a,b\n"
    write_atomic(target, b"c")
    assert target.read_bytes() == b"c"
    assert [p.name for p in tmp_path.iterdir()] == ["t.csv"]  # no temporary left behind
    with pytest.raises(CompareExportError, match="cannot write"):
        write_atomic(tmp_path / "missing" / "t.csv", "x")
