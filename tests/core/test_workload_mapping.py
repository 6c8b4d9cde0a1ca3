"""A workload as a mapping (build files, CLI flags, the panel) and as planner checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dlhw_desktop import cli
from dlhw_desktop.commands import fit_cmds
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.workload_fit import fit_build, workload_check, workload_checks
from dlhw_desktop.core.checks import check_build
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part
from dlhw_desktop.core.workload import (
    InvalidWorkloadError,
    Parallelism,
    UnknownModelError,
    Workload,
    custom_model,
    has_workload,
    parallelism_from_dict,
    preset,
    workload_from_dict,
    workload_to_dict,
)
from dlhw_desktop.core.workload.build_workload import BuildWorkload

RTX_4090 = Part("accelerator/nvidia-geforce-rtx-4090", Category.ACCELERATOR, "NVIDIA",
                "GeForce RTX 4090", "test", "2025-01-01", price_usd=1599,
                specs={"memory_gb": 24, "memory_bandwidth_gb_s": 1008,
                       "bf16_tensor_tflops": 165.2, "tdp_w": 450, "form_factor": "pcie"})
H100 = Part("accelerator/nvidia-h100-sxm5-80-gb", Category.ACCELERATOR, "NVIDIA",
            "H100 SXM5 80 GB", "test", "2025-01-01",
            specs={"memory_gb": 80, "memory_bandwidth_gb_s": 3350,
                   "bf16_tensor_tflops": 989.4, "tdp_w": 700, "form_factor": "sxm5"})
P5 = Part("cloud/aws-p5", Category.CLOUD, "AWS", "p5.48xlarge", "test", "2025-01-01",
          specs={"accelerator_id": H100.id, "accelerator_count": 8,
                 "price_per_hour_usd": 98.32})


def test_round_trip_of_a_preset_workload() -> None:
    workload = Workload(preset("llama-3.1-8b"), "lora", "BF16", batch=4, seq=4096,
                        tokens=1e8, checkpointing=True, mfu=0.35)
    data = workload_to_dict(workload, Parallelism(2, "zero3"))
    assert data["model"] == "llama-3.1-8b" and data["strategy"] == "zero3"
    assert json.loads(json.dumps(data)) == data  # a build file can hold it
    assert workload_from_dict(data) == workload


def test_round_trip_of_a_custom_architecture() -> None:
    model = custom_model(7e9, layers=32, hidden=4096, heads=32, kv_heads=8)
    workload = Workload(model, "inference", "INT8", batch=2)
    data = workload_to_dict(workload)
    assert data["model"] == "custom" and data["kv_heads"] == 8 and "seq" not in data
    assert workload_from_dict(data) == workload
    params_only = workload_from_dict({"params": 3e9})
    assert params_only.model.params == 3e9 and not params_only.model.has_architecture


def test_mapping_errors_are_workload_errors() -> None:
    assert not has_workload({}) and not has_workload({"model": "custom"})
    with pytest.raises(InvalidWorkloadError):
        workload_from_dict({})
    with pytest.raises(UnknownModelError):
        workload_from_dict({"model": "gpt-9"})
    with pytest.raises(InvalidWorkloadError):
        workload_from_dict({"model": "gpt2", "batch": "many"})
    with pytest.raises(InvalidWorkloadError):
        workload_from_dict({"model": "gpt2", "params": 1e9})


def test_strategy_that_does_not_suit_the_mode_falls_back() -> None:
    assert parallelism_from_dict({"strategy": "zero3"}, "inference", 2).strategy == "tp"
    assert parallelism_from_dict({"strategy": "ddp"}, "inference", 2).strategy == "ddp"
    assert parallelism_from_dict({"strategy": "tp"}, "training", 1).gpus == 1
    with pytest.raises(InvalidWorkloadError):
        parallelism_from_dict({"strategy": "pipeline"}, "training", 2)


def test_workload_fit_joins_the_planner_checks() -> None:
    build = Build()
    assert workload_checks(build) == []  # no workload: nothing to say
    build.set_workload(BuildWorkload.from_mapping(
        {"model": "llama-3.1-8b", "mode": "inference", "precision": "BF16"}))
    (alone,) = workload_checks(build)
    assert alone.status == "unknown" and "No accelerator" in alone.message
    build.add(RTX_4090)
    report = check_build(build, extra_checks=[workload_check()])
    (fit_check,) = report.by_kind("workload")
    assert fit_check.status == "pass" and fit_check.part_ids == (RTX_4090.id,)
    build.set_workload(BuildWorkload.from_mapping(
        {**build.workload.to_mapping(), "model": "llama-3.1-70b"}))
    assert [c.status for c in workload_checks(build)] == ["fail"]
    build.set_workload(BuildWorkload.kept_as_is({"model": "llama-3.1-8b", "batch": 0}))
    (bad,) = workload_checks(build)
    assert bad.id == "workload.invalid" and "batch" in bad.message


def test_a_rented_build_is_judged_on_the_offerings_gpus() -> None:
    build = Build(workload=BuildWorkload.from_mapping({"model": "llama-3.1-70b"}))
    build.add(P5)
    result = fit_build(build, {H100.id: H100}.get)
    assert result is not None and len(result.gpus) == 8 and result.status == "pass"
    assert result.cloud_usd_per_hour == pytest.approx(98.32)


def test_cli_fit_reads_the_workload_of_a_build_file(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fit_cmds, "part_finder", lambda catalog: {RTX_4090.id: RTX_4090}.get)
    class NoOffers:  # the catalog the comparison reads: no cloud offer to compare with
        def parts(self, *_: object, **__: object) -> list[object]:
            return []

    monkeypatch.setattr(fit_cmds, "open_catalog", lambda args: NoOffers())
    path = tmp_path / "box.dlhw.json"
    path.write_text(json.dumps({
        "format": "dlhw-build", "version": 1, "name": "box",
        # seq 2048: at the default 4096, batch 2 with the fp32 loss over 128,256 logits
        # (issue #19) is a tight fail on a 24 GB card
        "workload": {"tier": "demanding", "model": "llama-3.1-8b", "mode": "qlora",
                     "batch": 2, "seq": 2048, "checkpointing": True, "strategy": "ddp"},
        "parts": [{"id": RTX_4090.id, "quantity": 2}],
    }))
    assert cli.main(["fit", "--build", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["workload"]["mode"] == "qlora" and data["workload"]["batch"] == 2
    assert data["memory"]["parallelism"] == "ddp"
    # a flag overrides the saved value, a model flag the saved model
    assert cli.main(["fit", "--build", str(path), "--batch", "3", "--model", "gpt2",
                     "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["workload"]["batch"] == 3 and data["workload"]["model"] == "gpt2"
    assert cli.main(["fit", "--gpus", RTX_4090.id]) == 2
    assert "give --model or --params" in capsys.readouterr().err
