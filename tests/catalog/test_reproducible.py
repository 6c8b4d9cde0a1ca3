"""The committed catalog.db is exactly what `dlhw catalog build` makes from the sources."""

from __future__ import annotations

import difflib
from pathlib import Path

from dlhw_desktop.catalog.builder import build_catalog
from dlhw_desktop.catalog.dump import canonical_lines
from dlhw_desktop.resources import catalog_sources_dir


def test_committed_catalog_matches_a_fresh_build(fresh_catalog_path: Path,
                                                 catalog_path: Path) -> None:
    rebuilt = fresh_catalog_path
    committed = list(canonical_lines(catalog_path))
    fresh = list(canonical_lines(rebuilt))
    if committed != fresh:
        diff = "\n".join(list(difflib.unified_diff(committed, fresh, "committed", "rebuilt",
                                                   lineterm="", n=0))[:40])
        raise AssertionError(
            "catalog.db differs from the sources; run 'make catalog' and commit:\n" + diff)


def test_two_builds_are_identical(tmp_path: Path, fresh_catalog_path: Path) -> None:
    a, b = fresh_catalog_path, tmp_path / "b.db"
    build_catalog(catalog_sources_dir(), b)
    assert list(canonical_lines(a)) == list(canonical_lines(b))
