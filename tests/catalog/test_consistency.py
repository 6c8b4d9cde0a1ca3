"""The whole catalog, as its sources build it, breaks no consistency rule that the
exceptions file does not accept with a source (a new import that brings a defect back
fails here, naming the part and the rule)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dlhw_desktop.catalog.consistency import accepted, die_areas, violations
from dlhw_desktop.resources import catalog_sources_dir


@pytest.fixture(scope="module")
def areas() -> dict[str, float]:
    return die_areas()


def test_no_new_violations(fresh_catalog_path: Path, areas: dict[str, float]) -> None:
    allowed = accepted(catalog_sources_dir())
    new = [v for v in violations(fresh_catalog_path, areas)
           if (v.rule, v.part_id) not in allowed]
    assert not new, "\n".join(f"{v.rule}: {v.part_id}: {v.detail}" for v in new)


def test_every_exception_has_a_source_and_still_applies(fresh_catalog_path: Path,
                                                        areas: dict[str, float]) -> None:
    found = {(v.rule, v.part_id) for v in violations(fresh_catalog_path, areas)}
    for key, row in accepted(catalog_sources_dir()).items():
        assert row["source"] and row["source_date"] and row["note"], key
        assert key in found, f"{key} is accepted but no longer a violation: drop its row"


def test_each_check_finds_its_defect(tmp_path: Path) -> None:
    """A small catalog with one defect of each kind: each check names it."""
    import sqlite3

    from dlhw_desktop.catalog.schema import create_statements

    path = tmp_path / "c.db"
    conn = sqlite3.connect(path)
    for statement in create_statements():
        conn.execute(statement)

    def add(part_id: str, category: str = "accelerator", vendor: str = "NVIDIA",
            **values: object) -> None:
        name = values.pop("name", part_id)
        cols = ["id", "category", "vendor", "name", "source", "source_date", *values]
        conn.execute(f"INSERT INTO parts ({', '.join(cols)}) VALUES "
                     f"({', '.join('?' for _ in cols)})",
                     [part_id, category, vendor, name, "s", "2026-01-01", *values.values()])

    for i, (tflops, tdp) in enumerate([(100, 300), (110, 300), (90, 300), (1000, 300)]):
        add(f"accelerator/c{i}", architecture="Arch", market_segment="datacenter",
            fp16_tensor_tflops=tflops, tdp_w=tdp)
    add("accelerator/card", chip_id="accelerator/c0", tdp_w=600, memory_gb=8)
    add("accelerator/s", fp16_tensor_tflops=100, fp16_tensor_tflops_sparse=400)
    add("case/a", "case", "X", name="Box", max_cooler_height_mm=250, case_width_mm=220)
    add("case/b", "case", "x", name="box")
    add("accelerator/m", price_usd=30000)
    add("server/bare", "server", complete_system=0, gpu_count=8,
        supported_gpus="accelerator/m", price_usd=296644)
    add("server/ok", "server", complete_system=0, gpu_count=8,
        supported_gpus="accelerator/m", price_usd=40000)
    add("server/dgx", "server", complete_system=1, gpu_count=8,
        supported_gpus="accelerator/m", price_usd=375000)
    conn.commit()
    conn.close()
    found = {(v.rule, v.part_id) for v in violations(path, {"accelerator/c3": 100.0,
                                                            "accelerator/c0": 500.0,
                                                            "accelerator/c1": 500.0,
                                                            "accelerator/c2": 500.0})}
    assert found == {("tflops_per_watt", "accelerator/c3"), ("tflops_per_mm2", "accelerator/c3"),
                     ("card_vs_chip", "accelerator/card"), ("sparse_ratio", "accelerator/s"),
                     ("clearance", "case/a"), ("duplicate_name", "case/a"),
                     ("barebone_price", "server/bare")}
