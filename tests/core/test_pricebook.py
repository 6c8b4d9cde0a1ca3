"""The price book's pure part: amounts as people type them, a quote winning over the
catalog's price, and a price list read, mapped and matched before anything is saved."""

from __future__ import annotations

import pytest

from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.prices.book import (
    PriceBookError,
    Rate,
    UserPrice,
    apply,
    parse_amount,
    user_price,
)
from dlhw_desktop.core.prices.price_list import preview_import

RTX_4090 = Part("accelerator/nvidia-geforce-rtx-4090", Category.ACCELERATOR, "NVIDIA",
                "GeForce RTX 4090", "test", "2026-01-01", price_usd=1599.0,
                price_date="2022-09-20", price_kind="list")
RTX_4090_D = Part("accelerator/nvidia-geforce-rtx-4090-d", Category.ACCELERATOR, "NVIDIA",
                  "GeForce RTX 4090 D", "test", "2026-01-01")
SSD = Part("storage/samsung-9100-pro-2tb-mz-vap2t0b-am", Category.STORAGE, "Samsung",
           "9100 PRO 2TB MZ-VAP2T0B/AM", "test", "2026-01-01")
PARTS = [RTX_4090, RTX_4090_D, SSD]


@pytest.mark.parametrize(("text", "value"), [
    ("1299", 1299.0), ("1,299.00", 1299.0), ("1.299,00", 1299.0), ("$1 299", 1299.0),
    ("EUR 899,90", 899.9), ("899,90 €", 899.9), ("12.50", 12.5), ("1,234,567", 1234567.0),
])
def test_amounts_as_people_write_them(text: str, value: float) -> None:
    assert parse_amount(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["", "abc", "12a", "1,2,3", "0", "-5", "0,00", "--1"])
def test_bad_amounts_are_refused(text: str) -> None:
    with pytest.raises(PriceBookError):
        parse_amount(text)


def test_bad_currency_and_date() -> None:
    with pytest.raises(PriceBookError, match="unknown currency"):
        user_price(RTX_4090.id, "100", "ZZZ")
    with pytest.raises(PriceBookError, match="not a date"):
        user_price(RTX_4090.id, "100", "USD", "31.02.2026")
    with pytest.raises(PriceBookError, match="day/month or month/day"):
        user_price(RTX_4090.id, "100", "USD", "05/11/2026")


@pytest.mark.parametrize(("text", "iso"), [
    ("2026-11-20", "2026-11-20"), ("2026-11", "2026-11"), ("20.11.2026", "2026-11-20"),
    ("5.1.2026", "2026-01-05"), ("20/11/2026", "2026-11-20"), ("11/20/2026", "2026-11-20"),
    ("07/07/2026", "2026-07-07"),
])
def test_dates_as_quotes_write_them(text: str, iso: str) -> None:
    assert user_price(RTX_4090.id, "100", "USD", text).price_date == iso


def test_a_quote_wins_over_the_catalog_price_with_its_own_kind_and_date() -> None:
    quote = UserPrice(RTX_4090.id, 1799.0, "USD", "2026-11-20", "quote from ACME")
    shown = apply(RTX_4090, quote, {})
    assert shown.price_usd == 1799.0 and shown.price_kind == "user_quote"
    assert shown.price_date == "2026-11-20"
    assert "your quote, 2026-11-20" in shown.source_of("price_usd").note
    assert apply(RTX_4090, None, {}) is RTX_4090


def test_a_foreign_quote_counts_only_at_the_users_rate() -> None:
    quote = UserPrice(RTX_4090.id, 1000.0, "EUR", "2026-11-20")
    assert apply(RTX_4090, quote, {}).price_usd is None  # no rate: not counted, says why
    assert "no EUR rate" in apply(RTX_4090, quote, {}).source_of("price_usd").note
    rated = apply(RTX_4090, quote, {"EUR": Rate("EUR", 1.08, "2026-11-20")})
    assert rated.price_usd == pytest.approx(1080.0)


