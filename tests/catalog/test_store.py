"""Reading the catalog: lookups, search as typed, filters, sorting, damaged files."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dlhw_desktop.catalog.part_query import Filter, PartQuery
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.errors import CatalogError, UnknownPartError
from dlhw_desktop.core.fields import Category


def test_get_returns_the_part_with_its_figures(catalog: Catalog) -> None:
    part = catalog.get("accelerator/nvidia-geforce-rtx-4090")
    assert part.vendor == "NVIDIA"
    assert part.number("memory_gb") == 24
    assert part.number("tdp_w") == 450
    assert part.source.startswith("http")


def test_unknown_id_is_a_clear_error(catalog: Catalog) -> None:
    with pytest.raises(UnknownPartError, match="accelerator/nope"):
        catalog.get("accelerator/nope")
    assert catalog.find("accelerator/nope") is None


def test_search_matches_word_prefixes_in_any_order(catalog: Catalog) -> None:
    ids = [p.id for p in catalog.search(PartQuery(text="4090 rtx"))]
    assert "accelerator/nvidia-geforce-rtx-4090" in ids
    joined = [p.id for p in catalog.search(PartQuery(text="rtx4090"))]
    assert "accelerator/nvidia-geforce-rtx-4090" in joined


@pytest.mark.parametrize("text", [
    '"RTX', "4090*", "rtx AND", "NEAR(", "((", "a100) OR (", "name:rtx", "-", "*", "^",
    "🙂", "x" * 10_000, "NOT", "'; DROP TABLE parts; --", "\x00", "ß", "Ｒｔｘ",
])
def test_odd_search_text_never_raises(catalog: Catalog, text: str) -> None:
    query = PartQuery(text=text)
    assert catalog.count(query) == len(catalog.search(query, limit=100_000))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_any_search_text_is_safe(catalog: Catalog, text: str) -> None:
    catalog.search(PartQuery(text=text), limit=5)


def test_filters_and_sort_put_unknown_last(catalog: Catalog) -> None:
    query = PartQuery(category=Category.ACCELERATOR,
                      filters=(Filter("memory_gb", "ge", 24), Filter("vendor", "in", ["NVIDIA"])),
                      sort_field="tdp_w", descending=True)
    parts = catalog.search(query, limit=10_000)
    assert parts and all(p.number("memory_gb") >= 24 and p.vendor == "NVIDIA" for p in parts)
    tdps = [p.number("tdp_w") for p in parts]
    known = [t for t in tdps if t is not None]
    assert known == sorted(known, reverse=True)
    assert tdps[: len(known)] == known  # unknowns only at the end
    assert catalog.count(query) == len(parts)


def test_unknown_filter_field_is_refused(catalog: Catalog) -> None:
    with pytest.raises(ValueError):
        catalog.count(PartQuery(filters=(Filter("id; DROP", "eq", 1),)))


def test_info_counts_every_category(catalog: Catalog) -> None:
    info = catalog.info()
    assert set(info.counts) == {c.value for c in Category}
    assert info.total == sum(catalog.count(PartQuery(category=c)) for c in Category)
    assert info.source_count > 0


def test_every_part_has_a_source_and_date(catalog: Catalog) -> None:
    for part in catalog.parts():
        assert part.source.strip(), part.id
        assert part.source_date[:4].isdigit(), part.id


# --- damaged catalogs --------------------------------------------------------------


def test_missing_catalog(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="does not exist"):
        Catalog.open(tmp_path / "none.db")


def test_not_a_database(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_text("hello, I am text")
    with pytest.raises(CatalogError, match="not a SQLite database"):
        Catalog.open(bad)


def test_truncated_catalog(tmp_path: Path, catalog_path: Path) -> None:
    data = catalog_path.read_bytes()
    bad = tmp_path / "truncated.db"
    bad.write_bytes(data[: len(data) // 2])
    with pytest.raises(CatalogError, match="truncated"):
        Catalog.open(bad)


def test_flipped_bytes_give_a_clear_error(tmp_path: Path, catalog_path: Path) -> None:
    data = bytearray(catalog_path.read_bytes())
    for offset in range(4096, len(data), 997):
        data[offset] ^= 0xFF
    bad = tmp_path / "flipped.db"
    bad.write_bytes(bytes(data))
    with pytest.raises(CatalogError):
        cat = Catalog.open(bad)
        cat.parts()
        cat.search(PartQuery(text="rtx"), limit=10_000)


def test_wrong_schema_version(tmp_path: Path, catalog_path: Path) -> None:
    copy = tmp_path / "old.db"
    shutil.copy(catalog_path, copy)
    with sqlite3.connect(copy) as conn:
        conn.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'")
    with pytest.raises(CatalogError, match="schema version 0"):
        Catalog.open(copy)


def test_missing_table(tmp_path: Path, catalog_path: Path) -> None:
    copy = tmp_path / "partial.db"
    shutil.copy(catalog_path, copy)
    with sqlite3.connect(copy) as conn:
        conn.execute("DROP TABLE figure_sources")
    with pytest.raises(CatalogError, match="lacks tables"):
        Catalog.open(copy)


def test_foreign_sqlite_file(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.execute("INSERT INTO t VALUES (1)")
    with pytest.raises(CatalogError, match="not a DL Hardware Desktop catalog"):
        Catalog.open(other)


def test_opens_from_a_read_only_folder(tmp_path: Path, catalog_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    shutil.copy(catalog_path, folder / "catalog.db")
    (folder / "catalog.db").chmod(0o444)
    folder.chmod(0o555)
    try:
        assert Catalog.open(folder / "catalog.db").count(PartQuery()) > 0
    finally:
        folder.chmod(0o755)


def test_opening_the_catalog_does_not_load_the_checks() -> None:
    """Start-up opens the catalog before the first paint; the compatible-parts filter
    (and the checks and workload models it uses, ~100 ms of imports) load on first use."""
    import subprocess
    import sys

    code = ("import sys; import dlhw_desktop.catalog.store; "
            "print(sorted(m for m in sys.modules if m.startswith(('dlhw_desktop.core.checks', "
            "'dlhw_desktop.core.workload', 'dlhw_desktop.catalog.part_filters'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


def test_part_names_are_every_part_but_the_categories_left_out(catalog: Catalog) -> None:
    names = catalog.part_names(leave_out=[Category.CLOUD])
    full = [p for p in catalog.parts() if p.category is not Category.CLOUD]
    assert sorted(p.id for p in names) == sorted(p.id for p in full)
    by_id = {p.id: p for p in names}
    for part in full[:200]:
        assert by_id[part.id].display_name == part.display_name
