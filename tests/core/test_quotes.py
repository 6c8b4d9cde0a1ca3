"""Quotes as resellers send them (issue #28 item 6): a letterhead above the header, a
currency in the header, a cell or a column, or chosen for the file; a part matched on any
part number it lists; the open build's part first; bad input said per row."""

from __future__ import annotations

import pytest

from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.prices.book import PriceBookError, Rate
from dlhw_desktop.core.prices.part_index import listed_part_numbers
from dlhw_desktop.core.prices.price_list import preview_import
from dlhw_desktop.core.prices.quote_table import header_currency

CHIP = Part("accelerator/nvidia-rtx-6000-ada-generation", Category.ACCELERATOR, "NVIDIA",
            "RTX 6000 Ada Generation", "test", "2026-01-01")
CARD = Part("accelerator/pny-nvidia-rtx-6000-ada-generation-48gb-gddr6",
            Category.ACCELERATOR, "PNY", "NVIDIA RTX 6000 Ada Generation 48GB GDDR6", "test",
            "2026-01-01", notes="Part numbers: VCNRTX6000ADA-PB; 25FC9-RTX001-P2R.",
            specs={"chip_id": CHIP.id})
PSU = Part("psu/corsair-rm1000x-2024", Category.PSU, "Corsair",
           "RM1000x (2024) Black ATX 1000W Fully Modular", "test", "2026-01-01",
           notes="part numbers CP-9020271-NA, CP-9020271-EU; other remark")
PARTS = [CHIP, CARD, PSU]
EUR = {"EUR": Rate("EUR", 1.08, "2026-11-20")}
LETTERHEAD = ("ACME Systemhaus GmbH\nHauptstraße 5, 80331 München\n"
              "Angebot Nr. 2026-1142;;\nDatum: 20.11.2026\n;;\n")


def lines(rows: str) -> bytes:
    return (LETTERHEAD + rows).encode("utf-8")


@pytest.mark.parametrize(("header", "code"), [
    ("Unit price (EUR)", "EUR"), ("Preis (€)", "EUR"), ("Price USD", "USD"),
    ("Unit Price [GBP]", "GBP"), ("Einzelpreis in EUR", "EUR"), ("Prix HT", None),
    ("Description", None), ("EUR", None),
])
def test_a_currency_in_a_column_name_is_set_aside(header: str, code: str | None) -> None:
    assert header_currency(header)[1] == code


@pytest.mark.parametrize(("price_header", "code"), [
    ("Unit price (EUR)", "EUR"), ("Preis (€)", "EUR"), ("Price USD", "USD"),
])
def test_a_header_under_a_letterhead_and_its_currency(price_header: str, code: str) -> None:
    data = lines(f"Pos;Art.-Nr.;Bezeichnung;{price_header}\n"
                 "1;CP-9020271-EU;Corsair RM1000x;189,90\nSumme;;;189,90\n")
    preview = preview_import(data, PARTS, rates=EUR)
    assert preview.header_line == 6 and preview.columns["price"] == price_header
    [(_, price, part)] = preview.matched
    assert (part.id, price.amount, price.currency) == (PSU.id, 189.9, code)
    assert preview.skipped and code in preview.currency_basis


def test_prix_ht_takes_its_currency_from_the_devise_column_or_the_file_choice() -> None:
    with_column = lines("Réf.;Désignation;Prix HT;Devise\nCP-9020271-EU;RM1000x;189,90;EUR\n")
    [(_, price, _)] = preview_import(with_column, PARTS, rates=EUR).matched
    assert price.currency == "EUR"
    plain = lines("Réf.;Désignation;Prix HT\nCP-9020271-EU;RM1000x;189,90\n")
    preview = preview_import(plain, PARTS, rates=EUR)
    assert not preview.matched  # never saved as dollars: the user says the currency
    assert "names no currency" in preview.errors[0][1] and "not saved" in preview.errors[0][1]
    english = b"Part number;Price\nCP-9020271-EU;189.90\n"
    said = preview_import(english, PARTS, rates=EUR)
    assert said.matched[0][1].currency == "USD"
    assert "names no currency" in said.currency_basis  # the assumption is said
    chosen = preview_import(plain, PARTS, rates=EUR, currency="EUR")
    assert chosen.matched[0][1].currency == "EUR" and "you chose" in chosen.currency_basis


def test_a_cell_sign_or_a_letterhead_line_names_the_currency() -> None:
    signed = b"Part number,Price\nCP-9020271-EU,\"189,90 \xe2\x82\xac\"\n"
    assert preview_import(signed, PARTS, rates=EUR).matched[0][1].currency == "EUR"
    said = (b"Quote 4471\nAll prices in EUR, excl. VAT\n\nPart number,Price\n"
            b"CP-9020271-EU,189.90\n")
    assert preview_import(said, PARTS, rates=EUR).matched[0][1].currency == "EUR"
    clash = b"Part number,Price,Currency\nCP-9020271-EU,189.90 EUR,USD\n"
    preview = preview_import(clash, PARTS, rates=EUR)
    assert not preview.matched and "says EUR but the Currency column says USD" in (
        preview.errors[0][1])


def test_a_currency_without_a_rate_is_an_error_per_row_and_saves_nothing() -> None:
    data = b"Part number,Price,Currency\nCP-9020271-EU,189.90,EUR\nVCNRTX6000ADA-PB,6899,USD\n"
    preview = preview_import(data, PARTS, rates={})
    assert [p.part_id for p in preview.prices] == [CARD.id]  # the dollar row only
    assert [line for line, _ in preview.errors] == [2]
    assert "no EUR rate" in preview.errors[0][1] and "not saved" in preview.errors[0][1]


