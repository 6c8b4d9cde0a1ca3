"""Totals in the buyer's own currency, at the dated rate they set.

The catalog prices in US dollars; a buyer in Munich wants the build's total in euros. The
user picks a currency and keeps a rate for it in their price book (US dollars per unit, with
the date it was set). A total then reads "€3,412" and says what it rests on: "at 0.92
EUR/USD set 2026-11-20". A currency without a rate is never guessed: the total stays in US
dollars and says why.
"""

from __future__ import annotations

from dataclasses import dataclass

from dlhw_desktop.core.prices.book import Rate

BASE = "USD"

SYMBOLS: dict[str, str] = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"}
"""Currencies written with a sign before the amount; the others as ``1,234 CHF``."""


def format_money(amount: float | None, currency: str = BASE, decimals: int = 0) -> str:
    """``$3,412``, ``€3,412``, ``3,412 CHF``; unknown is "n/a"."""
    if amount is None:
        return "n/a"
    text = f"{amount:,.{decimals}f}"
    symbol = SYMBOLS.get(currency)
    return f"{symbol}{text}" if symbol else f"{text} {currency}"


@dataclass(frozen=True, slots=True)
class DisplayCurrency:
    """The currency totals are shown in and the rate that converts US dollars into it.

    ``rate`` is ``None`` for US dollars, and for a currency the user chose but has not
    given a rate: then totals stay in dollars (:attr:`missing_rate`)."""

    code: str = BASE
    rate: Rate | None = None

    @classmethod
    def choose(cls, code: str | None, rates: dict[str, Rate]) -> DisplayCurrency:
        chosen = (code or BASE).strip().upper() or BASE
        return cls(chosen, None if chosen == BASE else rates.get(chosen))

    @property
    def converts(self) -> bool:
        return self.code != BASE and self.rate is not None and self.rate.usd_per_unit > 0

    @property
    def missing_rate(self) -> bool:
        """Chosen, but no rate to convert with: totals stay in US dollars."""
        return self.code != BASE and not self.converts

    @property
    def units_per_usd(self) -> float | None:
        return 1 / self.rate.usd_per_unit if self.converts and self.rate else None

    def amount(self, usd: float | None) -> float | None:
        """``usd`` in the chosen currency (in dollars when there is no rate)."""
        if usd is None:
            return None
        per_usd = self.units_per_usd
        return usd if per_usd is None else usd * per_usd

    def format(self, usd: float | None) -> str:
        """A dollar amount as shown: in the chosen currency when a rate converts it."""
        return format_money(self.amount(usd), self.code if self.converts else BASE)

    def basis(self) -> str:
        """What the shown total rests on: the rate and the day it was set, or why the
        total is still in dollars; empty for dollars chosen."""
        if self.converts and self.rate is not None:
            return (f"at {_rate_text(self.units_per_usd or 0)} {self.code}/USD set "
                    f"{self.rate.rate_date}")
        if self.missing_rate:
            return (f"in US dollars: no {self.code} rate set (set one under Build > "
                    f"Currency for totals, or dlhw price rate {self.code} USD_PER_UNIT)")
        return ""

    def with_basis(self, usd: float | None) -> str:
        """``€3,412 at 0.92 EUR/USD set 2026-11-20``; ``$3,700`` for dollars."""
        shown = self.format(usd)
        basis = self.basis() if usd is not None else ""
        return f"{shown} {basis}".strip()


def _rate_text(value: float) -> str:
    """A rate with four significant digits: 0.9200 -> 0.92, 151.37 -> 151.4."""
    return f"{value:.4g}"
