"""Issue #27's last gap: export then import of the price book is a full round trip.

Generated books (part prices, network-gear quotes such as ``switch:qm9700``, prices in any
currency with or without a rate, currency rates with their dates, the display currency,
notes that look like spreadsheet formulas, amounts to the last bit of the float) are
exported and imported into an empty book: the book is identical. Through the core
function both paths use (``contents_csv`` -> ``preview_import`` ->
``PriceBook.save_import``) and through ``dlhw price export`` / ``import --apply``.
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dlhw_desktop.catalog.price_store import PriceBook
from dlhw_desktop.cli import main
from dlhw_desktop.core.cluster.gear import gear_items
from dlhw_desktop.core.files.csv_cells import FORMULA_STARTS
from dlhw_desktop.core.prices.book import Rate, UserPrice
from dlhw_desktop.core.prices.book_csv import BookContents, contents_csv
from dlhw_desktop.core.prices.kinds import CURRENCIES
from dlhw_desktop.core.prices.price_list import preview_import

ATTACKS = ['=HYPERLINK("http://evil","click")', "+1+cmd|' /C calc'!A0", "-2+3",
           "@SUM(A1:A9)", "\t=1+1", "\r=1+1", "'=already quoted", "  padded  ", "a\r\nb"]
_text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
                max_size=60)
_ids = (st.sampled_from(sorted(gear_items())) | st.sampled_from(
    ["accelerator/nvidia-geforce-rtx-4090", "psu/corsair-rm1000x", "custom/cpu/my-cpu"])
    | _text.filter(lambda t: t.strip() != "" and len(t) <= 200) | st.sampled_from(ATTACKS))
_amounts = st.floats(min_value=0, max_value=1e9, exclude_min=True, allow_nan=False,
                     allow_infinity=False)
_days = st.dates(date(1990, 1, 1), date(2100, 12, 31))
_dates = st.one_of(st.just(""), _days.map(date.isoformat), _days.map(lambda d: d.isoformat()[:7]))
_codes = st.sampled_from(sorted(CURRENCIES))
_prices = st.builds(UserPrice, _ids, _amounts, _codes, _dates, _text | st.sampled_from(ATTACKS),
                    st.sampled_from(["your quote", "imported price list", "=cmd", ""]))
_rates = st.dictionaries(_codes.filter(lambda c: c != "USD"), st.tuples(
    st.floats(min_value=0, max_value=100_000, exclude_min=True), _days.map(date.isoformat)),
    max_size=4)
_books = st.tuples(st.lists(_prices, max_size=8, unique_by=lambda p: p.part_id), _rates, _codes)
ROUND = settings(max_examples=120, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture,
                                        HealthCheck.too_slow])


def _fill(book: PriceBook, prices: list[UserPrice], rates: dict[str, tuple[float, str]],
          display: str) -> BookContents:
    book.save(prices, [Rate(code, value, when) for code, (value, when) in rates.items()],
              display)
    return book.contents()


@ROUND
@given(_books)
def test_export_then_import_gives_the_same_book(generated) -> None:
    prices, rates, display = generated
    with tempfile.TemporaryDirectory() as folder:
        original = _fill(PriceBook(Path(folder) / "a.db"), prices, rates, display)
        text = contents_csv(original)
        for row in csv.reader(io.StringIO(text, newline="")):  # nothing a spreadsheet runs
            for cell in row:  # only a plain number keeps a leading sign
                if cell and cell[0] in FORMULA_STARTS:
                    float(cell)
        copy = PriceBook(Path(folder) / "b.db")
        preview = preview_import(text.encode("utf-8"), [], other_names=gear_items())
        assert not preview.errors and not preview.unmatched
        copy.save_import(preview)
        assert copy.contents() == original
        assert PriceBook(copy.path).contents() == original  # as read anew from the file
        assert copy.problems() == []


@settings(max_examples=5, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(generated=_books)
def test_the_cli_round_trip_gives_the_same_book(generated, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    prices, rates, display = generated
    with tempfile.TemporaryDirectory() as folder:
        first, second = Path(folder) / "one", Path(folder) / "two"
        monkeypatch.setenv("DLHW_DATA_DIR", str(first))
        original = _fill(PriceBook(first / "price_book.db"), prices, rates, display)
        exported = Path(folder) / "mine.csv"
        assert main(["price", "export", "-o", str(exported)]) == 0
        monkeypatch.setenv("DLHW_DATA_DIR", str(second))
        assert main(["price", "import", str(exported), "--apply"]) == 0
        capsys.readouterr()
        assert PriceBook(second / "price_book.db").contents() == original
        assert os.path.exists(exported)


def test_an_export_holds_gear_rates_and_the_display_currency(tmp_path: Path) -> None:
    book = PriceBook(tmp_path / "a.db")
    book.save([UserPrice("switch:qm9700", 24000.000000001, "EUR", "2026-11-20", "=1+1")],
              [Rate("EUR", 1.0825, "2026-11-20")], "EUR")
    text = contents_csv(book.contents())
    assert "switch:qm9700,24000.000000001,EUR,2026-11-20,'=1+1" in text
    assert "EUR,1.0825,USD,2026-11-20,,,rate" in text and ",,EUR,,,,display currency" in text


def test_a_damaged_export_row_restores_nothing(tmp_path: Path) -> None:
    from dlhw_desktop.core.prices.book import PriceBookError

    bad = ("part_id,price,currency,date,note,source,kind\n"
           "switch:qm9700,24000.00,EUR,2026-11-20,,,price\nEUR,0,USD,2026-11-20,,,rate\n")
    with pytest.raises(PriceBookError, match="line 3 of the price book export"):
        preview_import(bad.encode(), [])
    assert PriceBook(tmp_path / "a.db").contents().prices == []
