"""The whole catalog, as its sources build it, breaks no consistency rule that the
exceptions file does not accept with a source (a new import that brings a defect back
fails here, naming the part and the rule)."""

from __future__ import annotations

from pathlib import Path

from dlhw_desktop.catalog.consistency import accepted, violations
from dlhw_desktop.resources import catalog_sources_dir


def test_no_new_violations(fresh_catalog_path: Path) -> None:
    allowed = accepted(catalog_sources_dir())
    new = [v for v in violations(fresh_catalog_path) if (v.rule, v.part_id) not in allowed]
    assert not new, "\n".join(f"{v.rule}: {v.part_id}: {v.detail}" for v in new)


def test_every_exception_has_a_source_and_still_applies(fresh_catalog_path: Path) -> None:
    found = {(v.rule, v.part_id) for v in violations(fresh_catalog_path)}
    for key, row in accepted(catalog_sources_dir()).items():
        assert row["source"] and row["source_date"] and row["note"], key
        assert key in found, f"{key} is accepted but no longer a violation: drop its row"
