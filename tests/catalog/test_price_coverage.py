"""The README's list of what DL buyers price names parts the catalog holds, and its
coverage table says what a fresh build prices (regenerate it with
``python scripts/dl_price_coverage.py --write``)."""

from __future__ import annotations

from pathlib import Path

from dlhw_desktop.catalog.price_coverage import TABLE_END, TABLE_START, coverage, table
from dlhw_desktop.resources import catalog_sources_dir

README = catalog_sources_dir() / "README.md"


def test_every_listed_part_is_in_the_catalog(fresh_catalog_path: Path) -> None:
    groups = coverage(fresh_catalog_path, README)
    assert [i for g in groups for i in g.missing] == []
    assert sum(len(g.ids) for g in groups) >= 80  # the list, plus every server platform


def test_the_readme_table_is_the_fresh_builds_coverage(fresh_catalog_path: Path) -> None:
    text = README.read_text(encoding="utf-8")
    shown = text.split(TABLE_START, 1)[1].split(TABLE_END, 1)[0].strip()
    assert shown == table(coverage(fresh_catalog_path, README)), (
        "run: python scripts/dl_price_coverage.py --catalog <fresh build> --write")

