"""One job, one answer (issue #28): every surface shows the same own cost per hour, cost
per run, break-even and time for the same job on the same build, to the cent.

Each job is a build file on disk (GPUs, the rest of a machine, some parts priced by a
quote in the price book, some not) with a workload. It is run through:

- the Workload panel (the widget, ``WorkloadPanel.set_build``);
- the Advisor and What fits (``advise`` / ``rank_fits`` with the panel's assumptions: the
  core functions behind both dialogs; the GPU count is the one they choose);
- ``dlhw fit --build --json``, ``dlhw share`` and ``dlhw cluster --nodes 1 --json``,
  in-process;
- the build sheet's report structure (``sheet_from_catalog``), behind the PDF and the share.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from dlhw_desktop import cli
from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.catalog.userparts import PartResolver
from dlhw_desktop.core.build import buildfile
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.tiers import tiers_from_rows
from dlhw_desktop.core.checks import check_build
from dlhw_desktop.core.checks.own_cost import compare_job, fit_job, job_assumptions
from dlhw_desktop.core.cluster.own import own_vs_rent
from dlhw_desktop.core.cluster.plan import ClusterSpec
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.workload import Answers, advise, rank_fits
from dlhw_desktop.core.workload.comparison import own_vs_rent as compare_offer
from dlhw_desktop.core.workload.cost_text import cost_figures
from dlhw_desktop.reports.build_share import share_text
from dlhw_desktop.reports.build_sheet import sheet_from_catalog
from dlhw_desktop.reports.cluster_sheet import plan_for_build
from dlhw_desktop.ui.workload.workload_panel import WorkloadPanel

CPU = "cpu/amd-ryzen-9-9950x"
BOARD = "motherboard/asus-proart-x870e-creator-wifi"
PSU = "psu/seasonic-prime-tx-1600-atx-3"
NVME = "storage/samsung-990-pro-2tb-mz-v9p2t0b-am"
QUOTES = {BOARD: "479", PSU: "449"}
"""Quotes put in the price book before the jobs run: they must win everywhere."""

MACHINES: dict[str, tuple[tuple[str, int], ...]] = {
    "gpus only": (),
    "priced cpu": ((CPU, 1),),  # every part priced: a complete price
    "quoted board and psu": ((CPU, 1), (BOARD, 1), (PSU, 1)),  # quotes complete it
    "unpriced drive": ((CPU, 1), (BOARD, 1), (PSU, 1), (NVME, 1)),  # "at least"
}

GPU = {"4090": "accelerator/nvidia-geforce-rtx-4090",
       "5090": "accelerator/nvidia-geforce-rtx-5090",
       "3090": "accelerator/nvidia-geforce-rtx-3090",
       "6000ada": "accelerator/nvidia-rtx-6000-ada-generation",
       "a6000": "accelerator/nvidia-rtx-a6000",
       "pro6000": "accelerator/nvidia-rtx-pro-6000-blackwell-workstation-edition",
       "4080": "accelerator/nvidia-geforce-rtx-4080"}

JOBS: list[tuple[str, str, dict[str, Any]]] = [
    ("4090", "gpus only", {"model": "llama-3.1-8b", "mode": "qlora", "tokens": 5e7}),
    ("4090", "priced cpu", {"model": "llama-3.1-8b", "mode": "lora", "tokens": 5e7}),
    ("4090", "quoted board and psu", {"model": "mistral-7b", "mode": "qlora", "tokens": 2e8,
                                      "seq": 4096}),
    ("4090", "unpriced drive", {"model": "llama-3.1-8b", "mode": "inference",
                                "precision": "Q4_K_M", "tokens": 1e6}),
    ("5090", "gpus only", {"model": "qwen2.5-7b", "mode": "lora", "tokens": 1e8}),
    ("5090", "priced cpu", {"model": "llama-3.1-70b", "mode": "qlora", "tokens": 2e7}),
    ("5090", "quoted board and psu", {"model": "llama-3.1-8b", "mode": "qlora",
                                      "tokens": 1e8, "batch": 2}),
    ("5090", "unpriced drive", {"model": "qwen3-8b", "mode": "inference",
                                "precision": "BF16", "tokens": 5e6}),
    ("3090", "gpus only", {"model": "llama-3.2-3b", "mode": "training", "tokens": 1e8,
                           "checkpointing": True}),
    ("3090", "priced cpu", {"model": "gpt2", "mode": "training", "tokens": 1e9}),
    ("3090", "unpriced drive", {"model": "llama-3.1-70b", "mode": "qlora", "tokens": 1e7}),
    ("6000ada", "gpus only", {"model": "llama-3.1-70b", "mode": "qlora", "tokens": 1e8}),
    ("6000ada", "priced cpu", {"model": "llama-3.1-70b", "mode": "qlora", "tokens": 5e7,
                               "seq": 4096}),
    ("6000ada", "quoted board and psu", {"model": "qwen2.5-72b", "mode": "qlora",
                                         "tokens": 5e7}),
    ("6000ada", "unpriced drive", {"model": "llama-3.1-8b", "mode": "training",
                                   "tokens": 1e8, "checkpointing": True}),
    ("a6000", "priced cpu", {"model": "mixtral-8x7b", "mode": "qlora", "tokens": 5e7}),
    ("a6000", "quoted board and psu", {"model": "llama-3.1-70b", "mode": "inference",
                                       "precision": "Q4_K_M", "tokens": 2e6}),
    ("pro6000", "gpus only", {"model": "llama-3.1-70b", "mode": "qlora", "tokens": 1e8}),
    ("pro6000", "priced cpu", {"model": "qwen3-32b", "mode": "lora", "tokens": 5e7}),
    ("pro6000", "unpriced drive", {"model": "gemma-3-27b", "mode": "qlora",
                                   "tokens": 1e8}),
    ("4080", "priced cpu", {"model": "llama-3.2-1b", "mode": "lora", "tokens": 1e8}),
    ("4080", "quoted board and psu", {"model": "phi-4", "mode": "qlora", "tokens": 3e7}),
]


@pytest.fixture(scope="module")
def parts(catalog: Catalog) -> tuple[list[Any], list[Any]]:
    return (catalog.parts(Category.ACCELERATOR, chips_only=True),
            catalog.parts(Category.CLOUD))


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = cli.main(list(args))
    out = capsys.readouterr().out
    assert code in (0, 1), out
    return out


def _build_file(tmp_path: Path, catalog: Catalog, gpu: str, machine: str,
                workload: dict[str, Any]) -> tuple[Path, int]:
    """The job as a build file; the GPU count is the one What fits chooses for it."""
    from dlhw_desktop.core.workload.build_workload import BuildWorkload

    planned = BuildWorkload.from_mapping(workload).workload
    assert planned is not None
    (option,) = [o for o in rank_fits(planned, [catalog.get(GPU[gpu])]) if o.kind == "own"]
    items = [{"id": GPU[gpu], "quantity": option.count, "category": "accelerator"}]
    items += [{"id": pid, "quantity": n, "category": pid.split("/")[0]}
              for pid, n in MACHINES[machine]]
    path = tmp_path / f"{gpu}-{machine.replace(' ', '-')}.dlhw.json"
    path.write_text(json.dumps({"format": "dlhw-build", "version": 1, "name": path.stem,
                                "parts": items, "workload": workload}))
    return path, option.count


@pytest.mark.parametrize(("gpu", "machine", "workload"), JOBS,
                         ids=[f"{g}-{m}-{w['model']}-{w['mode']}" for g, m, w in JOBS])
def test_every_surface_shows_the_same_figures(
        qtbot: QtBot, capsys: pytest.CaptureFixture[str], tmp_path: Path, catalog: Catalog,
        parts: tuple[list[Any], list[Any]], gpu: str, machine: str,
        workload: dict[str, Any]) -> None:
    for part_id, amount in QUOTES.items():
        _run(capsys, "price", "set", part_id, amount, "--date", "2026-11-01")
    accelerators, cloud = parts
    path, count = _build_file(tmp_path, catalog, gpu, machine, workload)
    resolver = PartResolver(catalog)
    build: Build = buildfile.load(path, resolver.find).build

    # the reference: the one function, called directly
    ref = fit_job(build, resolver.find)
    assert ref is not None and ref.own is not None and ref.job_hours is not None
    ref_cmp = compare_job(ref, ref.workload, job_assumptions(build), accelerators, cloud,
                          build.accelerators[0].part, resolver.find)
    figures = {f.key: f.value for f in cost_figures(ref_cmp)}
    if any(pid == NVME for pid, _ in MACHINES[machine]) or machine == "gpus only":
        assert not ref.own.complete and figures["own_per_hour"].startswith("at least")
    else:
        assert ref.own.complete, ref.own.unpriced

    # the Workload panel
    panel = WorkloadPanel(catalog)
    qtbot.addWidget(panel)
    panel.set_build(build)
    shown = panel.result
    assert shown is not None and shown.own is not None and panel.comparison is not None
    assert shown.own.usd_per_hour == ref.own.usd_per_hour
    assert shown.cost is not None and ref.cost is not None
    assert shown.cost.own_usd == ref.cost.own_usd
    assert shown.job_hours == ref.job_hours
    assert panel.comparison.break_even == ref_cmp.break_even
    text = panel.results.cost_label.text()
    for value in figures.values():
        assert value.replace("'", "&#x27;").split(" on ")[0] in text

    # What fits and the Advisor, with the panel's assumptions
    assumptions = panel.cost_assumptions()
    ranked = rank_fits(ref.workload, accelerators, cloud, assumptions=assumptions)
    mine = next(o for o in ranked if o.kind == "own" and o.accelerator.id == GPU[gpu])
    assert mine.count == count
    advice = advise(Answers(ref.workload), accelerators, cloud, assumptions)
    advised = next(o for o in advice.options if o.kind == "own"
                   and o.accelerator.id == GPU[gpu])
    for option in (mine, advised):
        assert option.usd_per_hour == ref.own.usd_per_hour
        assert option.cost_usd == ref.own.price_usd
        assert option.job_hours == ref.job_hours
        assert option.result.cost is not None and option.result.cost.own_usd == ref.cost.own_usd
        by_id = {p.id: p for p in accelerators}
        assert compare_offer(option.result, ranked, option.accelerator,
                             by_id.get).break_even == ref_cmp.break_even

    # dlhw fit --build
    data = json.loads(_run(capsys, "fit", "--build", str(path), "--json"))
    assert data["own"]["usd_per_hour"] == ref.own.usd_per_hour
    assert data["cost"]["own_usd"] == ref.cost.own_usd
    assert data["job_hours"] == ref.job_hours
    cli_be = data["own_vs_rent"]["break_even"]
    assert (cli_be and cli_be["hours"]) == (ref_cmp.break_even and ref_cmp.break_even.hours)
    text_out = _run(capsys, "fit", "--build", str(path))
    for f in cost_figures(ref_cmp):
        assert f"{f.label}: {f.value}" in text_out

    # the build sheet (behind the PDF) and dlhw share
    report = check_build(build, None, tiers_from_rows(catalog.tier_rows()))
    sheet = sheet_from_catalog(build, report, catalog, date="2026-11-28")
    assert sheet.workload is not None
    estimates = {f.key: f.value for f in sheet.workload.estimates}
    for key, value in figures.items():
        assert estimates[key] == value
    shared = _run(capsys, "share", str(path), "--format", "text")
    assert share_text(sheet, "text").split("Figures from")[0] in shared
    for f in cost_figures(ref_cmp):
        assert f"{f.label}: {f.value}" in shared

    # dlhw cluster: one node of the build trains the job in the panel's time
    if ref.training is not None:
        plan = json.loads(_run(capsys, "cluster", str(path), "--nodes", "1", "--json"))
        assert plan["training"]["days"] == ref.training.seconds / 86400
        assert plan["training"]["replicas"] == 1
        # the cluster plan behind it, at the panel's PUE, electricity price and use: one
        # node owned costs what the panel says, per hour and per run
        one = plan_for_build(build, ClusterSpec(nodes=1, pue=1.0, price_per_kwh_usd=0.17,
                                                utilisation=0.5), cloud, find=resolver.find)
        assert one.own is not None and one.training is not None
        assert one.own.usd_per_hour == ref.own.usd_per_hour
        run, _, _ = own_vs_rent(one.own, one.training.total_s, None)
        assert run == pytest.approx(ref.cost.own_usd, abs=0.005)