def test_the_header_row_picked_by_hand_and_one_without_a_price_column() -> None:
    data = lines("Pos;Art.-Nr.;Bezeichnung;Betrag\n1;CP-9020271-EU;Corsair RM1000x;189,90\n")
    guessed = preview_import(data, PARTS, overrides={"price": "Betrag"}, rates=EUR)
    assert guessed.header_line == 6  # the widest row, when no name says price
    picked = preview_import(data, PARTS, header_line=6, overrides={"price": "Betrag"},
                            currency="EUR", rates=EUR)
    assert picked.matched[0][2].id == PSU.id
    with pytest.raises(PriceBookError, match="header row you chose has no price column"):
        preview_import(data, PARTS, header_line=3)
    with pytest.raises(PriceBookError, match="line 5 is not a row"):
        preview_import(data, PARTS, header_line=5)  # a line of empty cells


def test_every_listed_part_number_matches() -> None:
    assert listed_part_numbers(PSU.notes) == ["CP-9020271-NA", "CP-9020271-EU"]
    assert listed_part_numbers(CARD.notes) == ["VCNRTX6000ADA-PB", "25FC9-RTX001-P2R"]
    data = b"Part number,Description,Price\ncp-9020271-eu,PSU,189.90\n25FC9-RTX001-P2R,GPU,6899\n"
    matched = {part.id for _, _, part in preview_import(data, PARTS).matched}
    assert matched == {PSU.id, CARD.id}


def test_a_line_that_could_be_several_parts_prices_the_one_in_the_build() -> None:
    data = b"Description,Price\nRTX 6000 Ada,6899\n"
    assert preview_import(data, PARTS).ambiguous  # without a build: the user chooses
    preview = preview_import(data, PARTS, build={CHIP.id})
    assert [part.id for _, _, part in preview.matched] == [CHIP.id]
    assert [p.id for p in preview.in_build[2]] == [CHIP.id, CARD.id]
    preview.resolve(2, CARD)  # the user may still say it is the partner card
    assert [part.id for _, _, part in preview.matched] == [CARD.id]
    by_number = b"Part number,Price\nVCNRTX6000ADA-PB,6899\n"  # a partner's SKU, chip built
    assert preview_import(by_number, PARTS, build={CHIP.id}).matched[0][2].id == CHIP.id
    assert preview_import(by_number, PARTS, build={CARD.id}).matched[0][2].id == CARD.id


@pytest.mark.parametrize(("header", "price", "code"), [
    ("Qty;Part No.;Description;Unit Price EUR;Total EUR", "Unit Price EUR", "EUR"),
    ("Menge;Artikelnummer;Bezeichnung;Einzelpreis netto (€);Gesamtpreis (€)",
     "Einzelpreis netto (€)", "EUR"),
    ("Qté;Référence;Désignation;Prix unitaire HT (€);Total HT", "Prix unitaire HT (€)", "EUR"),
    ("Item;MPN;Description;Unit Price (USD);Ext. Price (USD)", "Unit Price (USD)", "USD"),
    ("Line;Mfr. P/N;Product Description;Price (EUR excl. VAT);Qty", "Price (EUR excl. VAT)",
     "EUR"),
    ("Pos;Herst.-Nr.;Artikelbezeichnung;Preis in EUR;Menge", "Preis in EUR", "EUR"),
    ("#;Vendor SKU;Product;List Price;Your Price", "Your Price", None),
])
def test_reseller_headers_name_their_price_column_and_currency(header: str, price: str,
                                                                code: str | None) -> None:
    data = (LETTERHEAD + header + "\n" + ";".join(
        ["1", "CP-9020271-EU", "RM1000x", "189.90", "1"][:len(header.split(";"))]) + "\n")
    preview = preview_import(data.encode(), PARTS, rates=EUR, currency=None if code else "USD")
    assert preview.columns["price"] == price and preview.header_line == 6
    assert [p.currency for p in preview.prices] == [code or "USD"]


def test_a_unit_price_is_taken_before_a_line_amount() -> None:
    from dlhw_desktop.core.prices.quote_table import guess_columns

    mapped = guess_columns(["Item", "Description", "Net Price (EUR)", "Amount (EUR)"])
    assert mapped["price"] == "Net Price (EUR)"
    assert guess_columns(["Description", "Amount"])["price"] == "Amount"  # when it is all


def test_any_known_code_in_a_cell_is_its_currency_and_a_yen_sign_is_never_guessed() -> None:
    from dlhw_desktop.core.prices.book import parse_quote

    sek = preview_import(b"Part number;Price\nCP-9020271-EU;1.899,00 SEK\n", PARTS)
    assert [(p.amount, p.currency) for p in sek.prices] == [(1899.0, "SEK")]
    yen = "Part number;Price\nCP-9020271-EU;¥ 1,899\n".encode()
    assert "yen and yuan" in preview_import(yen, PARTS).errors[0][1]
    assert preview_import(yen, PARTS, currency="CNY").prices[0].currency == "CNY"
    assert parse_quote("1.899,00 SEK") == (1899.0, "SEK")  # the details pane and build list
    with pytest.raises(PriceBookError, match="yen and yuan"):
        parse_quote("¥180000")
    assert parse_quote("¥180000", "JPY") == (180000.0, "JPY")


def test_your_quote_replaces_a_reported_price_range_with_its_one_price() -> None:
    from dataclasses import replace

    from dlhw_desktop.core.prices.book import UserPrice, apply

    ranged = replace(CHIP, price_usd=6800.0, price_high_usd=7400.0, price_kind="reported")
    shown = apply(ranged, UserPrice(CHIP.id, 6899.0, "USD", "2026-11-20"), {})
    assert (shown.price_usd, shown.price_high_usd) == (6899.0, None)
