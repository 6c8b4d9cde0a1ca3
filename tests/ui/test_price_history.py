"""The details pane shows a range as a range and every dated price a part has had."""

from __future__ import annotations

import dataclasses

from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.prices.kinds import Price, PriceKind
from dlhw_desktop.ui.catalog.part_details import ChipLinks, part_html

SOURCE = "https://example.org/report"


def _part() -> Part:
    return Part(id="accelerator/x-h100", category=Category.ACCELERATOR, vendor="NVIDIA",
                name="H100 PCIe 80 GB", source=SOURCE, source_date="2026-11-26",
                price_usd=25000.0, price_high_usd=30000.0, price_kind="reported",
                price_date="2023-08-01")


def test_details_show_the_range_and_the_history() -> None:
    history = (Price("accelerator/x-h100", 25000.0, "USD", PriceKind.REPORTED, "2023-08-01",
                     SOURCE, "2026-11-26", "", 30000.0),
               Price("accelerator/x-h100", 36000.0, "USD", PriceKind.STREET, "2022-09-01",
                     SOURCE, "2026-11-26"))
    html = part_html(_part(), ChipLinks(prices=history))
    assert "$25,000–30,000" in html
    assert "Price history" in html
    assert html.index("2023-08-01: $25,000–30,000") < html.index("2022-09-01: $36,000")
    assert "street price" in html


def test_one_dated_price_is_no_history() -> None:
    one = (Price("accelerator/x-h100", 25000.0, "USD", PriceKind.REPORTED, "2023-08-01",
                 SOURCE, "2026-11-26", "", 30000.0),)
    html = part_html(dataclasses.replace(_part()), ChipLinks(prices=one))
    assert "Price history" not in html
