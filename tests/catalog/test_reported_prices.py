"""``research/prices_reported.csv`` rows become dated, kinded prices; a range keeps its top;
a row the build does not take is reported with its file and line; a price without a date
or kind stops the build."""

from __future__ import annotations

from pathlib import Path

import pytest

from dlhw_desktop.catalog.price_sources import read_prices, take_reported_prices
from dlhw_desktop.catalog.rule_log import RuleLog
from dlhw_desktop.core.errors import CatalogSourceError
from dlhw_desktop.core.prices.kinds import PriceKind

HEADER = "part_id,amount,amount_high,currency,price_kind,price_date,source,source_date,note\n"


def _file(tmp_path: Path, *rows: str) -> Path:
    (tmp_path / "research").mkdir(exist_ok=True)
    (tmp_path / "research" / "prices_reported.csv").write_text(HEADER + "".join(rows),
                                                                  encoding="utf-8")
    return tmp_path


def test_rows_of_any_number_become_prices_with_ranges(tmp_path: Path) -> None:
    rows = [f"accelerator/x{i},{1000 + i},{2000 + i},USD,reported,2024-0{1 + i % 9}-01,"
            f"https://example.org/{i},2026-11-26,note {i}\n" for i in range(40)]
    prices = read_prices(_file(tmp_path, *rows), "research/prices_reported.csv")
    assert len(prices) == 40
    assert prices[0].amount == 1000 and prices[0].amount_high == 2000


@pytest.mark.parametrize(("row", "says"), [
    ("accelerator/x,100,,USD,reported,,https://e.org,2026-11-26,n\n", "price_date is empty"),
    ("accelerator/x,100,,USD,,2024-01-01,https://e.org,2026-11-26,n\n", "price_kind is empty"),
    ("accelerator/x,300,200,USD,reported,2024-01-01,https://e.org,2026-11-26,n\n",
     "amount_high must be above amount"),
])
def test_a_price_without_date_or_kind_or_with_a_backward_range_is_refused(
        tmp_path: Path, row: str, says: str) -> None:
    with pytest.raises(CatalogSourceError, match=says) as caught:
        read_prices(_file(tmp_path, row), "research/prices_reported.csv")
    assert "prices_reported.csv:2" in str(caught.value)


def test_rows_not_taken_are_reported_with_file_line_and_rule(tmp_path: Path) -> None:
    prices = read_prices(_file(
        tmp_path,
        "accelerator/a,100,,USD,reported,2024-01-01,https://e.org,2026-11-26,n\n",
        "accelerator/gone,100,,USD,reported,2024-01-01,https://e.org,2026-11-26,n\n",
        "accelerator/a,120,,USD,list,2024-05-01,https://e.org,2026-11-26,aggregator\n",
        "accelerator/b,9,,USD,street,2024-01-01,https://e.org,2026-11-26,n\n"),
        "research/prices_reported.csv")
    parts = {"accelerator/a": {"id": "accelerator/a"}, "accelerator/b": {"id": "accelerator/b"}}
    log = RuleLog()
    taken = take_reported_prices(parts, [], prices, log)
    assert [(p.part_id, p.kind) for p in taken] == [
        ("accelerator/a", PriceKind.REPORTED), ("accelerator/a", PriceKind.REPORTED),
        ("accelerator/b", PriceKind.STREET)]
    assert "reported as the launch list price" in taken[1].note
    assert log.reported == [("research/prices_reported.csv:3", "accelerator/gone",
                             "reported price", "no such part: skipped")]
