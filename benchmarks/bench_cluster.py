"""A cluster plan of 2,048 nodes (16,384 GPUs): goal <= 100 ms to compute.

The node is built here from core types (a DGX H100-like platform with its eight SXM
modules, vendor figures as the catalog holds them), so the figure does not depend on the
catalog's contents. The plan is the whole pipeline the CLI runs after reading the file:
the node from the build (its checks context and power budget), the fabric, racks, power,
storage, training time with the gradient exchange and the cheapest cloud offer among 40.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit, summarize, time_ms

from dlhw_desktop.core.build import Build
from dlhw_desktop.core.checks import CheckSettings, check_build
from dlhw_desktop.core.cluster.node import node_from_build
from dlhw_desktop.core.cluster.plan import ClusterSpec, plan_cluster
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.parts import Part, make_part_id

GOAL_MS = 100.0


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

    def checks() -> None:
        check_build(build, CheckSettings(mains="208V-60A-3ph"))

    for _ in range(5):
        once()
        checks()
    result: dict[str, object] = dict(summarize(time_ms(once, runs)))
    check_ms = summarize(time_ms(checks, runs))
    result.update({"nodes": 2048, "gpus": 16384, "goal_ms": GOAL_MS,
                   "node_checks_median_ms": check_ms["median_ms"],
                   "node_checks_p95_ms": check_ms["p95_ms"], "checks_goal_ms": 50.0})
    return result


if __name__ == "__main__":
    emit("cluster plan of 2,048 nodes (16,384 GPUs)", run())