def test_a_vendor_quote_with_semicolons_and_decimal_commas_is_previewed() -> None:
    data = ("Mfr. Part #;Description;Unit Price;Currency;Date\n"
            "MZ-VAP2T0B/AM;Samsung 9100 PRO 2TB;179,99;EUR;2026-11-20\n"
            ";GeForce RTX 4090;1.650,00;EUR;2026-11-20\n"
            ";RTX 4090;1.600,00;EUR;2026-11-20\n"
            ";Mystery Widget;10;EUR;\n"
            ";GeForce RTX 4090;1.700,00;EUR;\n"
            ";GeForce RTX 4090 D;abc;EUR;\n").encode("cp1252")
    preview = preview_import(data, PARTS)
    assert preview.delimiter == ";"
    assert {p.part_id: p.amount for p in preview.prices} == {
        SSD.id: pytest.approx(179.99), RTX_4090.id: pytest.approx(1650.0)}
    assert [r.line for r, _ in preview.ambiguous] == [4]
    assert {c.id for c in preview.ambiguous[0][1]} == {RTX_4090.id, RTX_4090_D.id}
    assert [r.line for r in preview.unmatched] == [5]
    errors = dict(preview.errors)
    assert "duplicate" in errors[6] and "not a price" in errors[7]
    assert preview.summary() == "2 matched, 1 ambiguous, 1 unmatched, 2 with errors"


def test_windows_1252_text_is_read_and_says_so() -> None:
    data = "Name;Preis;Währung\nGeForce RTX 4090;1.650,00;EUR\n".encode("cp1252")
    preview = preview_import(data, PARTS)
    assert preview.encoding == "cp1252" and len(preview.matched) == 1


@pytest.mark.parametrize(("data", "message"), [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "not a CSV"),
    (b"just one line\n", "header row and at least one"),
    (b"sku,description\nX,Y\n", "no price column"),
    (b"price,currency\n10,USD\n", "no column names the part"),
])
def test_a_file_that_is_not_a_price_list_is_refused(data: bytes, message: str) -> None:
    with pytest.raises(PriceBookError, match=message):
        preview_import(data, PARTS)


def test_columns_can_be_mapped_by_hand() -> None:
    data = b"Artikel,Betrag\nGeForce RTX 4090,1500\n"
    preview = preview_import(data, PARTS, {"name": "Artikel", "price": "Betrag"})
    assert not preview.prices and "names no currency" in preview.errors[0][1]
    preview = preview_import(data, PARTS, {"name": "Artikel", "price": "Betrag"},
                             currency="EUR")
    assert [(p.amount, p.currency) for p in preview.prices] == [(1500.0, "EUR")]
    with pytest.raises(PriceBookError, match="no column 'Nope'"):
        preview_import(data, PARTS, {"price": "Nope"})


def test_excel_unicode_text_utf16_with_tabs_is_read() -> None:
    data = "Description\tUnit Price\r\nGeForce RTX 4090\t1650.00\r\n".encode("utf-16")
    preview = preview_import(data, PARTS)
    assert preview.encoding == "utf-16" and preview.delimiter == "\t"
    assert [p.amount for p in preview.prices] == [1650.0]


@pytest.mark.parametrize(("data", "message"), [
    (b"PK\x03\x04\x14\x00\x06\x00", "spreadsheet workbook"),
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "is a PDF"),
])
def test_a_workbook_or_pdf_is_named_for_what_it_is(data: bytes, message: str) -> None:
    with pytest.raises(PriceBookError, match=message):
        preview_import(data, PARTS)


@pytest.mark.parametrize("price", ["0", "-12,50", "0,00"])
def test_zero_or_negative_prices_are_row_errors_not_saved(price: str) -> None:
    data = f"Description;Unit Price\nGeForce RTX 4090;{price}\n".encode()
    preview = preview_import(data, PARTS)
    assert preview.prices == [] and "above zero" in preview.errors[0][1]


def test_an_unknown_currency_is_a_row_error() -> None:
    data = b"Description,Unit Price,Currency\nGeForce RTX 4090,1650,XYZ\n"
    preview = preview_import(data, PARTS)
    assert preview.prices == [] and "unknown currency" in preview.errors[0][1]


def test_progress_is_reported_while_a_long_list_is_read() -> None:
    rows = "\n".join(f"Widget {i},{i + 1}" for i in range(1200))
    calls: list[tuple[int, int]] = []
    preview_import(f"Description,Price\n{rows}\n".encode(), PARTS,
                   progress=lambda done, total: calls.append((done, total)))
    assert calls == [(0, 1200), (500, 1200), (1000, 1200), (1200, 1200)]


