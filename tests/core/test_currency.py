"""Totals in the buyer's currency: converted at their dated rate, and saying so; no rate,
no guess."""

from __future__ import annotations

from dlhw_desktop.core.prices.book import Rate
from dlhw_desktop.core.prices.currency import DisplayCurrency, format_money

EUR = Rate("EUR", 1.0 / 0.92, "2026-11-20")


def test_a_total_in_euros_names_its_rate_and_the_day_it_was_set() -> None:
    shown = DisplayCurrency.choose("eur", {"EUR": EUR})
    assert shown.converts and shown.format(3709) == "€3,412"
    assert shown.with_basis(3709) == "€3,412 at 0.92 EUR/USD set 2026-11-20"


def test_a_currency_without_a_rate_stays_in_dollars_and_says_why() -> None:
    shown = DisplayCurrency.choose("GBP", {"EUR": EUR})
    assert shown.missing_rate and not shown.converts
    assert shown.format(3709) == "$3,709"
    assert "no GBP rate set" in shown.basis()


def test_dollars_need_no_rate_and_unknown_stays_na() -> None:
    shown = DisplayCurrency.choose(None, {})
    assert shown.format(1599) == "$1,599" and shown.basis() == ""
    assert shown.format(None) == "n/a"
    assert format_money(1200, "CHF") == "1,200 CHF"
