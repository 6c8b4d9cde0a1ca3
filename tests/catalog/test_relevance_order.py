"""The default order of a category (issue #31): newest first, priced before unpriced,
real names before part numbers and punctuation; walked on its index, not sorted."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from dlhw_desktop.catalog.part_query import RELEVANCE, PartQuery, order_clause
from dlhw_desktop.catalog.schema import CATEGORY_RELEVANCE_INDEX
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.fields import Category


def rank(name: str) -> int:
    first = name[:1]
    return 0 if first.isascii() and first.isalpha() else 1 if first.isdigit() else 2


def test_a_category_lists_newest_then_priced_then_real_names(fresh_catalog_path: Path
                                                             ) -> None:
    catalog = Catalog.open(fresh_catalog_path)
    for category in (Category.PSU, Category.STORAGE, Category.CPU):
        parts = catalog.search(PartQuery(category=category, sort_field=RELEVANCE), 0, 10_000,
                               with_sources=False)
        keys = [(p.release_year is None, -(p.release_year or 0), p.price_usd is None,
                 rank(p.name)) for p in parts]
        assert keys == sorted(keys), category
        assert len(parts) == catalog.count(PartQuery(category=category))


def test_the_first_page_is_read_from_the_index(fresh_catalog_path: Path) -> None:
    conn = sqlite3.connect(fresh_catalog_path)
    order = order_clause(PartQuery(category=Category.PSU, sort_field=RELEVANCE))
    plan = " ".join(str(row) for row in conn.execute(
        f"EXPLAIN QUERY PLAN SELECT rowid FROM parts WHERE category = ? ORDER BY {order} "
        "LIMIT 100", ("psu",)))
    conn.close()
    assert CATEGORY_RELEVANCE_INDEX in plan and "TEMP B-TREE" not in plan
