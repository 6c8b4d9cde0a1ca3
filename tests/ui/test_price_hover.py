"""A price is never shown bare: its kind, its date and its age are one hover away."""

from __future__ import annotations

from PySide6.QtCore import Qt

from dlhw_desktop.catalog.part_query import PartQuery
from dlhw_desktop.core.fields import Category
from dlhw_desktop.ui.catalog.part_details import part_html
from dlhw_desktop.ui.common.part_table_model import PartTableModel


def test_the_price_tooltip_names_the_kind_and_marks_an_old_price(qtbot, catalog) -> None:
    model = PartTableModel(catalog)
    model.set_query(PartQuery(category=Category.ACCELERATOR, text="RTX 4090"))
    column = model.columns.index("price_usd")
    row = next(r for r in range(model.rowCount())
               if model.part_at(r).id == "accelerator/nvidia-geforce-rtx-4090")
    tip = model.data(model.index(row, column), Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("Launch list price (MSRP), 2022-09-20")
    assert "older than 12 months" in tip
    assert "Source: https://" in tip


def test_the_details_pane_says_reported_for_the_seed_articles_a100(catalog) -> None:
    html = part_html(catalog.get("accelerator/nvidia-a100-pcie-40-gb"))
    assert "$11,000" in html
    assert "reported figure (not a list price), 2023-04" in html
    assert "older than 12 months" in html


def test_a_cloud_rate_shows_its_kind(catalog) -> None:
    html = part_html(catalog.get("cloud/google-cloud-a3-highgpu-1g-spot-1x-h100-80-gb"))
    assert "cloud spot/preemptible rate, 2026-09-26" in html


def test_no_break_even_is_claimed_when_the_build_has_no_price(qtbot, catalog) -> None:
    from dlhw_desktop.core.build.build import Build
    from dlhw_desktop.core.workload.build_workload import BuildWorkload
    from dlhw_desktop.ui.workload.workload_panel import WorkloadPanel

    build = Build(workload=BuildWorkload.from_mapping(
        {"model": "llama-3.1-8b", "mode": "lora", "precision": "BF16", "tokens": 1e8,
         "checkpointing": True}))
    from dataclasses import replace

    unpriced = replace(catalog.get("accelerator/nvidia-h100-sxm5-80-gb"), price_usd=None,
                       price_kind=None, price_date=None)  # as without any price
    build.add(unpriced, 1)
    panel = WorkloadPanel(catalog)
    qtbot.addWidget(panel)
    panel.set_build(build)
    cost = panel.results.cost_label.text()
    assert "Own machine per hour: <b>n/a</b>" in cost and "no price for" in cost
    assert "Break-even: <b>n/a</b>" in cost
    assert "months" not in cost
