"""The build's typed workload: parsed once where it enters, written once where it leaves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import check_build
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload import build_workload as build_workload_module
from dlhw_desktop.core.workload import mapping
from dlhw_desktop.core.workload.build_workload import NO_WORKLOAD, BuildWorkload
from dlhw_desktop.core.workload.errors import WorkloadError
from dlhw_desktop.reports.build_sheet import make_build_sheet

RTX_4090 = Part("accelerator/nvidia-geforce-rtx-4090", Category.ACCELERATOR, "NVIDIA",
                "GeForce RTX 4090", "test", "2025-01-01", price_usd=1599,
                specs={"memory_gb": 24, "memory_bandwidth_gb_s": 1008,
                       "bf16_tensor_tflops": 165.2, "tdp_w": 450, "form_factor": "pcie"})
LORA = {"model": "llama-3.1-8b", "mode": "lora", "precision": "BF16", "batch": 2,
        "seq": 2048, "tokens": 1e8, "checkpointing": True, "strategy": "zero2",
        "from_a_newer_version": {"kept": [1, 2]}}


def test_a_mapping_round_trips_with_unknown_keys_kept() -> None:
    planned = BuildWorkload.from_mapping(LORA)
    assert planned.workload is not None and planned.workload.batch == 2
    assert planned.strategy == "zero2"
    assert planned.parallelism(4).strategy == "zero2"
    assert planned.parallelism(1).gpus == 1
    data = planned.to_mapping()
    assert data["from_a_newer_version"] == {"kept": [1, 2]}
    assert BuildWorkload.from_mapping(data) == planned


def test_an_unreadable_workload_is_kept_as_it_was_with_the_reason() -> None:
    raw = {"model": "llama-3.1-8b", "batch": "many"}
    with pytest.raises(WorkloadError, match="batch"):
        BuildWorkload.from_mapping(raw)
    kept = BuildWorkload.kept_as_is(raw)
    assert kept.is_set and kept.workload is None and "batch" in kept.error
    assert kept.to_mapping() == raw


def test_no_model_is_no_workload() -> None:
    assert BuildWorkload.from_mapping({}) == NO_WORKLOAD
    assert not NO_WORKLOAD.is_set and NO_WORKLOAD.to_mapping() == {}
    with pytest.raises(WorkloadError, match="strategy"):
        BuildWorkload.from_mapping({"model": "gpt2", "strategy": "diagonal"})


def test_the_workload_is_parsed_once_on_the_way_to_a_build_sheet(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Open a file, check it, fit it, make its sheet, save it: one parse of the mapping."""
    path = tmp_path / "lora.dlhw.json"
    document = {"format": "dlhw-build", "version": 1, "name": "LoRA box",
                "parts": [{"id": RTX_4090.id, "quantity": 2}],
                "workload": {"tier": None, **LORA}}
    path.write_text(json.dumps(document), encoding="utf-8")
    calls: list[object] = []
    real = mapping.workload_from_dict

    def counting(data: object) -> object:
        calls.append(data)
        return real(data)  # type: ignore[arg-type]

    monkeypatch.setattr(mapping, "workload_from_dict", counting)
    monkeypatch.setattr(build_workload_module, "workload_from_dict", counting)
    loaded = buildfile.load(path, {RTX_4090.id: RTX_4090}.get)
    from dlhw_desktop.core.build.workload_fit import workload_check

    report = check_build(loaded.build, extra_checks=[workload_check()])
    sheet = make_build_sheet(loaded.build, report, candidates=[RTX_4090], date="2026-11-26")
    buildfile.save(loaded.build, tmp_path / "again.dlhw.json")
    assert len(calls) == 1
    assert sheet.workload is not None and not sheet.workload.error  # estimated, not failed
    assert sheet.workload.status in ("pass", "warn", "fail")
    (fit_check,) = report.by_kind("workload")  # two identical GPUs: one grouped line
    assert fit_check.message.startswith("2x ")


def test_a_build_refuses_an_untyped_workload() -> None:
    with pytest.raises(TypeError, match="BuildWorkload"):
        Build(workload={"model": "gpt2"})  # type: ignore[arg-type]
