"""Prices carry a kind and the date they held; a price older than 12 months is marked."""

from __future__ import annotations

from datetime import date

from dlhw_desktop.core.prices.kinds import (
    Price,
    PriceKind,
    describe_price,
    headline,
    is_stale,
    price_age_months,
    price_kind,
)

TODAY = date(2026, 11, 26)


def test_age_and_staleness_count_calendar_months() -> None:
    assert price_age_months("2025-11-26", TODAY) == 12
    assert price_age_months("2025-11-27", TODAY) == 11
    assert price_age_months("2026-05", TODAY) == 6
    assert not is_stale("2026-05-07", TODAY)
    assert is_stale("2025-11-26", TODAY)
    assert is_stale("2020-09-01", TODAY)


def test_an_undated_or_unreadable_price_counts_as_stale() -> None:
    assert is_stale(None, TODAY)
    assert is_stale("", TODAY)
    assert is_stale("sometime", TODAY)
    assert price_age_months("2026-13-01", TODAY) is None


def test_the_hover_text_says_kind_date_and_age() -> None:
    old = describe_price("list", "2020-09-01", TODAY)
    assert old.startswith("launch list price (MSRP), 2020-09-01")
    assert "6 years ago" in old and "older than 12 months" in old
    recent = describe_price(PriceKind.CLOUD_SPOT, "2026-09-26", TODAY)
    assert recent == "cloud spot/preemptible rate, 2026-09-26"
    assert describe_price(None, None, TODAY) == "price of unknown kind, undated"
    assert "not a list price" in describe_price("reported", "2023-04", TODAY)


def test_kinds_are_a_closed_vocabulary() -> None:
    assert price_kind("list_1ku") is PriceKind.LIST_1KU
    assert price_kind("msrp") is None
    assert PriceKind.REPORTED.purchase and not PriceKind.REPORTED.rental
    assert PriceKind.CLOUD_ON_DEMAND.rental and not PriceKind.CLOUD_ON_DEMAND.purchase


def test_headline_prefers_a_list_price_and_then_the_latest() -> None:
    def p(kind: str, amount: float, when: str, currency: str = "USD") -> Price:
        return Price("accelerator/x", amount, currency, PriceKind(kind), when, "src", "2026-11-26")

    launch, cut = p("list", 289, "2022-10-12"), p("list", 249, "2023-06-15")
    street = p("street", 199, "2026-01-01")
    assert headline([street, launch, cut]) is cut
    assert headline([street, p("reported", 11000, "2023-04")]) is street
    assert headline([p("list", 999, "2026-01-01", "EUR")]) is None
    assert headline([]) is None
