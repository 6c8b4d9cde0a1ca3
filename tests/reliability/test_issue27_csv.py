"""Issue #27, CSV injection: every CSV the program writes neutralises a cell a spreadsheet
would run (``=``, ``+``, ``-``, ``@``, tab, carriage return first), and our own import
reads it back exactly."""

from __future__ import annotations

import csv
import io

from hypothesis import given, settings
from hypothesis import strategies as st

from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.files.csv_cells import (
    FORMULA_STARTS,
    csv_text,
    neutralise_cell,
    restore_cell,
)
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.prices.book import UserPrice
from dlhw_desktop.core.prices.price_list import amount_text, preview_import, prices_csv

GPU = Part("accelerator/x-gpu", Category.ACCELERATOR, "X", "GPU 9000", "test", "2026-01-01")
ATTACKS = ['=HYPERLINK("http://evil","click")', "+1+cmd|' /C calc'!A0", "-2+3",
           "@SUM(A1:A9)", "\t=1+1", "\r=1+1", "'=already quoted", "''=twice"]

_cells = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30) | st.sampled_from(
    ATTACKS) | st.builds(lambda a, b: a + b, st.sampled_from([*FORMULA_STARTS, "'", "''"]),
                          st.text(max_size=8))


@settings(max_examples=400, deadline=None)
@given(_cells)
def test_a_neutralised_cell_reads_back_exactly_and_never_starts_a_formula(text: str) -> None:
    safe = neutralise_cell(text)
    assert restore_cell(safe) == text
    if safe and safe[0] in FORMULA_STARTS:  # only a plain number keeps its sign
        float(safe)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(_cells, min_size=1, max_size=4), min_size=1, max_size=5))
def test_csv_text_through_the_csv_module_and_back(rows: list[list[str]]) -> None:
    read = list(csv.reader(io.StringIO(csv_text(rows), newline="")))
    assert [[restore_cell(c) for c in r] for r in read] == rows


def test_numbers_we_write_stay_numbers() -> None:
    assert neutralise_cell("-12.5") == "-12.5" and neutralise_cell("1e-3") == "1e-3"
    assert neutralise_cell(-3.0) == "-3.0"


def test_an_exported_note_cannot_run_and_imports_back_unchanged() -> None:
    prices = [UserPrice(GPU.id, 1799.5, "USD", "2026-01-05", note) for note in ATTACKS[:1]]
    text = prices_csv(prices)
    for row in csv.reader(io.StringIO(text, newline="")):
        assert not any(cell[:1] in FORMULA_STARTS and cell[:1] for cell in row), row
    preview = preview_import(text.encode(), [GPU])
    assert [p.note for p in preview.prices] == [ATTACKS[0]]


@settings(max_examples=200, deadline=None)
@given(st.floats(min_value=1e-6, max_value=1e9, allow_nan=False, allow_infinity=False))
def test_exported_amounts_are_exact_and_never_ambiguous(amount: float) -> None:
    text = amount_text(amount)
    assert float(text) == amount and "e" not in text
    assert len(text.split(".")[1]) != 3  # 1.799 could be read as 1,799
    data = prices_csv([UserPrice(GPU.id, amount, "EUR", "2026-01-05")]).encode()
    assert preview_import(data, [GPU]).prices[0].amount == amount


def test_the_compare_table_csv_is_neutralised() -> None:
    from dlhw_desktop.core.compare.table import SpecTable, table_csv

    table = SpecTable(ids=["a/=x"], names=["=HYPERLINK(\"http://evil\")"], rows=[],
                      part_sources=["@evil"])
    rows = list(csv.reader(io.StringIO(table_csv(table), newline="")))
    assert rows[1][:2] == ["'a/=x"[1:], "'=HYPERLINK(\"http://evil\")"]
    assert rows[1][2] == "'@evil"


# --- amounts as a file writes them: never misread ---------------------------------------
def _preview(*prices: str, sep: str = ";") -> tuple[list[float], list[str]]:
    lines = [f"Description{sep}Unit Price"] + [f"GPU 9000{sep}{p}" for p in prices[:1]] + [
        f"Other {i}{sep}{p}" for i, p in enumerate(prices[1:])]
    # The currency is chosen for the file: a German list names none (issue #28: a decimal
    # comma with no currency is not saved as dollars until the user says which).
    preview = preview_import("\n".join(lines).encode(), [GPU], currency="EUR")
    return [p.amount for p in preview.prices], [m for _, m in preview.errors]


def test_a_german_list_reads_its_thousands_by_its_other_rows() -> None:
    assert _preview("1.799", "1.199,00")[0] == [1799.0]
    assert _preview("1.799", "2.80")[0] == [1.799]
    assert _preview("1,299", "1.199,00")[0] == [1.299]
    assert _preview("24,000")[0] == [24000.0]


def test_an_ambiguous_price_with_nothing_to_decide_it_is_refused_not_guessed() -> None:
    amounts, errors = _preview("1.799")
    assert amounts == [] and "ambiguous" in errors[0] and "1799" in errors[0]


def test_amounts_that_can_only_be_read_one_way() -> None:
    assert _preview("0,001")[0] == [0.001]
    assert _preview('"1,799.00"', sep=",")[0] == [1799.0]


def test_an_unquoted_thousands_comma_is_a_row_error_not_one_dollar() -> None:
    amounts, errors = _preview("1,799.00", sep=",")
    assert amounts == [] and "unquoted separator" in errors[0]


def test_a_repeated_price_column_is_refused() -> None:
    from dlhw_desktop.core.prices.book import PriceBookError

    data = b"Description,Price,Price\nGPU 9000,10,20\n"
    try:
        preview_import(data, [GPU])
    except PriceBookError as exc:
        assert "twice" in str(exc)
    else:
        raise AssertionError("a repeated header was read")


def test_csv_the_module_cannot_read_is_one_error() -> None:
    from dlhw_desktop.core.prices.book import PriceBookError

    for data in (b"Description,Price\r\"GPU 9000,10\r",  # CR only, an unclosed quote
                 b"Description,Price\nGPU 9000," + b"9" * 200_000 + b"\n"):
        try:
            preview_import(data, [GPU])
        except PriceBookError:
            continue
        raise AssertionError(data[:40])
    assert _preview_cr() == [10.0]


def _preview_cr() -> list[float]:
    return [p.amount for p in preview_import(b"Description,Price\rGPU 9000,10\r",
                                             [GPU]).prices]


# --- Markdown: one escape for every name --------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=40) | st.sampled_from(
    ["[a](http://x)", "![i](x.png)", "<script>", "@bob", "www.x.com", "a|b", "**b**"]))
def test_property_escaped_markdown_acts_on_nothing(text: str) -> None:
    import re

    from dlhw_desktop.core.formatting import markdown_text

    out = markdown_text(text)
    assert "\n" not in out and "\r" not in out
    for char in "[]<>|`*_~":  # every construct's character is escaped
        assert not re.search(rf"(?<!\\)(?:\\\\)*{re.escape(char)}", out), (char, out)
    assert not re.search(r"@\w", out) and not re.search(r"(?i)(https?|www)[:.]", out)
