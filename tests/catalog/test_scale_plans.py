"""A freshly built catalog answers the Catalog tab's start-up questions from indexes, so
they stay fast at 25,000-100,000 parts (timings are in benchmarks/, not here)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dlhw_desktop.catalog.schema import FACET_COLUMNS
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.fields import Category


@pytest.fixture(scope="module")
def fresh(fresh_catalog_path: Path) -> Path:
    return fresh_catalog_path


def _plan(path: Path, sql: str, params: tuple[object, ...]) -> str:
    with sqlite3.connect(path) as conn:
        return " | ".join(r[3] for r in conn.execute("EXPLAIN QUERY PLAN " + sql, params))


@pytest.mark.parametrize("column", FACET_COLUMNS)
def test_a_filters_choices_come_from_an_index(fresh: Path, column: str) -> None:
    plan = _plan(fresh, f"SELECT DISTINCT {column} FROM parts WHERE category = ? AND "
                 f"{column} IS NOT NULL ORDER BY {column} COLLATE NOCASE", ("cpu",))
    assert "COVERING INDEX" in plan, plan


def test_the_search_text_is_not_stored_at_all(fresh: Path) -> None:
    """Only the index holds the words; neither a content table nor a column keeps them."""
    with sqlite3.connect(fresh) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        columns = {r[1] for r in conn.execute("PRAGMA table_info(parts)")}
    assert "parts_fts" in tables and "parts_fts_content" not in tables
    assert "search_text" not in columns


def test_search_and_facets_on_the_fresh_catalog(fresh: Path) -> None:
    from dlhw_desktop.catalog.part_query import PartQuery

    catalog = Catalog.open(fresh)
    query = PartQuery(category=Category.ACCELERATOR, text="rtx 409")
    assert catalog.count(query) >= 1
    assert any("4090" in p.name for p in catalog.search(query))
    assert "pcie" in catalog.distinct(Category.ACCELERATOR, "form_factor")
    low, high = catalog.value_range(Category.ACCELERATOR, "tdp_w") or (0, 0)
    assert 0 < low < high


@pytest.mark.parametrize(("field", "descending"), [("tdp_w", False), ("bf16_tensor_tflops", True),
                                                   ("release_year", False)])
def test_pages_sorted_by_a_figure_are_in_order_and_complete(
        catalog: Catalog, field: str, descending: bool) -> None:
    from dlhw_desktop.catalog.part_query import PartQuery

    query = PartQuery(category=Category.ACCELERATOR, sort_field=field, descending=descending)
    total = catalog.count(query)
    pages = [p for offset in range(0, total, 64)
             for p in catalog.search(query, offset, 64, with_sources=False)]
    assert len(pages) == total == len({p.id for p in pages})
    values = [p.number(field) for p in pages]
    known = [v for v in values if v is not None]
    assert values == known + [None] * (len(values) - len(known))  # unknown last, never 0
    assert known == sorted(known, reverse=descending)
