"""A cluster plan of 2,048 nodes (16,384 GPUs): goals (issue #18) <= 100 ms to compute the
plan, <= 50 ms for the node's checks plus the workload's fit on all 16,384 GPUs, <= 2 s for
the sheet (the cluster section assembled and the whole PDF rendered, offscreen).

The node is built here from core types (a DGX H100-like platform with its eight SXM
modules, vendor figures as the catalog holds them), so the figure does not depend on the
catalog's contents. The plan is the whole pipeline the CLI runs after reading the file:
the node from the build (its checks context and power budget), the fabric, racks, power,
storage, training time with the gradient exchange and the cheapest cloud offer among 40.
The sheet is also rendered without its cluster section in the same run (the baseline of
the ratio): the cluster section must not cost more than a page or two of a build sheet.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit, summarize, time_ms

from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.checks import CheckSettings, check_build
from dlhw_desktop.core.cluster.node import node_from_build
from dlhw_desktop.core.cluster.plan import ClusterSpec, plan_cluster
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part, make_part_id
from dlhw_desktop.core.workload.fit import fit
from dlhw_desktop.core.workload.model_presets import presets
from dlhw_desktop.core.workload.workload import Parallelism, Workload
from dlhw_desktop.reports.build_sheet import make_build_sheet
from dlhw_desktop.reports.cluster_section import cluster_section

GOAL_MS = 100.0
CHECKS_FIT_GOAL_MS = 50.0
SHEET_GOAL_MS = 2000.0


def _part(category: Category, vendor: str, name: str, price: float | None = None,
          **specs: object) -> Part:
    return Part(make_part_id(category, vendor, name), category, vendor, name, "bench", "",
                price_usd=price, specs=dict(specs))


def dgx_like_build() -> Build:
    gpu = _part(Category.ACCELERATOR, "NVIDIA", "H100 SXM5 80 GB", None, form_factor="sxm",
                memory_gb=80.0, bf16_tensor_tflops=989.5, tdp_w=700)
    server = _part(Category.SERVER, "NVIDIA", "DGX H100", 199000, gpu_form_factor="sxm",
                   gpu_count=8, supported_gpus=gpu.id, complete_system=True,
                   fabric_nics=8, fabric_nic_gb_s=400, psu_count=6, psu_unit_w=3300,
                   psu_redundancy="4+2", max_power_w=10200, rack_units=8)
    build = Build("bench cluster node")
    build.add(server)
    build.add(gpu, 8)
    return build


def offers(gpu_id: str) -> list[Part]:
    return [_part(Category.CLOUD, "Cloud", f"offer {i}", accelerator_id=gpu_id
                  if i % 4 == 0 else "accelerator/other", accelerator_count=8,
                  price_per_hour_usd=50.0 + i) for i in range(40)]


def run(runs: int = 50) -> dict[str, object]:
    build = dgx_like_build()
    cloud = offers(build.accelerators[0].part.id)
    spec = ClusterSpec(nodes=2048, params=405e9, tokens=15.6e12, mfu=0.38,
                       storage_write_gb_s=2000, batch_tokens=16e6)

    def once() -> None:
        node = node_from_build(build)
        plan_cluster(spec, node, cloud, 989.5e12)

    gpu = build.accelerators[0].part
    model = max(presets(), key=lambda m: m.params)
    workload = Workload(model, "training", tokens=15.6e12, checkpointing=True)

    def checks() -> None:
        check_build(build, CheckSettings(mains="208V-60A-3ph"))

    def checks_and_fit() -> None:
        checks()
        fit(workload, [(gpu, 16_384)], Parallelism(16_384, "zero3"))

    for _ in range(5):
        once()
        checks_and_fit()
    result: dict[str, object] = dict(summarize(time_ms(once, runs)))
    check_ms = summarize(time_ms(checks, runs))
    both_ms = summarize(time_ms(checks_and_fit, runs))
    result.update({"nodes": 2048, "gpus": 16384, "goal_ms": GOAL_MS,
                   "node_checks_median_ms": check_ms["median_ms"],
                   "checks_and_fit_median_ms": both_ms["median_ms"],
                   "checks_and_fit_p95_ms": both_ms["p95_ms"],
                   "fit_model": model.name, "checks_and_fit_goal_ms": CHECKS_FIT_GOAL_MS})
    result.update(sheet_timings(build, spec, cloud))
    return result


def sheet_timings(build: Build, spec: ClusterSpec, cloud: list[Part],
                  runs: int = 5) -> dict[str, object]:
    """The cluster section plus the whole PDF, against the same sheet without the section."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from dlhw_desktop.ui.pdf import ensure_gui_application, render_build_sheet

    ensure_gui_application()
    report = check_build(build)
    base = make_build_sheet(build, report, date="2026-01-01")

    def plain() -> None:
        render_build_sheet(base)

    pages: list[int] = []

    def with_cluster() -> None:
        plan = plan_cluster(spec, node_from_build(build), cloud, 989.5e12)
        sheet = replace(base, cluster=cluster_section(plan, build.name))
        pages.append(render_build_sheet(sheet).pages)

    plain()
    with_cluster()
    base_ms = summarize(time_ms(plain, runs))["median_ms"]
    sheet_ms = summarize(time_ms(with_cluster, runs))["median_ms"]
    return {"sheet_pdf_median_ms": sheet_ms, "sheet_pages": pages[-1],
            "sheet_goal_ms": SHEET_GOAL_MS,
            "build_sheet_only_median_ms (baseline)": base_ms,
            "sheet_ratio_to_baseline": round(sheet_ms / base_ms, 2) if base_ms else None,
            "meets_goals": None}


def main() -> None:
    result = run()
    result["meets_goals"] = (float(str(result["median_ms"])) <= GOAL_MS
                             and float(str(result["checks_and_fit_median_ms"]))
                             <= CHECKS_FIT_GOAL_MS
                             and float(str(result["sheet_pdf_median_ms"])) <= SHEET_GOAL_MS)
    emit("cluster plan of 2,048 nodes (16,384 GPUs)", result)


if __name__ == "__main__":
    main()
