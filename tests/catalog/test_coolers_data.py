"""The curated CPU coolers (``coolers.csv``) merged with the BuildCores OpenDB rows: a
cooler a user picks appears once, with the vendor's rating when there is one, and an
unknown rating stays empty (never 0, never guessed)."""

from __future__ import annotations

from typing import Any

import pytest

from dlhw_desktop.catalog.builder import collect
from dlhw_desktop.resources import catalog_sources_dir


@pytest.fixture(scope="module")
def coolers() -> dict[str, dict[str, Any]]:
    rows = collect(catalog_sources_dir())[0]
    return {r["id"]: r for r in rows if r["category"] == "cooler"}


def test_the_black_ak620_is_one_part_with_deepcools_rating(
        coolers: dict[str, dict[str, Any]]) -> None:
    ak620 = coolers["cooler/deepcool-ak620"]
    assert ak620["cooling_capacity_w"] == 260
    assert ak620["height_mm"] == 160
    # The OpenDB rows of the same part number merged into it instead of listing the
    # cooler a second and third time without its rating.
    assert "cooler/deepcool-ak620-68-99-cfm-cpu-cooler" not in coolers
    assert "cooler/deepcool-ak620-air-160mm-black-silver" not in coolers
    # Other AK620 models (white, DIGITAL, ZERO DARK) are other products and stay apart.
    assert "cooler/deepcool-ak620-air-160mm-white" in coolers


def test_no_cooler_rating_is_zero_or_implausible(coolers: dict[str, dict[str, Any]]) -> None:
    rated = {i: c["cooling_capacity_w"] for i, c in coolers.items()
             if c.get("cooling_capacity_w") is not None}
    assert rated, "no cooler carries a rating at all"
    assert all(30 <= w <= 600 for w in rated.values()), rated


def test_noctua_coolers_have_no_watt_rating_and_say_why(
        coolers: dict[str, dict[str, Any]]) -> None:
    noctua = [c for c in coolers.values()
              if c["vendor"] == "Noctua" and "NSPR" in (c.get("notes") or "")]
    assert len(noctua) >= 10
    for cooler in noctua:
        assert cooler.get("cooling_capacity_w") is None, cooler["id"]
        assert "noctua-standardised-performance-rating" in cooler["notes"], cooler["id"]
