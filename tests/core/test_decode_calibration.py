"""The decode model against the measured speeds it is fitted on (issue #30 item 1).

The check a user relies on: for a GPU the fit has never seen, how far off is the speed?
Each GPU's rows are predicted by a fit on the other GPUs' rows (leave-one-GPU-out),
recomputed here from resources/benchmarks/*.csv; the figures the app prints beside every
decode estimate must stay what this check finds.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from dlhw_desktop.core.workload import decode_calibration as cal
from dlhw_desktop.core.workload import decode_coefficients as fitted
from dlhw_desktop.core.workload.decode_model import describe_basis
from dlhw_desktop.resources import resource_path

MARGIN = 0.02
"""How much a change may cost the check before it fails (one or two rows of 170)."""


def _read(name: str) -> list[dict[str, str]]:
    path: Path = resource_path("benchmarks", name)
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def data() -> list[cal.Measurement]:
    kept, skipped = cal.measurements(_read("decode_measurements.csv"),
                                     _read("decode_gpus.csv"))
    # every row the app can describe is used; the few it cannot are named
    assert len(skipped) <= 5 and all(reason for _, reason in skipped)
    return kept


@pytest.fixture(scope="module")
def holdout(data: list[cal.Measurement]) -> cal.Holdout:
    return cal.leave_one_gpu_out(data)


def test_most_speeds_of_unseen_gpus_are_within_25_percent(holdout: cal.Holdout) -> None:
    assert holdout.gpus >= 30
    share = holdout.share_within(0.25)
    assert share >= 0.90  # the target
    assert share >= fitted.WITHIN_25 - MARGIN  # what the app says it is
    assert holdout.median_error <= fitted.MEDIAN_ERROR + MARGIN


def test_the_label_reports_the_check(data: list[cal.Measurement],
                                     holdout: cal.Holdout) -> None:
    label = describe_basis("llama.cpp")
    assert f"fit on {len(data)} measurements" in label
    assert f"leave-one-GPU-out error {round(holdout.median_error * 100)} %" in label


def test_the_shipped_coefficients_are_the_fit_of_the_shipped_data(
        data: list[cal.Measurement]) -> None:
    """scripts/fit_decode.py was run after the last change of the CSVs."""
    coefficients = cal.fit(data)
    assert len(data) == fitted.ROWS
    for memory_class, ratio in fitted.SECONDS_PER_BYTE_RATIO.items():
        assert coefficients[f"mem_{memory_class}"] == pytest.approx(ratio, rel=1e-3)
    for backend, seconds in fitted.PER_LAYER_S.items():
        assert coefficients[f"layer_{backend}"] == pytest.approx(seconds, rel=1e-3)
    assert coefficients["hop"] == pytest.approx(fitted.PER_EXTRA_GPU_S, rel=1e-3)


def test_hbm_parts_reach_a_smaller_share_of_their_bandwidth_with_llama_cpp() -> None:
    # the measured A100/H100 rows are barely faster than a 4090's although their
    # bandwidth is twice as high: one efficiency for every GPU cannot hold
    ratio = fitted.SECONDS_PER_BYTE_RATIO
    assert ratio["hbm"] > 1.3 * ratio["gddr"]


def test_a_layer_split_adds_time_per_gpu_and_no_bandwidth(data: list[cal.Measurement]
                                                          ) -> None:
    # the same 8B model on 1, 2, 4 and 6 RTX 3090s (llama-bench default split) gets
    # slower, not faster, as GPUs are added; the fit says the same
    coefficients = cal.fit(data)
    rows = sorted((m for m in data if m.gpu == "NVIDIA GeForce RTX 3090"
                   and m.model.key == "llama-3.1-8b" and m.weight_format == "Q4_K_M"
                   and m.context == 512), key=lambda m: m.gpus)
    assert [m.gpus for m in rows] == [1, 2, 4, 6]
    measured = [m.tokens_per_s for m in rows]
    predicted = [cal.predict(coefficients, m) for m in rows]
    assert measured == sorted(measured, reverse=True)
    assert predicted == sorted(predicted, reverse=True)


def test_measured_gpus_carry_the_catalogs_bandwidth(catalog_path: Path) -> None:
    from dlhw_desktop.catalog.store import Catalog

    catalog = Catalog(catalog_path)
    for row in _read("decode_gpus.csv"):
        if row["part_id"]:
            part = catalog.find(row["part_id"])
            assert part is not None, row["part_id"]
            assert part.number("memory_bandwidth_gb_s") == pytest.approx(
                float(row["memory_bandwidth_gb_s"])), row["gpu"]
