"""Figures as a user reads them: units, unknowns, money."""

from __future__ import annotations

import pytest

from dlhw_desktop.core.parts import format_value


@pytest.mark.parametrize(("name", "value", "text"), [
    ("memory_gb", 80, "80 GB"),
    ("memory_bandwidth_gb_s", 3350.0, "3,350 GB/s"),
    ("slot_width", 1, "1 slot"),
    ("slot_width", 2.0, "2 slots"),
    ("slot_width", 2.5, "2.5 slots"),
    ("price_usd", 1599, "$1,599"),
    ("price_usd", 12.5, "$12.50"),
    ("release_year", 2023, "2023"),
    ("memory_gb", None, "n/a"),
    ("tdp_w", "", "n/a"),
])
def test_figures_read_with_their_units(name: str, value: object, text: str) -> None:
    assert format_value(name, value) == text
