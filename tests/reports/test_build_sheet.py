"""The build sheet as data: what a colleague or a purchasing office reads, without Qt."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.buildfile import placeholder_part
from dlhw_desktop.core.build.tiers import tiers_from_rows
from dlhw_desktop.core.checks import check_build
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.formatting import NA, money, short_source
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload.build_workload import BuildWorkload
from dlhw_desktop.reports.build_sheet import make_build_sheet, sheet_from_catalog
from dlhw_desktop.reports.sheet_charts import comparable_accelerators
from dlhw_desktop.reports.sheet_model import BuildSheet

WORKSTATION = (
    ("cpu/amd-ryzen-threadripper-pro-7975wx", 1),
    ("motherboard/asus-pro-ws-wrx90e-sage-se", 1),
    ("memory/samsung-m321r4ga3pb0-cwm-32gb-ddr5-5600-ecc-rdimm-8-module-set", 1),
    ("accelerator/nvidia-geforce-rtx-4090", 2),
    ("storage/samsung-990-pro-4tb-mz-v9p4t0b-am", 1),
    ("psu/seasonic-prime-tx-1600-atx-3", 1),
    ("cooler/noctua-nh-u14s-tr5-sp6", 1),
    ("case/phanteks-enthoo-pro-2-server-edition", 1),
)
LORA = {"model": "llama-3.1-8b", "mode": "lora", "precision": "BF16", "batch": 1,
        "seq": 2048, "checkpointing": True, "tokens": 2e8}


def make_build(catalog: Any, parts: tuple[tuple[str, int], ...] = WORKSTATION,
               workload: dict[str, Any] | None = None) -> Build:
    build = Build("2x RTX 4090 workstation", notes="For the NLP team.\nQuote by Friday.",
                  tier="demanding", workload=BuildWorkload.kept_as_is(workload or {}))
    for part_id, quantity in parts:
        build.add(catalog.get(part_id), quantity)
    return build


def sheet_for(catalog: Any, build: Build, **kwargs: Any) -> BuildSheet:
    report = check_build(build, None, tiers_from_rows(catalog.tier_rows()))
    return sheet_from_catalog(build, report, catalog, date="2026-01-15", **kwargs)


@pytest.fixture(scope="module")
def lora_sheet(catalog: Any) -> BuildSheet:
    return sheet_for(catalog, make_build(catalog, workload=LORA))


def test_reports_do_not_import_qt() -> None:
    code = ("import sys, dlhw_desktop.reports.build_sheet; "
            "sys.exit(any(m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph') "
            "for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_header_names_the_build_date_tier_and_catalog(lora_sheet: BuildSheet,
                                                      catalog: Any) -> None:
    assert lora_sheet.build_name == "2x RTX 4090 workstation"
    assert lora_sheet.notes == "For the NLP team.\nQuote by Friday."
    assert lora_sheet.date == "2026-01-15"
    assert lora_sheet.tier == "Demanding"
    assert lora_sheet.catalog_version == catalog.info().catalog_version
    assert lora_sheet.app_name and lora_sheet.app_version


def test_parts_table_has_quantities_prices_subtotals_and_sources(lora_sheet: BuildSheet,
                                                                 catalog: Any) -> None:
    rows = {row.part_id: row for row in lora_sheet.parts}
    assert list(rows) == [pid for pid, _ in WORKSTATION]
    gpu = rows["accelerator/nvidia-geforce-rtx-4090"]
    price = catalog.get("accelerator/nvidia-geforce-rtx-4090").price_usd
    assert (gpu.category, gpu.quantity) == ("Accelerator", 2)
    assert gpu.unit_price == money(price) and gpu.subtotal == money(2 * price)
    assert gpu.source == "nvidia.com"
    refs = {s.ref: s for s in lora_sheet.sources}
    for row in lora_sheet.parts:
        assert row.source_ref in refs
        assert row.name in refs[row.source_ref].used_by


def test_unknown_price_is_na_never_zero(lora_sheet: BuildSheet) -> None:
    unpriced = [row for row in lora_sheet.parts if row.unit_price_usd is None]
    assert unpriced, "the catalog has platform parts without a price"
    for row in unpriced:
        assert row.unit_price == NA and row.subtotal == NA
        assert "$0" not in row.subtotal
    total = lora_sheet.price_total
    known = sum(r.subtotal_usd for r in lora_sheet.parts if r.subtotal_usd is not None)
    assert total.value == money(known)
    assert f"{len(unpriced)} parts without a price" in total.note
    assert lora_sheet.headline[0].value.endswith("+")


def test_totals_cover_price_power_heat_memory_and_throughput(lora_sheet: BuildSheet) -> None:
    totals = {f.key: f for f in lora_sheet.totals}
    for key in ("price", "sustained_w", "wall_w", "heat_w", "psu_load", "vram_gb", "ram_gb",
                "bf16_tflops", "yearly_kwh", "yearly_cost_usd"):
        assert totals[key].value != NA, key
    assert totals["vram_gb"].value == "48 GB" and totals["vram_gb"].note == "2 x 24 GB"
    assert "BTU/h" in totals["heat_w"].note
    assert totals["bf16_tflops"].value.endswith("TFLOPS")


def test_every_check_is_on_the_sheet_in_kind_order(catalog: Any) -> None:
    build = make_build(catalog)
    report = check_build(build, None, tiers_from_rows(catalog.tier_rows()))
    sheet = make_build_sheet(build, report, catalog_info=catalog.info())
    assert sorted((c.id, c.status, c.message) for c in sheet.checks) == sorted(
        (r.id, r.status, r.message) for r in report.results)
    kinds = [c.kind for c in sheet.checks]
    order = ("compatibility", "power", "cooling", "memory", "workload")
    assert kinds == sorted(kinds, key=order.index)
    assert sheet.verdict == report.verdict
    assert sum(n for _, n in sheet.verdict_counts) == len(report.results)
    warn = next(c for c in sheet.checks if c.id == "power.psu_load")
    assert warn.suggestion  # the next step prints under the message


def test_workload_fit_and_estimates(lora_sheet: BuildSheet) -> None:
    section = lora_sheet.workload
    assert section is not None and not section.error
    assert section.title == "Llama 3.1 8B: LoRA fine-tuning"
    assert section.status == "pass"
    memory = {f.key: f for f in section.memory}
    assert memory["total"].value.endswith("GiB")
    assert {"weights", "activations", "overhead"} <= set(memory)
    estimates = {f.key: f for f in section.estimates}
    assert estimates["training_time"].value.endswith(" h")
    assert estimates["run_cost"].value.startswith(("$", "at least $"))
    own = estimates["own_per_hour"]
    if own.value.startswith("at least"):  # an unpriced part is named, never dropped
        assert "without a price:" in own.note
    assert "wall draw" in own.note
    fit_rows = [c for c in lora_sheet.checks if c.id.startswith("workload.memory")]
    # two identical GPUs: one row, "2x ..." (issue 15)
    assert len(fit_rows) == 1 and all(c.kind_label == "Workload fit" for c in fit_rows)
    assert fit_rows[0].message.startswith("2x ")


def test_memory_chart_stacks_each_gpu_by_kind(lora_sheet: BuildSheet) -> None:
    chart = lora_sheet.chart("memory")
    assert chart is not None and chart.stacked
    assert chart.series[:3] == ("Weights", "Optimizer + gradients", "Activations")
    assert [b.label for b in chart.bars] == ["GPU 1", "GPU 2"]
    assert chart.notes == ("Each GPU: NVIDIA GeForce RTX 4090, 24.0 GiB of memory.",)
    assert chart.markers[0].value == pytest.approx(24.0)
    total = chart.bars[0].total
    assert total is not None and 5 < total < 24


def test_without_workload_memory_chart_is_ram_against_vram(catalog: Any) -> None:
    sheet = sheet_for(catalog, make_build(catalog))
    assert sheet.workload is None
    chart = sheet.chart("memory")
    assert chart is not None
    assert [(b.label, b.total) for b in chart.bars] == [("System RAM", 256.0),
                                                       ("GPU memory (all cards)", 48.0)]
    assert chart.markers[0].value == 96.0


def test_power_chart_by_part_group(lora_sheet: BuildSheet) -> None:
    chart = lora_sheet.chart("power")
    assert chart is not None
    bars = {b.label: b for b in chart.bars}
    assert bars["Accelerators"].total == 900.0 and bars["CPU"].total == 350.0
    assert all(b.known for b in chart.bars)


def test_unknown_part_reads_na_and_is_never_charted_as_zero(catalog: Any) -> None:
    parts = (*WORKSTATION[:3], *WORKSTATION[4:])
    build = make_build(catalog, parts)
    ghost = placeholder_part("accelerator/acme-ghost-9000", Category.ACCELERATOR, "Acme Ghost")
    build.add(ghost, 2)
    sheet = sheet_for(catalog, build, warnings=["Acme Ghost is not in the catalog"])
    row = next(r for r in sheet.parts if r.part_id == ghost.id)
    assert (row.unit_price, row.subtotal, row.source) == (NA, NA, "not in the catalog")
    assert row.source_ref is None and "figures are unknown" in row.note
    totals = {f.key: f.value for f in sheet.totals}
    assert totals["bf16_tflops"] == NA and totals["sustained_w"] == NA
    power = sheet.chart("power")
    assert power is not None
    gpu_bar = next(b for b in power.bars if b.label == "Accelerators")
    assert gpu_bar.total is None and gpu_bar.text == NA
    assert any("Accelerators" in note for note in power.notes)
    assert next(b for b in power.bars if b.label == "CPU").total == 350.0
    assert sheet.warnings == ("Acme Ghost is not in the catalog",)


def test_workload_that_cannot_be_estimated_says_why(catalog: Any) -> None:
    sheet = sheet_for(catalog, make_build(catalog, workload={"model": "no-such-model"}))
    assert sheet.workload is not None
    assert sheet.workload.status == "unknown"
    assert "no-such-model" in sheet.workload.error


def test_alternatives_compare_throughput_per_dollar_and_watt(lora_sheet: BuildSheet) -> None:
    per_dollar = lora_sheet.chart("alternatives_per_dollar")
    per_watt = lora_sheet.chart("alternatives_per_watt")
    assert per_dollar is not None and per_watt is not None
    assert 5 <= len(per_dollar.bars) <= 7
    mine = [b for b in per_dollar.bars if b.highlight]
    assert [b.label for b in mine] == ["NVIDIA GeForce RTX 4090 (this build)"]
    # 165.2 dense BF16 TFLOPS for $1,599 -> 103.3 per $1,000
    assert mine[0].total == pytest.approx(165.2 / 1599 * 1000, rel=1e-3)
    totals = [b.total for b in per_dollar.bars]
    assert totals == sorted(totals, key=lambda v: -(v or 0))


def test_comparable_accelerators_are_ownable_distinct_and_priced(catalog: Any) -> None:
    gpu = catalog.get("accelerator/nvidia-geforce-rtx-4090")
    picks = comparable_accelerators([gpu], catalog.parts(Category.ACCELERATOR), 5)
    assert len(picks) == 5
    assert gpu.id not in {p.id for p in picks}
    assert len({p.display_name for p in picks}) == 5
    for part in picks:
        assert part.price_usd and part.number("bf16_tensor_tflops")
        assert part.text("form_factor").lower() != "cloud"


def test_empty_build_is_unknown_not_pass(catalog: Any) -> None:
    build = Build("Empty")
    sheet = make_build_sheet(build, check_build(build))
    assert sheet.verdict == "unknown"
    assert sheet.parts == () and sheet.price_total.value == NA
    assert sheet.catalog_version == NA
    assert {f.value for f in sheet.totals if f.key in ("vram_gb", "bf16_tflops")} == {NA}
    assert sheet.charts == ()  # nothing known, nothing charted (never bars of zero)


def test_sources_are_distinct_and_name_the_figures_they_back(lora_sheet: BuildSheet) -> None:
    sources = [s.source for s in lora_sheet.sources]
    assert len(sources) == len(set(sources))
    assert [s.ref for s in lora_sheet.sources] == list(range(1, len(sources) + 1))
    used = "; ".join(u for s in lora_sheet.sources for u in s.used_by)
    assert "BF16 tensor" in used  # a per-figure source, by the figure's label
    assert "model Llama 3.1 8B" in used


def test_cloud_offering_is_rented_not_totalled() -> None:
    offering = Part("cloud/test-8xh100", Category.CLOUD, "Test Cloud", "8x H100 node",
                    "https://cloud.example.com/pricing", "2025-01-01",
                    specs={"price_per_hour_usd": 98.32, "accelerator_count": 8})
    build = Build("Rented")
    build.add(offering)
    sheet = make_build_sheet(build, check_build(build))
    row = sheet.parts[0]
    assert row.unit_price == "$98.32/h" and row.subtotal == NA
    assert "not in the total" in row.note


def test_texts_cover_everything_printed(lora_sheet: BuildSheet) -> None:
    text = "\n".join(lora_sheet.texts())
    for check in lora_sheet.checks:
        assert check.message in text
    for part in lora_sheet.parts:
        assert part.name in text


@pytest.mark.parametrize(("source", "short"), [
    ("https://www.nvidia.com/en-us/geforce/", "nvidia.com"),
    ("https://images.nvidia.com/aem-dam/x.pdf", "nvidia.com"),
    ("https://shop.example.co.uk/item", "example.co.uk"),
    ("Cherry Servers: Deep Learning Hardware", "Cherry Servers: Deep Learning Hardware"),
    ("", NA),
])
def test_short_source(source: str, short: str) -> None:
    assert short_source(source) == short


def test_money_keeps_cents_below_a_hundred() -> None:
    assert (money(None), money(1599), money(0.42, "h"), money(6.485)) == (
        NA, "$1,599", "$0.42/h", "$6.49")


def test_each_priced_line_says_what_kind_of_price_and_when(catalog) -> None:
    build = Build()
    build.add(catalog.get("accelerator/nvidia-geforce-rtx-4090"), 1)
    sheet = make_build_sheet(build, check_build(build))
    (row,) = [r for r in sheet.parts if r.part_id == "accelerator/nvidia-geforce-rtx-4090"]
    assert "launch list price (MSRP), 2022-09-20" in row.note
    assert "older than 12 months" in row.note


def test_the_total_reads_in_the_chosen_currency_with_its_rate(catalog: Any) -> None:
    from dlhw_desktop.core.prices.book import Rate
    from dlhw_desktop.core.prices.currency import DisplayCurrency

    build = make_build(catalog, (("accelerator/nvidia-geforce-rtx-4090", 2),))
    euros = DisplayCurrency("EUR", Rate("EUR", 1.25, "2026-11-20"))
    sheet = sheet_for(catalog, build, currency=euros)
    assert sheet.price_total.value == "€2,558"
    assert sheet.price_total.note == "at 0.8 EUR/USD set 2026-11-20; $3,198 in US dollars"
    assert next(f for f in sheet.headline if f.key == "price").value == "€2,558"
    assert sheet.parts[0].unit_price == "$1,599"  # each line keeps its dated dollar price
    no_rate = sheet_for(catalog, build, currency=DisplayCurrency("GBP"))
    assert no_rate.price_total.value == "$3,198"
    assert no_rate.price_total.note.startswith("in US dollars: no GBP rate set")
