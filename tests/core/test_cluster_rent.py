"""A cluster rents like for like and replicates only what needs more than one node
(issue #28)."""

from __future__ import annotations

from dataclasses import replace

from dlhw_desktop.catalog.store import Catalog
from dlhw_desktop.core.build.build import Build
from dlhw_desktop.core.build.templates import template
from dlhw_desktop.core.checks.own_cost import fit_job
from dlhw_desktop.core.cluster.node import node_from_build
from dlhw_desktop.core.cluster.plan import ClusterSpec, has_fabric
from dlhw_desktop.core.fields import Category
from dlhw_desktop.core.workload.build_workload import BuildWorkload
from dlhw_desktop.reports.cluster_sheet import plan_for_build


def _workstation(catalog: Catalog) -> Build:
    build = Build("2x RTX 6000 Ada QLoRA workstation")
    build.add(catalog.get("accelerator/nvidia-rtx-6000-ada-generation"), 2)
    build.add(catalog.get("cpu/amd-ryzen-9-9950x"))
    build.set_workload(BuildWorkload.from_mapping(
        {"model": "llama-3.1-70b", "mode": "qlora", "tokens": 1e9}))
    return build


def test_a_job_that_fits_one_node_is_not_split_over_nodes(catalog: Catalog) -> None:
    build = _workstation(catalog)
    one = plan_for_build(build, ClusterSpec(nodes=1), catalog.parts(Category.CLOUD),
                         find=catalog.find)
    many = plan_for_build(build, ClusterSpec(nodes=16), catalog.parts(Category.CLOUD),
                          find=catalog.find)
    job = fit_job(build, catalog.find)
    assert job is not None and job.training is not None
    assert one.training is not None and many.training is not None
    # one node trains as the Workload panel times it; 16 nodes are 16 copies
    assert one.training.total_s == job.training.seconds
    assert many.training.nodes_per_replica == 1 and many.training.replicas == 16
    assert "16 nodes per copy" not in many.training.model
    # only the adapters' gradients cross the fabric, not the 70B weights
    assert many.training.shard_bytes < 1e9
    assert many.training.total_s < one.training.total_s / 10
    # rented: an offer that runs the same job, and the plan says why it qualifies
    assert many.cloud is not None and "hold the job" in many.cloud.why


def test_a_copy_over_two_nodes_is_rented_on_fabric_linked_8_gpu_instances(
        catalog: Catalog) -> None:
    build = template("dgx-h100").build(catalog.get)
    build.set_workload(BuildWorkload.from_mapping(
        {"model": "llama-3.1-70b", "mode": "training", "tokens": 1e12}))
    plan = plan_for_build(build, ClusterSpec(nodes=32), catalog.parts(Category.CLOUD),
                          find=catalog.find)
    assert plan.training is not None and plan.training.nodes_per_replica == 2
    quote = plan.cloud
    assert quote is not None
    assert (quote.offer.number("accelerator_count") or 0) >= 8  # never 256 single GPUs
    assert has_fabric(quote.offer) and "multi-node fabric" in quote.why


def test_your_price_for_a_dgx_is_called_your_quote(catalog: Catalog) -> None:
    build = template("dgx-h100").build(catalog.get)
    server = build.server
    assert server is not None
    quoted = replace(server, price_usd=310_000.0, price_kind="user_quote",
                     price_date="2026-11-01")
    build.add(quoted)
    node = node_from_build(build)
    assert node.price_usd == 310_000.0
    assert "your quote" in node.price_basis
    assert "catalog price" not in node.price_basis
