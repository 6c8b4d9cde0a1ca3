"""``dlhw catalog info --coverage``: the SQL count agrees with the checks' own reading of
each part, and the report says what a curator must fill."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dlhw_desktop.catalog.coverage import SINCE_YEAR, coverage
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.checks.inputs import CHECK_INPUTS, CheckInput, applies_to
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part


def _has(part: Part, name: str) -> bool:
    value = part.get(name)
    return value is not None and (not isinstance(value, str) or bool(value.strip()))


def _lacks(part: Part, spec: CheckInput) -> bool:
    """What the checks see: the figure (or all its stand-ins) absent, where it applies."""
    if not applies_to(spec, part) or _has(part, spec.field):
        return False
    return not (spec.or_else and all(_has(part, f) for f in spec.or_else))


def test_the_sql_count_matches_the_parts_as_the_checks_read_them(catalog: Catalog) -> None:
    report = {r.category: r for r in coverage(catalog)}
    for category in Category:
        recent = [p for p in catalog.parts(category)
                  if p.release_year is not None and p.release_year >= SINCE_YEAR]
        inputs = CHECK_INPUTS[category]
        row = report[category]
        assert row.parts == len(recent), category
        assert row.complete == sum(not any(_lacks(p, s) for s in inputs) for p in recent)
        for spec in inputs:
            assert row.missing.get(spec.field, 0) == sum(_lacks(p, spec) for p in recent)
        assert row.undated == sum(p.release_year is None for p in catalog.parts(category))


def _copy_with(tmp_path: Path, catalog_path: Path, sql: str) -> Path:
    import shutil
    import sqlite3

    target = tmp_path / "catalog.db"
    shutil.copyfile(catalog_path, target)
    with sqlite3.connect(target) as conn:
        conn.execute(sql)
    return target


def test_a_blanked_figure_shows_up_as_missing(tmp_path: Path, catalog_path: Path) -> None:
    path = _copy_with(tmp_path, catalog_path,
                      "UPDATE parts SET release_year = 2024, wattage_w = NULL "
                      "WHERE category = 'psu'")
    after = {r.category: r for r in coverage(Catalog.open(path))}[Category.PSU]
    total = len(Catalog.open(path).parts(Category.PSU))
    assert after.parts == total and after.undated == 0
    assert after.missing["wattage_w"] == total  # a blanked figure is missing, as checked
    assert after.complete == 0 and after.share == 0


def test_an_sxm_module_is_not_asked_for_a_card_length(tmp_path: Path,
                                                      catalog_path: Path) -> None:
    path = _copy_with(tmp_path, catalog_path,
                      "UPDATE parts SET board_length_mm = NULL WHERE category = 'accelerator'")
    row = {r.category: r for r in coverage(Catalog.open(path))}[Category.ACCELERATOR]
    cards = [p for p in Catalog.open(path).parts(Category.ACCELERATOR)
             if (p.release_year or 0) >= SINCE_YEAR
             and p.text("form_factor").lower() not in ("sxm", "oam", "integrated", "cloud")]
    assert row.missing["board_length_mm"] == len(cards) < row.parts


def dlhw(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dlhw_desktop", *args], capture_output=True,
                          text=True, timeout=60)


def test_the_command_prints_a_table_per_category() -> None:
    result = dlhw("catalog", "info", "--coverage")
    assert result.returncode == 0, result.stderr
    for category in Category:
        assert category.plural in result.stdout
    assert f"since {SINCE_YEAR}" in result.stdout
    assert "_" not in result.stdout.split("\n", 2)[2]  # labels, never field names
    # The models behind estimated figures, with what they rest on and their error.
    from dlhw_desktop.core.checks import case_clearance_model, cooler_model, psu_connector_model

    assert f"air cooler heat capacity: {cooler_model.AIR_MEASURED} measured" in result.stdout
    assert f"leave-one-out RMS {cooler_model.AIR_BAND_W:.0f} W" in result.stdout
    towers = sum(row[2] for key, row in case_clearance_model.CLEARANCE_BANDS.items()
                 if key[1] == "all")
    assert f"tower cooler clearance: {towers:,} measured" in result.stdout
    counts = psu_connector_model.PUBLISHED_COUNTS
    assert f"power supply PCIe 8-pin and 16-pin counts: {counts:,} measured" in result.stdout


def test_the_command_prints_json_and_markdown() -> None:
    data = json.loads(dlhw("catalog", "info", "--coverage", "--json").stdout)
    assert {c["category"] for c in data["categories"]} == {c.value for c in Category}
    accelerators = next(c for c in data["categories"] if c["category"] == "accelerator")
    assert accelerators["complete"] <= accelerators["parts_since"]
    assert all(m["label"] and m["parts"] > 0 for m in accelerators["missing"])
    markdown = dlhw("catalog", "info", "--coverage", "--markdown").stdout
    assert markdown.count("\n|") >= len(Category) + 2
    assert "check_inputs.py" in markdown
    assert "| Estimated figure | Measured rows |" in markdown
    assert [m["figure"] for m in data["estimate_models"]] == [
        "air cooler heat capacity", "AIO heat capacity", "tower cooler clearance",
        "power supply PCIe 8-pin and 16-pin counts", "tower largest radiator",
        "x16 slot spacing (two cards, ATX)"]


@pytest.mark.parametrize("args", [("--markdown",)])
def test_markdown_without_coverage_is_a_clear_error(args: tuple[str, ...]) -> None:
    result = dlhw("catalog", "info", *args)
    assert result.returncode == 2 and "--coverage" in result.stderr
