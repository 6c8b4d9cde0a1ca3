"""A build shared as Markdown, BBCode or plain text says what the build sheet says."""

from __future__ import annotations

import re
from typing import Any

import pytest
from test_build_sheet import LORA, make_build, sheet_for  # same folder (rootdir imports)

from dlhw_desktop.core.formatting import markdown_text
from dlhw_desktop.reports.build_share import FORMATS, share_text
from dlhw_desktop.reports.sheet_model import BuildSheet


@pytest.fixture(scope="module")
def sheet(catalog: Any) -> BuildSheet:
    return sheet_for(catalog, make_build(catalog, workload=LORA))


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_every_format_names_parts_quantities_prices_total_and_verdict(
        sheet: BuildSheet, fmt: str) -> None:
    text = share_text(sheet, fmt)
    assert sheet.build_name in text
    for part in sheet.parts:
        assert part.name in text
        if part.unit_price_usd is not None:
            assert part.unit_price in text
            if part.price_date:  # a price says what kind it is and when it held
                assert part.price_date in text and part.note in text
    assert sheet.price_total.value in text
    assert {"pass": "Works", "warn": "Works, with warnings", "fail": "Does not work",
            "unknown": "Not known"}[sheet.verdict] in text
    shown = markdown_text if fmt == "markdown" else (lambda message: message)
    for check in sheet.checks:
        if check.status == "fail":  # in Markdown as literal text (a "~" is not a strike)
            assert shown(check.message) in text
    assert sheet.catalog_version in text and "llama" in text.lower()


def test_parts_without_a_price_are_named_not_dropped(sheet: BuildSheet) -> None:
    unpriced = [p.name for p in sheet.parts if p.unit_price_usd is None]
    text = share_text(sheet, "text")
    if unpriced:
        assert "without a price: " + ", ".join(unpriced) in text
    assert "no price" in text or not unpriced


def test_markdown_is_a_table_and_bbcode_balanced(sheet: BuildSheet) -> None:
    markdown = share_text(sheet, "markdown")
    rows = [line for line in markdown.splitlines() if line.startswith("| ")]
    assert rows[0] == "| Part | Qty | Price | Subtotal |"
    assert len(rows) == 1 + len(sheet.parts)
    assert all(row.count(" | ") == 3 for row in rows)  # no stray pipes from names
    bbcode = share_text(sheet, "bbcode")
    for tag in ("b", "list", "i", "size"):
        opened = len(re.findall(rf"\[{tag}(=[^\]]*)?\]", bbcode))
        assert opened == bbcode.count(f"[/{tag}]") and opened > 0


def test_unknown_format_is_refused(sheet: BuildSheet) -> None:
    with pytest.raises(ValueError, match="unknown share format"):
        share_text(sheet, "html")


def test_markdown_names_are_literal_text(sheet: BuildSheet) -> None:
    """Links, images, raw HTML and @mentions in a build or part name do nothing."""
    from dataclasses import replace

    hostile = "[click](http://evil) ![x](https://e/i.png) <img src=x onerror=1> @alice"
    parts = [replace(sheet.parts[0], name=hostile), *sheet.parts[1:]]
    text = share_text(replace(sheet, build_name=hostile, parts=parts), "markdown")
    for raw in ("[click](", "![x]", "@alice", "http://", "https://"):
        assert raw not in text
    assert "<img" not in text.replace("\\<img", "")
    assert text.count(r"\[click\](http\://evil)") == 2 and "@&#8203;alice" in text