def test_the_part_number_index_finds_what_a_scan_of_every_name_finds() -> None:
    """The three-letter index is a speed-up only: the same parts as looking at each name."""
    import random

    from dlhw_desktop.core.prices.price_list import PartIndex, normalise

    rnd = random.Random(5)
    parts = [Part(f"storage/x-{i}", Category.STORAGE, "Vendor",
                  f"SSD {rnd.choice(['PRO', 'EVO', 'X'])} {rnd.randint(1, 9)}TB "
                  f"MZ-{rnd.randint(10, 99)}{rnd.choice('ABC')}", "test", "2026-01-01")
             for i in range(300)]
    index = PartIndex(parts)
    for query in ["MZ-4", "PRO 2TB", "EVO 9TB MZ-12", "mz-55b", "NOPE-1", "SSD X"]:
        key = normalise(query)
        expected = {p.id for p in parts
                    if key in normalise(p.name) or key in normalise(p.display_name)}
        assert {p.id for p in index._containing(key)} == expected, query


QUOTE = ("Mfr. Part #;Description;Unit Price;Currency;Date;Supplier\n"
         ";RTX 4090;1.600,00;EUR;2026-11-20;Alternate\n"
         ";GeForce RTX 4090;1.650,00;EUR;2026-11-21;Alternate\n").encode("cp1252")


def test_the_user_says_which_part_an_ambiguous_row_prices() -> None:
    preview = preview_import(QUOTE, PARTS)
    assert [r.line for r, _ in preview.ambiguous] == [2]
    with pytest.raises(PriceBookError, match="already prices"):
        preview.resolve(2, RTX_4090)  # line 3 prices the RTX 4090 already
    with pytest.raises(PriceBookError, match="not one of line 2's candidates"):
        preview.resolve(2, SSD)
    price = preview.resolve(2, RTX_4090_D)
    assert (price.part_id, price.amount, price.currency, price.price_date) == (
        RTX_4090_D.id, pytest.approx(1600.0), "EUR", "2026-11-20")
    assert price.note == "from Alternate"
    assert [r.line for r, _, _ in preview.matched] == [2, 3] and not preview.ambiguous
    with pytest.raises(PriceBookError, match="not one of the ambiguous rows"):
        preview.resolve(2, RTX_4090_D)


def test_a_column_the_user_unmaps_is_not_read() -> None:
    with_date = preview_import(QUOTE, PARTS)
    assert with_date.prices[0].price_date == "2026-11-21"
    without = preview_import(QUOTE, PARTS, {"date": "", "vendor": ""})
    assert "date" not in without.columns and "vendor" not in without.columns
    assert without.prices[0].note == "" and without.prices[0].price_date != "2026-11-21"


def test_a_resellers_quote_with_a_letterhead_and_total_lines() -> None:
    """The layout a reseller's quote export has: a heading above the table, the maker's
    part number beside the reseller's own, quantity and extended price, then subtotal, tax
    and shipping lines. The table is found under its heading and the total lines are left
    out, not reported as unknown parts."""
    data = (b"ACME Systems Inc.,,,,,,\n"
            b"Quote 4471-22,,Valid until 2026-12-20,,,,\n"
            b",,,,,,\n"
            b"Line,Mfg. Part#,ACME#,Description,Qty,Unit Price,Extended Price\n"
            b"1,MZ-VAP2T0B/AM,7712231,Samsung 9100 PRO 2TB,4,$179.99,$719.96\n"
            b"2,,7713002,NVIDIA GeForce RTX 4090,2,\"$1,749.00\",\"$3,498.00\"\n"
            b"3,,7700001,Rack rails,1,$49.00,$49.00\n"
            b",,,Subtotal,,,\"$4,266.96\"\n"
            b",,,Sales Tax,,,$341.36\n"
            b",,,Shipping,,,$25.00\n")
    preview = preview_import(data, PARTS)
    assert preview.columns["part_number"] == "Mfg. Part#"
    assert preview.columns["price"] == "Unit Price"  # not the extended price
    assert {p.part_id: p.amount for p in preview.prices} == {
        SSD.id: pytest.approx(179.99), RTX_4090.id: pytest.approx(1749.0)}
    assert [r.line for r in preview.unmatched] == [7]  # the rails: not a catalog part
    assert [line for line, _ in preview.skipped] == [8, 9, 10]
    assert preview.summary().endswith("3 total lines left out")


def test_an_item_number_column_is_not_taken_for_the_description() -> None:
    data = b"Item #,Description,Price\n1,GeForce RTX 4090,1500\n"
    preview = preview_import(data, PARTS)
    assert preview.columns["name"] == "Description"
    assert [p.part_id for p in preview.prices] == [RTX_4090.id]
