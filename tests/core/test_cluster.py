"""Cluster plans against published designs and runs (each test cites its source)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.templates import template
from dlhw_desktop.core.cluster import planfile
from dlhw_desktop.core.cluster.fabric import FABRICS, QM9700, count_fabric
from dlhw_desktop.core.cluster.node import node_from_build
from dlhw_desktop.core.cluster.plan import (
    ClusterInputError,
    ClusterSpec,
    plan_cluster,
    training_time,
)
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.workload.precision import peak_flops

SUPERPOD_B200 = ("https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-"
                 "infrastructure-b200/latest/dgx-superpod-architecture.html")


def _template_build(catalog: Catalog, key: str) -> Build:
    return template(key).build(catalog.get)


# NVIDIA DGX SuperPOD reference architecture (B200 edition, same QM9700 NDR fabric as the
# H100 edition): SU count, nodes, GPUs, leaf / spine / core switches, and cables per tier.
SUPERPOD_TABLE = [
    (2, 64, 512, 16, 8, 0, 512, 512, 0),
    (4, 128, 1024, 32, 16, 0, 1024, 1024, 0),
    (8, 256, 2048, 64, 32, 0, 2048, 2048, 0),
    (16, 512, 4096, 128, 128, 64, 4096, 4096, 4096),
    (32, 1024, 8192, 256, 256, 128, 8192, 8192, 8192),
    (64, 2048, 16384, 512, 512, 256, 16384, 16384, 16384),
]


@pytest.mark.parametrize("row", SUPERPOD_TABLE, ids=lambda r: f"{r[0]}SU")
def test_fabric_reproduces_the_superpod_reference_counts(row: tuple[int, ...]) -> None:
    _su, nodes, gpus, leaf, spine, core, c1, c2, c3 = row
    count = count_fabric(nodes, 8, QM9700)
    assert count.endpoints == gpus
    assert (count.leaves, count.spines, count.core) == (leaf, spine, core)
    assert (count.node_leaf_cables, count.leaf_spine_cables, count.spine_core_cables) == (
        c1, c2, c3)


def test_one_scalable_unit_has_eight_leaves_and_four_spines() -> None:
    # DGX SuperPOD H100 RA: an SU of 32 nodes, one leaf per rail (8), 4 spines.
    count = count_fabric(32, 8, QM9700)
    assert (count.leaves, count.spines, count.tiers) == (8, 4, 2)
    assert count_fabric(2, 8, QM9700).switches == 1  # 16 ports: one switch


def test_dgx_h100_cluster_of_2048_nodes(catalog: Catalog) -> None:
    node = node_from_build(_template_build(catalog, "dgx-h100"))
    assert (node.gpus, node.power_w, node.rack_units) == (8, 10_200, 8)
    plan = plan_cluster(ClusterSpec(nodes=2048, rack_kw=40), node)
    assert plan.gpus == 16_384
    assert plan.nodes_per_rack == 3  # 4 x 10.2 kW = 40.8 kW is over a 40 kW rack
    assert plan.compute_racks == 683
    assert plan.it_kw == pytest.approx(2048 * 10.2)
    assert plan.facility_kw == pytest.approx(plan.it_kw * 1.3)
    assert plan.network.switches == 512 + 512 + 256
    bom = plan.bill_of_materials()
    assert bom[0][1] == 2048 and "DGX H100" in bom[0][0]  # identical nodes: one line


def test_llama3_405b_training_time_within_15_percent(catalog: Catalog) -> None:
    # Llama 3.1 405B: 405e9 parameters, 15.6e12 tokens, 16,384 H100 (Grattafiori et al.
    # 2024, arXiv 2407.21783, Table 4: 38 % MFU at 16,384 GPUs, 16M-token batches);
    # published: 30.84 M H100 GPU-hours (Llama 3.1 model card, github.com/meta-llama/
    # llama-models/blob/main/models/llama3_1/MODEL_CARD.md). The MFU is measured on the
    # whole run, so the exchange is overlapped (counted inside it).
    node = node_from_build(_template_build(catalog, "dgx-h100"))
    peak = peak_flops(node.gpu, "BF16")
    assert peak == pytest.approx(989.5e12)
    t = training_time(node, 2048, 405e9, 15.6e12, 0.38, peak, 400, 16e6, overlap=True)
    hours = t.gpu_hours(16_384)
    assert hours == pytest.approx(30.84e6, rel=0.15)
    assert t.nodes_per_replica == 16  # pipeline over 16 nodes, as Meta's PP=16
    assert t.exposed_s == 0


def test_not_overlapping_the_exchange_costs_time(catalog: Catalog) -> None:
    node = node_from_build(_template_build(catalog, "dgx-h100"))
    peak = peak_flops(node.gpu, "BF16")
    on = training_time(node, 64, 70e9, 1e12, 0.4, peak, 400, 4e6, overlap=True)
    off = training_time(node, 64, 70e9, 1e12, 0.4, peak, 400, 4e6, overlap=False)
    assert off.total_s > on.total_s
    assert off.exposed_s == pytest.approx(off.exchange_s)


def test_checkpoint_time_and_cloud_rent(catalog: Catalog) -> None:
    node = node_from_build(_template_build(catalog, "dgx-h100"))
    plan = plan_cluster(
        ClusterSpec(nodes=32, params=70e9, tokens=2e12, mfu=0.4, storage_write_gb_s=100),
        node, catalog.parts(Category.CLOUD), peak_flops(node.gpu, "BF16"))
    assert plan.checkpoint_bytes == pytest.approx(70e9 * 14)
    assert plan.checkpoint_write_s == pytest.approx(70e9 * 14 / 100e9)
    assert plan.training is not None and plan.cloud is not None
    assert plan.cloud.offer.text("accelerator_id") == node.gpu.id


@pytest.mark.parametrize(("change", "field"), [
    ({"nodes": 0}, "nodes"), ({"nodes": 10**6}, "nodes"), ({"fabric": "ib-xdr"}, "fabric"),
    ({"rack_kw": 5}, "rack_kw"), ({"pue": 0.5}, "pue"), ({"mfu": 2.0}, "mfu"),
    ({"fabric": "token-ring"}, "fabric"), ({"nodes": -3}, "nodes"), ({"nodes": 2.5}, "nodes"),
    ({"nodes": True}, "nodes"), ({"rack_kw": float("nan")}, "rack_kw"),
    ({"storage_write_gb_s": -1.0}, "storage_write_gb_s"), ({"tokens": 0.0}, "tokens"),
    ({"fabric": "roce-800"}, "fabric"),
])
def test_bad_input_names_the_field(catalog: Catalog, change: dict, field: str) -> None:
    node = node_from_build(_template_build(catalog, "dgx-h100"))
    spec = ClusterSpec(**{"nodes": 4, **change})
    with pytest.raises(ClusterInputError, match=rf"\({field}\): "):
        plan_cluster(spec, node)


def test_a_module_not_matching_its_baseboard_is_caught_by_the_checks(
        catalog: Catalog) -> None:
    from dlhw_desktop.core.checks import check_build

    build = _template_build(catalog, "dgx-h100")
    build.replace("accelerator/nvidia-h100-sxm5-80-gb",
                  catalog.get("accelerator/amd-instinct-mi300x"))
    result = check_build(build).get("compat.server_modules")
    assert result.status == "fail" and "OAM" in result.message
    # ...and a cluster of it is refused with the same reason, naming the node.
    with pytest.raises(ClusterInputError, match=r"^Node \(node\): GPU modules: .*OAM"):
        node_from_build(build)


def test_the_messages_give_the_figures_that_decide(catalog: Catalog) -> None:
    node = node_from_build(_template_build(catalog, "dgx-h100"))
    with pytest.raises(ClusterInputError) as faster:
        plan_cluster(ClusterSpec(nodes=4, fabric="ib-xdr"), node)
    assert str(faster.value).startswith("Fabric (fabric): InfiniBand XDR 800 Gb/s is faster "
                                        "than the node's 400 Gb/s NICs")
    with pytest.raises(ClusterInputError) as rack:
        plan_cluster(ClusterSpec(nodes=4, rack_kw=8), node)
    assert str(rack.value).startswith("Rack limit (rack_kw): 8 kW is below one node's "
                                      "10.2 kW")
    with pytest.raises(ClusterInputError) as many:
        plan_cluster(ClusterSpec(nodes=20_000), node)
    assert "20,000 is more than this planner's 16,384" in str(many.value)


def test_plan_file_round_trip_and_validation(catalog: Catalog, tmp_path: Path) -> None:
    build = _template_build(catalog, "hgx-b200")
    spec = ClusterSpec(nodes=64, fabric="ib-ndr", rack_kw=100, params=70e9)
    path = planfile.save(build, spec, tmp_path / "b200.dlhwcluster.json")
    opened, spec2, warnings = planfile.load(path, catalog.get_or_none
                                            if hasattr(catalog, "get_or_none")
                                            else lambda i: catalog.get(i))
    assert spec2 == spec and not warnings
    assert [i.part_id for i in opened] == [i.part_id for i in build]
    doc = json.loads(path.read_text())
    doc["cluster"]["nodes"] = "many"
    with pytest.raises(ClusterInputError, match=r"^Nodes \(nodes\): "):
        planfile.from_dict(doc, lambda i: catalog.get(i))
    doc["version"] = 99
    with pytest.raises(ClusterInputError, match=r"^version:"):
        planfile.from_dict(doc, lambda i: catalog.get(i))


def test_every_fabric_cites_its_switch() -> None:
    for fabric in FABRICS.values():
        assert fabric.switch.source.startswith("https://")
        assert fabric.switch.ports > 0
